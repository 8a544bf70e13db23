// Quantized multiply of 8-bit tensors: the fast path of reference::QnnMul
// (ONNX Runtime's QLinearMul float semantics), bit-exact with it:
//   m = a_scale * b_scale / out_scale (float),
//   out = saturate(nearbyint(m * float((a - a_zp) * (b - b_zp))) + out_zp).
// Same shapes, or one operand broadcast over one run of the other's
// dimensions (a squeeze-excite gate [N, C, 1, 1] over [N, C, H, W], or
// blocked [N, C/k, 1, 1, k] over [N, C/k, H, W, k]).
#ifndef QNNC_KERNELS_ELEMENTWISE_QNN_MUL_H_
#define QNNC_KERNELS_ELEMENTWISE_QNN_MUL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "kernels/elementwise/qnn_binary_params.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

// Whether QnnMul takes these shapes and parameters: 8-bit operands and
// result, a and b of one shape or one broadcast as above, zero points in
// their dtypes, a finite multiplier.
bool QnnMulSupported(tensor::DType a_dtype, const tensor::Shape& a_shape, tensor::DType b_dtype,
                     const tensor::Shape& b_shape, const QnnBinaryParams& p, tensor::DType out_dtype);

absl::Status QnnMul(const tensor::Tensor& a, const tensor::Tensor& b, const QnnBinaryParams& p,
                    tensor::DType out_dtype, tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_QNN_MUL_H_
