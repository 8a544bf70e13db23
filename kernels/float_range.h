// The range DynamicQuantizeLinear quantizes to, of float32 values: their
// minimum and maximum starting from 0 (a value replaces only when strictly
// beyond, so NaN never does and a -0 never replaces +0), and how many are
// infinite. Shared by the DynamicQuantizeLinear kernel and the dynamic
// convolution's epilogue, which computes it for the next one.
//
// Explicit AVX-512 / AVX2 / NEON vectors, picked by the host's capped
// level: `_mm512_min_ps(v, lo)` is exactly `v < lo ? v : lo` (the second
// operand when unordered or equal), and NEON selects by the same compare
// (its fmin would take a NaN), so each lane keeps what the serial loop keeps;
// GCC scalarized the plain loop (`a < b ? a : b` is not a min to it without
// -ffast-math). Merging ranges is exact in any order: partial minima are +0
// or strictly negative, partial maxima +0 or strictly positive.
#ifndef QNNC_KERNELS_FLOAT_RANGE_H_
#define QNNC_KERNELS_FLOAT_RANGE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/cpu_clones.h"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace qnnc::kernels {

struct FloatRange {
  float lo = 0.0f, hi = 0.0f;
  int64_t infinities = 0;

  void Add(float v) {
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    infinities += std::fabs(v) == std::numeric_limits<float>::infinity();
  }
  void Merge(const FloatRange& r) {
    lo = r.lo < lo ? r.lo : lo;
    hi = r.hi > hi ? r.hi : hi;
    infinities += r.infinities;
  }
};

namespace internal {

inline FloatRange RangeScalar(const float* x, int64_t n) {
  FloatRange r;
  for (int64_t i = 0; i < n; ++i) r.Add(x[i]);
  return r;
}

// The range of kLanes partial ranges (lane k: [l[k], h[k]]), the `infs`
// infinities they counted, and the elements x[i, n) left over.
template <int kLanes>
inline FloatRange MergeLanes(const float (&l)[kLanes], const float (&h)[kLanes], int64_t infs, const float* x,
                             int64_t i, int64_t n) {
  FloatRange r = RangeScalar(x + i, n - i);
  for (int k = 0; k < kLanes; ++k) r.Merge({l[k], h[k], 0});
  r.infinities += infs;
  return r;
}

#if QNNC_HAS_CPU_CLONES
QNNC_AVX512_BODIES_BEGIN
QNNC_TARGET_X86_64_V4 inline FloatRange RangeAvx512(const float* x, int64_t n) {
  __m512 lo = _mm512_setzero_ps(), hi = _mm512_setzero_ps();
  const __m512 abs_mask = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
  const __m512 inf = _mm512_set1_ps(std::numeric_limits<float>::infinity());
  int64_t infs = 0, i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 v = _mm512_loadu_ps(x + i);
    lo = _mm512_min_ps(v, lo);
    hi = _mm512_max_ps(v, hi);
    infs += __builtin_popcount(_mm512_cmp_ps_mask(_mm512_and_ps(v, abs_mask), inf, _CMP_EQ_OQ));
  }
  alignas(64) float l[16], h[16];
  _mm512_store_ps(l, lo);
  _mm512_store_ps(h, hi);
  return MergeLanes(l, h, infs, x, i, n);
}

QNNC_AVX512_BODIES_END

QNNC_TARGET_X86_64_V3 inline FloatRange RangeAvx2(const float* x, int64_t n) {
  __m256 lo = _mm256_setzero_ps(), hi = _mm256_setzero_ps();
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  const __m256 inf = _mm256_set1_ps(std::numeric_limits<float>::infinity());
  int64_t infs = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    lo = _mm256_min_ps(v, lo);
    hi = _mm256_max_ps(v, hi);
    infs += __builtin_popcount(
        _mm256_movemask_ps(_mm256_cmp_ps(_mm256_and_ps(v, abs_mask), inf, _CMP_EQ_OQ)));
  }
  alignas(32) float l[8], h[8];
  _mm256_store_ps(l, lo);
  _mm256_store_ps(h, hi);
  return MergeLanes(l, h, infs, x, i, n);
}
#endif

#if defined(__aarch64__)
inline FloatRange RangeNeon(const float* x, int64_t n) {
  float32x4_t lo = vdupq_n_f32(0.0f), hi = vdupq_n_f32(0.0f);
  const float32x4_t inf = vdupq_n_f32(std::numeric_limits<float>::infinity());
  int64_t infs = 0, i = 0;
  const int64_t whole = n - n % 4;
  while (i < whole) {
    // Infinities counted per lane in 32 bits, added up every 2^20 vectors.
    uint32x4_t count = vdupq_n_u32(0);
    for (const int64_t end = std::min(whole, i + (int64_t{4} << 20)); i < end; i += 4) {
      const float32x4_t v = vld1q_f32(x + i);
      lo = vbslq_f32(vcltq_f32(v, lo), v, lo);
      hi = vbslq_f32(vcgtq_f32(v, hi), v, hi);
      count = vsubq_u32(count, vceqq_f32(vabsq_f32(v), inf));
    }
    infs += vaddvq_u32(count);
  }
  float l[4], h[4];
  vst1q_f32(l, lo);
  vst1q_f32(h, hi);
  return MergeLanes(l, h, infs, x, i, n);
}
#endif

}  // namespace internal

using FloatRangeFn = FloatRange (*)(const float*, int64_t);

// The range function for the host's capped level (pick once per run).
inline FloatRangeFn PickFloatRange() {
  return PickForHost<FloatRangeFn>({QNNC_X86_BODY(internal::RangeAvx512), QNNC_X86_BODY(internal::RangeAvx2),
                                    QNNC_NEON_BODY(internal::RangeNeon)},
                                   &internal::RangeScalar);
}

}  // namespace qnnc::kernels

#endif  // QNNC_KERNELS_FLOAT_RANGE_H_
