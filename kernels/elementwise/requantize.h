// Per-tensor requantization of i32 to u8/i8 (the classifier's accumulator
// after a dense layer): the fast path of reference::Requantize in its default
// rounding (TONEAREST_EVEN), bit-exact with it:
//   y = saturate(nearbyint(float(x - input_zero_point) * m) + output_zero_point)
// clamped to [clamp_min, clamp_max], with m = float(input_scale) /
// float(output_scale) as the reference computes it, NaN mapping to 0.
#ifndef QNNC_KERNELS_ELEMENTWISE_REQUANTIZE_H_
#define QNNC_KERNELS_ELEMENTWISE_REQUANTIZE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

struct RequantizeParams {
  float multiplier = 1;  // input_scale / output_scale, in float
  int32_t output_zero_point = 0;
  int32_t lo = 0, hi = 0;  // the clamp, inside the output dtype
};

// Whether RequantizePerTensor takes these: input zero point 0 (the
// accumulators' own), a finite multiplier, out_dtype u8 or i8, the output
// zero point inside it, and lo <= hi inside it.
bool RequantizeSupported(int64_t input_zero_point, const RequantizeParams& p,
                         tensor::DType out_dtype);

// x: i32 of any shape. Writes `out` in place when it already has out_dtype
// and x's shape, else replaces it. Split over `pool` (nullptr: this thread).
absl::Status RequantizePerTensor(const tensor::Tensor& x, const RequantizeParams& p,
                                 tensor::DType out_dtype, tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_REQUANTIZE_H_
