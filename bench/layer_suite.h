// The layer suite (docs/benchmarks.md), shared by the benchmark binaries
// (bench/peers/suite.js holds the same table for ONNX Runtime).
#ifndef QNNC_BENCH_LAYER_SUITE_H_
#define QNNC_BENCH_LAYER_SUITE_H_

#include <cstdint>

namespace qnnc::bench {

// The machine's u8 x s8 limit per core that "percent of peak" counters use
// for every implementation (Zen 5: 2 vpdpbusd zmm per cycle at about 3.4
// GHz; //bench:vnni_peak_benchmark measures it), so the columns compare
// directly (AVX2's own limit is about half of it).
inline constexpr double kPeakGopsPerCore = 900.0;
// The exact AVX2 limit per core (vpmaddwd -> vpaddd; //bench:avx2_peak_benchmark
// BM_Maddwd on the same Zen 5: 183-191 GOPS): the AVX2 kernels' percent of peak.
inline constexpr double kAvx2PeakGopsPerCore = 190.0;
// The AVX-VNNI limit per core (vpdpbusd on ymm; //bench:avx2_peak_benchmark
// BM_AvxVnniDpbusd on a 2-vCPU Intel Xeon with AMX: 326-341 GOPS): the
// u8s8.avxvnni kernel's percent of peak.
inline constexpr double kAvxVnniPeakGopsPerCore = 335.0;

// One image (N = 1), square kernel, symmetric padding.
struct Layer {
  const char* name;
  int64_t c, h, w, k, kernel, stride, pad, groups;
};

inline constexpr Layer kLayerSuite[] = {
    {"r50_c2_3x3", 64, 56, 56, 64, 3, 1, 1, 1},
    {"r50_c2_1x1", 256, 56, 56, 64, 1, 1, 0, 1},
    {"r50_c3_3x3", 128, 28, 28, 128, 3, 1, 1, 1},
    {"r50_c5_3x3", 512, 7, 7, 512, 3, 1, 1, 1},
    {"r50_stem_7x7", 3, 224, 224, 64, 7, 2, 3, 1},
    {"mbv2_pw_112", 16, 112, 112, 96, 1, 1, 0, 1},
    {"mbv2_dw_112", 32, 112, 112, 32, 3, 1, 1, 32},
    {"mbv2_dw_s2", 96, 112, 112, 96, 3, 2, 1, 96},
};

}  // namespace qnnc::bench

#endif  // QNNC_BENCH_LAYER_SUITE_H_
