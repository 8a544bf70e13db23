// Type relations and registration of the convolution ops: nn.conv2d,
// qnn.conv2d and the fused qnn.conv2d_requantize and qnn.conv2d_dynamic.
#include "absl/strings/str_cat.h"
#include "ir/layout.h"
#include "ir/op_registry.h"
#include "ir/op_views.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::AccumulatorDType;
using internal::DTypeAttr;
using internal::ExpectInteger;
using internal::ExpectQuantParam;
using internal::One;
using internal::RegisterOrDie;

// The output shape of a convolution (nn.conv2d, qnn.conv2d and the fused
// ones) in its view's layouts: data NCHW, NHWC or NCHW{k}c, kernel OIHW, OHWI
// or HWIO, output in out_layout; the caller picks the dtype.
absl::StatusOr<Shape> Conv2DOutputShape(const Node& node, const TensorType& data,
                                        const TensorType& weight) {
  RETURN_IF_ERROR(internal::ExpectRank(weight, 4, "weight"));
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

absl::StatusOr<std::vector<TensorType>> Conv2DRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(DType dt, AccumulatorDType(in));
  ASSIGN_OR_RETURN(Shape out, Conv2DOutputShape(in.node, in.inputs[0], in.inputs[1]));
  return One({dt, out});
}

absl::StatusOr<std::vector<TensorType>> QnnConv2DRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "data"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "weight"));
  RETURN_IF_ERROR(ExpectQuantParam(t[2], "input zero point"));
  RETURN_IF_ERROR(ExpectQuantParam(t[4], "input scale"));
  ASSIGN_OR_RETURN(Shape out, Conv2DOutputShape(in.node, t[0], t[1]));
  ASSIGN_OR_RETURN(const Conv2DView view, Conv2DView::Of(in.node));
  const int64_t channels = view.data_layout.is_nhwc() ? out[3] : out[1];
  for (int i : {3, 5}) {
    RETURN_IF_ERROR(ExpectQuantParam(t[i], "kernel quantization parameter"));
    if (t[i].rank() == 1 && t[i].shape[0] != 1 && t[i].shape[0] != channels) {
      return absl::InvalidArgumentError(absl::StrCat("kernel quantization parameter has ",
                                                     t[i].shape[0], " values for ", channels,
                                                     " output channels"));
    }
  }
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "out_dtype", DType::kI32));
  return One({dt, out});
}

// The fused convolution FuseOps builds: conv + bias + requantize + clamp.
absl::StatusOr<std::vector<TensorType>> ConvRequantizeRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "data"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "weight"));
  RETURN_IF_ERROR(internal::ExpectDType(t[2], DType::kI32, "bias"));
  for (int i = 3; i < 10; ++i) RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
  ASSIGN_OR_RETURN(Shape out, Conv2DOutputShape(in.node, t[0], t[1]));
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "out_dtype", DType::kU8));
  if (!tensor::IsInteger(dt)) return absl::InvalidArgumentError("out_dtype must be an integer type");
  return One({dt, out});
}

// A per-channel operand of an NCHW result with `channels` channels: one
// value, or `channels` values along axis 1 (e.g. [1, C, 1, 1], [C, 1, 1]).
absl::Status ExpectChannelOperand(const TensorType& t, int64_t channels, const char* what) {
  RETURN_IF_ERROR(internal::ExpectDType(t, DType::kF32, what));
  int64_t n = 1;
  for (int64_t d : t.shape) n *= d;
  bool ok = t.rank() <= 4 && (n == 1 || n == channels);
  for (int i = 0; ok && i < t.rank(); ++i) {
    const int axis = 4 - t.rank() + i;  // aligned to NCHW from the right
    ok = t.shape[i] == 1 || (axis == 1 && t.shape[i] == channels);
  }
  if (!ok) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must hold 1 or ", channels,
                                                   " values along the channel axis, got ",
                                                   t.ToString()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TensorType>> ConvDynamicRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "data"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "weight"));
  RETURN_IF_ERROR(ExpectQuantParam(t[2], "input_zero_point"));
  RETURN_IF_ERROR(ExpectQuantParam(t[3], "kernel_zero_point"));
  ASSIGN_OR_RETURN(Shape out, Conv2DOutputShape(in.node, t[0], t[1]));
  const int64_t channels = t[1].shape[0];  // OIHW (also when the data is blocked)
  RETURN_IF_ERROR(ExpectChannelOperand(t[4], channels, "scale"));
  if (t.size() > 5) RETURN_IF_ERROR(ExpectChannelOperand(t[5], channels, "bias"));
  return std::vector<TensorType>{{DType::kF32, out}, {DType::kF32, {2}}};
}

}  // namespace

void RegisterConvOps(OpRegistry& r) {
  RegisterOrDie(r, {"nn.conv2d", 2, 2, 1, Conv2DRel,
                    "(data, weight) {strides, padding, dilation, groups, data_layout, "
                    "kernel_layout, out_dtype}: f32, or integer -> i32"});
  RegisterOrDie(r, {"qnn.conv2d", 6, 6, 1, QnnConv2DRel,
                    "(data, weight, input_zero_point, kernel_zero_point, input_scale, "
                    "kernel_scale) {strides, padding, dilation, groups, data_layout, "
                    "kernel_layout, out_dtype=i32}"});
  RegisterOrDie(r, {"qnn.conv2d_requantize", 10, 10, 1, ConvRequantizeRel,
                    "(data, weight, bias i32, input_zero_point, kernel_zero_point, input_scale, "
                    "kernel_scale, requant_scale, output_scale, output_zero_point) {conv attrs, "
                    "pad_value, out_dtype, clamp_min, clamp_max}: requantize(conv(data - izp, "
                    "weight - kzp) + bias, requant_scale / output_scale) with padding standing "
                    "for pad_value; built by FuseOps"});
  RegisterOrDie(r, {"qnn.conv2d_dynamic", 5, 6, 2, ConvDynamicRel,
                    "(data, weight, input_zero_point, kernel_zero_point, scale f32, [bias f32]) "
                    "{conv attrs, clip_min, clip_max} -> (f32 y, f32[2] range): y = clip(float("
                    "conv(data - izp, weight - kzp)) * scale + bias), the reference's cast, "
                    "multiply, add and clip; scale and bias 1 or out-channels values; range = "
                    "(min(0, min y), max(0, max y)), NaN ignored, for a DynamicQuantizeLinear of y; "
                    "built by FuseOps; data_layout/out_layout NCHW{k}c (AlterOpLayout) leave "
                    "padding lanes 0"});
}

}  // namespace qnnc::ir
