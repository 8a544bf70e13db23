// The machine's u8 x s8 limit, measured: a loop of independent vpdpbusd zmm
// (24 accumulators in registers, no memory traffic) on 1 thread and on 2
// threads at once (Google Benchmark's ->Threads(2)). GOPS per thread at 2
// threads below the 1-thread figure means the cores slow down when both run
// AVX-512 (clock or host limits): no kernel can scale past that ratio.
//
//   bazel run -c opt //bench:vnni_peak_benchmark
#include <cstdint>

#include "benchmark/benchmark.h"

#if defined(__AVX512F__) && defined(__AVX512VNNI__)

namespace {

constexpr int64_t kIters = 1 << 20;
constexpr int kAcc = 24;

// 24 independent chains hide vpdpbusd's latency. Written in assembly: GCC
// keeps an array of 24 accumulators partly in memory, which measures the
// store-forwarding latency instead of the multiplier.
#define QNNC_DP(n) "vpdpbusd %%zmm31, %%zmm30, %%zmm" #n "\n\t"
__attribute__((noinline)) void DpbusdLoop(int64_t iters) {
  __asm__ volatile(
      "vpternlogd $0xff, %%zmm30, %%zmm30, %%zmm30\n\t"  // all ones
      "vpabsb %%zmm30, %%zmm31\n\t"
      "1:\n\t"  //
      QNNC_DP(0) QNNC_DP(1) QNNC_DP(2) QNNC_DP(3) QNNC_DP(4) QNNC_DP(5)
      QNNC_DP(6) QNNC_DP(7) QNNC_DP(8) QNNC_DP(9) QNNC_DP(10) QNNC_DP(11)
      QNNC_DP(12) QNNC_DP(13) QNNC_DP(14) QNNC_DP(15) QNNC_DP(16) QNNC_DP(17)
      QNNC_DP(18) QNNC_DP(19) QNNC_DP(20) QNNC_DP(21) QNNC_DP(22) QNNC_DP(23)
      "dec %0\n\t"
      "jnz 1b\n\t"
      : "+r"(iters)
      :
      : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
        "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17",
        "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm30", "xmm31");
}
#undef QNNC_DP

void BM_VpdpbusdPeak(benchmark::State& state) {
  for (auto _ : state) DpbusdLoop(kIters);
  // 64 multiply-adds (128 ops) per instruction.
  const double ops = 128.0 * kAcc * kIters;
  state.counters["GOPS_per_thread"] =
      benchmark::Counter(ops * state.iterations() / 1e9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_VpdpbusdPeak)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace

#endif

BENCHMARK_MAIN();
