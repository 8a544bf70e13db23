#include "kernels/cpu/isa.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cpuinfo.h"
#include "kernels/cpu/arm_hwcaps.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace qnnc::kernels::cpu {
namespace {

constexpr char kEnvVar[] = "QNNC_ISA";

// -1: no cap; otherwise an IsaLevel. -2: not yet read from the environment.
constexpr int kNoCap = -1;
constexpr int kUnread = -2;
std::atomic<int> g_cap{kUnread};
// Where the cap came from, for DescribeHostIsa.
std::atomic<bool> g_cap_from_env{false};

#if defined(__x86_64__)
bool AvxVnniCpuid() {
  // CPUID.(EAX=7,ECX=1):EAX[4]; usable only with AVX2 (the OS saves YMM).
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) && (eax & (1u << 4)) != 0;
}
#endif

struct Detected {
  CpuFeatures features;
  IsaLevel level = IsaLevel::kScalar;
  std::string model = "unknown";
};

const Detected& Detect() {
  static const Detected* d = [] {
    auto* r = new Detected();
    if (!cpuinfo_initialize()) return r;
#if defined(__x86_64__)
    CpuFeatures& f = r->features;
    f.sse42 = cpuinfo_has_x86_sse4_2();
    const bool v3 = cpuinfo_has_x86_avx2() && cpuinfo_has_x86_fma3() && cpuinfo_has_x86_bmi() &&
                    cpuinfo_has_x86_bmi2() && cpuinfo_has_x86_f16c() && cpuinfo_has_x86_lzcnt() &&
                    cpuinfo_has_x86_movbe();
    const bool v4 = v3 && cpuinfo_has_x86_avx512f() && cpuinfo_has_x86_avx512bw() &&
                    cpuinfo_has_x86_avx512cd() && cpuinfo_has_x86_avx512dq() &&
                    cpuinfo_has_x86_avx512vl();
    f.avx2 = v3;
    f.avx512bw = v4;
    f.avx512vnni = v4 && cpuinfo_has_x86_avx512vnni();
    f.avxvnni = v3 && AvxVnniCpuid();
    f.avx512vbmi = v4 && cpuinfo_has_x86_avx512vbmi();
    r->level = f.avx512vnni ? IsaLevel::kAvx512vnni
               : f.avx512bw ? IsaLevel::kAvx512bw
               : f.avxvnni  ? IsaLevel::kAvxvnni
               : f.avx2     ? IsaLevel::kAvx2
                            : IsaLevel::kScalar;
#elif defined(__aarch64__)
    // From the kernel's hardware capabilities: cpuinfo does not report i8mm.
    const ArmFeatures arm = ReadArmFeatures();
    r->features.neon = arm.neon;
    r->features.dotprod = arm.dotprod;
    r->features.i8mm = arm.i8mm;
    r->level = ArmLevel(arm);
#endif
    if (cpuinfo_get_packages_count() > 0 && cpuinfo_get_package(0)->name[0] != '\0') {
      r->model = cpuinfo_get_package(0)->name;
    }
#if defined(__aarch64__)
    // cpuinfo names an Arm package from /proc/cpuinfo or the SoC, often not
    // at all (and under qemu-user it reads the host's): the core from
    // MIDR_EL1 says what the kernels run on.
    const uint64_t midr = ReadArmMidr();
    if (const char* core = ArmCoreName(midr); core[0] != '\0') {
      r->model = core;
    } else if (midr != 0) {
      char hex[32];
      std::snprintf(hex, sizeof(hex), "%#010llx", static_cast<unsigned long long>(midr));
      r->model = absl::StrCat("unknown Arm core, MIDR_EL1 ", hex);
    }
#endif
    return r;
  }();
  return *d;
}

int ReadCap() {
  int cap = g_cap.load(std::memory_order_acquire);
  if (cap != kUnread) return cap;
  const char* env = std::getenv(kEnvVar);
  int from_env = kNoCap;
  if (env != nullptr && env[0] != '\0') {
    auto level = ParseIsaLevel(env);
    from_env = static_cast<int>(level.ok() ? *level : IsaLevel::kScalar);
  }
  // A concurrent SetIsaCap wins over the environment.
  if (g_cap.compare_exchange_strong(cap, from_env, std::memory_order_acq_rel)) {
    g_cap_from_env.store(from_env != kNoCap);
    return from_env;
  }
  return cap;
}

}  // namespace

absl::StatusOr<IsaLevel> ParseIsaLevel(absl::string_view name) {
  IsaLevel level;
  std::vector<std::string> valid;
  for (IsaLevel l : kBuildIsaLevels) valid.push_back(IsaLevelName(l));
  if (IsaLevelNamed(std::string_view(name.data(), name.size()), &level)) {
    if (LevelOfArch(level, kBuildArch)) return level;
    return absl::InvalidArgumentError(absl::StrCat(
        "instruction-set level '", name, "' is ", kBuildArch == Arch::kX86_64 ? "AArch64" : "x86-64",
        "'s; this build is for ", kBuildArch == Arch::kX86_64 ? "x86-64" : "AArch64",
        " (valid: ", absl::StrJoin(valid, ", "), ")"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown instruction-set level '", name, "' (valid: ", absl::StrJoin(valid, ", "), ")"));
}

IsaLevel DetectedIsaLevel() { return Detect().level; }

CpuFeatures DetectedCpuFeatures() { return Detect().features; }

std::optional<IsaLevel> IsaCap() {
  const int cap = ReadCap();
  if (cap == kNoCap) return std::nullopt;
  return static_cast<IsaLevel>(cap);
}

void SetIsaCap(std::optional<IsaLevel> cap) {
  g_cap.store(cap ? static_cast<int>(*cap) : kNoCap, std::memory_order_release);
  g_cap_from_env.store(false);
}

absl::Status CheckIsaEnvironment() {
  const char* env = std::getenv(kEnvVar);
  if (env == nullptr || env[0] == '\0') return absl::OkStatus();
  auto level = ParseIsaLevel(env);
  if (!level.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(kEnvVar, ": ", level.status().message()));
  }
  return absl::OkStatus();
}

IsaLevel HostIsaLevel() {
  const IsaLevel detected = DetectedIsaLevel();
  const int cap = ReadCap();
  if (cap == kNoCap || Includes(static_cast<IsaLevel>(cap), detected)) return detected;
  const IsaLevel level = static_cast<IsaLevel>(cap);
  // Below an AVX-512 level the branch exists only where the CPU has it.
  if (level == IsaLevel::kAvxvnni && !Detect().features.avxvnni) return IsaLevel::kAvx2;
  return level;
}

CpuFeatures HostCpuFeatures() {
  CpuFeatures f = Detect().features;
  if (!IsaCap()) return f;
  // What the capped level has: AVX-VNNI at its own level and at
  // avx512vnni's (hidden at avx512bw's, as on Skylake-X).
  const IsaLevel l = HostIsaLevel();
  if (!Includes(l, IsaLevel::kAvx512vnni)) f.avx512vnni = f.avx512vbmi = false;
  if (l != IsaLevel::kAvxvnni && l != IsaLevel::kAvx512vnni) f.avxvnni = false;
  if (!Includes(l, IsaLevel::kAvx512bw)) f.avx512bw = false;
  if (!Includes(l, IsaLevel::kAvx2)) f.avx2 = false;
  if (!Includes(l, IsaLevel::kI8mm)) f.i8mm = false;
  if (!Includes(l, IsaLevel::kDotprod)) f.dotprod = false;
  if (!Includes(l, IsaLevel::kNeon)) f.neon = false;
  return f;
}

std::string CpuModelName() { return Detect().model; }

std::string DescribeHostIsa() {
  std::string s = IsaLevelName(HostIsaLevel());
  if (const std::optional<IsaLevel> cap = IsaCap()) {
    absl::StrAppend(&s, " (capped at ", IsaLevelName(*cap),
                    g_cap_from_env.load() ? " by QNNC_ISA" : "", "; the CPU has ",
                    IsaLevelName(DetectedIsaLevel()), ")");
  }
  absl::StrAppend(&s, " (", CpuModelName(), ")");
  return s;
}

}  // namespace qnnc::kernels::cpu
