// Data movement as one strided copy, for any dtype: transpose, strided slice,
// broadcast and constant pad write their planned output without the
// reference's per-element index arithmetic. Bit-exact with
// //kernels/reference:layout (the same elements land in the same places).
#ifndef QNNC_KERNELS_LAYOUT_STRIDED_COPY_H_
#define QNNC_KERNELS_LAYOUT_STRIDED_COPY_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::layout {

// out.dim(i) = x.dim(perm[i]).
absl::Status Transpose(const tensor::Tensor& x, const std::vector<int64_t>& perm, tensor::Tensor* out,
                       pthreadpool_t pool = nullptr);

// Elements begin[d] + i * strides[d] of every dimension, with the bounds the
// reference's StridedSlice accepts (already clamped).
absl::Status StridedSlice(const tensor::Tensor& x, const std::vector<int64_t>& begin,
                          const std::vector<int64_t>& end, const std::vector<int64_t>& strides,
                          tensor::Tensor* out, pthreadpool_t pool = nullptr);

// x broadcast (numpy rules, right-aligned) to `shape`.
absl::Status BroadcastTo(const tensor::Tensor& x, const tensor::Shape& shape, tensor::Tensor* out,
                         pthreadpool_t pool = nullptr);

// Constant pad: pads = [begin_0, ..., end_0, ...] (>= 0); `fill` is one
// element of x's dtype (the reference's conversion of the pad value).
absl::Status PadConstant(const tensor::Tensor& x, const std::vector<int64_t>& pads,
                         const tensor::Tensor& fill, tensor::Tensor* out, pthreadpool_t pool = nullptr);

}  // namespace qnnc::kernels::layout

#endif  // QNNC_KERNELS_LAYOUT_STRIDED_COPY_H_
