// Converters of the float activations that have one IR op each (Tanh, Erf,
// LeakyRelu, HardSigmoid, HardSwish, Softmax), so that kernels can bind to
// them by name.
#include "absl/strings/str_cat.h"
#include "frontend/onnx/converter_util.h"
#include "frontend/onnx/op_converters.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

Outputs Tanh(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("tanh", {x}));
  return One(y);
}

Outputs Erf(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("erf", {x}));
  return One(y);
}

Outputs HardSwish(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("hard_swish", {x}));
  return One(y);
}

Outputs LeakyRelu(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(float alpha, ctx.AttrFloat("alpha", 0.01f));
  ir::Attrs attrs;
  attrs.Set("alpha", static_cast<double>(alpha));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("leaky_relu", {x}, attrs));
  return One(y);
}

Outputs HardSigmoid(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(float alpha, ctx.AttrFloat("alpha", 0.2f));
  ASSIGN_OR_RETURN(float beta, ctx.AttrFloat("beta", 0.5f));
  ir::Attrs attrs;
  attrs.Set("alpha", static_cast<double>(alpha));
  attrs.Set("beta", static_cast<double>(beta));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("hard_sigmoid", {x}, attrs));
  return One(y);
}

// Softmax-13 normalizes along `axis` (default -1). Before opset 13 the input
// is seen as 2-D [d_0 * ... * d_{axis-1}, d_axis * ... ] (default axis 1):
// a reshape, a softmax over the second dimension, and a reshape back.
Outputs Softmax(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  const tensor::Shape& shape = ctx.type(0).shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", ctx.opset() < 13 ? 1 : -1));
  ASSIGN_OR_RETURN(int64_t a, Axis(axis, rank));
  ir::Attrs attrs;
  if (ctx.opset() >= 13 || a == rank - 1) {
    attrs.Set("axis", a);
    ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("softmax", {x}, attrs));
    return One(y);
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < a ? outer : inner) *= shape[d];
  ASSIGN_OR_RETURN(ir::Value * flat, EmitReshape(ctx, x, {outer, inner}));
  attrs.Set("axis", int64_t{1});
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("softmax", {flat}, attrs));
  ASSIGN_OR_RETURN(ir::Value * out, EmitReshape(ctx, y, shape));
  return One(out);
}

}  // namespace

void RegisterActivationConverters(ConverterTable& t) {
  t["Tanh"] = Tanh;
  t["Erf"] = Erf;
  t["LeakyRelu"] = LeakyRelu;
  t["HardSigmoid"] = HardSigmoid;
  t["HardSwish"] = HardSwish;
  t["Softmax"] = Softmax;
}

}  // namespace qnnc::frontend::onnx
