// Type relations and registration of the quantization ops: qnn.quantize,
// qnn.dequantize, qnn.requantize, fixed_point_multiply and
// qnn.dynamic_quantize.
#include "absl/strings/str_cat.h"
#include "ir/elementwise_views.h"
#include "ir/op_registry.h"
#include "ir/op_views.h"
#include "ir/type_relation_util.h"
#include "tensor/rounding.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::DTypeAttr;
using internal::ExpectFloat;
using internal::ExpectInteger;
using internal::ExpectQuantParam;
using internal::NormalizeAxis;
using internal::One;
using internal::RegisterOrDie;

// Scales and zero points are inputs, so they may be constants or computed at
// run time; each is a scalar or 1-D (per-channel along `axis`).

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

void RegisterQuantizeOps(OpRegistry& r) {
  RegisterOrDie(r, {"qnn.quantize", 3, 3, 1, QuantizeRel,
                    "(data f32, scale, zero_point) {axis=1, out_dtype}", 1});
  RegisterOrDie(r, {"qnn.dequantize", 3, 3, 1, DequantizeRel,
                    "(data int, scale, zero_point) {axis=1} -> f32", 1});
  RegisterOrDie(r, {"qnn.requantize", 5, 5, 1, RequantizeRel,
                    "(data int, input_scale, input_zero_point, output_scale, output_zero_point) "
                    "{axis=1, out_dtype, rounding=TONEAREST_EVEN, clamp_min, clamp_max}", 1});
  RegisterOrDie(r, {"fixed_point_multiply", 3, 3, 1, FixedPointMultiplyRel,
                    "(data i32, multiplier i32, shift i32) {axis=1, rounding UPWARD|TONEAREST}: "
                    "data * multiplier * 2^(shift-31), rounded", 1});
  RegisterOrDie(r, {"qnn.dynamic_quantize", 1, 2, 3, DynamicQuantizeRel,
                    "(data f32, [range f32[2]: data's (min(0, min), max(0, max)), from its "
                    "producer]) -> (u8 data, f32 scale, u8 zero_point), as "
                    "DynamicQuantizeLinear"});
}

}  // namespace qnnc::ir
