// The AlterOpLayout rule of the float elementwise ops: a float add runs in
// the blocked layout both its inputs come back from.
#include <optional>

#include "ir/graph.h"
#include "ir/layout.h"
#include "passes/layout_rules.h"

namespace qnnc::passes {
namespace {

using ir::Node;
using ir::Value;

// A float add of two same-typed tensors that both come back from one blocked
// layout runs in that layout (elementwise: exact; padding lanes 0 + 0 stay
// 0), with one transform after it.
absl::Status BlockFloatAdd(ir::Graph& graph, Node* n) {
  if (n->op() != "add" || n->inputs().size() != 2) return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  if (!layout || !layout->blocked() || layout != AlteredSource(n->input(1))) {
    return absl::OkStatus();
  }
  const ir::TensorType& t = *n->input(0)->type();
  Value* a = n->input(0)->producer()->input(0);
  Value* b = n->input(1)->producer()->input(0);
  if (t.dtype != tensor::DType::kF32 || t.rank() != 4 || t != *n->input(1)->type() ||
      *a->type() != *b->type() || *n->output()->type() != t) {
    return absl::OkStatus();
  }
  return RunBlocked(graph, n, *layout, {a, b}, n->attrs(), t.shape[1]);
}

}  // namespace

void AddElementwiseLayoutRules(LayoutRules& rules) { rules.Add("add", &BlockFloatAdd); }

}  // namespace qnnc::passes
