// Concatenation along one axis, any dtype: the fast path of
// reference::Concat (the same bytes), writing the planned output in place
// and split over threads in 64 KB pieces.
#ifndef QNNC_KERNELS_LAYOUT_CONCAT_H_
#define QNNC_KERNELS_LAYOUT_CONCAT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::layout {

// inputs: one dtype and rank, equal outside `axis` (in [0, rank)). Writes
// `out` in place when it already has the result's dtype and shape, else
// replaces it.
absl::Status Concat(const std::vector<tensor::Tensor>& inputs, int64_t axis, tensor::Tensor* out,
                    pthreadpool_t pool);

// The same with each byte of input i mapped through tables[i] (256 entries,
// indexed by the byte; nullptr copies): a quantized concat whose inputs are
// requantized to the output's scale. 1-byte dtypes only.
absl::Status ConcatWithTables(const std::vector<tensor::Tensor>& inputs,
                              const std::vector<const uint8_t*>& tables, int64_t axis,
                              tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::layout

#endif  // QNNC_KERNELS_LAYOUT_CONCAT_H_
