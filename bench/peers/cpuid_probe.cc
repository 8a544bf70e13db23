// Prints the x86 SIMD features this process's CPUID reports, one
// "name=0|1" per line: what a peer run under libcpuid_cap_preload.so sees
// (bench/models.sh checks the cap with it before timing ONNX Runtime).
//   --reset-segv  first set SIGSEGV to its default action, as Node.js does
//                 at startup (the cap must survive that)
//   --crash       then store to an inaccessible page (must still crash)
//   --cpuinfo     also print what cpuinfo (XNNPACK's view, a shared library)
//                 reports, as cpuinfo_NAME=0|1: under a patched cap
//                 (cpuid_cap_env.sh) only cpuinfo's CPUIDs are capped
#include <cpuinfo.h>
#include <signal.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "bench/peers/real_fault.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

int main(int argc, char** argv) {
  bool reset_segv = false, crash = false, with_cpuinfo = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--reset-segv") == 0) {
      reset_segv = true;
    } else if (std::strcmp(argv[i], "--crash") == 0) {
      crash = true;
    } else if (std::strcmp(argv[i], "--cpuinfo") == 0) {
      with_cpuinfo = true;
    } else {
      std::fprintf(stderr, "cpuid_probe: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (reset_segv) {
    struct sigaction act;
    std::memset(&act, 0, sizeof act);
    act.sa_handler = SIG_DFL;
    sigaction(SIGSEGV, &act, nullptr);
  }
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  __cpuid_count(1, 0, a, b, c, d);
  const int avx = (c >> 28) & 1;
  __cpuid_count(7, 0, a, b, c, d);
  const int avx2 = (b >> 5) & 1, avx512f = (b >> 16) & 1, avx512bw = (b >> 30) & 1;
  const int avx512vnni = (c >> 11) & 1, amx_int8 = (d >> 25) & 1;
  __cpuid_count(7, 1, a, b, c, d);
  const int avxvnni = (a >> 4) & 1;
  std::printf("avx=%d\navx2=%d\navxvnni=%d\navx512f=%d\navx512bw=%d\navx512vnni=%d\namx_int8=%d\n",
              avx, avx2, avxvnni, avx512f, avx512bw, avx512vnni, amx_int8);
  if (with_cpuinfo) {
    if (!cpuinfo_initialize()) {
      std::fprintf(stderr, "cpuid_probe: cpuinfo_initialize failed\n");
      return 1;
    }
    std::printf("cpuinfo_avx2=%d\ncpuinfo_avx512f=%d\ncpuinfo_avx512vnni=%d\n", cpuinfo_has_x86_avx2() ? 1 : 0,
                cpuinfo_has_x86_avx512f() ? 1 : 0, cpuinfo_has_x86_avx512vnni() ? 1 : 0);
  }
#else
  std::printf("not x86-64\n");
#endif
  std::fflush(stdout);
  if (crash) qnnc::bench::StoreToInaccessiblePage();
  return 0;
}
