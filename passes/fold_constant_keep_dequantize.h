// Constant folding before the QDQ fusion: every op whose inputs are all
// constants is folded (with passes::FoldConstant), except qnn.dequantize,
// whose constant inputs are the quantized weights and biases FuseQdq needs.
#ifndef QNNC_PASSES_FOLD_CONSTANT_KEEP_DEQUANTIZE_H_
#define QNNC_PASSES_FOLD_CONSTANT_KEEP_DEQUANTIZE_H_

#include "absl/status/status.h"
#include "ir/graph.h"
#include "passes/pass.h"

namespace qnnc::passes {

// Refuses (ResourceExhaustedError) to create constants past `max_bytes`.
absl::Status FoldConstantsKeepingDequantize(ir::Graph& graph,
                                            int64_t max_bytes = tensor::kDefaultMaxBytes);

class FoldConstantKeepDequantizePass : public Pass {
 public:
  std::string name() const override { return "FoldConstantKeepDequantize"; }
  absl::Status Run(ir::Graph& graph, PassContext& context) override {
    return FoldConstantsKeepingDequantize(graph, context.max_bytes);
  }
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_FOLD_CONSTANT_KEEP_DEQUANTIZE_H_
