// The instruction sets qnnc names, spelled once: the features a target
// string lists (target/target.h), the levels of the instruction-set cap
// (QNNC_ISA, --isa; isa.h) and the peers' CPUID cap (bench/peers) all take
// their names from here. No dependencies, so a preloaded library can use it.
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

// Levels, lowest first; each includes the ones below it, except kAvxvnni,
// which is a branch off kAvx2: the AVX2 hosts with AVX-VNNI (vpdpbusd on
// ymm; Intel since Alder Lake and Sapphire Rapids, AMD since Zen 5).
// Skylake-X (kAvx512bw) and Cascade Lake (kAvx512vnni) lack it, so the
// levels above do not include it: kernels ask HostCpuFeatures().avxvnni.
// So never test `level >= kAvxvnni` for the instruction: it is true on
// Skylake-X and Cascade Lake, which lack it.
//   kScalar      x86-64 baseline (the portable and scalar kernels)
//   kAvx2        x86-64-v3: AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE
//   kAvxvnni     x86-64-v3 and AVX-VNNI, no AVX-512 (a host's level only
//                when it has no AVX-512; as a cap on a CPU without AVX-VNNI
//                it means kAvx2)
//   kAvx512bw    x86-64-v4: AVX-512 F, BW, CD, DQ, VL
//   kAvx512vnni  x86-64-v4 and AVX-512 VNNI
// Each level above kScalar is named after its feature (LevelFeature).
enum class IsaLevel { kScalar = 0, kAvx2 = 1, kAvxvnni = 2, kAvx512bw = 3, kAvx512vnni = 4 };

// Every level, lowest first.
inline constexpr IsaLevel kAllIsaLevels[] = {IsaLevel::kScalar, IsaLevel::kAvx2, IsaLevel::kAvxvnni,
                                             IsaLevel::kAvx512bw, IsaLevel::kAvx512vnni};

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
  }
  return Feature::kSse42;
}

// "scalar", else the name of the level's feature: "avx2", "avxvnni",
// "avx512bw", "avx512vnni".
constexpr const char* IsaLevelName(IsaLevel level) {
  return level == IsaLevel::kScalar ? "scalar" : FeatureName(LevelFeature(level));
}

// The level named `name`, or false.
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
