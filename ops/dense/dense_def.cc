// Type relations and registration of the dense ops: nn.dense, nn.matmul,
// nn.bias_add, qnn.dense and qnn.matmul.
#include "absl/strings/str_cat.h"
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
using internal::ExpectRank;
using internal::One;
using internal::RegisterOrDie;

absl::StatusOr<std::vector<TensorType>> DenseRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectRank(t[0], 2, "data"));
  RETURN_IF_ERROR(ExpectRank(t[1], 2, "weight"));
  if (t[0].shape[1] != t[1].shape[1]) {
    return absl::InvalidArgumentError(absl::StrCat("data ", t[0].ToString(), " and weight ",
                                                   t[1].ToString(), " disagree on K"));
  }
  ASSIGN_OR_RETURN(DType dt, AccumulatorDType(in));
  return One({dt, {t[0].shape[0], t[1].shape[0]}});
}

absl::StatusOr<std::vector<TensorType>> MatMulRel(const TypeRelationInput& in) {
  ASSIGN_OR_RETURN(DType dt, AccumulatorDType(in));
  ASSIGN_OR_RETURN(Shape out, internal::MatMulShape(in.inputs[0].shape, in.inputs[1].shape));
  return One({dt, out});
}

absl::StatusOr<std::vector<TensorType>> BiasAddRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectRank(t[1], 1, "bias"));
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(in.node));
  ASSIGN_OR_RETURN(int64_t a, axis.AxisFor(t[0].rank()));
  if (t[1].shape[0] != t[0].shape[a] || t[1].dtype != t[0].dtype) {
    return absl::InvalidArgumentError(absl::StrCat("bias ", t[1].ToString(), " does not match axis ",
                                                   a, " of ", t[0].ToString()));
  }
  return One(t[0]);
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

}  // namespace

void RegisterDenseOps(OpRegistry& r) {
  RegisterOrDie(r, {"nn.dense", 2, 2, 1, DenseRel, "(data [M,K], weight [N,K]) {out_dtype}"});
  RegisterOrDie(r, {"nn.matmul", 2, 2, 1, MatMulRel, "(a, b) numpy matmul {out_dtype}"});
  RegisterOrDie(r, {"nn.bias_add", 2, 2, 1, BiasAddRel, "(data, bias 1-D) {axis=1}"});
  RegisterOrDie(r, {"qnn.dense", 6, 6, 1, QnnDenseRel,
                    "(data [M,K], weight [N,K], input_zero_point, kernel_zero_point, "
                    "input_scale, kernel_scale) {out_dtype=i32}"});
  RegisterOrDie(r, {"qnn.matmul", 6, 6, 1, QnnMatMulRel,
                    "(a, b, a_zero_point, b_zero_point, a_scale, b_scale) numpy batching -> i32"});
}

}  // namespace qnnc::ir
