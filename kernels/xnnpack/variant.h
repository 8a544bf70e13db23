// The XNNPACK kernels' variants and how this XNNPACK (Debian's
// 0.0~git20220216.ae108ef) rounds each on each architecture: the one place
// the target's predicates and the kernels both read. No XNNPACK header.
//
// On x86-64 every quantized operator requantizes in float32, ties to even
// (common.h). On AArch64 the qu8 and qs8 operators run "rndnu" kernels there
// (a fixed-point multiplier, ties upward: 0.5 -> 1; conv2d_test's TiesToEven
// fails on them), and only qc8 requantizes as on x86-64. So on AArch64 a qs8
// convolution runs as qc8 with its one scale repeated per channel (the same
// arithmetic, OperatorVariant), and the qu8 operators and the fully connected
// ones, which have no qc8 here, are not offered.
#ifndef QNNC_KERNELS_XNNPACK_VARIANT_H_
#define QNNC_KERNELS_XNNPACK_VARIANT_H_

#include "kernels/cpu/isa_level.h"

namespace qnnc::kernels::xnnpack {

// qu8: u8 data x u8 weights (both zero points), u8 output.
// qs8: i8 data x i8 weights (kernel zero point 0, one scale), i8 output.
// qc8: i8 data x i8 weights (kernel zero point 0, one scale per output channel).
enum class Variant { kQu8, kQs8, kQc8 };

// Whether `variant`'s operators requantize half to even on `arch`.
constexpr bool RoundsHalfToEven(Variant variant, cpu::Arch arch = cpu::kBuildArch) {
  return arch != cpu::Arch::kAarch64 || variant == Variant::kQc8;
}

// The XNNPACK operator a convolution of `variant` is created as: qs8 as qc8
// where qs8 does not round half to even.
constexpr Variant OperatorVariant(Variant variant, cpu::Arch arch = cpu::kBuildArch) {
  return variant == Variant::kQs8 && !RoundsHalfToEven(variant, arch) ? Variant::kQc8 : variant;
}

}  // namespace qnnc::kernels::xnnpack

#endif  // QNNC_KERNELS_XNNPACK_VARIANT_H_
