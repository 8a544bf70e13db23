// Per-channel operations along one axis (a classifier's bias and
// requantization after its dense layer): the fast paths of
// reference::BiasAdd and of reference::Requantize with per-channel input
// scales, bit-exact with them.
#ifndef QNNC_KERNELS_ELEMENTWISE_CHANNEL_OPS_H_
#define QNNC_KERNELS_ELEMENTWISE_CHANNEL_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "kernels/elementwise/requantize.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

// out = x + bias[c] along `axis` (in [0, rank)); i32 wraps as the reference's
// integer add, f32 is one float add. x and bias of one dtype, bias 1-D of
// x.dim(axis). Writes `out` in place when it already has x's type.
absl::Status BiasAdd(const tensor::Tensor& x, const tensor::Tensor& bias, int64_t axis, tensor::Tensor* out,
                     pthreadpool_t pool);

// RequantizePerTensor with one multiplier per channel along `axis`
// (multipliers.size() == x.dim(axis)); p.multiplier is ignored.
absl::Status RequantizePerChannel(const tensor::Tensor& x, const std::vector<float>& multipliers, int64_t axis,
                                  const RequantizeParams& p, tensor::DType out_dtype, tensor::Tensor* out,
                                  pthreadpool_t pool);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_CHANNEL_OPS_H_
