#include "kernels/reference/unary.h"

#include <cmath>
#include <type_traits>

#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using tensor::DType;
using tensor::Tensor;

// out[i] = f(x[i]) for f32 and integer dtypes (f32 only if float_only).
template <typename F>
absl::StatusOr<Tensor> Map(absl::string_view kernel, const Tensor& x, bool float_only, F&& f) {
  RETURN_IF_ERROR(internal::CheckDefined(kernel, {&x}));
  if (float_only ? x.dtype() != DType::kF32 : !internal::IsIntOrF32(x.dtype())) {
    return Error(kernel, "unsupported dtype ", Name(x.dtype()),
                 float_only ? " (expected f32)" : " (expected f32 or integer)");
  }
  Tensor out = Tensor::Zeros(x.dtype(), x.shape());
  internal::VisitNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x.data<T>();
    T* o = out.data<T>();
    for (int64_t i = 0; i < x.num_elements(); ++i) o[i] = f(in[i]);
  });
  return out;
}

template <typename T>
T WrappingNeg(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return -v;
  } else {
    return static_cast<T>(uint64_t{0} - static_cast<uint64_t>(v));
  }
}

// The clamp as compare-and-select: NaN passes through.
float Clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

}  // namespace

absl::StatusOr<Tensor> Relu(const Tensor& x) {
  return Map("Relu", x, false, [](auto v) { return v < 0 ? decltype(v){0} : v; });
}

absl::StatusOr<Tensor> Sigmoid(const Tensor& x) {
  return Map("Sigmoid", x, true, [](auto v) {
    return static_cast<decltype(v)>(1.0f / (1.0f + std::exp(-static_cast<float>(v))));
  });
}

absl::StatusOr<Tensor> Tanh(const Tensor& x) {
  return Map("Tanh", x, true, [](auto v) { return static_cast<decltype(v)>(std::tanh(static_cast<float>(v))); });
}

absl::StatusOr<Tensor> Erf(const Tensor& x) {
  return Map("Erf", x, true, [](auto v) { return static_cast<decltype(v)>(std::erf(static_cast<float>(v))); });
}

absl::StatusOr<Tensor> LeakyRelu(const Tensor& x, float alpha) {
  return Map("LeakyRelu", x, true, [alpha](auto v) {
    const float f = static_cast<float>(v);
    return static_cast<decltype(v)>(f < 0.0f ? alpha * f : f);
  });
}

absl::StatusOr<Tensor> HardSigmoid(const Tensor& x, float alpha, float beta) {
  return Map("HardSigmoid", x, true, [alpha, beta](auto v) {
    return static_cast<decltype(v)>(Clamp01(alpha * static_cast<float>(v) + beta));
  });
}

absl::StatusOr<Tensor> HardSwish(const Tensor& x) {
  return Map("HardSwish", x, true, [](auto v) {
    const float f = static_cast<float>(v);
    return static_cast<decltype(v)>(f * Clamp01(f * (1.0f / 6.0f) + 0.5f));
  });
}

absl::StatusOr<Tensor> Round(const Tensor& x) {
  return Map("Round", x, true, [](auto v) {
    return static_cast<decltype(v)>(std::nearbyint(static_cast<float>(v)));
  });
}

absl::StatusOr<Tensor> Neg(const Tensor& x) {
  return Map("Neg", x, false, [](auto v) { return WrappingNeg(v); });
}

absl::StatusOr<Tensor> Abs(const Tensor& x) {
  return Map("Abs", x, false, [](auto v) {
    if constexpr (std::is_floating_point_v<decltype(v)>) {
      return std::fabs(v);
    } else {
      return v < 0 ? WrappingNeg(v) : v;
    }
  });
}

absl::StatusOr<Tensor> Clip(const Tensor& x, double min, double max) {
  if (std::isnan(min) || std::isnan(max) || min > max) {
    return Error("Clip", "invalid bounds [", min, ", ", max, "]");
  }
  if (x.dtype() == DType::kF32) {
    const float lo = static_cast<float>(min), hi = static_cast<float>(max);
    return Map("Clip", x, true, [lo, hi](auto v) { return v < lo ? lo : (v > hi ? hi : v); });
  }
  if (!tensor::IsInteger(x.dtype())) {
    return Error("Clip", "unsupported dtype ", Name(x.dtype()), " (expected f32 or integer)");
  }
  const int64_t dmin = tensor::DTypeMin(x.dtype()), dmax = tensor::DTypeMax(x.dtype());
  int64_t lo = internal::SaturateToInt(std::ceil(min), dmin, dmax);
  int64_t hi = internal::SaturateToInt(std::floor(max), dmin, dmax);
  if (lo > hi) {
    // No integer inside [min, max] (e.g. [0.2, 0.8]) or the range misses the
    // dtype: every value goes to the nearest bound within the dtype.
    hi = lo;
  }
  return Map("Clip", x, false, [lo, hi](auto v) {
    const int64_t w = static_cast<int64_t>(v);
    return static_cast<decltype(v)>(w < lo ? lo : (w > hi ? hi : w));
  });
}

}  // namespace qnnc::kernels::reference
