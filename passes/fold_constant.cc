#include "passes/fold_constant.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "runtime/node_evaluator.h"
#include "util/status_macros.h"

namespace qnnc::passes {

absl::Status FoldConstant(ir::Graph& graph) {
  bool folded = false;
  for (ir::Node* node : graph.nodes()) {
    const auto& ins = node->inputs();
    if (!std::all_of(ins.begin(), ins.end(), [](const ir::Value* v) { return v->is_constant(); })) {
      continue;
    }
    std::vector<tensor::Tensor> args;
    for (const ir::Value* v : ins) args.push_back(v->data());
    ASSIGN_OR_RETURN(std::vector<tensor::Tensor> results, runtime::EvaluateNode(*node, args));
    for (size_t i = 0; i < results.size(); ++i) {
      ir::Value* out = node->output(i);
      ir::Value* c = graph.AddConstant(out->name() + "_folded", std::move(results[i]));
      graph.ReplaceAllUsesWith(out, c);
    }
    folded = true;
  }
  if (folded) graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
