// Converters of ONNX Runtime's quantized contrib ops (domain com.microsoft),
// which its quantizer emits in QOperator format. Add, Mul and Concat map to
// the qnn ops of the same arithmetic; the others become dequantize -> float
// op -> quantize, the form QDQ models have, for the same passes and kernels.
#include "absl/strings/str_cat.h"
#include "frontend/onnx/converter_util.h"
#include "frontend/onnx/op_converters.h"
#include "frontend/onnx/window_attrs.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

using tensor::DType;

absl::StatusOr<ir::Value*> Dequantize(NodeContext& ctx, int x, int scale, int zp) {
  ASSIGN_OR_RETURN(ir::Value * q, ctx.Required(x));
  ASSIGN_OR_RETURN(ir::Value * s, ctx.Required(scale));
  ir::Attrs attrs;
  attrs.Set("axis", int64_t{1});
  return ctx.Emit("qnn.dequantize", {q, s, ZeroPointOr(ctx, zp, q->type()->dtype)}, attrs);
}

// Quantizes y to the (scale, zero point) at inputs `scale` and `zp`; without
// a zero point, to the dtype of input `like`.
absl::StatusOr<ir::Value*> Quantize(NodeContext& ctx, ir::Value* y, int scale, int zp, int like) {
  ASSIGN_OR_RETURN(ir::Value * s, ctx.Required(scale));
  ir::Value* z = ZeroPointOr(ctx, zp, ctx.type(like).dtype);
  ir::Attrs attrs;
  attrs.Set("axis", int64_t{1});
  attrs.Set("out_dtype", std::string(tensor::DTypeName(z->type()->dtype)));
  return ctx.Emit("qnn.quantize", {y, s, z}, attrs);
}

// QLinearAdd / QLinearMul (A, A_scale, A_zp, B, B_scale, B_zp, C_scale, C_zp).
template <const char* kOp>
Outputs QLinearBinary(NodeContext& ctx) {
  std::vector<ir::Value*> in;
  for (int i : {0, 3, 1}) {
    ASSIGN_OR_RETURN(ir::Value * v, ctx.Required(i));
    in.push_back(v);
  }
  const DType dtype = ctx.type(0).dtype;
  in.push_back(ZeroPointOr(ctx, 2, dtype));
  ASSIGN_OR_RETURN(ir::Value * bs, ctx.Required(4));
  in.push_back(bs);
  in.push_back(ZeroPointOr(ctx, 5, ctx.type(3).dtype));
  ASSIGN_OR_RETURN(ir::Value * cs, ctx.Required(6));
  in.push_back(cs);
  ir::Value* cz = ZeroPointOr(ctx, 7, dtype);
  in.push_back(cz);
  ir::Attrs attrs;
  attrs.Set("out_dtype", std::string(tensor::DTypeName(cz->type()->dtype)));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit(kOp, in, attrs));
  return One(y);
}

// QLinearConcat (Y_scale, Y_zp, then X_i, X_i_scale, X_i_zp for each input).
Outputs QLinearConcat(NodeContext& ctx) {
  const int n = (ctx.num_inputs() - 2) / 3;
  if (n < 1 || ctx.num_inputs() != 2 + 3 * n) {
    return absl::InvalidArgumentError(
        absl::StrCat("needs Y_scale, Y_zero_point and a (data, scale, zero point) triple per "
                     "input, got ", ctx.num_inputs(), " inputs"));
  }
  if (ctx.attr("axis") == nullptr) return absl::InvalidArgumentError("missing attribute 'axis'");
  ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 0));
  std::vector<ir::Value*> data, scales, zps;
  for (int i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(2 + 3 * i));
    ASSIGN_OR_RETURN(ir::Value * s, ctx.Required(3 + 3 * i));
    data.push_back(x);
    scales.push_back(s);
    zps.push_back(ZeroPointOr(ctx, 4 + 3 * i, x->type()->dtype));
  }
  std::vector<ir::Value*> in = data;
  in.insert(in.end(), scales.begin(), scales.end());
  in.insert(in.end(), zps.begin(), zps.end());
  ASSIGN_OR_RETURN(ir::Value * ys, ctx.Required(0));
  in.push_back(ys);
  in.push_back(ZeroPointOr(ctx, 1, ctx.type(2).dtype));
  ir::Attrs attrs;
  attrs.Set("axis", axis);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("qnn.concat", in, attrs));
  return One(y);
}

// (X, X_scale, X_zp, Y_scale, Y_zp) around one float op.
absl::StatusOr<ir::Value*> AroundFloat(NodeContext& ctx, const std::string& op, ir::Attrs attrs) {
  ASSIGN_OR_RETURN(int64_t channels_last, ctx.AttrInt("channels_last", 0));
  if (channels_last != 0) return absl::UnimplementedError("channels_last is not supported");
  ASSIGN_OR_RETURN(ir::Value * x, Dequantize(ctx, 0, 1, 2));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit(op, {x}, std::move(attrs)));
  return Quantize(ctx, y, 3, 4, 0);
}

Outputs QLinearSigmoid(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * y, AroundFloat(ctx, "sigmoid", {}));
  return One(y);
}

Outputs QLinearLeakyRelu(NodeContext& ctx) {
  ASSIGN_OR_RETURN(float alpha, ctx.AttrFloat("alpha", 0.01f));
  ir::Attrs attrs;
  attrs.Set("alpha", static_cast<double>(alpha));
  ASSIGN_OR_RETURN(ir::Value * y, AroundFloat(ctx, "leaky_relu", std::move(attrs)));
  return One(y);
}

Outputs QLinearGlobalAveragePool(NodeContext& ctx) {
  if (ctx.num_inputs() < 1 || !ctx.has_input(0) || ctx.type(0).rank() != 4) {
    return absl::UnimplementedError("only 2-D (NCHW) data is supported");
  }
  ASSIGN_OR_RETURN(ir::Value * y, AroundFloat(ctx, "nn.global_avg_pool2d", {}));
  return One(y);
}

Outputs QLinearAveragePool(NodeContext& ctx) {
  if (!ctx.has_input(0)) return absl::InvalidArgumentError("input 0 (X) is missing");
  ASSIGN_OR_RETURN(ir::Attrs attrs, AveragePoolAttrs(ctx));
  ASSIGN_OR_RETURN(ir::Value * y, AroundFloat(ctx, "nn.avg_pool2d", std::move(attrs)));
  return One(y);
}

constexpr char kQnnAdd[] = "qnn.add", kQnnMul[] = "qnn.mul";

}  // namespace

void RegisterMicrosoftConverters(ConverterTable& t) {
  t["QLinearAdd"] = QLinearBinary<kQnnAdd>;
  t["QLinearMul"] = QLinearBinary<kQnnMul>;
  t["QLinearConcat"] = QLinearConcat;
  t["QLinearSigmoid"] = QLinearSigmoid;
  t["QLinearLeakyRelu"] = QLinearLeakyRelu;
  t["QLinearGlobalAveragePool"] = QLinearGlobalAveragePool;
  t["QLinearAveragePool"] = QLinearAveragePool;
}

}  // namespace qnnc::frontend::onnx
