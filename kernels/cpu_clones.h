// QNNC_CPU_CLONES: compile a hot loop function once per x86-64 level
// (x86-64-v4: AVX-512; v3: AVX2; the baseline), the loader picking the
// clone this CPU runs (GCC/Clang target_clones, an ifunc). The portable
// kernels (elementwise, dense, pool) are built for the baseline, whose
// 128-bit vectors leave most of a modern core idle; the per-ISA
// convolution microkernels do their own dispatch instead (spatial_pack).
//
// Every clone computes the same bits: the loops use integer arithmetic and
// IEEE-exact float operations in source order, and the float kernels build
// with -ffp-contract=off, so a wider ISA cannot fuse a multiply and an add.
// Elsewhere (not x86-64 ELF) the macro is empty.
#ifndef QNNC_KERNELS_CPU_CLONES_H_
#define QNNC_KERNELS_CPU_CLONES_H_

#if defined(__x86_64__) && defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#define QNNC_CPU_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define QNNC_CPU_CLONES
#endif

#endif  // QNNC_KERNELS_CPU_CLONES_H_
