// The instruction sets qnnc names, spelled once, for x86-64 and AArch64: the
// features a target string lists (target/target.h), the levels of the
// instruction-set cap (QNNC_ISA, --isa; isa.h) and the peers' CPUID cap
// (bench/peers) all take their names from here. No dependencies, so a preloaded library can use it.
#ifndef QNNC_KERNELS_CPU_ISA_LEVEL_H_
#define QNNC_KERNELS_CPU_ISA_LEVEL_H_

#include <string_view>

namespace qnnc::kernels::cpu {

// Instruction-set features of a target, ordered from the least to the most
// capable within each architecture.
enum class Feature { kSse42, kAvx2, kAvx512bw, kAvx512vnni, kAvxvnni, kNeon, kDotprod, kI8mm };

// "sse4.2", "avx2", "avx512bw", "avx512vnni", "avxvnni", "neon", "dotprod",
// "i8mm".
constexpr const char* FeatureName(Feature f) {
  switch (f) {
    case Feature::kSse42:
      return "sse4.2";
    case Feature::kAvx2:
      return "avx2";
    case Feature::kAvx512bw:
      return "avx512bw";
    case Feature::kAvx512vnni:
      return "avx512vnni";
    case Feature::kAvxvnni:
      return "avxvnni";
    case Feature::kNeon:
      return "neon";
    case Feature::kDotprod:
      return "dotprod";
    case Feature::kI8mm:
      return "i8mm";
  }
  return "?";
}

// The architectures qnnc builds for.
enum class Arch { kX86_64, kAarch64 };

// The architecture of this build.
#if defined(__aarch64__)
inline constexpr Arch kBuildArch = Arch::kAarch64;
#else
inline constexpr Arch kBuildArch = Arch::kX86_64;
#endif

// Levels: kScalar (the portable kernels only) on either architecture, then
// each architecture's own, lowest first; a level includes the lower ones of
// its architecture (Includes), except kAvxvnni, which is a branch off kAvx2:
// the AVX2 hosts with AVX-VNNI (vpdpbusd on ymm; Intel since Alder Lake and
// Sapphire Rapids, AMD since Zen 5). Skylake-X (kAvx512bw) and Cascade Lake
// (kAvx512vnni) lack it, so the levels above do not include it: kernels ask
// HostCpuFeatures().avxvnni.
//   kScalar      the portable kernels (x86-64 baseline, or AArch64 without
//                the NEON kernels)
//   x86-64:
//   kAvx2        x86-64-v3: AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE
//   kAvxvnni     x86-64-v3 and AVX-VNNI, no AVX-512 (a host's level only
//                when it has no AVX-512; as a cap on a CPU without AVX-VNNI
//                it means kAvx2)
//   kAvx512bw    x86-64-v4: AVX-512 F, BW, CD, DQ, VL
//   kAvx512vnni  x86-64-v4 and AVX-512 VNNI
//   AArch64:
//   kNeon        Advanced SIMD (every AArch64 CPU: Cortex-A53/A72)
//   kDotprod     and the dot product (sdot/udot; Armv8.2 cores from
//                Cortex-A55/A75 and Neoverse-N1 on)
//   kI8mm        and the int8 matrix multiply (smmla/usmmla; Armv8.6:
//                Neoverse-V1 and N2, Cortex-A510/A710 on)
// Each level above kScalar is named after its feature (LevelFeature). Compare
// levels with Includes, never with < or >: levels of two architectures do
// not compare.
enum class IsaLevel {
  kScalar = 0,
  kAvx2 = 1,
  kAvxvnni = 2,
  kAvx512bw = 3,
  kAvx512vnni = 4,
  kNeon = 5,
  kDotprod = 6,
  kI8mm = 7,
};

// Each architecture's levels, lowest first.
inline constexpr IsaLevel kX86IsaLevels[] = {IsaLevel::kScalar, IsaLevel::kAvx2, IsaLevel::kAvxvnni,
                                             IsaLevel::kAvx512bw, IsaLevel::kAvx512vnni};
inline constexpr IsaLevel kArmIsaLevels[] = {IsaLevel::kScalar, IsaLevel::kNeon, IsaLevel::kDotprod,
                                             IsaLevel::kI8mm};
// Every level of every architecture (for names).
inline constexpr IsaLevel kAllIsaLevels[] = {IsaLevel::kScalar,    IsaLevel::kAvx2,    IsaLevel::kAvxvnni,
                                             IsaLevel::kAvx512bw,  IsaLevel::kAvx512vnni, IsaLevel::kNeon,
                                             IsaLevel::kDotprod,   IsaLevel::kI8mm};
// The levels of this build's architecture, lowest first: the ones a cap may
// name and the tests step through.
#if defined(__aarch64__)
inline constexpr const auto& kBuildIsaLevels = kArmIsaLevels;
#else
inline constexpr const auto& kBuildIsaLevels = kX86IsaLevels;
#endif

// Whether `level` belongs to `arch` (kScalar belongs to both).
constexpr bool LevelOfArch(IsaLevel level, Arch arch) {
  if (level == IsaLevel::kScalar) return true;
  const bool arm = level == IsaLevel::kNeon || level == IsaLevel::kDotprod || level == IsaLevel::kI8mm;
  return arm == (arch == Arch::kAarch64);
}

// Whether `have` includes `want`: kScalar is in every level; otherwise both
// of one architecture and `have` at least `want` in its order (so kAvxvnni
// includes kAvx2 but not kAvx512bw, and kAvx512bw not kAvxvnni).
constexpr bool Includes(IsaLevel have, IsaLevel want) {
  if (want == IsaLevel::kScalar) return true;
  if (LevelOfArch(have, Arch::kAarch64) != LevelOfArch(want, Arch::kAarch64) || have == IsaLevel::kScalar) {
    return false;
  }
  return static_cast<int>(have) >= static_cast<int>(want);
}

// The feature that makes a level (kScalar: none, reported as kSse42's
// absence of anything more; callers check IsaLevel::kScalar first).
constexpr Feature LevelFeature(IsaLevel level) {
  switch (level) {
    case IsaLevel::kScalar:
      return Feature::kSse42;
    case IsaLevel::kAvx2:
      return Feature::kAvx2;
    case IsaLevel::kAvxvnni:
      return Feature::kAvxvnni;
    case IsaLevel::kAvx512bw:
      return Feature::kAvx512bw;
    case IsaLevel::kAvx512vnni:
      return Feature::kAvx512vnni;
    case IsaLevel::kNeon:
      return Feature::kNeon;
    case IsaLevel::kDotprod:
      return Feature::kDotprod;
    case IsaLevel::kI8mm:
      return Feature::kI8mm;
  }
  return Feature::kSse42;
}

// "scalar", else the name of the level's feature: "avx2", "avxvnni",
// "avx512bw", "avx512vnni", "neon", "dotprod", "i8mm".
constexpr const char* IsaLevelName(IsaLevel level) {
  return level == IsaLevel::kScalar ? "scalar" : FeatureName(LevelFeature(level));
}

// The level named `name` (of any architecture), or false.
constexpr bool IsaLevelNamed(std::string_view name, IsaLevel* level) {
  for (IsaLevel l : kAllIsaLevels) {
    if (name == IsaLevelName(l)) {
      *level = l;
      return true;
    }
  }
  return false;
}

}  // namespace qnnc::kernels::cpu

#endif  // QNNC_KERNELS_CPU_ISA_LEVEL_H_
