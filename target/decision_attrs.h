// How a decision is stored on the op that carries it out (decide once:
// later passes and the runtime read these attributes, none decides again).
//   impl          implementation name
//   config        its config as JSON
//   tuned         1 when it came from a tuning record, 0 for the fallback
//   workload      the workload key (before legalization)
//   legalization  the legalization that was applied
//   impl_layout   the data layout the implementation's kernel reads
//   impl_out_layout  the layout it writes (AlterOpLayout reads both)
//   record_rejected  tuning records of the workload not used, and why
//   passed_over   better-ranked implementations that do not apply (or, untuned,
//                 that the fallback may not choose), and why
#ifndef QNNC_TARGET_DECISION_ATTRS_H_
#define QNNC_TARGET_DECISION_ATTRS_H_

#include <optional>
#include <string>

#include "ir/graph.h"
#include "target/dispatch_context.h"
#include "target/implementation.h"

namespace qnnc::target {

void SetDecisionAttrs(const Decision& decision, const Implementation& impl,
                      const Implementation::IoLayouts& layouts, ir::Node& node);

struct StoredDecision {
  std::string implementation;
  std::string config;
  bool tuned = false;
  std::string workload;
  std::string legalization;
  std::string layout;      // impl_layout
  std::string out_layout;  // impl_out_layout ("" in plans written before it)
};

// The decision stored on `node`, if it carries one.
std::optional<StoredDecision> GetDecision(const ir::Node& node);

}  // namespace qnnc::target

#endif  // QNNC_TARGET_DECISION_ATTRS_H_
