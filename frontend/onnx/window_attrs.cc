#include "frontend/onnx/window_attrs.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

// Bounds on window attributes, so no size computation can overflow.
constexpr int64_t kMaxWindow = int64_t{1} << 30;

absl::Status ExpectTwo(const std::vector<int64_t>& v, const char* name) {
  if (v.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat("attribute '", name, "' needs 2 values, got [",
                                                   absl::StrJoin(v, ","), "]"));
  }
  for (int64_t x : v) {
    if (x <= 0 || x > kMaxWindow) {
      return absl::InvalidArgumentError(absl::StrCat("attribute '", name, "' must be in [1, ",
                                                     kMaxWindow, "], got [",
                                                     absl::StrJoin(v, ","), "]"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Window> ReadWindow(const NodeContext& ctx, const ir::TensorType& data,
                                  std::vector<int64_t> kernel) {
  Window w;
  if (kernel.empty()) {
    ASSIGN_OR_RETURN(kernel, ctx.AttrInts("kernel_shape"));
  } else {
    ASSIGN_OR_RETURN(auto attr, ctx.AttrInts("kernel_shape", kernel));
    if (attr != kernel) {
      return absl::InvalidArgumentError(absl::StrCat("kernel_shape [", absl::StrJoin(attr, ","),
                                                     "] does not match the weight's [",
                                                     absl::StrJoin(kernel, ","), "]"));
    }
  }
  if (data.rank() != 4 || kernel.size() != 2) {
    return absl::UnimplementedError(absl::StrCat("only 2-D windows over NCHW data are supported, got data ",
                                                 data.ToString(), " and kernel [",
                                                 absl::StrJoin(kernel, ","), "]"));
  }
  w.kernel = kernel;
  ASSIGN_OR_RETURN(w.strides, ctx.AttrInts("strides", {1, 1}));
  ASSIGN_OR_RETURN(w.dilation, ctx.AttrInts("dilations", {1, 1}));
  RETURN_IF_ERROR(ExpectTwo(w.kernel, "kernel_shape"));
  RETURN_IF_ERROR(ExpectTwo(w.strides, "strides"));
  RETURN_IF_ERROR(ExpectTwo(w.dilation, "dilations"));
  ASSIGN_OR_RETURN(std::string auto_pad, ctx.AttrString("auto_pad", "NOTSET"));
  if (auto_pad == "NOTSET") {
    ASSIGN_OR_RETURN(w.padding, ctx.AttrInts("pads", {0, 0, 0, 0}));
    if (w.padding.size() != 4) {
      return absl::InvalidArgumentError(absl::StrCat("attribute 'pads' needs 4 values, got [",
                                                     absl::StrJoin(w.padding, ","), "]"));
    }
    for (int64_t p : w.padding) {
      if (p < 0 || p > kMaxWindow) {
        return absl::InvalidArgumentError(absl::StrCat("pads [", absl::StrJoin(w.padding, ","),
                                                       "] must be in [0, ", kMaxWindow, "]"));
      }
    }
  } else if (auto_pad == "VALID") {
    w.padding = {0, 0, 0, 0};
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    w.padding.assign(4, 0);
    for (int i = 0; i < 2; ++i) {
      int64_t in = data.shape[2 + i];
      int64_t out = (in + w.strides[i] - 1) / w.strides[i];
      int64_t span = (w.kernel[i] - 1) * w.dilation[i] + 1;
      int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[i] + span - in);
      int64_t small = total / 2;
      w.padding[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      w.padding[i + 2] = total - w.padding[i];
    }
  } else {
    return absl::InvalidArgumentError(absl::StrCat("unknown auto_pad '", auto_pad, "'"));
  }
  return w;
}

absl::StatusOr<ir::Attrs> ConvAttrs(const NodeContext& ctx, const ir::TensorType& data,
                                    const ir::TensorType& weight) {
  if (weight.rank() != 4) {
    return absl::UnimplementedError(
        absl::StrCat("only 2-D convolution is supported, weight is ", weight.ToString()));
  }
  ASSIGN_OR_RETURN(Window w, ReadWindow(ctx, data, {weight.shape[2], weight.shape[3]}));
  ASSIGN_OR_RETURN(int64_t group, ctx.AttrInt("group", 1));
  ir::Attrs attrs;
  attrs.Set("strides", w.strides);
  attrs.Set("padding", w.padding);
  attrs.Set("dilation", w.dilation);
  attrs.Set("groups", group);
  return attrs;
}

absl::StatusOr<ir::Attrs> PoolAttrs(const NodeContext& ctx) {
  ASSIGN_OR_RETURN(Window w, ReadWindow(ctx, ctx.type(0), {}));
  ASSIGN_OR_RETURN(int64_t ceil_mode, ctx.AttrInt("ceil_mode", 0));
  ir::Attrs attrs;
  attrs.Set("pool_size", w.kernel);
  attrs.Set("strides", w.strides);
  attrs.Set("padding", w.padding);
  attrs.Set("ceil_mode", ceil_mode);
  if (w.dilation != std::vector<int64_t>{1, 1}) attrs.Set("dilation", w.dilation);
  return attrs;
}

absl::StatusOr<ir::Attrs> AveragePoolAttrs(const NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Attrs attrs, PoolAttrs(ctx));
  if (attrs.Has("dilation")) return absl::UnimplementedError("dilated average pooling is not supported");
  ASSIGN_OR_RETURN(int64_t count_include_pad, ctx.AttrInt("count_include_pad", 0));
  attrs.Set("count_include_pad", count_include_pad);
  return attrs;
}

}  // namespace qnnc::frontend::onnx
