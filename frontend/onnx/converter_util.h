// Small helpers shared by the op converters.
#ifndef QNNC_FRONTEND_ONNX_CONVERTER_UTIL_H_
#define QNNC_FRONTEND_ONNX_CONVERTER_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "frontend/onnx/converter.h"
#include "tensor/tensor.h"

namespace qnnc::frontend::onnx {

using Outputs = absl::StatusOr<std::vector<ir::Value*>>;

inline Outputs One(ir::Value* v) { return std::vector<ir::Value*>{v}; }

// The values of an integer tensor (i32 or i64) as int64.
absl::StatusOr<std::vector<int64_t>> IntValues(const tensor::Tensor& t, const char* what);

// The data of constant input `i`, or UnimplementedError saying that `what`
// must be a constant.
absl::StatusOr<const tensor::Tensor*> ConstantInput(const NodeContext& ctx, int i,
                                                    const char* what);

// Input i (a zero point), or a scalar zero of `dtype` when the optional
// input is absent.
ir::Value* ZeroPointOr(NodeContext& ctx, int i, tensor::DType dtype);
// Integer values given as the attribute `name` before opset `since` and as
// the optional constant input `input` from it (Squeeze's axes, Slice's
// starts, Pad's pads); `present` says whether either was given (absent:
// empty).
absl::StatusOr<std::vector<int64_t>> IntsInputOrAttr(const NodeContext& ctx, int input, int since,
                                                     const char* name, bool* present = nullptr);
// x reshaped to `shape` (same element count).
absl::StatusOr<ir::Value*> EmitReshape(NodeContext& ctx, ir::Value* x, std::vector<int64_t> shape);
// `axis` of a tensor of `rank`, negative counted from the end; out of range
// is InvalidArgumentError.
absl::StatusOr<int64_t> Axis(int64_t axis, int64_t rank);
// A tensor of `dtype` and `shape` filled with element 0 of `value` (which
// must have that dtype).
tensor::Tensor Filled(const tensor::Tensor& value, const tensor::Shape& shape);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_CONVERTER_UTIL_H_
