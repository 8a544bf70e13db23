#include "frontend/onnx/converter_util.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {

absl::StatusOr<std::vector<int64_t>> IntValues(const tensor::Tensor& t, const char* what) {
  if (t.dtype() != tensor::DType::kI64 && t.dtype() != tensor::DType::kI32) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be int64, got ",
                                                   tensor::DTypeName(t.dtype())));
  }
  std::vector<int64_t> out(t.num_elements());
  for (int64_t i = 0; i < t.num_elements(); ++i) out[i] = t.GetAsInt(i);
  return out;
}

absl::StatusOr<const tensor::Tensor*> ConstantInput(const NodeContext& ctx, int i,
                                                    const char* what) {
  if (!ctx.has_input(i)) {
    return absl::InvalidArgumentError(absl::StrCat("input ", i, " (", what, ") is missing"));
  }
  const tensor::Tensor* t = ctx.constant(i);
  if (t == nullptr) {
    return absl::UnimplementedError(absl::StrCat("input ", i, " (", what, ") must be a constant"));
  }
  return t;
}

absl::StatusOr<std::vector<int64_t>> IntsInputOrAttr(const NodeContext& ctx, int input, int since,
                                                     const char* name, bool* present) {
  bool given = false;
  if (ctx.opset() < since) {
    given = ctx.attr(name) != nullptr;
    if (present) *present = given;
    return ctx.AttrInts(name);
  }
  given = ctx.has_input(input);
  if (present) *present = given;
  if (!given) return std::vector<int64_t>{};
  ASSIGN_OR_RETURN(const tensor::Tensor* t, ConstantInput(ctx, input, name));
  return IntValues(*t, name);
}

ir::Value* ZeroPointOr(NodeContext& ctx, int i, tensor::DType dtype) {
  if (ctx.has_input(i)) return ctx.input(i);
  return ctx.Constant(tensor::Tensor::Zeros(dtype, {}));
}

absl::StatusOr<ir::Value*> EmitReshape(NodeContext& ctx, ir::Value* x, std::vector<int64_t> shape) {
  ir::Attrs attrs;
  attrs.Set("newshape", std::move(shape));
  return ctx.Emit("reshape", {x}, attrs);
}

absl::StatusOr<int64_t> Axis(int64_t axis, int64_t rank) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    return absl::InvalidArgumentError(absl::StrCat("axis ", axis, " is out of range for rank ", rank));
  }
  return a;
}

tensor::Tensor Filled(const tensor::Tensor& value, const tensor::Shape& shape) {
  tensor::Tensor out = tensor::Tensor::Zeros(value.dtype(), shape);
  const size_t size = tensor::DTypeSize(value.dtype());
  auto* dst = static_cast<uint8_t*>(out.raw_data());
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    std::memcpy(dst + i * size, value.raw_data(), size);
  }
  return out;
}

}  // namespace qnnc::frontend::onnx
