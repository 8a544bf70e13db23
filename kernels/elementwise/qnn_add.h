// Quantized add of two same-shape 8-bit tensors: the fast path of
// reference::QnnAdd (ONNX Runtime's QLinearAdd float semantics), bit-exact
// with it. No broadcasting: the runtime uses it when both operands have one
// shape (residual connections), in any layout, blocked ones included.
#ifndef QNNC_KERNELS_ELEMENTWISE_QNN_ADD_H_
#define QNNC_KERNELS_ELEMENTWISE_QNN_ADD_H_

#include <cstdint>

#include "absl/status/status.h"
#include "kernels/elementwise/qnn_binary_params.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

// Whether QnnAddSameShape takes operands of these types: a and b u8 or i8
// (each its own), one shape, out_dtype u8 or i8, finite scales with ratios
// to out_scale of magnitude at most 2^100, zero points inside their dtypes.
bool QnnAddSupported(tensor::DType a_dtype, const tensor::Shape& a_shape, tensor::DType b_dtype,
                     const tensor::Shape& b_shape, const QnnBinaryParams& p, tensor::DType out_dtype);

// In float32, exactly as the reference:
//   v = (a_scale / out_scale) * (a - a_zp) + (b_scale / out_scale) * (b - b_zp)
//   out = saturate(nearbyint(v) + out_zp)    (ties to even)
// Writes `out` in place when it already has out_dtype and the shape, else
// replaces it. Split over `pool` (nullptr: the calling thread).
absl::Status QnnAddSameShape(const tensor::Tensor& a, const tensor::Tensor& b,
                             const QnnBinaryParams& p, tensor::DType out_dtype, tensor::Tensor* out,
                             pthreadpool_t pool);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_QNN_ADD_H_
