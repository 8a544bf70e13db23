// The tables of ONNX op converters, keyed by op_type: the default domain's
// and com.microsoft's (ONNX Runtime's quantized contrib ops). One function
// per op or family, in op_converters_{nn,batchnorm,tensor,shape,slice,
// activation,qnn,microsoft}.cc.
#ifndef QNNC_FRONTEND_ONNX_OP_CONVERTERS_H_
#define QNNC_FRONTEND_ONNX_OP_CONVERTERS_H_

#include "frontend/onnx/converter.h"

namespace qnnc::frontend::onnx {

// Every converter of the default domain: the union of the groups below.
const ConverterTable& OnnxConverters();
// The table of a node's domain ("" or "ai.onnx", "com.microsoft"), nullptr
// for a domain with none.
const ConverterTable* ConvertersOfDomain(const std::string& domain);

// Conv, Gemm, MatMul and pooling.
void RegisterNnConverters(ConverterTable& table);
// Element-wise ops, Cast, Identity and the constant producers.
void RegisterTensorConverters(ConverterTable& table);
// Reshape, Flatten, Transpose, Squeeze, Unsqueeze, Concat, Resize, Upsample,
// reductions.
void RegisterShapeConverters(ConverterTable& table);
// Slice, Split, Gather, Expand, Pad.
void RegisterSliceConverters(ConverterTable& table);
// BatchNormalization (inference).
void RegisterBatchNormConverter(ConverterTable& table);
// Tanh, LeakyRelu, HardSigmoid, HardSwish, Softmax.
void RegisterActivationConverters(ConverterTable& table);
// QuantizeLinear, DequantizeLinear and the QOperator/integer ops.
void RegisterQnnConverters(ConverterTable& table);
// com.microsoft: QLinearAdd, QLinearMul, QLinearConcat, QLinearSigmoid,
// QLinearLeakyRelu, QLinearGlobalAveragePool, QLinearAveragePool.
void RegisterMicrosoftConverters(ConverterTable& table);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_OP_CONVERTERS_H_
