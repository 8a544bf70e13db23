// Type relations and registration of the convolution ops: nn.conv2d,
// qnn.conv2d and the fused qnn.conv2d_requantize and qnn.conv2d_dynamic.
#include "absl/strings/str_cat.h"
#include "ir/conv_relation.h"
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

absl::StatusOr<std::vector<TensorType>> Conv2DRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(DType dt, AccumulatorDType(in));
  ASSIGN_OR_RETURN(Shape out, internal::Conv2DOutputShape(in.node, in.inputs[0], in.inputs[1]));
  return One({dt, out});
}

absl::StatusOr<std::vector<TensorType>> QnnConv2DRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "data"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "weight"));
  RETURN_IF_ERROR(ExpectQuantParam(t[2], "input zero point"));
  RETURN_IF_ERROR(ExpectQuantParam(t[4], "input scale"));
  ASSIGN_OR_RETURN(Shape out, internal::Conv2DOutputShape(in.node, t[0], t[1]));
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
  ASSIGN_OR_RETURN(Shape out, internal::Conv2DOutputShape(in.node, t[0], t[1]));
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
  ASSIGN_OR_RETURN(Shape out, internal::Conv2DOutputShape(in.node, t[0], t[1]));
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
