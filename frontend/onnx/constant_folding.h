// Constant folding before the QDQ fusion: every op whose inputs are all
// constants is folded (with passes::FoldConstant), except qnn.dequantize,
// whose constant inputs are the quantized weights and biases FuseQdq needs.
#ifndef QNNC_FRONTEND_ONNX_CONSTANT_FOLDING_H_
#define QNNC_FRONTEND_ONNX_CONSTANT_FOLDING_H_

#include "absl/status/status.h"
#include "ir/graph.h"

namespace qnnc::frontend::onnx {

absl::Status FoldConstantsKeepingDequantize(ir::Graph& graph);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_CONSTANT_FOLDING_H_
