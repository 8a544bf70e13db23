// 2-D convolution, NCHW activations and OIHW weights.
#ifndef QNNC_KERNELS_REFERENCE_CONV2D_H_
#define QNNC_KERNELS_REFERENCE_CONV2D_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"
#include "tensor/window.h"

namespace qnnc::kernels::reference {

struct Conv2DParams : tensor::ConvGeometry {
  tensor::DType out_dtype = tensor::DType::kF32;
};

// data [N, C, H, W], weight [O, C / groups, KH, KW] -> [N, O, OH, OW] with
// OH = (H + top + bottom - dilation_h * (KH - 1) - 1) / stride_h + 1 (same for W).
// f32 x f32 -> f32: each output sums x * w from 0.0f in the order (c, kh, kw).
// integer x integer (u8, i8, u16, i16, i32, i64 in any combination) -> i32 or
// i64: exact sum, wrapping modulo 2^32 (2^64) on overflow.
// Padding contributes nothing. Runs over (batch, output channel) on `pool`.
absl::StatusOr<tensor::Tensor> Conv2D(const tensor::Tensor& data, const tensor::Tensor& weight,
                                      const Conv2DParams& params, pthreadpool_t pool = nullptr);

// Quantized convolution (integer inputs, out_dtype i32 or i64):
//   out[n, o, y, x] = sum (data - zx) * (weight[o] - zw[o])
// where input_zero_point zx has one element and kernel_zero_point zw has one
// or O elements (any integer dtype). Padding acts as data == zx.
absl::StatusOr<tensor::Tensor> QnnConv2D(const tensor::Tensor& data, const tensor::Tensor& weight,
                                         const tensor::Tensor& input_zero_point,
                                         const tensor::Tensor& kernel_zero_point,
                                         const Conv2DParams& params, pthreadpool_t pool = nullptr);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_CONV2D_H_
