// InferTypes as a pass (the work is ir::InferTypes).
#ifndef QNNC_PASSES_INFER_TYPES_PASS_H_
#define QNNC_PASSES_INFER_TYPES_PASS_H_

#include "ir/infer_types.h"
#include "passes/pass.h"

namespace qnnc::passes {

class InferTypesPass : public Pass {
 public:
  std::string name() const override { return "InferTypes"; }
  absl::Status Run(ir::Graph& graph, PassContext&) override { return ir::InferTypes(graph); }
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_INFER_TYPES_PASS_H_
