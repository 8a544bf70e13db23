// libcpuid_cap_preload.so: LD_PRELOAD it with QNNC_PEER_ISA=LEVEL (scalar, avx2,
// avxvnni, avx512bw, avx512vnni) and the process's CPUID reports no feature above
// LEVEL (cpuid_cap.h). Without QNNC_PEER_ISA it does nothing. A bad level,
// or a host that cannot fault CPUID, ends the process with exit status 2
// and a message: a benchmark must not silently run its peer uncapped.
// With QNNC_PEER_CPUID=patched it does not fault CPUID: only the CPUIDs of
// binaries cpuid_patch rewrote are capped (preload the patched library too).
#include <signal.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "bench/peers/cpuid_cap.h"

namespace {

__attribute__((constructor)) void InstallFromEnvironment() {
  const char* name = std::getenv("QNNC_PEER_ISA");
  if (name == nullptr || *name == '\0') return;
  qnnc::bench::CpuidCapLevel level;
  if (!qnnc::bench::ParseCpuidCapLevel(name, &level)) {
    std::fprintf(stderr, "cpuid_cap: QNNC_PEER_ISA=%s is not one of scalar, avx2, avxvnni, "
                 "avx512bw, avx512vnni\n", name);
    _exit(2);
  }
  const char* trap_name = std::getenv("QNNC_PEER_CPUID");
  qnnc::bench::CpuidTrap trap = qnnc::bench::CpuidTrap::kFaulting;
  if (trap_name != nullptr && std::strcmp(trap_name, "patched") == 0) {
    trap = qnnc::bench::CpuidTrap::kPatched;
  } else if (trap_name != nullptr && *trap_name != '\0') {
    std::fprintf(stderr, "cpuid_cap: QNNC_PEER_CPUID=%s is not 'patched' (or unset)\n", trap_name);
    _exit(2);
  }
  const std::string error = qnnc::bench::InstallCpuidCap(level, trap);
  if (!error.empty()) {
    std::fprintf(stderr, "cpuid_cap: cannot cap CPUID at %s: %s\n", name, error.c_str());
    _exit(2);
  }
}

}  // namespace

// The program's SIGSEGV actions are recorded, not installed, once the cap is
// in place (cpuid_cap.h, ReplaceChainedSegvAction); other signals pass.
extern "C" int sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  if (sig == SIGSEGV && qnnc::bench::CpuidCapInstalled()) {
    qnnc::bench::ReplaceChainedSegvAction(act, old);
    return 0;
  }
  return qnnc::bench::RealSigaction(sig, act, old);
}

extern "C" sighandler_t signal(int sig, sighandler_t handler) {
  struct sigaction act, old;
  std::memset(&act, 0, sizeof act);
  act.sa_handler = handler;
  act.sa_flags = SA_RESTART;
  sigemptyset(&act.sa_mask);
  if (sigaction(sig, &act, &old) != 0) return SIG_ERR;
  return old.sa_handler;
}
