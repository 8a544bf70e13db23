// NCHW <-> NCHW{block}c conversions, the activation layout of the spatial-pack
// kernels. A leaf of its own (no microkernels): the reference evaluator, the
// runtime's layout transforms and tests use it.
#ifndef QNNC_KERNELS_SPATIAL_PACK_BLOCKED_LAYOUT_H_
#define QNNC_KERNELS_SPATIAL_PACK_BLOCKED_LAYOUT_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::spatial_pack {

// Layout conversions for tests, benchmarks and runtimes: NCHW <-> NCHW{block}c
// (any dtype; padding lanes of ToBlocked are filled with `pad_value`), split
// over `pool` by bands of rows like the kernels.
absl::StatusOr<tensor::Tensor> ToBlocked(const tensor::Tensor& nchw, int64_t block,
                                         int64_t pad_value = 0, pthreadpool_t pool = nullptr);
absl::StatusOr<tensor::Tensor> FromBlocked(const tensor::Tensor& blocked, int64_t channels,
                                           pthreadpool_t pool = nullptr);
// The same into `output`, written in place when it is defined with the
// result's dtype and shape (a planned view), else replaced.
absl::Status ToBlockedInto(const tensor::Tensor& nchw, int64_t block, int64_t pad_value,
                           tensor::Tensor* output, pthreadpool_t pool = nullptr);
absl::Status FromBlockedInto(const tensor::Tensor& blocked, int64_t channels,
                             tensor::Tensor* output, pthreadpool_t pool = nullptr);

}  // namespace qnnc::kernels::spatial_pack

#endif  // QNNC_KERNELS_SPATIAL_PACK_BLOCKED_LAYOUT_H_
