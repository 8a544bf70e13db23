// Type relations and registration of the float element-wise ops: the binary
// ops, the activations, softmax, clip and cast.
#include "absl/strings/str_cat.h"
#include "ir/elementwise_views.h"
#include "ir/op_registry.h"
#include "ir/op_views.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::DTypeAttr;
using internal::ExpectFloat;
using internal::One;
using internal::RegisterOrDie;

absl::StatusOr<std::vector<TensorType>> BinaryRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  if (t[0].dtype != t[1].dtype) {
    return absl::InvalidArgumentError(
        absl::StrCat("operands differ in dtype: ", t[0].ToString(), " and ", t[1].ToString()));
  }
  ASSIGN_OR_RETURN(Shape out, internal::BroadcastShapes(t[0].shape, t[1].shape));
  return One({t[0].dtype, out});
}

absl::StatusOr<std::vector<TensorType>> SameTypeRel(const TypeRelationInput& in) {
  return One(in.inputs[0]);
}

absl::StatusOr<std::vector<TensorType>> FloatUnaryRel(const TypeRelationInput& in) {
  RETURN_IF_ERROR(ExpectFloat(in.inputs[0], "data"));
  return One(in.inputs[0]);
}

absl::StatusOr<std::vector<TensorType>> ClipRel(const TypeRelationInput& in) {
  RETURN_IF_ERROR(ClipView::Of(in.node).status());
  return One(in.inputs[0]);
}

absl::StatusOr<std::vector<TensorType>> CastRel(const TypeRelationInput& in) {
  if (!in.node.attrs().Has("dtype")) return absl::InvalidArgumentError("missing attribute 'dtype'");
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "dtype", DType::kF32));
  return One({dt, in.inputs[0].shape});
}

absl::StatusOr<std::vector<TensorType>> SoftmaxRel(const TypeRelationInput& in) {
  RETURN_IF_ERROR(ExpectFloat(in.inputs[0], "data"));
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(in.node));
  RETURN_IF_ERROR(axis.AxisFor(in.inputs[0].rank()).status());
  return One(in.inputs[0]);
}

}  // namespace

void RegisterElementwiseOps(OpRegistry& r) {
  for (const char* op : {"add", "subtract", "multiply", "divide", "maximum", "minimum"}) {
    RegisterOrDie(r, {op, 2, 2, 1, BinaryRel, "(a, b) numpy broadcasting, same dtype", 2});
  }
  RegisterOrDie(r, {"relu", 1, 1, 1, SameTypeRel, "(data)", 1});
  RegisterOrDie(r, {"sigmoid", 1, 1, 1, FloatUnaryRel, "(data f32)", 1});
  RegisterOrDie(r, {"round", 1, 1, 1, FloatUnaryRel, "(data f32) half to even", 1});
  RegisterOrDie(r, {"tanh", 1, 1, 1, FloatUnaryRel, "(data f32)", 1});
  RegisterOrDie(r, {"erf", 1, 1, 1, FloatUnaryRel, "(data f32) the error function", 1});
  RegisterOrDie(r, {"leaky_relu", 1, 1, 1, FloatUnaryRel, "(data f32) {alpha=0.01}: x < 0 ? alpha*x : x", 1});
  RegisterOrDie(r, {"hard_sigmoid", 1, 1, 1, FloatUnaryRel,
                    "(data f32) {alpha=0.2, beta=0.5}: max(0, min(1, alpha*x + beta))", 1});
  RegisterOrDie(r, {"hard_swish", 1, 1, 1, FloatUnaryRel, "(data f32): x * max(0, min(1, x/6 + 1/2))", 1});
  RegisterOrDie(r, {"softmax", 1, 1, 1, SoftmaxRel, "(data f32) {axis=-1}: exp(x - max) / sum"});
  RegisterOrDie(r, {"clip", 1, 1, 1, ClipRel, "(data) {min, max}", 1});
  RegisterOrDie(r, {"cast", 1, 1, 1, CastRel, "(data) {dtype}", 1});
}

}  // namespace qnnc::ir
