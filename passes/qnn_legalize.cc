#include "passes/qnn_legalize.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/decision_view.h"
#include "util/status_macros.h"

namespace qnnc::passes {

absl::Status QnnLegalizePass::Run(ir::Graph& graph, PassContext& context) {
  const target::Registry& registry =
      context.registry ? *context.registry : target::GlobalRegistry();
  target::FallbackDispatchContext fallback;
  const target::DispatchContext& dispatch = context.dispatch ? *context.dispatch : fallback;
  target::LegalizeContext lctx{context.target, dispatch, registry, graph};
  for (ir::Node* node : graph.nodes()) {
    const target::LegalizeFn* fn = registry.FindLegalize(node->op(), context.target);
    if (fn == nullptr || ir::DecisionView::Of(*node)) continue;  // decided already
    ScopedOpTimer timer(context.op_times, node->op());
    std::vector<ir::TensorType> tinfos;
    for (const ir::Value* v : node->inputs()) tinfos.push_back(*v->type());
    target::LegalizeCall call{*node, node->attrs(), node->inputs(), tinfos,
                              *node->output()->type(), lctx};
    auto result = (*fn)(call);
    if (!result.ok()) {
      return absl::Status(result.status().code(),
                          absl::StrCat(node->Describe(), ": ", result.status().message()));
    }
    if (*result != nullptr) graph.ReplaceAllUsesWith(node->output(), *result);
  }
  RETURN_IF_ERROR(graph.TopologicalSort());
  graph.RemoveDeadCode();
  std::vector<std::string> untuned;
  for (const ir::Node* node : graph.nodes()) {
    auto d = ir::DecisionView::Of(*node);
    if (d && !d->tuned && context.untuned_workloads.insert(d->workload).second) {
      untuned.push_back(absl::StrCat(node->Describe(), " ", d->workload));
    }
  }
  if (context.require_tuned && !untuned.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(untuned.size(), " workload(s) have no tuning record (--require-tuned):\n  ",
                     absl::StrJoin(untuned, "\n  ")));
  }
  return absl::OkStatus();
}

}  // namespace qnnc::passes
