// Fixed-point multipliers for integer requantization (gemmlowp/TFLite/TVM
// representation) and the two gemmlowp rounding primitives.
#ifndef QNNC_KERNELS_REQUANTIZE_FIXED_POINT_H_
#define QNNC_KERNELS_REQUANTIZE_FIXED_POINT_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace qnnc::kernels::requantize {

// The real number multiplier * 2^(shift - 31). A valid multiplier is 0 (with
// shift 0) or in [2^30, 2^31) with shift in [-31, 30].
struct FixedPointMultiplier {
  int32_t multiplier = 0;
  int32_t shift = 0;

  double ToDouble() const;
  bool operator==(const FixedPointMultiplier& o) const {
    return multiplier == o.multiplier && shift == o.shift;
  }
  bool operator!=(const FixedPointMultiplier& o) const { return !(*this == o); }
};

// Quantizes `real` by the frexp method (as TFLite's QuantizeMultiplier and
// TVM's GetFixedPointMultiplierShift): real = frac * 2^e with frac in
// [0.5, 1), multiplier = round(frac * 2^31) (half away from zero), shift = e;
// when the rounding gives 2^31 the result is {2^30, e + 1}.
//  - real == 0 gives {0, 0}.
//  - real < 2^-32 (shift would be below -31) gives {0, 0}: |x * real| < 0.5
//    for every int32 x, so every rounding mode maps it to 0 anyway.
//  - real >= 2^30 (shift above 30), negative, NaN or infinite: an error.
absl::StatusOr<FixedPointMultiplier> QuantizeMultiplier(double real);

// gemmlowp's SaturatingRoundingDoublingHighMul (NEON vqrdmulh): the high 32
// bits of 2 * a * b rounded half toward +infinity, i.e.
// floor((a * b + 2^30) / 2^31); INT32_MIN * INT32_MIN saturates to INT32_MAX.
int32_t SaturatingRoundingDoublingHighMul(int32_t a, int32_t b);

// gemmlowp's RoundingDivideByPOT: x / 2^exponent rounded half away from zero.
// `exponent` must be in [0, 31] (values outside are clamped to it).
int32_t RoundingDivideByPOT(int32_t x, int exponent);

}  // namespace qnnc::kernels::requantize

#endif  // QNNC_KERNELS_REQUANTIZE_FIXED_POINT_H_
