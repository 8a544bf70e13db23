#include "passes/simplify_layout.h"

#include <map>
#include <string>
#include <tuple>

#include "ir/layout_views.h"

namespace qnnc::passes {

using ir::Node;
using ir::Value;

absl::Status SimplifyLayoutPass::Run(ir::Graph& graph, PassContext&) {
  // One transform per value and layout: AlterOpLayout gives every blocked
  // consumer its own (Inception's concats fed three), the same bytes.
  std::map<std::tuple<const Value*, std::string, std::string, int64_t>, Value*> first;
  for (Node* n : graph.nodes()) {
    if (n->op() != "layout_transform") continue;
    const absl::StatusOr<ir::LayoutTransformView> v = ir::LayoutTransformView::Of(*n);
    if (!v.ok()) continue;
    auto [it, inserted] =
        first.try_emplace({n->input(0), v->src_layout.str(), v->dst_layout.str(), v->channels.value_or(0)}, n->output());
    if (!inserted) graph.ReplaceAllUsesWith(n->output(), it->second);
  }
  // layout_transform(B -> A) of layout_transform(A -> B) of x is x, for the
  // blocked layouts the kernels use: their padding lanes are ignored by the
  // next kernel, so the round trip through NCHW is the identity.
  for (Node* n : graph.nodes()) {
    if (n->op() != "layout_transform") continue;
    const Node* p = n->input(0)->producer();
    if (p == nullptr || p->op() != "layout_transform") continue;
    const absl::StatusOr<ir::LayoutTransformView> v = ir::LayoutTransformView::Of(*n);
    const absl::StatusOr<ir::LayoutTransformView> pv = ir::LayoutTransformView::Of(*p);
    if (!v.ok() || !pv.ok()) continue;
    if (v->src_layout == pv->dst_layout && v->dst_layout == pv->src_layout &&
        *n->output()->type() == *p->input(0)->type()) {
      graph.ReplaceAllUsesWith(n->output(), p->input(0));
    }
  }
  graph.RemoveDeadCode();
  return absl::OkStatus();
}

}  // namespace qnnc::passes
