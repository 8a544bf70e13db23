#include "passes/fold_constant_keep_dequantize.h"

#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "passes/fold_constant.h"
#include "util/status_macros.h"

namespace qnnc::passes {

absl::Status FoldConstantsKeepingDequantize(ir::Graph& graph, int64_t max_bytes) {
  // The foldable ops are copied into a graph of their own whose outputs are
  // their results; FoldConstant turns those into constants.
  ir::Graph sub;
  absl::flat_hash_map<const ir::Value*, ir::Value*> map;
  std::vector<ir::Value*> originals;
  for (ir::Node* node : graph.nodes()) {
    if (node->op() == "qnn.dequantize") continue;
    bool constant = true;
    for (const ir::Value* in : node->inputs()) constant = constant && (in->is_constant() || map.count(in));
    if (!constant) continue;
    std::vector<ir::Value*> inputs;
    for (const ir::Value* in : node->inputs()) {
      if (!map.count(in)) map[in] = sub.AddConstant(in->name(), in->data());
      inputs.push_back(map[in]);
    }
    ir::Node* copy = sub.AddNode(node->op(), inputs, node->attrs(),
                                 static_cast<int>(node->outputs().size()), node->name());
    for (size_t i = 0; i < node->outputs().size(); ++i) {
      if (node->output(i)->type()) copy->output(i)->set_type(*node->output(i)->type());
      map[node->output(i)] = copy->output(i);
      originals.push_back(node->output(i));
    }
  }
  if (originals.empty()) return absl::OkStatus();
  std::vector<ir::Value*> outputs;
  for (const ir::Value* v : originals) outputs.push_back(map[v]);
  sub.SetOutputs(outputs);
  absl::Status folded = passes::FoldConstant(sub, max_bytes);
  if (!folded.ok()) {
    return absl::Status(folded.code(), absl::StrCat("constant folding: ", folded.message()));
  }
  for (size_t i = 0; i < originals.size(); ++i) {
    const ir::Value* c = sub.outputs()[i];
    if (!c->is_constant()) {
      return absl::InternalError(absl::StrCat("constant folding left %", c->name(), " unfolded"));
    }
    graph.ReplaceAllUsesWith(originals[i], graph.AddConstant(originals[i]->name(), c->data()));
  }
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
