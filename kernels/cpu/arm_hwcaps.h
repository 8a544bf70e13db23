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
inline constexpr uint64_t kHwcapCpuid = uint64_t{1} << 11;    // AT_HWCAP: MRS of ID registers at EL0
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

// The core a MIDR_EL1 value names, spelled as LLVM's -mcpu (and qemu's
// -cpu) spell it, e.g. "neoverse-n1"; "" for a core not in this table. The
// part numbers are Arm's (implementer 0x41), as Linux's cputype.h lists them.
constexpr const char* ArmCoreName(uint64_t midr) {
  struct Part {
    uint32_t number;
    const char* name;
  };
  constexpr Part kArmParts[] = {
      {0xd03, "cortex-a53"},  {0xd04, "cortex-a35"},  {0xd05, "cortex-a55"},  {0xd07, "cortex-a57"},
      {0xd08, "cortex-a72"},  {0xd09, "cortex-a73"},  {0xd0a, "cortex-a75"},  {0xd0b, "cortex-a76"},
      {0xd0c, "neoverse-n1"}, {0xd0d, "cortex-a77"},  {0xd40, "neoverse-v1"}, {0xd41, "cortex-a78"},
      {0xd44, "cortex-x1"},   {0xd46, "cortex-a510"}, {0xd47, "cortex-a710"}, {0xd48, "cortex-x2"},
      {0xd49, "neoverse-n2"}, {0xd4b, "cortex-a78c"}, {0xd4d, "cortex-a715"}, {0xd4e, "cortex-x3"},
      {0xd4f, "neoverse-v2"}, {0xd80, "cortex-a520"}, {0xd81, "cortex-a720"}, {0xd82, "cortex-x4"},
      {0xd84, "neoverse-v3"}, {0xd8e, "neoverse-n3"},
  };
  const uint32_t implementer = static_cast<uint32_t>(midr >> 24) & 0xff;
  const uint32_t part = static_cast<uint32_t>(midr >> 4) & 0xfff;
  if (implementer != 0x41) return "";
  for (const Part& p : kArmParts) {
    if (p.number == part) return p.name;
  }
  return "";
}

// This CPU's MIDR_EL1, where Linux lets user code read it (HWCAP_CPUID: the
// kernel, or qemu-user, emulates the read); 0 otherwise and off AArch64.
inline uint64_t ReadArmMidr() {
#if defined(__aarch64__)
  if ((getauxval(AT_HWCAP) & kHwcapCpuid) == 0) return 0;
  uint64_t midr = 0;
  asm volatile("mrs %0, MIDR_EL1" : "=r"(midr));
  return midr;
#else
  return 0;
#endif
}

}  // namespace qnnc::kernels::cpu

#endif  // QNNC_KERNELS_CPU_ARM_HWCAPS_H_
