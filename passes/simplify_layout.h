// SimplifyLayout: after AlterOpLayout, one layout_transform per value and
// layout pair (consumers share it), and a transform back of a transform there
// (A -> B -> A, for the blocked layouts the kernels use) is the value itself.
#ifndef QNNC_PASSES_SIMPLIFY_LAYOUT_H_
#define QNNC_PASSES_SIMPLIFY_LAYOUT_H_

#include "passes/pass.h"

namespace qnnc::passes {

class SimplifyLayoutPass : public Pass {
 public:
  std::string name() const override { return "SimplifyLayout"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_SIMPLIFY_LAYOUT_H_
