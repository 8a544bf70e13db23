'use strict';
// The layer suite (docs/benchmarks.md), N = 1. The
// C++ benchmarks (bench/*_benchmark.cc) carry the same table; compare.js
// refuses to print a row whose layer name it does not know.
const LAYERS = [
  // name,           C,   H,   W,   K, kernel, stride, pad, groups
  ['r50_c2_3x3',    64,  56,  56,  64, 3, 1, 1, 1],
  ['r50_c2_1x1',   256,  56,  56,  64, 1, 1, 0, 1],
  ['r50_c3_3x3',   128,  28,  28, 128, 3, 1, 1, 1],
  ['r50_c5_3x3',   512,   7,   7, 512, 3, 1, 1, 1],
  ['r50_stem_7x7',   3, 224, 224,  64, 7, 2, 3, 1],
  ['mbv2_pw_112',   16, 112, 112,  96, 1, 1, 0, 1],
  ['mbv2_dw_112',   32, 112, 112,  32, 3, 1, 1, 32],
  ['mbv2_dw_s2',    96, 112, 112,  96, 3, 2, 1, 96],
].map(([name, c, h, w, k, r, stride, pad, groups]) => {
  const oh = Math.floor((h + 2 * pad - r) / stride) + 1;
  const ow = Math.floor((w + 2 * pad - r) / stride) + 1;
  // GOPS = 2 * N * K * (C / groups) * R * S * OH * OW / time
  const ops = 2 * k * (c / groups) * r * r * oh * ow;
  return { name, c, h, w, k, r, stride, pad, groups, oh, ow, ops };
});

// One core's u8 x s8 peak (vpdpbusd zmm, 2 per cycle at about 3.4 GHz).
const PEAK_GOPS_PER_CORE = 900;
// One core's exact AVX2 limit (vpmaddwd -> vpaddd, //bench:avx2_peak_benchmark
// BM_Maddwd on the same Zen 5: 183-191 GOPS).
const AVX2_PEAK_GOPS_PER_CORE = 190;

// One core's AVX-VNNI limit (vpdpbusd ymm, //bench:avx2_peak_benchmark
// BM_AvxVnniDpbusd on a 2-vCPU Intel Xeon: 326-341 GOPS).
const AVXVNNI_PEAK_GOPS_PER_CORE = 335;

// The limit of the instruction set an implementation runs: its own for
// qnnc's AVX2 and AVX-VNNI kernels (u8s8.avx2, u8i16.avx2, u8s8.avxvnni);
// for the others (XNNPACK, which picks the best code the CPU reports) the
// limit of the cap `isa` (compare.js --isa runs them under the CPUID cap),
// else the VNNI one.
function peakFor(impl, isa) {
  if (/(^|\.)avxvnni\b/.test(impl || '')) return AVXVNNI_PEAK_GOPS_PER_CORE;
  if (/(^|\.)avx2\b/.test(impl || '')) return AVX2_PEAK_GOPS_PER_CORE;
  if (isa === 'avx2') return AVX2_PEAK_GOPS_PER_CORE;
  if (isa === 'avxvnni') return AVXVNNI_PEAK_GOPS_PER_CORE;
  return PEAK_GOPS_PER_CORE;
}

module.exports = { LAYERS, PEAK_GOPS_PER_CORE, AVX2_PEAK_GOPS_PER_CORE, AVXVNNI_PEAK_GOPS_PER_CORE,
  peakFor };
