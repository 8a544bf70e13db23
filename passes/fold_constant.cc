#include "passes/fold_constant.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "ir/op_registry.h"
#include "eval/node_evaluator.h"
#include "util/status_macros.h"

namespace qnnc::passes {

namespace {

int64_t ConstantBytes(const ir::Graph& graph) {
  int64_t total = 0;
  for (const ir::Value* c : graph.constants()) total += static_cast<int64_t>(c->data().byte_size());
  return total;
}

}  // namespace

absl::Status CheckConstantBytes(const ir::Graph& graph, int64_t max_bytes) {
  int64_t total = ConstantBytes(graph);
  if (total > max_bytes) return tensor::MemoryLimitError("the model's constants", total, max_bytes);
  return absl::OkStatus();
}

absl::Status FoldConstant(ir::Graph& graph, int64_t max_bytes, OpTimes* op_times) {
  bool folded = false;
  int64_t total = ConstantBytes(graph);
  // Uses of each constant by nodes not folded yet (and graph outputs): one
  // that drops to zero is released at once, so a chain (cast, subtract,
  // cast over every weight) holds one link at a time, not all of them.
  // Counted for every value: a folded result takes its node output's count.
  std::map<const ir::Value*, int> live_uses;
  for (const ir::Node* node : graph.nodes()) {
    for (const ir::Value* v : node->inputs()) ++live_uses[v];
  }
  for (const ir::Value* v : graph.outputs()) ++live_uses[v];
  for (ir::Node* node : graph.nodes()) {
    const auto& ins = node->inputs();
    if (!std::all_of(ins.begin(), ins.end(), [](const ir::Value* v) { return v->is_constant(); })) {
      continue;
    }
    ScopedOpTimer timer(op_times, node->op());
    // The results' sizes come from the type relation, before any kernel runs;
    // a node whose types do not infer fails in EvaluateNode with its error.
    std::vector<ir::TensorType> in_types;
    for (const ir::Value* v : ins) in_types.push_back(*v->type());
    if (auto out_types = ir::OpRegistry::Global().InferNode(*node, in_types); out_types.ok()) {
      for (const ir::TensorType& t : *out_types) {
        auto bytes = tensor::ByteSize(t.shape, t.dtype);
        if (!bytes.ok()) return absl::InvalidArgumentError(absl::StrCat(node->Describe(), ": ", bytes.status().message()));
        total += *bytes;
        if (total > max_bytes) {
          return tensor::MemoryLimitError(
              absl::StrCat("folding ", node->Describe(), " into a constant ", t.ToString()), total,
              max_bytes);
        }
      }
    }
    std::vector<tensor::Tensor> args;
    for (const ir::Value* v : ins) args.push_back(v->data());
    ASSIGN_OR_RETURN(std::vector<tensor::Tensor> results, eval::EvaluateNode(*node, args));
    for (size_t i = 0; i < results.size(); ++i) {
      ir::Value* out = node->output(i);
      ir::Value* c = graph.AddConstant(out->name() + "_folded", std::move(results[i]));
      graph.ReplaceAllUsesWith(out, c);
      live_uses[c] += live_uses[out];
    }
    for (ir::Value* v : ins) {
      if (--live_uses[v] == 0) graph.ReleaseConstantData(v);
    }
    folded = true;
  }
  if (folded) graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
