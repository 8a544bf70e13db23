// NCHW <-> NHWC for activations of any dtype: the layout_transform ops around
// the kernels that run in NHWC (XNNPACK). Each image is a [C, H*W] <-> [H*W, C]
// transpose, done in tiles that stay in L1, split over `pool` by tiles of
// pixels (nullptr: this thread). Bit-exact with reference::LayoutTransform.
#ifndef QNNC_KERNELS_LAYOUT_NHWC_H_
#define QNNC_KERNELS_LAYOUT_NHWC_H_

#include "absl/status/statusor.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::layout {

// [N, C, H, W] -> [N, H, W, C]. Fails on another rank.
absl::StatusOr<tensor::Tensor> NchwToNhwc(const tensor::Tensor& nchw, pthreadpool_t pool = nullptr);
// [N, H, W, C] -> [N, C, H, W]. Fails on another rank.
absl::StatusOr<tensor::Tensor> NhwcToNchw(const tensor::Tensor& nhwc, pthreadpool_t pool = nullptr);

}  // namespace qnnc::kernels::layout

#endif  // QNNC_KERNELS_LAYOUT_NHWC_H_
