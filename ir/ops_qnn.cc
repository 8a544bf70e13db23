// Type relations of the quantized ops (qnn.*). Scales and zero points are
// inputs, so they may be constants or computed at run time; each is a scalar
// or 1-D (per-channel along `axis`).
#include "absl/strings/str_cat.h"
#include "ir/conv_relation.h"
#include "ir/elementwise_views.h"
#include "ir/layout.h"
#include "ir/op_registry.h"
#include "ir/op_views.h"
#include "ir/type_relation_util.h"
#include "tensor/rounding.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::BroadcastShapes;
using internal::DTypeAttr;
using internal::ExpectFloat;
using internal::ExpectInteger;
using internal::ExpectQuantParam;
using internal::NormalizeAxis;
using internal::One;
using internal::RegisterOrDie;

// A per-channel parameter must have one value per channel of `axis`.
absl::Status CheckPerChannel(const TensorType& data, const TensorType& param, int64_t axis,
                             const char* what) {
  RETURN_IF_ERROR(ExpectQuantParam(param, what));
  if (param.rank() == 0 || param.shape[0] == 1) return absl::OkStatus();
  if (data.rank() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, " is per-channel but the data is a scalar"));
  }
  ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axis, data.rank()));
  if (param.shape[0] != data.shape[a]) {
    return absl::InvalidArgumentError(absl::StrCat(what, " has ", param.shape[0],
                                                   " values but axis ", a, " of ",
                                                   data.ToString(), " has ", data.shape[a]));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TensorType>> QuantizeRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectFloat(t[0], "data"));
  RETURN_IF_ERROR(ExpectFloat(t[1], "scale"));
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(in.node));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[1], axis.axis, "scale"));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[2], axis.axis, "zero point"));
  ASSIGN_OR_RETURN(DType out, DTypeAttr(in.node, "out_dtype", t[2].dtype));
  if (!tensor::IsInteger(out)) return absl::InvalidArgumentError("out_dtype must be an integer type");
  return One({out, t[0].shape});
}

absl::StatusOr<std::vector<TensorType>> DequantizeRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "data"));
  RETURN_IF_ERROR(ExpectFloat(t[1], "scale"));
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(in.node));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[1], axis.axis, "scale"));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[2], axis.axis, "zero point"));
  return One({DType::kF32, t[0].shape});
}

absl::StatusOr<std::vector<TensorType>> RequantizeRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "data"));
  ASSIGN_OR_RETURN(RequantizeView v, RequantizeView::Of(in.node));
  const int64_t axis = v.axis;
  RETURN_IF_ERROR(ExpectFloat(t[1], "input scale"));
  RETURN_IF_ERROR(ExpectFloat(t[3], "output scale"));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[1], axis, "input scale"));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[2], axis, "input zero point"));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[3], axis, "output scale"));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[4], axis, "output zero point"));
  return One({v.out_dtype, t[0].shape});
}

absl::StatusOr<std::vector<TensorType>> QnnConv2DRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "data"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "weight"));
  RETURN_IF_ERROR(ExpectQuantParam(t[2], "input zero point"));
  RETURN_IF_ERROR(ExpectQuantParam(t[4], "input scale"));
  ASSIGN_OR_RETURN(Shape out, internal::Conv2DOutputShape(in.node, t[0], t[1]));
  int64_t channels = in.node.attrs().GetString("data_layout", "NCHW").value_or("NCHW") == "NHWC"
                         ? out[3] : out[1];
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

absl::StatusOr<std::vector<TensorType>> QnnDenseRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "data"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "weight"));
  RETURN_IF_ERROR(internal::ExpectRank(t[0], 2, "data"));
  RETURN_IF_ERROR(internal::ExpectRank(t[1], 2, "weight"));
  if (t[0].shape[1] != t[1].shape[1]) {
    return absl::InvalidArgumentError(absl::StrCat("data ", t[0].ToString(), " and weight ",
                                                   t[1].ToString(), " disagree on K"));
  }
  for (int i = 2; i < 6; ++i) RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "out_dtype", DType::kI32));
  return One({dt, {t[0].shape[0], t[1].shape[0]}});
}

absl::StatusOr<std::vector<TensorType>> QnnMatMulRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "a"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "b"));
  for (int i = 2; i < 6; ++i) RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
  ASSIGN_OR_RETURN(Shape out, internal::MatMulShape(t[0].shape, t[1].shape));
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "out_dtype", DType::kI32));
  return One({dt, out});
}

absl::StatusOr<std::vector<TensorType>> QnnBinaryRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "a"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "b"));
  for (int i = 2; i < 8; ++i) RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
  ASSIGN_OR_RETURN(Shape out, BroadcastShapes(t[0].shape, t[1].shape));
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "out_dtype", t[0].dtype));
  return One({dt, out});
}

// Q(global_avg_pool2d(DQ(x))): 8-bit data, per-tensor parameters.
absl::StatusOr<std::vector<TensorType>> QnnGlobalPoolRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  const bool byte = t[0].dtype == DType::kU8 || t[0].dtype == DType::kI8;
  if (!byte) return absl::InvalidArgumentError(absl::StrCat("data must be u8 or i8, got ", t[0].ToString()));
  for (int i = 1; i < 5; ++i) {
    RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
    if (t[i].shape.size() == 1 && t[i].shape[0] != 1) {
      return absl::InvalidArgumentError("quantization parameters must be per-tensor");
    }
  }
  ASSIGN_OR_RETURN(Shape out, internal::GlobalPoolShape(t[0], in.node));
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "out_dtype", t[0].dtype));
  if (dt != DType::kU8 && dt != DType::kI8) return absl::InvalidArgumentError("out_dtype must be u8 or i8");
  return One({dt, out});
}

absl::StatusOr<std::vector<TensorType>> LookupRel(const TypeRelationInput& in) {
  const TensorType& x = in.inputs[0];
  const TensorType& table = in.inputs[1];
  const bool byte = [](DType d) { return d == DType::kU8 || d == DType::kI8; }(x.dtype);
  if (!byte || (table.dtype != DType::kU8 && table.dtype != DType::kI8) || table.shape != Shape{256}) {
    return absl::InvalidArgumentError(absl::StrCat("needs 8-bit data and a table of 256 8-bit values, got ",
                                                   x.ToString(), " and ", table.ToString()));
  }
  return One({table.dtype, x.shape});
}

absl::StatusOr<std::vector<TensorType>> QnnConcatRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  int64_t total = static_cast<int64_t>(t.size());
  if ((total - 2) % 3 != 0 || total < 5) {
    return absl::InvalidArgumentError(
        "takes n data inputs, n scales, n zero points, then the output scale and zero point");
  }
  int64_t n = (total - 2) / 3;
  for (int64_t i = n; i < total; ++i) RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
  ASSIGN_OR_RETURN(std::string layout, in.node.attrs().GetString("layout", "NCHW"));
  if (layout != "NCHW") {
    // Channel concat of NCHW{k}c tensors holding `channels` real channels
    // each (AlterOpLayout): the result packs them densely into
    // ceil(sum / k) blocks, padding lanes 0.
    const int64_t k = ChannelBlock(layout);
    ASSIGN_OR_RETURN(auto channels, in.node.attrs().GetInts("channels"));
    if (k == 0 || static_cast<int64_t>(channels.size()) != n) {
      return absl::InvalidArgumentError(absl::StrCat("layout ", layout, " needs a block and ", n,
                                                     " channel counts"));
    }
    int64_t sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const TensorType& x = t[i];
      if (x.dtype != t[0].dtype || x.rank() != 5 || x.shape[4] != k || x.shape[0] != t[0].shape[0] ||
          x.shape[2] != t[0].shape[2] || x.shape[3] != t[0].shape[3] || channels[i] < 1 ||
          channels[i] > x.shape[1] * k || channels[i] <= (x.shape[1] - 1) * k) {
        return absl::InvalidArgumentError(absl::StrCat("input ", i, " ", x.ToString(), " does not hold ",
                                                       channels[i], " channels in ", layout, " like input 0"));
      }
      sum += channels[i];
    }
    return One({t[0].dtype, {t[0].shape[0], (sum + k - 1) / k, t[0].shape[2], t[0].shape[3], k}});
  }
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(in.node));
  ASSIGN_OR_RETURN(int64_t a, axis.AxisFor(t[0].rank()));
  Shape out = t[0].shape;
  for (int64_t i = 1; i < n; ++i) {
    if (t[i].dtype != t[0].dtype || t[i].rank() != t[0].rank()) {
      return absl::InvalidArgumentError(absl::StrCat("input ", i, " ", t[i].ToString(),
                                                     " does not match ", t[0].ToString()));
    }
    for (int64_t d = 0; d < t[0].rank(); ++d) {
      if (d != a && t[i].shape[d] != out[d]) {
        return absl::InvalidArgumentError(absl::StrCat("input ", i, " ", t[i].ToString(),
                                                       " differs from ", t[0].ToString(),
                                                       " outside axis ", a));
      }
    }
    out[a] += t[i].shape[a];
  }
  return One({t[0].dtype, out});
}

absl::StatusOr<std::vector<TensorType>> FixedPointMultiplyRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(internal::ExpectDType(t[0], DType::kI32, "data"));
  RETURN_IF_ERROR(internal::ExpectDType(t[1], DType::kI32, "multiplier"));
  RETURN_IF_ERROR(internal::ExpectDType(t[2], DType::kI32, "shift"));
  ASSIGN_OR_RETURN(const FixedPointMultiplyView view, FixedPointMultiplyView::Of(in.node));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[1], view.axis, "multiplier"));
  RETURN_IF_ERROR(CheckPerChannel(t[0], t[2], view.axis, "shift"));
  if (view.rounding == tensor::Rounding::kFloatToNearestEven) {
    return absl::InvalidArgumentError(absl::StrCat("rounding must be UPWARD or TONEAREST, got '",
                                                   tensor::RoundingName(view.rounding), "'"));
  }
  return One(t[0]);
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

absl::StatusOr<std::vector<TensorType>> DynamicQuantizeRel(const TypeRelationInput& in) {
  RETURN_IF_ERROR(ExpectFloat(in.inputs[0], "data"));
  if (in.inputs.size() > 1 &&
      (in.inputs[1].dtype != DType::kF32 || in.inputs[1].shape != Shape{2})) {
    return absl::InvalidArgumentError(
        absl::StrCat("range must be f32[2] (min, max), got ", in.inputs[1].ToString()));
  }
  return std::vector<TensorType>{{DType::kU8, in.inputs[0].shape}, {DType::kF32, {}},
                                 {DType::kU8, {}}};
}

}  // namespace

void RegisterQnnOps(OpRegistry& r) {
  RegisterOrDie(r, {"qnn.quantize", 3, 3, 1, QuantizeRel,
                    "(data f32, scale, zero_point) {axis=1, out_dtype}"});
  RegisterOrDie(r, {"qnn.dequantize", 3, 3, 1, DequantizeRel,
                    "(data int, scale, zero_point) {axis=1} -> f32"});
  RegisterOrDie(r, {"qnn.requantize", 5, 5, 1, RequantizeRel,
                    "(data int, input_scale, input_zero_point, output_scale, output_zero_point) "
                    "{axis=1, out_dtype, rounding=TONEAREST_EVEN, clamp_min, clamp_max}"});
  RegisterOrDie(r, {"qnn.conv2d", 6, 6, 1, QnnConv2DRel,
                    "(data, weight, input_zero_point, kernel_zero_point, input_scale, "
                    "kernel_scale) {strides, padding, dilation, groups, data_layout, "
                    "kernel_layout, out_dtype=i32}"});
  RegisterOrDie(r, {"qnn.dense", 6, 6, 1, QnnDenseRel,
                    "(data [M,K], weight [N,K], input_zero_point, kernel_zero_point, "
                    "input_scale, kernel_scale) {out_dtype=i32}"});
  RegisterOrDie(r, {"qnn.matmul", 6, 6, 1, QnnMatMulRel,
                    "(a, b, a_zero_point, b_zero_point, a_scale, b_scale) numpy batching -> i32"});
  RegisterOrDie(r, {"qnn.add", 8, 8, 1, QnnBinaryRel,
                    "(a, b, a_scale, a_zero_point, b_scale, b_zero_point, output_scale, "
                    "output_zero_point) {out_dtype}"});
  RegisterOrDie(r, {"qnn.mul", 8, 8, 1, QnnBinaryRel,
                    "(a, b, a_scale, a_zero_point, b_scale, b_zero_point, output_scale, "
                    "output_zero_point) {out_dtype}"});
  RegisterOrDie(r, {"qnn.global_avg_pool2d", 5, 5, 1, QnnGlobalPoolRel,
                    "(data u8|i8, input_scale, input_zero_point, output_scale, output_zero_point) "
                    "{layout NCHW, NHWC or NCHW{k}c, out_dtype}: quantize(global_avg_pool2d("
                    "dequantize(data))) in float32, as the three ops compute it"});
  RegisterOrDie(r, {"qnn.lookup", 2, 2, 1, LookupRel,
                    "(data u8|i8, table [256] u8|i8): out = table[byte of data]; an element-wise "
                    "function of 8-bit data, tabulated by FuseLookup"});
  RegisterOrDie(r, {"qnn.concat", 5, -1, 1, QnnConcatRel,
                    "(x_1..x_n, scale_1..scale_n, zero_point_1..zero_point_n, output_scale, "
                    "output_zero_point) {axis=1, layout=NCHW, channels}: layout NCHW{k}c "
                    "concatenates the channels (channels: the real ones of each input) into "
                    "ceil(sum / k) blocks"});
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
  RegisterOrDie(r, {"fixed_point_multiply", 3, 3, 1, FixedPointMultiplyRel,
                    "(data i32, multiplier i32, shift i32) {axis=1, rounding UPWARD|TONEAREST}: "
                    "data * multiplier * 2^(shift-31), rounded"});
  RegisterOrDie(r, {"qnn.dynamic_quantize", 1, 2, 3, DynamicQuantizeRel,
                    "(data f32, [range f32[2]: data's (min(0, min), max(0, max)), from its "
                    "producer]) -> (u8 data, f32 scale, u8 zero_point), as "
                    "DynamicQuantizeLinear"});
}

}  // namespace qnnc::ir
