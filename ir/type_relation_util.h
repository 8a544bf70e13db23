// Helpers shared by the type relations of the built-in ops.
#ifndef QNNC_IR_TYPE_RELATION_UTIL_H_
#define QNNC_IR_TYPE_RELATION_UTIL_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/op_registry.h"
#include "ir/types.h"
#include "tensor/window.h"

namespace qnnc::ir::internal {

// Registers or aborts: only for the built-in ops, whose names are unique.
void RegisterOrDie(OpRegistry& registry, OpDef def);

absl::Status ExpectRank(const TensorType& t, int64_t rank, const char* what);
absl::Status ExpectDType(const TensorType& t, DType dtype, const char* what);
absl::Status ExpectInteger(const TensorType& t, const char* what);
absl::Status ExpectFloat(const TensorType& t, const char* what);
// A scale or zero point: a scalar, or 1-D (per-channel when longer than 1).
absl::Status ExpectQuantParam(const TensorType& t, const char* what);
// Numpy broadcasting of two shapes.
absl::StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b);
// Normalizes a possibly negative axis against `rank`.
absl::StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank);
absl::StatusOr<DType> DTypeAttr(const Node& node, const char* attr, DType dflt);
// The accumulator dtype of a float or integer conv, dense or matmul: the
// `out_dtype` attribute, by default f32 for float operands and i32 for
// integer ones; mixing the two is an error.
absl::StatusOr<DType> AccumulatorDType(const TypeRelationInput& in);
// Output spatial size of a window op (conv, pool): tensor/window.h.
using tensor::WindowOutputSize;
// Numpy matmul output shape (rank-1 operands promoted as numpy does).
absl::StatusOr<Shape> MatMulShape(const Shape& a, const Shape& b);
std::vector<TensorType> One(TensorType t);
// The shape a global pool gives `x` in the node's `layout` attribute (NCHW,
// NHWC or NCHW{k}c: H and W become 1).
absl::StatusOr<Shape> GlobalPoolShape(const TensorType& x, const Node& node);

}  // namespace qnnc::ir::internal

#endif  // QNNC_IR_TYPE_RELATION_UTIL_H_
