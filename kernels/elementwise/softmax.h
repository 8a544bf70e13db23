// Softmax of f32 along one axis, the fast path of reference::Softmax and
// bit-exact with it: per slice the same max, the same libm expf of x - max
// per element, the sum added in the slice's order, then one division per
// element. The speed comes from threads over slices and, when the axis is
// not the last (softmax over NCHW's channels), from running neighbouring
// slices side by side in vector lanes (each lane still sums its own slice
// in order).
#ifndef QNNC_KERNELS_ELEMENTWISE_SOFTMAX_H_
#define QNNC_KERNELS_ELEMENTWISE_SOFTMAX_H_

#include <cstdint>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

// axis in [-rank, rank). Writes `out` in place when it already has x's
// dtype and shape, else replaces it.
absl::Status SoftmaxF32(const tensor::Tensor& x, int64_t axis, tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_SOFTMAX_H_
