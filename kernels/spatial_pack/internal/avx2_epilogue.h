// The requantizing stores of the ymm u8s8 tiles (avx2.cc, avxvnni.cc):
// 8 int32 accumulators of one half of a 16-channel group at a time.
// Included only by files compiled with -mavx2; the helpers have internal
// linkage so that no copy built with one file's ISA flags is linked into
// another's.
#ifndef QNNC_KERNELS_SPATIAL_PACK_INTERNAL_AVX2_EPILOGUE_H_
#define QNNC_KERNELS_SPATIAL_PACK_INTERNAL_AVX2_EPILOGUE_H_

#if defined(__AVX2__)
#include <immintrin.h>

#include <cstdint>

namespace qnnc::kernels::spatial_pack::internal {
namespace {  // NOLINT(build/namespaces): per ISA file, see above

inline __m256i Requantize8(__m256i acc, __m256 m, __m256 lo, __m256 hi, __m256i zp, bool nan) {
  __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), m);
  if (nan) v = _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
  v = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
  return _mm256_add_epi32(_mm256_cvtps_epi32(v), zp);
}

// 16 int32 (values fitting a byte, signed or not) -> their 16 low bytes.
inline void Store16(uint8_t* out, __m256i a, __m256i b) {
  const __m256i mask = _mm256_set1_epi32(0xFF);
  const __m256i w = _mm256_packus_epi32(_mm256_and_si256(a, mask), _mm256_and_si256(b, mask));
  const __m256i o = _mm256_permute4x64_epi64(w, 0xD8);
  const __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(o), _mm256_extracti128_si256(o, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), bytes);
}

// Raw accumulators (Epilogue::raw32) of channels 0-7 and 8-15.
inline void StoreRaw(uint8_t* out, __m256i a, __m256i b) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), a);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32), b);
}

}  // namespace
}  // namespace qnnc::kernels::spatial_pack::internal

#endif  // __AVX2__
#endif  // QNNC_KERNELS_SPATIAL_PACK_INTERNAL_AVX2_EPILOGUE_H_
