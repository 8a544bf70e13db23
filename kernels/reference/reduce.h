// Reductions over a set of axes.
#ifndef QNNC_KERNELS_REFERENCE_REDUCE_H_
#define QNNC_KERNELS_REFERENCE_REDUCE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// Reduce x (f32 or integer) over `axes` (negative count from the end, no
// duplicates; empty = all axes), keeping reduced axes as size 1 if keepdims.
// The result has x's dtype. f32 accumulates in float in row-major order.
// Integer sums wrap modulo 2^bits of the dtype; the integer mean is the exact
// sum divided with round half to even. Min/Max/Mean over zero elements is an
// error; Sum gives 0. Min/Max propagate NaN.
absl::StatusOr<tensor::Tensor> ReduceSum(const tensor::Tensor& x, const std::vector<int64_t>& axes,
                                         bool keepdims = true);
absl::StatusOr<tensor::Tensor> ReduceMean(const tensor::Tensor& x, const std::vector<int64_t>& axes,
                                          bool keepdims = true);
absl::StatusOr<tensor::Tensor> ReduceMin(const tensor::Tensor& x, const std::vector<int64_t>& axes,
                                         bool keepdims = true);
absl::StatusOr<tensor::Tensor> ReduceMax(const tensor::Tensor& x, const std::vector<int64_t>& axes,
                                         bool keepdims = true);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_REDUCE_H_
