// Quantized elementwise add/multiply and concatenation (ONNX Runtime / MLAS
// float semantics).
#ifndef QNNC_KERNELS_REFERENCE_QNN_ELEMENTWISE_H_
#define QNNC_KERNELS_REFERENCE_QNN_ELEMENTWISE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// QLinearAdd with numpy broadcasting of integer a and b (at most 32 bits). Scales are
// one-element f32 tensors, zero points one-element integer tensors. In float32:
//   ra = a_scale / out_scale, rb = b_scale / out_scale,
//   v = ra * (a - a_zp) + rb * (b - b_zp),
//   out = saturate(nearbyint(v) + out_zp) as out_dtype (half to even).
absl::StatusOr<tensor::Tensor> QnnAdd(
    const tensor::Tensor& a, const tensor::Tensor& a_scale, const tensor::Tensor& a_zero_point,
    const tensor::Tensor& b, const tensor::Tensor& b_scale, const tensor::Tensor& b_zero_point,
    const tensor::Tensor& out_scale, const tensor::Tensor& out_zero_point, tensor::DType out_dtype);

// QLinearMul, same conventions: in float32
//   m = a_scale * b_scale / out_scale,  v = m * float((a - a_zp) * (b - b_zp))
// (the integer product is exact), out = saturate(nearbyint(v) + out_zp).
absl::StatusOr<tensor::Tensor> QnnMul(
    const tensor::Tensor& a, const tensor::Tensor& a_scale, const tensor::Tensor& a_zero_point,
    const tensor::Tensor& b, const tensor::Tensor& b_scale, const tensor::Tensor& b_zero_point,
    const tensor::Tensor& out_scale, const tensor::Tensor& out_zero_point, tensor::DType out_dtype);

// Requantizes every input (of one integer dtype) from (scales[i],
// zero_points[i]) to (out_scale, out_zero_point) exactly as Requantize, then
// concatenates along `axis`. The result has the inputs' dtype.
absl::StatusOr<tensor::Tensor> QnnConcat(const std::vector<tensor::Tensor>& inputs,
                                         const std::vector<tensor::Tensor>& scales,
                                         const std::vector<tensor::Tensor>& zero_points,
                                         const tensor::Tensor& out_scale,
                                         const tensor::Tensor& out_zero_point, int64_t axis);

// out[i] = table[byte of x[i]]: x u8 or i8, table 256 u8 or i8 values
// (indexed by the byte, so an i8 -1 reads entry 255).
absl::StatusOr<tensor::Tensor> Lookup(const tensor::Tensor& x, const tensor::Tensor& table);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_QNN_ELEMENTWISE_H_
