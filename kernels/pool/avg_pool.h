// 2-D average pooling of f32 tensors in NCHW or a channel-blocked layout
// (NCHW{k}c): the fast path of reference::AvgPool2D, bit-exact with it (the
// same output size rule, each window summed from 0 in the reference's order,
// rows then columns, divided by its count: the taps inside the input, or all
// the padded window's with count_include_pad; an empty window gives 0).
// Blocked tensors are pooled lane by lane, so the k lanes vectorize without
// reordering any sum.
#ifndef QNNC_KERNELS_POOL_AVG_POOL_H_
#define QNNC_KERNELS_POOL_AVG_POOL_H_

#include "absl/status/status.h"
#include "kernels/reference/pool.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::pool {

// x: f32 [N, C, H, W] or [N, C/k, H, W, k]; params as for the reference
// (dilation 1). Writes `out` in place when it already has the output type,
// else replaces it. Split over `pool` (nullptr: this thread).
absl::Status AvgPool2DF32(const tensor::Tensor& x, const reference::Pool2DParams& params,
                          tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::pool

#endif  // QNNC_KERNELS_POOL_AVG_POOL_H_
