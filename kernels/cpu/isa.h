// The one CPU-feature probe: what this CPU (x86-64 or AArch64) can execute,
// lowered by an instruction-set cap. Target detection (`host`), the spatial-pack ISA
// choice and the per-level clones of the portable kernels all ask here, so
// a cap makes a better host behave like a lesser one everywhere qnnc picks
// code. (XNNPACK picks its own microkernels through cpuinfo and cannot be
// capped.)
//
// The cap comes from the QNNC_ISA environment variable (read once, at the
// first query; tests take it through `bazel test --test_env=QNNC_ISA=avx2`)
// or from SetIsaCap (the tools' --isa flag, tests that step through levels).
#ifndef QNNC_KERNELS_CPU_ISA_H_
#define QNNC_KERNELS_CPU_ISA_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "kernels/cpu/isa_level.h"

namespace qnnc::kernels::cpu {

// IsaLevel, IsaLevelName, kBuildIsaLevels and the features: isa_level.h.
// The inverse of IsaLevelName for this build's architecture; an error lists
// the valid names (a level of the other architecture is an error too).
absl::StatusOr<IsaLevel> ParseIsaLevel(absl::string_view name);
// Whether `level` runs the AVX2 kernels as its best (kAvx2 and kAvxvnni:
// x86-64-v3 without AVX-512).
inline bool IsAvx2Class(IsaLevel level) { return level == IsaLevel::kAvx2 || level == IsaLevel::kAvxvnni; }

// What the CPU reports (cpuinfo on x86-64, the kernel's hardware
// capabilities on AArch64: arm_hwcaps.h), before any cap. Each architecture
// reports only its own fields.
struct CpuFeatures {
  bool sse42 = false, avx2 = false, avx512bw = false, avx512vnni = false, avxvnni = false;
  // AVX-512 VBMI (byte permutes: vpermi2b), an extension kernels use only
  // at the avx512vnni level (Cascade Lake has VNNI without it).
  bool avx512vbmi = false;
  bool neon = false, dotprod = false, i8mm = false;
};

// The highest level this CPU runs, ignoring the cap.
IsaLevel DetectedIsaLevel();
// What this CPU has, ignoring the cap.
CpuFeatures DetectedCpuFeatures();
// The cap in force, if any. An invalid QNNC_ISA caps at kScalar (the
// safe side) and is reported by CheckIsaEnvironment.
std::optional<IsaLevel> IsaCap();
// Sets (or with nullopt, removes) the cap for this process, replacing
// QNNC_ISA. Not for use while kernels run on other threads.
void SetIsaCap(std::optional<IsaLevel> cap);
// An error naming the variable and the valid values when QNNC_ISA is set
// to something that is not a level.
absl::Status CheckIsaEnvironment();

// min(DetectedIsaLevel(), IsaCap()): the level qnnc's own code may use (a
// cap of kAvxvnni on a CPU without AVX-VNNI gives kAvx2).
IsaLevel HostIsaLevel();
// The CPU's features with those above the capped level removed (AVX-VNNI
// stays at the levels avxvnni and avx512vnni; AVX-512 VBMI only at
// avx512vnni; the dot product at dotprod and i8mm).
CpuFeatures HostCpuFeatures();

// The CPU's model as cpuinfo names it (e.g. "AMD EPYC"), or "unknown"; on
// AArch64 the core MIDR_EL1 names (e.g. "neoverse-n1", kernels/cpu/
// arm_hwcaps.h ArmCoreName), or "unknown Arm core, MIDR_EL1 0x..." for one
// the table lacks.
std::string CpuModelName();
// One line for logs: "avx512vnni (AMD EPYC)", or with a cap
// "avx2 (capped at avx2 by QNNC_ISA; the CPU has avx512vnni) (AMD EPYC)".
std::string DescribeHostIsa();

}  // namespace qnnc::kernels::cpu

#endif  // QNNC_KERNELS_CPU_ISA_H_
