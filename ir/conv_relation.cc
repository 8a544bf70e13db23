#include "ir/conv_relation.h"

#include "absl/strings/str_cat.h"
#include "ir/layout.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir::internal {

absl::StatusOr<Shape> Conv2DOutputShape(const Node& node, const TensorType& data,
                                        const TensorType& weight) {
  const Attrs& a = node.attrs();
  RETURN_IF_ERROR(ExpectRank(weight, 4, "weight"));
  ASSIGN_OR_RETURN(auto strides, a.GetInts("strides", {1, 1}));
  ASSIGN_OR_RETURN(auto padding, a.GetInts("padding", {0, 0, 0, 0}));
  ASSIGN_OR_RETURN(auto dilation, a.GetInts("dilation", {1, 1}));
  ASSIGN_OR_RETURN(int64_t groups, a.GetInt("groups", 1));
  ASSIGN_OR_RETURN(std::string data_layout, a.GetString("data_layout", "NCHW"));
  ASSIGN_OR_RETURN(std::string kernel_layout, a.GetString("kernel_layout", "OIHW"));
  if (strides.size() != 2 || padding.size() != 4 || dilation.size() != 2) {
    return absl::InvalidArgumentError("strides and dilation need 2 values, padding 4");
  }
  ASSIGN_OR_RETURN(std::string out_layout, a.GetString("out_layout", data_layout));
  int64_t n, c, h, w;
  int64_t in_block = ChannelBlock(data_layout), out_block = ChannelBlock(out_layout);
  if (in_block > 0) {
    // NCHW{k}c: [N, ceil(C/k), H, W, k]; C comes from the weight.
    if (data.rank() != 5 || data.shape[4] != in_block) {
      return absl::InvalidArgumentError(absl::StrCat("data ", data.ToString(), " is not ", data_layout));
    }
    n = data.shape[0], h = data.shape[2], w = data.shape[3];
    int64_t groups_attr = a.GetInt("groups", 1).value_or(1);
    c = weight.shape[1] * groups_attr;
    if ((c + in_block - 1) / in_block != data.shape[1]) {
      return absl::InvalidArgumentError(absl::StrCat("data ", data.ToString(), " does not hold ", c,
                                                     " channels in ", data_layout));
    }
  } else if (data.rank() != 4) {
    return absl::InvalidArgumentError(absl::StrCat("data must have rank 4, got ", data.ToString()));
  } else if (data_layout == "NCHW") {
    n = data.shape[0], c = data.shape[1], h = data.shape[2], w = data.shape[3];
  } else if (data_layout == "NHWC") {
    n = data.shape[0], h = data.shape[1], w = data.shape[2], c = data.shape[3];
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported data_layout '", data_layout, "' (NCHW or NHWC)"));
  }
  int64_t o, i, kh, kw;
  const Shape& ws = weight.shape;
  if (kernel_layout == "OIHW") {
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
  ASSIGN_OR_RETURN(int64_t oh, WindowOutputSize(h, kh, strides[0], padding[0], padding[2],
                                                dilation[0], false));
  ASSIGN_OR_RETURN(int64_t ow, WindowOutputSize(w, kw, strides[1], padding[1], padding[3],
                                                dilation[1], false));
  if (out_block > 0) return Shape{n, (o + out_block - 1) / out_block, oh, ow, out_block};
  if (out_layout == "NHWC") return Shape{n, oh, ow, o};
  return Shape{n, o, oh, ow};
}

}  // namespace qnnc::ir::internal
