// Per-tensor quantization of f32 to u8/i8: the fast path of
// reference::Quantize, bit-exact with it:
//   q = saturate(nearbyint(x / scale) + zero_point)   (ties to even; NaN -> zp)
#ifndef QNNC_KERNELS_ELEMENTWISE_QUANTIZE_H_
#define QNNC_KERNELS_ELEMENTWISE_QUANTIZE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

// Whether QuantizePerTensor takes these: out_dtype u8 or i8, a finite nonzero
// scale, a zero point inside out_dtype.
bool QuantizeSupported(tensor::DType out_dtype, float scale, int32_t zero_point);

// x: f32 of any shape. Writes `out` in place when it already has out_dtype
// and x's shape, else replaces it. Split over `pool` (nullptr: this thread).
absl::Status QuantizePerTensor(const tensor::Tensor& x, float scale, int32_t zero_point,
                               tensor::DType out_dtype, tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_QUANTIZE_H_
