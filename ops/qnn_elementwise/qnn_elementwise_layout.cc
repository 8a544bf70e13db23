// The AlterOpLayout rules of qnn.add, qnn.mul and qnn.lookup: they run in the
// altered layout their inputs come back from.
#include <optional>
#include <vector>

#include "ir/graph.h"
#include "ir/layout.h"
#include "passes/layout_rules.h"

namespace qnnc::passes {
namespace {

using ir::Node;
using ir::Value;

// qnn.add of two NCHW tensors that both come back from one altered layout
// with the same type: the add runs in that layout instead, with one
// transform after it. Exact: the add is elementwise with per-tensor
// parameters, so each real element gets the same value; padding lanes get
// values no kernel reads (their weights are zero, and the transform back to
// NCHW drops them). Leaves any other node alone.
absl::Status BlockAdd(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.add" || n->inputs().size() != 8) return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  if (!layout || layout != AlteredSource(n->input(1))) return absl::OkStatus();
  Value* a = n->input(0)->producer()->input(0);
  Value* b = n->input(1)->producer()->input(0);
  if (*a->type() != *b->type() || *n->input(0)->type() != *n->input(1)->type() ||
      n->input(0)->type()->rank() != 4) {
    return absl::OkStatus();
  }
  for (size_t i = 2; i < 8; ++i) {
    if (!OneElement(n->input(i))) return absl::OkStatus();
  }
  std::vector<Value*> inputs = n->inputs();
  inputs[0] = a;
  inputs[1] = b;
  return RunBlocked(graph, n, *layout, inputs, n->attrs(), n->input(0)->type()->shape[1]);
}

// A qnn.mul of two 8-bit tensors that both come back from one blocked
// layout, of one shape or one a squeeze-excite gate [N, C, 1, 1], multiplies
// in that layout (element by element, the gate's lanes broadcast over the
// pixels as its channels over H and W: exact), with one transform after it.
absl::Status BlockQnnMul(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.mul" || n->inputs().size() != 8) return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  if (!layout || !layout->blocked() || layout != AlteredSource(n->input(1))) {
    return absl::OkStatus();
  }
  const ir::TensorType& a = *n->input(0)->type();
  const ir::TensorType& b = *n->input(1)->type();
  if (a.rank() != 4 || b.rank() != 4 || a.shape[0] != b.shape[0] || a.shape[1] != b.shape[1]) {
    return absl::OkStatus();
  }
  const bool gate = (b.shape[2] == 1 && b.shape[3] == 1) || (a.shape[2] == 1 && a.shape[3] == 1);
  if (a.shape != b.shape && !gate) return absl::OkStatus();
  for (size_t i = 2; i < 8; ++i) {
    if (!OneElement(n->input(i))) return absl::OkStatus();
  }
  std::vector<Value*> inputs = n->inputs();
  inputs[0] = n->input(0)->producer()->input(0);
  inputs[1] = n->input(1)->producer()->input(0);
  return RunBlocked(graph, n, *layout, inputs, n->attrs(), n->output()->type()->shape[1]);
}

// A qnn.lookup of a tensor that comes back from an altered layout looks up
// in that layout (element by element: exact; padding lanes map to values no
// kernel reads, as for qnn.add), with one transform after it.
absl::Status BlockLookup(ir::Graph& graph, Node* n) {
  if (n->op() != "qnn.lookup") return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  if (!layout || t.rank() != 4) return absl::OkStatus();
  return RunBlocked(graph, n, *layout, {n->input(0)->producer()->input(0), n->input(1)}, n->attrs(),
                    t.shape[1]);
}

}  // namespace

void AddQnnElementwiseLayoutRules(LayoutRules& rules) {
  rules.Add("qnn.add", &BlockAdd);
  rules.Add("qnn.mul", &BlockQnnMul);
  rules.Add("qnn.lookup", &BlockLookup);
}

}  // namespace qnnc::passes
