#include "kernels/requantize/requantize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace qnnc::kernels::requantize {
namespace {

using tensor::DType;
using tensor::Tensor;
using int128 = __int128;

constexpr absl::string_view kKernel = "Requantize";

template <typename... Args>
absl::Status Error(absl::string_view who, const Args&... args) {
  return absl::InvalidArgumentError(absl::StrCat(who, ": ", args...));
}

// Calls f(T{}) with the C++ type of an integer dtype (u8..i64).
template <typename F>
void VisitInteger(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kU8:
      return f(uint8_t{});
    case DType::kI8:
      return f(int8_t{});
    case DType::kU16:
      return f(uint16_t{});
    case DType::kI16:
      return f(int16_t{});
    case DType::kI32:
      return f(int32_t{});
    case DType::kI64:
      return f(int64_t{});
    default:
      return;  // Callers check tensor::IsInteger first.
  }
}

std::vector<int64_t> IntValues(const Tensor& t) {
  std::vector<int64_t> v;
  VisitInteger(t.dtype(), [&](auto tag) {
    const auto* p = t.data<decltype(tag)>();
    v.assign(p, p + t.num_elements());
  });
  return v;
}

absl::StatusOr<std::vector<double>> ReadScales(absl::string_view who, absl::string_view what,
                                               const Tensor& t, int64_t channels) {
  if (!t.defined()) return Error(who, what, " is undefined");
  if (!tensor::IsFloat(t.dtype())) {
    return Error(who, what, " must be f32 or f16, got ", tensor::DTypeName(t.dtype()));
  }
  if (t.num_elements() != 1 && t.num_elements() != channels) {
    return Error(who, what, " has ", t.num_elements(), " elements (shape ",
                 tensor::ShapeToString(t.shape()), "); expected 1 or ", channels);
  }
  std::vector<double> v(t.num_elements());
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    v[i] = t.GetAsDouble(i);
    if (!std::isfinite(v[i])) return Error(who, what, "[", i, "] must be finite, got ", v[i]);
  }
  return v;
}

absl::StatusOr<std::vector<int64_t>> ReadZeroPoints(absl::string_view what, const Tensor& t,
                                                    int64_t channels) {
  if (!t.defined()) return Error(kKernel, what, " is undefined");
  if (!tensor::IsInteger(t.dtype())) {
    return Error(kKernel, what, " must be an integer tensor, got ", tensor::DTypeName(t.dtype()));
  }
  if (t.num_elements() != 1 && t.num_elements() != channels) {
    return Error(kKernel, what, " has ", t.num_elements(), " elements (shape ",
                 tensor::ShapeToString(t.shape()), "); expected 1 or ", channels);
  }
  return IntValues(t);
}

template <typename T>
T At(const std::vector<T>& v, int64_t c) {
  return v.size() == 1 ? v[0] : v[c];
}

// Both scales of every channel, validated. Output scales must be nonzero.
absl::StatusOr<std::pair<std::vector<double>, std::vector<double>>> ReadScalePair(
    absl::string_view who, const Tensor& input_scale, const Tensor& output_scale,
    int64_t channels) {
  if (channels < 0) return Error(who, "negative channel count ", channels);
  auto in = ReadScales(who, "input_scale", input_scale, channels);
  if (!in.ok()) return in.status();
  auto out = ReadScales(who, "output_scale", output_scale, channels);
  if (!out.ok()) return out.status();
  for (size_t i = 0; i < out->size(); ++i) {
    if ((*out)[i] == 0) return Error(who, "output_scale[", i, "] must be nonzero");
  }
  return std::make_pair(*std::move(in), *std::move(out));
}

absl::StatusOr<std::vector<FixedPointMultiplier>> Multipliers(absl::string_view who,
                                                              const Tensor& input_scale,
                                                              const Tensor& output_scale,
                                                              int64_t channels) {
  auto scales = ReadScalePair(who, input_scale, output_scale, channels);
  if (!scales.ok()) return scales.status();
  std::vector<FixedPointMultiplier> m(channels);
  for (int64_t c = 0; c < channels; ++c) {
    const double in = At(scales->first, c), out = At(scales->second, c);
    absl::StatusOr<FixedPointMultiplier> q = QuantizeMultiplier(in / out);
    if (!q.ok()) {
      return Error(who, "channel ", c, ": input_scale ", in, " / output_scale ", out,
                   " is not a valid fixed-point multiplier: ", q.status().message());
    }
    m[c] = *q;
  }
  return m;
}

absl::StatusOr<std::vector<float>> FloatMultipliers(absl::string_view who,
                                                    const Tensor& input_scale,
                                                    const Tensor& output_scale, int64_t channels) {
  auto scales = ReadScalePair(who, input_scale, output_scale, channels);
  if (!scales.ok()) return scales.status();
  std::vector<float> m(channels);
  for (int64_t c = 0; c < channels; ++c) {
    m[c] = static_cast<float>(At(scales->first, c)) / static_cast<float>(At(scales->second, c));
  }
  return m;
}

// nearbyint(v) as a 128-bit integer, |v| clamped to 2^100; NaN gives 0.
int128 RoundHalfEvenWide(float v) {
  if (std::isnan(v)) return 0;
  const float r = std::nearbyint(v);
  constexpr float kLimit = 1267650600228229401496703205376.0f;  // 2^100
  if (r >= kLimit) return static_cast<int128>(1) << 100;
  if (r <= -kLimit) return -(static_cast<int128>(1) << 100);
  return static_cast<int128>(r);
}

int32_t SaturateToInt32(int128 v) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  return v < kMin ? kMin : (v > kMax ? kMax : static_cast<int32_t>(v));
}

}  // namespace

int64_t RequantizeValue(int32_t acc_minus_zp, FixedPointMultiplier m, Rounding r) {
  const int shift = std::clamp<int32_t>(m.shift, -31, 30);
  const int left = std::max(shift, 0), right = std::max(-shift, 0);
  const int128 x = acc_minus_zp;
  switch (r) {
    case Rounding::kUpward: {
      const int total = 31 + right;
      const int128 p = x * (int128{1} << left) * m.multiplier;  // |p| < 2^92
      return static_cast<int64_t>((p + (int128{1} << (total - 1))) >> total);
    }
    case Rounding::kToNearest:
      if (shift <= 0) {
        return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(acc_minus_zp, m.multiplier),
                                   right);
      }
      return static_cast<int64_t>((x * (int128{1} << left) * m.multiplier + (int128{1} << 30)) >>
                                  31);
    case Rounding::kFloatToNearestEven:
      return RequantizeValueFloat(acc_minus_zp, static_cast<float>(m.ToDouble()));
  }
  return 0;
}

int64_t RequantizeValueFloat(int32_t acc_minus_zp, float multiplier) {
  const int128 r = RoundHalfEvenWide(static_cast<float>(acc_minus_zp) * multiplier);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  return r < kMin ? kMin : (r > kMax ? kMax : static_cast<int64_t>(r));
}

absl::StatusOr<std::vector<FixedPointMultiplier>> ComputeMultipliers(const Tensor& input_scale,
                                                                     const Tensor& output_scale,
                                                                     int64_t channels) {
  return Multipliers("ComputeMultipliers", input_scale, output_scale, channels);
}

absl::StatusOr<std::vector<float>> ComputeFloatMultipliers(const Tensor& input_scale,
                                                           const Tensor& output_scale,
                                                           int64_t channels) {
  return FloatMultipliers("ComputeFloatMultipliers", input_scale, output_scale, channels);
}

absl::StatusOr<Tensor> Requantize(const Tensor& input, const Tensor& input_scale,
                                  const Tensor& input_zero_point, const Tensor& output_scale,
                                  const Tensor& output_zero_point, int64_t axis, DType out_dtype,
                                  Rounding rounding, std::optional<int64_t> clamp_min,
                                  std::optional<int64_t> clamp_max) {
  if (!input.defined()) return Error(kKernel, "input is undefined");
  if (!tensor::IsInteger(input.dtype()) || !tensor::IsInteger(out_dtype)) {
    return Error(kKernel, "input and out_dtype must be integer types, got ",
                 tensor::DTypeName(input.dtype()), " -> ", tensor::DTypeName(out_dtype));
  }
  // The channel count along `axis` matters only when a parameter is per-channel.
  int64_t channels = 1, inner = 1;
  const bool per_channel = input_scale.num_elements() != 1 || output_scale.num_elements() != 1 ||
                           input_zero_point.num_elements() != 1 ||
                           output_zero_point.num_elements() != 1;
  if (per_channel) {
    if (axis < -input.rank() || axis >= input.rank()) {
      return Error(kKernel, "axis ", axis, " is out of range for input of shape ",
                   tensor::ShapeToString(input.shape()));
    }
    const int64_t a = axis < 0 ? axis + input.rank() : axis;
    channels = input.dim(a);
    for (int64_t d = a + 1; d < input.rank(); ++d) inner *= input.dim(d);
  }
  const int64_t lo =
      std::max(clamp_min.value_or(tensor::DTypeMin(out_dtype)), tensor::DTypeMin(out_dtype));
  const int64_t hi =
      std::min(clamp_max.value_or(tensor::DTypeMax(out_dtype)), tensor::DTypeMax(out_dtype));
  if (lo > hi) {
    return Error(kKernel, "empty clamp range [", lo, ", ", hi, "] for ",
                 tensor::DTypeName(out_dtype));
  }
  auto in_zp = ReadZeroPoints("input_zero_point", input_zero_point, channels);
  if (!in_zp.ok()) return in_zp.status();
  auto out_zp = ReadZeroPoints("output_zero_point", output_zero_point, channels);
  if (!out_zp.ok()) return out_zp.status();
  std::vector<FixedPointMultiplier> fixed;
  std::vector<float> floats;
  if (rounding == Rounding::kFloatToNearestEven) {
    auto m = FloatMultipliers(kKernel, input_scale, output_scale, channels);
    if (!m.ok()) return m.status();
    floats = *std::move(m);
  } else {
    auto m = Multipliers(kKernel, input_scale, output_scale, channels);
    if (!m.ok()) return m.status();
    fixed = *std::move(m);
  }

  absl::StatusOr<Tensor> out = Tensor::Create(out_dtype, input.shape());
  if (!out.ok()) return Error(kKernel, out.status().message());
  const std::vector<int64_t> x = IntValues(input);
  VisitInteger(out_dtype, [&](auto tag) {
    using T = decltype(tag);
    T* o = out->template data<T>();
    for (size_t i = 0; i < x.size(); ++i) {
      const int64_t c = per_channel ? (static_cast<int64_t>(i) / inner) % channels : 0;
      const int128 d = static_cast<int128>(x[i]) - At(*in_zp, c);
      const int128 q =
          rounding == Rounding::kFloatToNearestEven
              ? RoundHalfEvenWide(static_cast<float>(d) * floats[c])
              : static_cast<int128>(RequantizeValue(SaturateToInt32(d), fixed[c], rounding));
      const int128 v = q + At(*out_zp, c);
      o[i] = static_cast<T>(v < lo ? lo : (v > hi ? hi : static_cast<int64_t>(v)));
    }
  });
  return out;
}

}  // namespace qnnc::kernels::requantize
