// Constant folding before the QDQ fusion: every op whose inputs are all
// constants is folded (with passes::FoldConstant), except qnn.dequantize,
// whose constant inputs are the quantized weights and biases FuseQdq needs.
#ifndef QNNC_FRONTEND_ONNX_CONSTANT_FOLDING_H_
#define QNNC_FRONTEND_ONNX_CONSTANT_FOLDING_H_

#include "absl/status/status.h"
#include "ir/graph.h"

namespace qnnc::frontend::onnx {

// Refuses (ResourceExhaustedError) to create constants past `max_bytes`.
absl::Status FoldConstantsKeepingDequantize(ir::Graph& graph,
                                            int64_t max_bytes = tensor::kDefaultMaxBytes);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_CONSTANT_FOLDING_H_
