#include "ir/conv_relation.h"

#include "absl/strings/str_cat.h"
#include "ir/layout.h"
#include "ir/op_views.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir::internal {

absl::StatusOr<Shape> Conv2DOutputShape(const Node& node, const TensorType& data,
                                        const TensorType& weight) {
  RETURN_IF_ERROR(ExpectRank(weight, 4, "weight"));
  ASSIGN_OR_RETURN(Conv2DView v, Conv2DView::Of(node));
  const std::string& data_layout = v.data_layout.str();
  const std::string& kernel_layout = v.kernel_layout.str();
  const int64_t groups = v.groups;
  int64_t n, c, h, w;
  const int64_t in_block = v.data_layout.channel_block(), out_block = v.out_layout.channel_block();
  if (in_block > 0) {
    // NCHW{k}c: [N, ceil(C/k), H, W, k]; C comes from the weight.
    if (data.rank() != 5 || data.shape[4] != in_block) {
      return absl::InvalidArgumentError(absl::StrCat("data ", data.ToString(), " is not ", data_layout));
    }
    n = data.shape[0], h = data.shape[2], w = data.shape[3];
    c = weight.shape[1] * groups;
    if ((c + in_block - 1) / in_block != data.shape[1]) {
      return absl::InvalidArgumentError(absl::StrCat("data ", data.ToString(), " does not hold ", c,
                                                     " channels in ", data_layout));
    }
  } else if (data.rank() != 4) {
    return absl::InvalidArgumentError(absl::StrCat("data must have rank 4, got ", data.ToString()));
  } else if (v.data_layout.is_nchw()) {
    n = data.shape[0], c = data.shape[1], h = data.shape[2], w = data.shape[3];
  } else if (v.data_layout.is_nhwc()) {
    n = data.shape[0], h = data.shape[1], w = data.shape[2], c = data.shape[3];
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported data_layout '", data_layout, "' (NCHW or NHWC)"));
  }
  int64_t o, i, kh, kw;
  const Shape& ws = weight.shape;
  if (v.kernel_layout == Layout::Oihw()) {
    o = ws[0], i = ws[1], kh = ws[2], kw = ws[3];
  } else if (kernel_layout == "OHWI") {
    o = ws[0], kh = ws[1], kw = ws[2], i = ws[3];
  } else if (kernel_layout == "HWIO") {
    kh = ws[0], kw = ws[1], i = ws[2], o = ws[3];
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported kernel_layout '", kernel_layout, "' (OIHW, OHWI or HWIO)"));
  }
  if (groups <= 0 || c % groups != 0 || o % groups != 0) {
    return absl::InvalidArgumentError(absl::StrCat("groups ", groups, " must divide the ", c,
                                                   " input and ", o, " output channels"));
  }
  if (i * groups != c) {
    return absl::InvalidArgumentError(absl::StrCat("weight has ", i, " input channels per group, data has ",
                                                   c, " channels in ", groups, " groups"));
  }
  ASSIGN_OR_RETURN(const auto out, v.OutputSize(h, w, kh, kw));
  const int64_t oh = out[0], ow = out[1];
  if (out_block > 0) return Shape{n, (o + out_block - 1) / out_block, oh, ow, out_block};
  if (v.out_layout.is_nhwc()) return Shape{n, oh, ow, o};
  return Shape{n, o, oh, ow};
}

}  // namespace qnnc::ir::internal
