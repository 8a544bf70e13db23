// Stores a decision on the op that carries it out (decide once: later
// passes and the runtime read it through ir::DecisionView, which lists the
// attributes; none decides again).
#ifndef QNNC_TARGET_DECISION_ATTRS_H_
#define QNNC_TARGET_DECISION_ATTRS_H_

#include <optional>
#include <string>

#include "ir/decision_view.h"
#include "ir/graph.h"
#include "target/dispatch_context.h"
#include "target/implementation.h"

namespace qnnc::target {

void SetDecisionAttrs(const Decision& decision, const Implementation& impl,
                      const Implementation::IoLayouts& layouts, ir::Node& node);

// The decision stored on a node (ir/decision_view.h).
using StoredDecision = ir::DecisionView;
inline std::optional<StoredDecision> GetDecision(const ir::Node& node) { return ir::DecisionView::Of(node); }

}  // namespace qnnc::target

#endif  // QNNC_TARGET_DECISION_ATTRS_H_
