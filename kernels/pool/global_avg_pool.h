// Global average pooling of f32 NCHW (what a QDQ model's
// DequantizeLinear -> GlobalAveragePool -> QuantizeLinear leaves): the fast
// path of reference::GlobalAvgPool2D, bit-exact with it. Each plane is summed
// in the reference's order (row-major, in float) and divided by H * W; the
// speed comes from summing eight planes side by side, not from reordering.
#ifndef QNNC_KERNELS_POOL_GLOBAL_AVG_POOL_H_
#define QNNC_KERNELS_POOL_GLOBAL_AVG_POOL_H_

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::pool {

// x: f32 [N, C, H, W] with H * W > 0 -> out f32 [N, C, 1, 1], or blocked
// [N, C/k, H, W, k] -> [N, C/k, 1, 1, k] (each lane as its channel, on this
// thread: the squeeze-excite inputs are small). Writes `out` in place when it
// already has that dtype and shape, else replaces it. Split over `pool`
// (nullptr: this thread).
absl::Status GlobalAvgPool2DF32(const tensor::Tensor& x, tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::pool

#endif  // QNNC_KERNELS_POOL_GLOBAL_AVG_POOL_H_
