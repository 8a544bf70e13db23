// AArch64 features from the kernel's hardware capabilities (getauxval's
// AT_HWCAP and AT_HWCAP2, as Linux reports them for this CPU), and the level
// they make. No dependencies beyond libc, so the AArch64 check under qemu
// (arm_hwcaps_qemu_test.sh) builds it alone.
#ifndef QNNC_KERNELS_CPU_ARM_HWCAPS_H_
#define QNNC_KERNELS_CPU_ARM_HWCAPS_H_

#include <cstdint>

#include "kernels/cpu/isa_level.h"

#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

namespace qnnc::kernels::cpu {

// The bits of Linux's arch/arm64/include/uapi/asm/hwcap.h qnnc reads.
inline constexpr uint64_t kHwcapAsimd = uint64_t{1} << 1;     // AT_HWCAP: Advanced SIMD
inline constexpr uint64_t kHwcapAsimddp = uint64_t{1} << 20;  // AT_HWCAP: sdot/udot
inline constexpr uint64_t kHwcap2I8mm = uint64_t{1} << 13;    // AT_HWCAP2: smmla/usmmla/ummla

struct ArmFeatures {
  bool neon = false, dotprod = false, i8mm = false;
};

constexpr ArmFeatures ArmFeaturesFromHwcaps(uint64_t hwcap, uint64_t hwcap2) {
  ArmFeatures f;
  f.neon = (hwcap & kHwcapAsimd) != 0;
  f.dotprod = f.neon && (hwcap & kHwcapAsimddp) != 0;
  f.i8mm = f.neon && (hwcap2 & kHwcap2I8mm) != 0;
  return f;
}

// The highest level the features make: kI8mm needs the dot product too (every
// core with i8mm has it; the kernels of that level may use both).
constexpr IsaLevel ArmLevel(ArmFeatures f) {
  if (f.i8mm && f.dotprod) return IsaLevel::kI8mm;
  if (f.dotprod) return IsaLevel::kDotprod;
  if (f.neon) return IsaLevel::kNeon;
  return IsaLevel::kScalar;
}

// This CPU's features (none off AArch64).
inline ArmFeatures ReadArmFeatures() {
#if defined(__aarch64__)
  return ArmFeaturesFromHwcaps(getauxval(AT_HWCAP), getauxval(AT_HWCAP2));
#else
  return ArmFeatures{};
#endif
}

}  // namespace qnnc::kernels::cpu

#endif  // QNNC_KERNELS_CPU_ARM_HWCAPS_H_
