// Per-tensor dequantization of u8/i8 to f32: the fast path of
// reference::Dequantize, bit-exact with it:
//   y = float(q - zero_point) * scale   (float32 multiply)
#ifndef QNNC_KERNELS_ELEMENTWISE_DEQUANTIZE_H_
#define QNNC_KERNELS_ELEMENTWISE_DEQUANTIZE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

// q: u8 or i8 of any shape. Writes `out` in place when it already is f32 of
// q's shape, else replaces it. Split over `pool` (nullptr: this thread).
absl::Status DequantizePerTensor(const tensor::Tensor& q, float scale, int32_t zero_point,
                                 tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_DEQUANTIZE_H_
