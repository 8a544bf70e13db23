#include "kernels/requantize/fixed_point.h"

#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace qnnc::kernels::requantize {

double FixedPointMultiplier::ToDouble() const {
  return std::ldexp(static_cast<double>(multiplier), shift - 31);
}

absl::StatusOr<FixedPointMultiplier> QuantizeMultiplier(double real) {
  if (!std::isfinite(real) || real < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("QuantizeMultiplier: multiplier must be finite and >= 0, got ", real));
  }
  if (real == 0) return FixedPointMultiplier{0, 0};
  int exponent = 0;
  const double frac = std::frexp(real, &exponent);  // [0.5, 1)
  int64_t q = std::llround(std::ldexp(frac, 31));   // exact scaling; [2^30, 2^31]
  if (q == (int64_t{1} << 31)) {
    q /= 2;
    ++exponent;
  }
  if (exponent < -31) return FixedPointMultiplier{0, 0};
  if (exponent > 30) {
    return absl::InvalidArgumentError(absl::StrCat("QuantizeMultiplier: multiplier ", real,
                                                   " is too large (must be below 2^30)"));
  }
  return FixedPointMultiplier{static_cast<int32_t>(q), exponent};
}

int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  if (a == kMin && b == kMin) return std::numeric_limits<int32_t>::max();
  const int64_t ab = static_cast<int64_t>(a) * b;
  // Arithmetic shift = floor division; the result is in [-2^31 + 1, 2^31 - 1].
  return static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31);
}

int32_t RoundingDivideByPOT(int32_t x, int exponent) {
  exponent = exponent < 0 ? 0 : (exponent > 31 ? 31 : exponent);
  const int64_t mask = (int64_t{1} << exponent) - 1;
  const int64_t remainder = static_cast<int64_t>(x) & mask;
  const int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int32_t>((static_cast<int64_t>(x) >> exponent) +
                              (remainder > threshold ? 1 : 0));
}

}  // namespace qnnc::kernels::requantize
