// Type relations and registration of the quantized element-wise ops:
// qnn.add, qnn.mul and qnn.lookup.
#include "absl/strings/str_cat.h"
#include "ir/op_registry.h"
#include "ir/type_relation_util.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::BroadcastShapes;
using internal::DTypeAttr;
using internal::ExpectInteger;
using internal::ExpectQuantParam;
using internal::One;
using internal::RegisterOrDie;

absl::StatusOr<std::vector<TensorType>> QnnBinaryRel(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  RETURN_IF_ERROR(ExpectInteger(t[0], "a"));
  RETURN_IF_ERROR(ExpectInteger(t[1], "b"));
  for (int i = 2; i < 8; ++i) RETURN_IF_ERROR(ExpectQuantParam(t[i], "quantization parameter"));
  ASSIGN_OR_RETURN(Shape out, BroadcastShapes(t[0].shape, t[1].shape));
  ASSIGN_OR_RETURN(DType dt, DTypeAttr(in.node, "out_dtype", t[0].dtype));
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

}  // namespace

void RegisterQnnElementwiseOps(OpRegistry& r) {
  RegisterOrDie(r, {"qnn.add", 8, 8, 1, QnnBinaryRel,
                    "(a, b, a_scale, a_zero_point, b_scale, b_zero_point, output_scale, "
                    "output_zero_point) {out_dtype}", 2});
  RegisterOrDie(r, {"qnn.mul", 8, 8, 1, QnnBinaryRel,
                    "(a, b, a_scale, a_zero_point, b_scale, b_zero_point, output_scale, "
                    "output_zero_point) {out_dtype}", 2});
  RegisterOrDie(r, {"qnn.lookup", 2, 2, 1, LookupRel,
                    "(data u8|i8, table [256] u8|i8): out = table[byte of data]; an element-wise "
                    "function of 8-bit data, tabulated by FuseLookup", 1});
}

}  // namespace qnnc::ir
