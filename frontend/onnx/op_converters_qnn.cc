// Converters of QuantizeLinear, DequantizeLinear and the QOperator/integer
// ops (QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger,
// DynamicQuantizeLinear).
#include <cstring>

#include "absl/strings/str_cat.h"
#include "frontend/onnx/converter_util.h"
#include "frontend/onnx/op_converters.h"
#include "frontend/onnx/window_attrs.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

using tensor::DType;

Outputs QuantizeLinear(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * scale, ctx.Required(1));
  ir::Value* zp = ZeroPointOr(ctx, 2, DType::kU8);
  ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 1));
  ir::Attrs attrs;
  attrs.Set("axis", axis);
  attrs.Set("out_dtype", std::string(tensor::DTypeName(zp->type()->dtype)));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("qnn.quantize", {x, scale, zp}, attrs));
  return One(y);
}

Outputs DequantizeLinear(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * scale, ctx.Required(1));
  ir::Value* zp = ZeroPointOr(ctx, 2, ctx.type(0).dtype);
  ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 1));
  ir::Attrs attrs;
  attrs.Set("axis", axis);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("qnn.dequantize", {x, scale, zp}, attrs));
  return One(y);
}

// a_scale * b_scale as the requantize input scale: a float32 constant (one
// value per channel when either is per-channel) or a multiply op.
absl::StatusOr<ir::Value*> ProductScale(NodeContext& ctx, ir::Value* a, ir::Value* b) {
  if (!a->is_constant() || !b->is_constant() || a->type()->dtype != DType::kF32 ||
      b->type()->dtype != DType::kF32) {
    return ctx.Emit("multiply", {a, b});
  }
  const tensor::Tensor& ta = a->data();
  const tensor::Tensor& tb = b->data();
  int64_t n = std::max(ta.num_elements(), tb.num_elements());
  if ((ta.num_elements() != 1 && ta.num_elements() != n) ||
      (tb.num_elements() != 1 && tb.num_elements() != n)) {
    return absl::InvalidArgumentError(absl::StrCat("scales of ", ta.num_elements(), " and ",
                                                   tb.num_elements(), " values do not match"));
  }
  std::vector<float> p(n);
  for (int64_t i = 0; i < n; ++i) {
    p[i] = ta.data<float>()[ta.num_elements() == 1 ? 0 : i] *
           tb.data<float>()[tb.num_elements() == 1 ? 0 : i];
  }
  if (n == 1) return ctx.Scalar<float>(p[0]);
  return ctx.Constant(tensor::Tensor::FromVector<float>({n}, p));
}

// acc (i32) -> out_dtype of (y_scale, y_zp) through qnn.requantize.
absl::StatusOr<ir::Value*> Requantize(NodeContext& ctx, ir::Value* acc, ir::Value* in_scale,
                                      int y_scale, int y_zp, int64_t axis) {
  ASSIGN_OR_RETURN(ir::Value * ys, ctx.Required(y_scale));
  ir::Value* yz = ZeroPointOr(ctx, y_zp, DType::kU8);
  ir::Attrs attrs;
  attrs.Set("axis", axis);
  attrs.Set("out_dtype", std::string(tensor::DTypeName(yz->type()->dtype)));
  return ctx.Emit("qnn.requantize", {acc, in_scale, ctx.Scalar<int32_t>(0), ys, yz}, attrs);
}

Outputs QLinearConv(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * xs, ctx.Required(1));
  ASSIGN_OR_RETURN(ir::Value * w, ctx.Required(3));
  ASSIGN_OR_RETURN(ir::Value * ws, ctx.Required(4));
  ir::Value* xz = ZeroPointOr(ctx, 2, ctx.type(0).dtype);
  ir::Value* wz = ZeroPointOr(ctx, 5, ctx.type(3).dtype);
  ASSIGN_OR_RETURN(ir::Attrs attrs, ConvAttrs(ctx, ctx.type(0), ctx.type(3)));
  ASSIGN_OR_RETURN(ir::Value * acc, ctx.Emit("qnn.conv2d", {x, w, xz, wz, xs, ws}, attrs));
  if (ctx.has_input(8)) {
    ir::Attrs bias_attrs;
    bias_attrs.Set("axis", int64_t{1});
    ASSIGN_OR_RETURN(acc, ctx.Emit("nn.bias_add", {acc, ctx.input(8)}, bias_attrs));
  }
  ASSIGN_OR_RETURN(ir::Value * in_scale, ProductScale(ctx, xs, ws));
  ASSIGN_OR_RETURN(ir::Value * y, Requantize(ctx, acc, in_scale, 6, 7, 1));
  return One(y);
}

Outputs QLinearMatMul(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * a, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * as, ctx.Required(1));
  ASSIGN_OR_RETURN(ir::Value * b, ctx.Required(3));
  ASSIGN_OR_RETURN(ir::Value * bs, ctx.Required(4));
  ir::Value* az = ZeroPointOr(ctx, 2, ctx.type(0).dtype);
  ir::Value* bz = ZeroPointOr(ctx, 5, ctx.type(3).dtype);
  ASSIGN_OR_RETURN(ir::Value * acc, ctx.Emit("qnn.matmul", {a, b, az, bz, as, bs}));
  ASSIGN_OR_RETURN(ir::Value * in_scale, ProductScale(ctx, as, bs));
  ASSIGN_OR_RETURN(ir::Value * y, Requantize(ctx, acc, in_scale, 6, 7, -1));
  return One(y);
}

Outputs ConvInteger(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * w, ctx.Required(1));
  ir::Value* xz = ZeroPointOr(ctx, 2, ctx.type(0).dtype);
  ir::Value* wz = ZeroPointOr(ctx, 3, ctx.type(1).dtype);
  ASSIGN_OR_RETURN(ir::Attrs attrs, ConvAttrs(ctx, ctx.type(0), ctx.type(1)));
  ir::Value* one = ctx.Scalar<float>(1.0f);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("qnn.conv2d", {x, w, xz, wz, one, one}, attrs));
  return One(y);
}

// b [K, N] as the [N, K] weight of a dense layer (any dtype).
tensor::Tensor Transposed(const tensor::Tensor& b) {
  const int64_t k = b.dim(0), n = b.dim(1);
  const size_t es = tensor::DTypeSize(b.dtype());
  tensor::Tensor t = tensor::Tensor::Zeros(b.dtype(), {n, k});
  const auto* src = static_cast<const uint8_t*>(b.raw_data());
  auto* dst = static_cast<uint8_t*>(t.raw_data());
  for (int64_t i = 0; i < k; ++i) {
    for (int64_t j = 0; j < n; ++j) std::memcpy(dst + (j * k + i) * es, src + (i * n + j) * es, es);
  }
  return t;
}

// A [M, K] x constant [K, N] is a dense layer (qnn.dense: weight [N, K], the
// zero point per output column): a tunable op, decided like a convolution.
// Other shapes stay qnn.matmul.
Outputs MatMulInteger(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * a, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * b, ctx.Required(1));
  ir::Value* az = ZeroPointOr(ctx, 2, ctx.type(0).dtype);
  ir::Value* bz = ZeroPointOr(ctx, 3, ctx.type(1).dtype);
  ir::Value* one = ctx.Scalar<float>(1.0f);
  if (b->is_constant() && ctx.type(1).rank() == 2 && ctx.type(0).rank() == 2 && bz->is_constant() &&
      bz->type()->rank() <= 1) {
    ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("qnn.dense", {a, ctx.Constant(Transposed(b->data())), az,
                                                          bz, one, one}));
    return One(y);
  }
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("qnn.matmul", {a, b, az, bz, one, one}));
  return One(y);
}

Outputs DynamicQuantizeLinear(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Node * n, ctx.EmitNode("qnn.dynamic_quantize", {x}, {}, 3));
  return n->outputs();
}

}  // namespace

void RegisterQnnConverters(ConverterTable& t) {
  t["QuantizeLinear"] = QuantizeLinear;
  t["DequantizeLinear"] = DequantizeLinear;
  t["QLinearConv"] = QLinearConv;
  t["QLinearMatMul"] = QLinearMatMul;
  t["ConvInteger"] = ConvInteger;
  t["MatMulInteger"] = MatMulInteger;
  t["DynamicQuantizeLinear"] = DynamicQuantizeLinear;
}

}  // namespace qnnc::frontend::onnx
