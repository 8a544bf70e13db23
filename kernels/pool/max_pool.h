// 2-D max pooling of 8-bit and f32 tensors in NCHW or a channel-blocked layout
// (NCHW{k}c): the fast path of reference::MaxPool2D, bit-exact with it (same
// output size rule, padding never wins, a window with no position inside the
// input gives the dtype's lowest value, -infinity for f32). Blocked tensors are pooled lane by
// lane, so the k lanes of a pixel vectorize.
#ifndef QNNC_KERNELS_POOL_MAX_POOL_H_
#define QNNC_KERNELS_POOL_MAX_POOL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "kernels/reference/pool.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::pool {

// x: u8, i8 or f32 (NaN propagates, as in the reference), [N, C, H, W] or
// [N, C/k, H, W, k]. Writes `out` in place when
// it already has x's dtype and the output shape, else replaces it. Split over
// `pool` (nullptr: this thread). Fails on an invalid window, as the
// reference does.
// params as for the reference (count_include_pad does not apply).
absl::Status MaxPool2D(const tensor::Tensor& x, const reference::Pool2DParams& params,
                           tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::pool

#endif  // QNNC_KERNELS_POOL_MAX_POOL_H_
