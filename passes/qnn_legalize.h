// QnnLegalize: rewrites each op that has a legalize function for the target
// (qnn.conv2d, qnn.dense) for the implementation the dispatch context picks,
// and stores that decision on the op (ir::DecisionView::Store). This is the
// one place a decision is made; later passes and the runtime only read it.
#ifndef QNNC_PASSES_QNN_LEGALIZE_H_
#define QNNC_PASSES_QNN_LEGALIZE_H_

#include "passes/pass.h"

namespace qnnc::passes {

class QnnLegalizePass : public Pass {
 public:
  std::string name() const override { return "QnnLegalize"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_QNN_LEGALIZE_H_
