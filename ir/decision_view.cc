#include "ir/decision_view.h"

namespace qnnc::ir {

std::optional<DecisionView> DecisionView::Of(const Node& node) {
  const Attrs& a = node.attrs();
  if (!a.Has("impl")) return std::nullopt;
  DecisionView d;
  d.implementation = a.GetString("impl").value_or("");
  d.config = a.GetString("config", "{}").value_or("{}");
  d.tuned = a.GetInt("tuned", 0).value_or(0) != 0;
  d.workload = a.GetString("workload", "").value_or("");
  d.legalization = a.GetString("legalization", "").value_or("");
  d.layout = a.GetString("impl_layout", "").value_or("");
  d.out_layout = a.GetString("impl_out_layout", "").value_or("");
  d.record_rejected = a.GetString("record_rejected", "").value_or("");
  d.passed_over = a.GetString("passed_over", "").value_or("");
  return d;
}

std::string ImplementationOf(const Node& node) {
  return node.attrs().GetString("impl", "reference").value_or("reference");
}

std::string KernelLayoutOf(const Node& node) {
  const Attrs& a = node.attrs();
  const std::string layout = a.GetString("impl_layout", "").value_or("");
  return !layout.empty() ? layout : a.GetString("data_layout", "").value_or("");
}

}  // namespace qnnc::ir
