#include "passes/alter_op_layout.h"

#include <optional>
#include <string>
#include <vector>

#include "ir/decision_view.h"
#include "ir/layout.h"
#include "ir/op_views.h"
#include "passes/layout_rules.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using ir::Attrs;
using ir::Node;
using ir::Value;

// The layouts a fused conv's decision reads and writes (impl_layout,
// impl_out_layout), when it reads another than NCHW: the graph then hands
// them over and takes them back, so neighbouring transforms can cancel. A
// dynamic conv may read blocked and write NCHW (few output channels).
struct DecidedLayouts {
  ir::Layout data, out;
};
std::optional<DecidedLayouts> AlteredLayouts(const Node& n) {
  if (n.op() != "qnn.conv2d_requantize" && n.op() != "qnn.conv2d_dynamic") return std::nullopt;
  auto d = ir::DecisionView::Of(n);
  if (!d || !d->layout || !d->layout->altered()) return std::nullopt;
  DecidedLayouts l{*d->layout, d->out_layout.value_or(*d->layout)};
  if (!l.out.altered() && !(n.op() == "qnn.conv2d_dynamic" && l.out.is_nchw())) return std::nullopt;
  return l;
}

}  // namespace

absl::Status AlterOpLayoutPass::Run(ir::Graph& graph, PassContext&) {
  for (Node* n : graph.nodes()) {
    std::optional<DecidedLayouts> layouts = AlteredLayouts(*n);
    if (!layouts) continue;
    absl::StatusOr<ir::Conv2DView> conv = ir::Conv2DView::Of(*n);
    if (!conv.ok() || !conv->data_layout.is_nchw()) continue;
    const int64_t out_channels = n->output()->type()->shape[1];
    ASSIGN_OR_RETURN(Node* to_altered, AddTyped(graph, "layout_transform", {n->input(0)},
                                                ir::LayoutTransformAttrs(ir::Layout::Nchw(), layouts->data, 0)));
    Attrs attrs = n->attrs();
    attrs.Set("data_layout", layouts->data.str());
    attrs.Set("out_layout", layouts->out.str());
    std::vector<Value*> inputs = n->inputs();
    inputs[0] = to_altered->output();
    ASSIGN_OR_RETURN(Node* altered,
                     AddTyped(graph, n->op(), inputs, attrs, n->name(), n->outputs().size()));
    Value* result = altered->output();
    if (!layouts->out.is_nchw()) {
      ASSIGN_OR_RETURN(Node* back, AddTyped(graph, "layout_transform", {altered->output()},
                                            ir::LayoutTransformAttrs(layouts->out, ir::Layout::Nchw(), out_channels)));
      result = back->output();
    }
    graph.ReplaceAllUsesWith(n->output(), result);
    // Other results (a dynamic convolution's range) do not depend on the layout.
    for (size_t i = 1; i < n->outputs().size(); ++i) graph.ReplaceAllUsesWith(n->output(i), altered->output(i));
  }
  // Then the ops between blocked convolutions that can run blocked, in graph
  // order, so an op on another's result sees that one's transform.
  RETURN_IF_ERROR(graph.TopologicalSort());
  const LayoutRules& rules = LayoutRules::Builtin();
  for (Node* n : graph.nodes()) {
    if (const LayoutRule* rule = rules.Find(n->op())) RETURN_IF_ERROR((*rule)(graph, n));
  }
  RETURN_IF_ERROR(graph.TopologicalSort());
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
