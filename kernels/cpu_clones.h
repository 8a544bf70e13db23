// QNNC_CPU_CLONES: compile a hot loop function once per x86-64 vector ISA
// (AVX-512BW, AVX2, the baseline), the loader picking the clone this CPU
// runs (target_clones, a glibc ifunc). The portable kernels (elementwise,
// dense, pool) are built for the baseline, whose 128-bit vectors leave most
// of a modern core idle; the per-ISA convolution microkernels do their own
// dispatch instead (spatial_pack).
//
// Every clone computes the same bits: the loops use integer arithmetic and
// IEEE-exact float operations in source order, and the float kernels build
// with -ffp-contract=off, so a wider ISA cannot fuse a multiply and an add.
//
// Clang gets feature names, not "arch=x86-64-v4": before Clang 18 it
// dispatches arch= clones wrongly (LLVM issue 55830). Elsewhere (not x86-64,
// not glibc, whose ifuncs the clones need, or an older compiler) the macro
// is empty and the baseline code runs.
#ifndef QNNC_KERNELS_CPU_CLONES_H_
#define QNNC_KERNELS_CPU_CLONES_H_

#if defined(__has_include)
#if __has_include(<features.h>)
#include <features.h>  // __GLIBC__
#endif
#endif

#if defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && defined(__clang__) && \
    __clang_major__ >= 14
#define QNNC_CPU_CLONES __attribute__((target_clones("avx512bw", "avx2", "default")))
#elif defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && !defined(__clang__) && \
    defined(__GNUC__) && __GNUC__ >= 12
// GCC takes no ISA name for AVX-512BW here, only the x86-64 levels (GCC 12).
#define QNNC_CPU_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define QNNC_CPU_CLONES
#endif

#endif  // QNNC_KERNELS_CPU_CLONES_H_
