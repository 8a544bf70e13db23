// CpuClones<&Body>: a hot loop compiled once per x86-64 level (AVX-512BW,
// AVX2, the baseline), with the clone chosen by kernels::cpu::HostIsaLevel()
// when a kernel launches it, so the instruction-set cap (QNNC_ISA, --isa)
// reaches these kernels too. The portable kernels (elementwise, dense,
// pool) are built for the baseline, whose 128-bit vectors leave most of a
// modern core idle; the per-ISA convolution microkernels (spatial_pack)
// choose their own code from the same probe.
//
// Usage: write the loop as a pthreadpool task marked QNNC_CLONE_BODY,
//   QNNC_CLONE_BODY static void RunBody(void* ctx, size_t a, size_t b) {...}
// and launch CpuClones<&Task::RunBody>::Pick(). The body is inlined into a
// wrapper per level, and vectorized for that level there.
//
// Every clone computes the same bits: the loops use integer arithmetic and
// IEEE-exact float operations in source order, and the float kernels build
// with -ffp-contract=off, so a wider ISA cannot fuse a multiply and an add.
//
// The levels are feature lists, not "arch=x86-64-v3": GCC inlines a body
// only into a caller of the same -march (a feature superset is fine).
// Elsewhere (not x86-64, or a compiler without the target attribute) every
// level runs the baseline code.
#ifndef QNNC_KERNELS_CPU_CLONES_H_
#define QNNC_KERNELS_CPU_CLONES_H_

#include <cstddef>

#include "kernels/cpu/isa.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define QNNC_CLONE_BODY __attribute__((always_inline)) inline
#define QNNC_TARGET_X86_64_V3 \
  __attribute__((target("avx2,fma,bmi,bmi2,f16c,lzcnt,movbe,popcnt,sse4.2")))
#define QNNC_TARGET_X86_64_V4                                                         \
  __attribute__((target("avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,fma,bmi,bmi2," \
                        "f16c,lzcnt,movbe,popcnt,sse4.2")))
#define QNNC_HAS_CPU_CLONES 1
#else
#define QNNC_CLONE_BODY inline
#define QNNC_TARGET_X86_64_V3
#define QNNC_TARGET_X86_64_V4
#define QNNC_HAS_CPU_CLONES 0
#endif

// Around hand-written AVX-512 bodies: GCC 12 warns about the deliberately
// undefined vectors inside its own avx512fintrin.h (_mm512_undefined_*)
// where those intrinsics inline.
#if defined(__clang__)
#define QNNC_AVX512_BODIES_BEGIN \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wuninitialized\"")
#else
#define QNNC_AVX512_BODIES_BEGIN                                                          \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wuninitialized\"") \
      _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#endif
#define QNNC_AVX512_BODIES_END _Pragma("GCC diagnostic pop")

namespace qnnc::kernels {

// The pthreadpool task shape of every cloned loop (1d_tile_1d and 2d tasks).
using CloneTask = void (*)(void*, size_t, size_t);

template <CloneTask Body>
struct CpuClones {
  QNNC_TARGET_X86_64_V4 static void Avx512(void* ctx, size_t a, size_t b) { Body(ctx, a, b); }
  QNNC_TARGET_X86_64_V3 static void Avx2(void* ctx, size_t a, size_t b) { Body(ctx, a, b); }
  static void Baseline(void* ctx, size_t a, size_t b) { Body(ctx, a, b); }

  // The clone for `level`.
  static CloneTask For(cpu::IsaLevel level);
  // The clone this host may run (detected, lowered by the cap).
  static CloneTask Pick() { return For(cpu::HostIsaLevel()); }
};

// A kernel's hand-written vector bodies, one per level that has one; null
// where the build or the kernel has none. QNNC_X86_BODY(f) and
// QNNC_NEON_BODY(f) name a body only where it is compiled (x86-64 with clones, AArch64), so
// one call site lists them all.
template <typename Fn>
struct IsaBodies {
  Fn avx512 = nullptr;  // needs AVX-512BW
  Fn avx2 = nullptr;    // needs AVX2
  Fn neon = nullptr;    // needs NEON
};

// The widest of `bodies` that `level` runs, else `fallback`.
template <typename Fn>
Fn PickForIsa(cpu::IsaLevel level, const IsaBodies<Fn>& bodies, Fn fallback) {
  if (bodies.avx512 != nullptr && cpu::Includes(level, cpu::IsaLevel::kAvx512bw)) return bodies.avx512;
  if (bodies.avx2 != nullptr && cpu::Includes(level, cpu::IsaLevel::kAvx2)) return bodies.avx2;
  if (bodies.neon != nullptr && cpu::Includes(level, cpu::IsaLevel::kNeon)) return bodies.neon;
  return fallback;
}

// The widest of `bodies` this host may run (detected, lowered by the cap).
template <typename Fn>
Fn PickForHost(const IsaBodies<Fn>& bodies, Fn fallback) {
  return PickForIsa(cpu::HostIsaLevel(), bodies, fallback);
}

#if QNNC_HAS_CPU_CLONES
#define QNNC_X86_BODY(f) (&f)
#else
#define QNNC_X86_BODY(f) nullptr
#endif
#if defined(__aarch64__)
#define QNNC_NEON_BODY(f) (&f)
#else
#define QNNC_NEON_BODY(f) nullptr
#endif

template <CloneTask Body>
CloneTask CpuClones<Body>::For(cpu::IsaLevel level) {
  return PickForIsa<CloneTask>(level, {QNNC_X86_BODY(Avx512), QNNC_X86_BODY(Avx2)}, &Baseline);
}

}  // namespace qnnc::kernels

#endif  // QNNC_KERNELS_CPU_CLONES_H_
