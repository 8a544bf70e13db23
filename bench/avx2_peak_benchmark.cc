// The machine's AVX2 integer-multiply limits, measured: register-only loops
// of independent chains (no memory traffic), 1 thread and 2 threads at once.
// The exact and inexact ways to multiply u8 by s8 on AVX2:
//   MaddubsMaddwd   vpmaddubsw -> vpmaddwd (ones) -> vpaddd: 32 MACs a step,
//                   ONNX Runtime's scheme; saturates in int16 when a pair's
//                   255 * (|w0| + |w1|) > 32767
//   MaddubsPairs    two vpmaddubsw added in int16 (vpaddw) before one vpmaddwd:
//                   64 MACs a step; saturates sooner
//   Maddwd          int16 vpmaddwd -> vpaddd: 16 MACs a step, exact for any
//                   zero-point-subtracted u8 and s8 (qnnc's u8i16 kernel)
//   AvxVnniDpbusd   vpdpbusd on ymm (AVX-VNNI hosts only; skipped elsewhere):
//                   32 MACs a step, exact (qnnc's u8s8.avxvnni kernel)
//
//   bazel run -c opt //bench:avx2_peak_benchmark
#include <cstdint>

#include "benchmark/benchmark.h"
#include "kernels/cpu/isa.h"

#if defined(__AVX2__)

namespace {

constexpr int64_t kIters = 1 << 20;
constexpr int kChains = 6;

// Written in assembly so that the chains stay in registers (ymm0-5
// accumulators, ymm6-11 temporaries, ymm12-15 operands).
#define QNNC_MM(n, t) \
  "vpmaddubsw %%ymm13, %%ymm12, %%ymm" #t "\n\t" \
  "vpmaddwd %%ymm14, %%ymm" #t ", %%ymm" #t "\n\t" \
  "vpaddd %%ymm" #t ", %%ymm" #n ", %%ymm" #n "\n\t"
__attribute__((noinline)) void MaddubsMaddwdLoop(int64_t iters) {
  __asm__ volatile(
      "vpcmpeqw %%ymm14, %%ymm14, %%ymm14\n\t"
      "vpsrlw $15, %%ymm14, %%ymm14\n\t"  // int16 ones
      "vpabsb %%ymm14, %%ymm12\n\t"
      "vmovdqa %%ymm14, %%ymm13\n\t"
      "1:\n\t"  //
      QNNC_MM(0, 6) QNNC_MM(1, 7) QNNC_MM(2, 8) QNNC_MM(3, 9) QNNC_MM(4, 10) QNNC_MM(5, 11)
      "dec %0\n\t"
      "jnz 1b\n\t"
      : "+r"(iters)
      :
      : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
        "xmm10", "xmm11", "xmm12", "xmm13", "xmm14");
}
#undef QNNC_MM

#define QNNC_MP(n, t) \
  "vpmaddubsw %%ymm13, %%ymm12, %%ymm" #t "\n\t" \
  "vpmaddubsw %%ymm13, %%ymm12, %%ymm15\n\t" \
  "vpaddw %%ymm15, %%ymm" #t ", %%ymm" #t "\n\t" \
  "vpmaddwd %%ymm14, %%ymm" #t ", %%ymm" #t "\n\t" \
  "vpaddd %%ymm" #t ", %%ymm" #n ", %%ymm" #n "\n\t"
__attribute__((noinline)) void MaddubsPairsLoop(int64_t iters) {
  __asm__ volatile(
      "vpcmpeqw %%ymm14, %%ymm14, %%ymm14\n\t"
      "vpsrlw $15, %%ymm14, %%ymm14\n\t"
      "vpabsb %%ymm14, %%ymm12\n\t"
      "vmovdqa %%ymm14, %%ymm13\n\t"
      "1:\n\t"  //
      QNNC_MP(0, 6) QNNC_MP(1, 7) QNNC_MP(2, 8) QNNC_MP(3, 9) QNNC_MP(4, 10) QNNC_MP(5, 11)
      "dec %0\n\t"
      "jnz 1b\n\t"
      : "+r"(iters)
      :
      : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
        "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}
#undef QNNC_MP

#define QNNC_MW(n, t) \
  "vpmaddwd %%ymm13, %%ymm12, %%ymm" #t "\n\t" \
  "vpaddd %%ymm" #t ", %%ymm" #n ", %%ymm" #n "\n\t"
__attribute__((noinline)) void MaddwdLoop(int64_t iters) {
  __asm__ volatile(
      "vpcmpeqw %%ymm12, %%ymm12, %%ymm12\n\t"
      "vpsrlw $15, %%ymm12, %%ymm12\n\t"
      "vmovdqa %%ymm12, %%ymm13\n\t"
      "1:\n\t"  //
      QNNC_MW(0, 6) QNNC_MW(1, 7) QNNC_MW(2, 8) QNNC_MW(3, 9) QNNC_MW(4, 10) QNNC_MW(5, 11)
      "dec %0\n\t"
      "jnz 1b\n\t"
      : "+r"(iters)
      :
      : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
        "xmm10", "xmm11", "xmm12", "xmm13");
}
#undef QNNC_MW

// 12 chains (vpdpbusd's latency is 4-5 cycles at two a cycle); the {vex}
// prefix asks for the AVX-VNNI (not the AVX-512 VL) encoding.
#define QNNC_VD(n) "%{vex%} vpdpbusd %%ymm13, %%ymm12, %%ymm" #n "\n\t"
__attribute__((noinline)) void AvxVnniLoop(int64_t iters) {
  __asm__ volatile(
      "vpcmpeqw %%ymm12, %%ymm12, %%ymm12\n\t"
      "vpabsb %%ymm12, %%ymm13\n\t"
      "1:\n\t"  //
      QNNC_VD(0) QNNC_VD(1) QNNC_VD(2) QNNC_VD(3) QNNC_VD(4) QNNC_VD(5)
      QNNC_VD(6) QNNC_VD(7) QNNC_VD(8) QNNC_VD(9) QNNC_VD(10) QNNC_VD(11)
      "dec %0\n\t"
      "jnz 1b\n\t"
      : "+r"(iters)
      :
      : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
        "xmm10", "xmm11", "xmm12", "xmm13");
}
#undef QNNC_VD
constexpr int kVnniChains = 12;
void Report(benchmark::State& state, double macs_per_step) {
  const double ops = 2.0 * macs_per_step * kChains * kIters;
  state.counters["GOPS_per_thread"] =
      benchmark::Counter(ops * state.iterations() / 1e9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kAvgThreads);
}

void BM_MaddubsMaddwd(benchmark::State& state) {
  for (auto _ : state) MaddubsMaddwdLoop(kIters);
  Report(state, 32);
}
void BM_MaddubsPairs(benchmark::State& state) {
  for (auto _ : state) MaddubsPairsLoop(kIters);
  Report(state, 64);
}
void BM_Maddwd(benchmark::State& state) {
  for (auto _ : state) MaddwdLoop(kIters);
  Report(state, 16);
}
void BM_AvxVnniDpbusd(benchmark::State& state) {
  if (!qnnc::kernels::cpu::HostCpuFeatures().avxvnni) {
    state.SkipWithError("this host (or the QNNC_ISA cap) has no AVX-VNNI");
    return;
  }
  for (auto _ : state) AvxVnniLoop(kIters);
  // Report's chains are kChains: scale to this loop's.
  Report(state, 32.0 * kVnniChains / kChains);
}
BENCHMARK(BM_MaddubsMaddwd)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_MaddubsPairs)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Maddwd)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_AvxVnniDpbusd)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace

#endif

BENCHMARK_MAIN();
