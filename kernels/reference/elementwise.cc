#include "kernels/reference/elementwise.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using internal::ShapeStr;
using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

enum class Op { kAdd, kSubtract, kMultiply, kDivide, kMaximum, kMinimum };

const char* OpName(Op op) {
  switch (op) {
    case Op::kAdd:
      return "Add";
    case Op::kSubtract:
      return "Subtract";
    case Op::kMultiply:
      return "Multiply";
    case Op::kDivide:
      return "Divide";
    case Op::kMaximum:
      return "Maximum";
    case Op::kMinimum:
      return "Minimum";
  }
  return "?";
}

// One element; integers use wrapping uint64 arithmetic. Division by zero is
// checked by the caller.
template <typename T>
T Apply(Op op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case Op::kAdd:
        return a + b;
      case Op::kSubtract:
        return a - b;
      case Op::kMultiply:
        return a * b;
      case Op::kDivide:
        return a / b;
      case Op::kMaximum:
        return std::max(a, b);
      case Op::kMinimum:
        return std::min(a, b);
    }
  } else {
    const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    switch (op) {
      case Op::kAdd:
        return static_cast<T>(ua + ub);
      case Op::kSubtract:
        return static_cast<T>(ua - ub);
      case Op::kMultiply:
        return static_cast<T>(ua * ub);
      case Op::kDivide:
        if constexpr (std::is_signed_v<T>) {
          if (a == std::numeric_limits<T>::min() && b == -1) return a;  // wraps
        }
        return static_cast<T>(a / b);
      case Op::kMaximum:
        return std::max(a, b);
      case Op::kMinimum:
        return std::min(a, b);
    }
  }
  return T{};
}

absl::StatusOr<Tensor> Binary(Op op, const Tensor& a, const Tensor& b) {
  const char* kernel = OpName(op);
  RETURN_IF_ERROR(internal::CheckDefined(kernel, {&a, &b}));
  if (a.dtype() != b.dtype() || !internal::IsIntOrF32(a.dtype())) {
    return Error(kernel, "operands must have the same f32 or integer dtype, got ", Name(a.dtype()),
                 " and ", Name(b.dtype()));
  }
  ASSIGN_OR_RETURN(Shape shape, internal::BroadcastShapes(kernel, a.shape(), b.shape()));
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kernel, a.dtype(), shape));
  const std::vector<int64_t> sa = internal::BroadcastStrides(a.shape(), shape);
  const std::vector<int64_t> sb = internal::BroadcastStrides(b.shape(), shape);
  return internal::VisitNumeric(a.dtype(), [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_floating_point_v<T>) {
      if (op == Op::kDivide) {
        for (T v : b.span<T>()) {
          if (v == 0) return Error(kernel, "integer division by zero");
        }
      }
    }
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* po = out.data<T>();
    // The op chosen once, outside the loop, so the loop is one op's
    // (compile-time folding subtracts zero points from every weight).
    auto run = [&](auto op_tag) {
      constexpr Op kOp = decltype(op_tag)::value;
      internal::ForEachBroadcast(shape, sa, sb, [&](int64_t o, int64_t ia, int64_t ib) {
        po[o] = Apply<T>(kOp, pa[ia], pb[ib]);
      });
    };
    switch (op) {
      case Op::kAdd: run(std::integral_constant<Op, Op::kAdd>()); break;
      case Op::kSubtract: run(std::integral_constant<Op, Op::kSubtract>()); break;
      case Op::kMultiply: run(std::integral_constant<Op, Op::kMultiply>()); break;
      case Op::kDivide: run(std::integral_constant<Op, Op::kDivide>()); break;
      case Op::kMaximum: run(std::integral_constant<Op, Op::kMaximum>()); break;
      case Op::kMinimum: run(std::integral_constant<Op, Op::kMinimum>()); break;
    }
    return out;
  });
}

}  // namespace

absl::StatusOr<Tensor> Add(const Tensor& a, const Tensor& b) { return Binary(Op::kAdd, a, b); }
absl::StatusOr<Tensor> Subtract(const Tensor& a, const Tensor& b) {
  return Binary(Op::kSubtract, a, b);
}
absl::StatusOr<Tensor> Multiply(const Tensor& a, const Tensor& b) {
  return Binary(Op::kMultiply, a, b);
}
absl::StatusOr<Tensor> Divide(const Tensor& a, const Tensor& b) {
  return Binary(Op::kDivide, a, b);
}
absl::StatusOr<Tensor> Maximum(const Tensor& a, const Tensor& b) {
  return Binary(Op::kMaximum, a, b);
}
absl::StatusOr<Tensor> Minimum(const Tensor& a, const Tensor& b) {
  return Binary(Op::kMinimum, a, b);
}

absl::StatusOr<Tensor> BiasAdd(const Tensor& x, const Tensor& bias, int64_t axis) {
  constexpr absl::string_view kKernel = "BiasAdd";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x, &bias}));
  ASSIGN_OR_RETURN(int64_t a, internal::NormalizeAxis(kKernel, axis, x.rank()));
  if (bias.rank() != 1 || bias.dim(0) != x.dim(a)) {
    return Error(kKernel, "bias ", ShapeStr(bias.shape()), " must be 1-D of size ", x.dim(a),
                 " (axis ", a, " of ", ShapeStr(x.shape()), ")");
  }
  if (bias.dtype() != x.dtype()) {
    return Error(kKernel, "bias dtype ", Name(bias.dtype()), " differs from ", Name(x.dtype()));
  }
  Shape bias_shape(x.rank() - a, 1);
  bias_shape[0] = x.dim(a);
  ASSIGN_OR_RETURN(Tensor b, bias.Reshaped(bias_shape));
  return Binary(Op::kAdd, x, b);
}

}  // namespace qnnc::kernels::reference
