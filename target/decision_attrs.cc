#include "target/decision_attrs.h"

namespace qnnc::target {

void SetDecisionAttrs(const Decision& d, const Implementation& impl,
                      const Implementation::IoLayouts& layouts, ir::Node& node) {
  ir::Attrs& a = node.mutable_attrs();
  a.Set("impl", d.implementation);
  a.Set("config", ConfigToJson(d.config));
  a.Set("tuned", int64_t{d.tuned ? 1 : 0});
  a.Set("workload", d.workload_key);
  a.Set("legalization", std::string(LegalizationName(impl.legalization)));
  a.Set("impl_layout", layouts.data.str());
  a.Set("impl_out_layout", layouts.out.str());
  if (!d.rejected_records.empty()) a.Set("record_rejected", d.rejected_records);
  if (!d.passed_over.empty()) a.Set("passed_over", d.passed_over);
}

}  // namespace qnnc::target
