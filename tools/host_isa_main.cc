// Prints this host's CPU and the x86-64 instruction-set level qnnc's one
// probe (kernels/cpu/isa.h) detects on it, with the cap when QNNC_ISA sets
// one: the line CI logs and the benchmark scripts start with
// (scripts/host_isa.sh). Exit 2 when QNNC_ISA is not a level.
#include <cstdio>
#include <string>
#include <thread>

#include "kernels/cpu/isa.h"

int main() {
  namespace cpu = qnnc::kernels::cpu;
  const absl::Status env = cpu::CheckIsaEnvironment();
  if (!env.ok()) {
    std::fprintf(stderr, "host_isa: %s\n", std::string(env.message()).c_str());
    return 2;
  }
  const cpu::IsaLevel level = cpu::DetectedIsaLevel();
  // AVX-VNNI beside AVX-512 (Sapphire Rapids, Zen 5): the avxvnni cap runs it.
  const bool vnni_too = (level == cpu::IsaLevel::kAvx512bw || level == cpu::IsaLevel::kAvx512vnni) &&
                        cpu::DetectedCpuFeatures().avxvnni;
  std::string cap;
  if (const std::optional<cpu::IsaLevel> c = cpu::IsaCap()) {
    cap = std::string(", capped at ") + cpu::IsaLevelName(*c) + " (qnnc's own code runs " +
          cpu::IsaLevelName(cpu::HostIsaLevel()) + ")";
  }
#if defined(__x86_64__)
  const char* arch = "x86_64";
#elif defined(__aarch64__)
  const char* arch = "aarch64";
#else
  const char* arch = "other";
#endif
  std::printf("host: %s (%s, %u cores); instruction-set level %s%s%s\n", cpu::CpuModelName().c_str(), arch,
              std::thread::hardware_concurrency(), cpu::IsaLevelName(level), vnni_too ? " (and AVX-VNNI)" : "",
              cap.c_str());
  return 0;
}
