// The decision an op carries (decide once: QnnLegalize stores it with
// Store(), later passes, the runtime and the tools read it with Of(); none
// decides again). Its attributes:
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
#ifndef QNNC_IR_DECISION_VIEW_H_
#define QNNC_IR_DECISION_VIEW_H_

#include <optional>
#include <string>

#include "ir/graph.h"
#include "ir/layout.h"

namespace qnnc::ir {

struct DecisionView {
  std::string implementation;
  std::string config = "{}";
  bool tuned = false;
  std::string workload;
  std::string legalization;
  std::optional<Layout> layout;      // impl_layout
  std::optional<Layout> out_layout;  // impl_out_layout (none in plans written before it)
  std::string record_rejected;
  std::string passed_over;

  // The decision stored on `node`, if it carries one (an `impl`); attributes
  // of another type, and layouts that do not parse, read as absent.
  static std::optional<DecisionView> Of(const Node& node);

  // Writes this decision's attributes on `node` (the empty optional texts are
  // left out; so are absent layouts).
  void Store(Node& node) const;
};

// The implementation `node` runs on: its decision's, else "reference".
std::string ImplementationOf(const Node& node);

// The data layout `node`'s kernel reads: its decision's (impl_layout), else
// the op's data_layout (empty when it has neither).
std::string KernelLayoutOf(const Node& node);

}  // namespace qnnc::ir

#endif  // QNNC_IR_DECISION_VIEW_H_
