// The table of ONNX op converters, keyed by op_type (default domain). One
// function per op or family, in op_converters_{nn,tensor,shape,qnn}.cc.
#ifndef QNNC_FRONTEND_ONNX_OP_CONVERTERS_H_
#define QNNC_FRONTEND_ONNX_OP_CONVERTERS_H_

#include "frontend/onnx/converter.h"

namespace qnnc::frontend::onnx {

// Every converter: the union of the three groups below.
const ConverterTable& OnnxConverters();

// Conv, Gemm, MatMul and pooling.
void RegisterNnConverters(ConverterTable& table);
// Element-wise ops, Cast, Identity and the constant producers.
void RegisterTensorConverters(ConverterTable& table);
// Reshape, Flatten, Transpose, Squeeze, Unsqueeze, Concat, Resize, reductions.
void RegisterShapeConverters(ConverterTable& table);
// QuantizeLinear, DequantizeLinear and the QOperator/integer ops.
void RegisterQnnConverters(ConverterTable& table);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_OP_CONVERTERS_H_
