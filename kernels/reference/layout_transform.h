// Conversion between tensor layouts such as NCHW, NHWC, NCHW16c, OIHW, HWIO.
#ifndef QNNC_KERNELS_REFERENCE_LAYOUT_TRANSFORM_H_
#define QNNC_KERNELS_REFERENCE_LAYOUT_TRANSFORM_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// A layout names each dimension: an upper-case letter is a whole axis (or the
// outer part of a split one), "<k><lower-case letter>" is the inner part of
// size k of that axis, e.g. "NCHW16c" = [N, C / 16, H, W, 16]. Both layouts
// must name the same axes (NCHW <-> NHWC <-> NCHW8c <-> NCHW16c, OIHW <-> OHWI
// <-> HWIO <-> OIHW4o ...); anything else is an error. Splitting rounds the
// axis up to a multiple of k and fills the extra positions with zeros;
// unsplitting keeps them (C becomes C / k * k).
absl::StatusOr<tensor::Tensor> LayoutTransform(const tensor::Tensor& x,
                                               absl::string_view src_layout,
                                               absl::string_view dst_layout);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_LAYOUT_TRANSFORM_H_
