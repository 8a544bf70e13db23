#include "ir/decision_view.h"

namespace qnnc::ir {
namespace {

std::optional<Layout> OptionalLayout(const Attrs& a, const char* name) {
  if (!a.Has(name)) return std::nullopt;
  absl::StatusOr<Layout> layout = LayoutAttr(a, name);
  if (!layout.ok()) return std::nullopt;
  return *std::move(layout);
}

}  // namespace

std::optional<DecisionView> DecisionView::Of(const Node& node) {
  const Attrs& a = node.attrs();
  if (!a.Has("impl")) return std::nullopt;
  DecisionView d;
  d.implementation = a.GetString("impl").value_or("");
  d.config = a.GetString("config", "{}").value_or("{}");
  d.tuned = a.GetInt("tuned", 0).value_or(0) != 0;
  d.workload = a.GetString("workload", "").value_or("");
  d.legalization = a.GetString("legalization", "").value_or("");
  d.layout = OptionalLayout(a, "impl_layout");
  d.out_layout = OptionalLayout(a, "impl_out_layout");
  d.record_rejected = a.GetString("record_rejected", "").value_or("");
  d.passed_over = a.GetString("passed_over", "").value_or("");
  return d;
}

void DecisionView::Store(Node& node) const {
  Attrs& a = node.mutable_attrs();
  a.Set("impl", implementation);
  a.Set("config", config);
  a.Set("tuned", int64_t{tuned ? 1 : 0});
  a.Set("workload", workload);
  a.Set("legalization", legalization);
  if (layout) a.Set("impl_layout", layout->str());
  if (out_layout) a.Set("impl_out_layout", out_layout->str());
  if (!record_rejected.empty()) a.Set("record_rejected", record_rejected);
  if (!passed_over.empty()) a.Set("passed_over", passed_over);
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
