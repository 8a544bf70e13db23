// Rounding shared by the elementwise kernels.
#ifndef QNNC_KERNELS_ELEMENTWISE_ROUNDING_H_
#define QNNC_KERNELS_ELEMENTWISE_ROUNDING_H_

namespace qnnc::kernels::elementwise {

// nearbyint(v) for |v| < 2^22 in the default rounding mode (ties to even):
// adding and subtracting 1.5 * 2^23 leaves no fraction bits. Unlike
// nearbyint it vectorizes on any x86-64 or Arm. Needs -ffp-contract=off and
// no -ffast-math (which would fold the two additions).
inline float RoundSmallHalfEven(float v) {
  constexpr float kRound = 12582912.0f;
  return (v + kRound) - kRound;
}

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_ROUNDING_H_
