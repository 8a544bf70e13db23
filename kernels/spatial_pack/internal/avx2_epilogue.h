// The epilogues of the ymm tiles (avx2.cc, avxvnni.cc): requantizing stores
// of 8 int32 accumulators of one half of a 16-channel group at a time, and
// of whole tiles held in Madd16Lane order (microkernels.h).
// Included only by files compiled with -mavx2; the helpers have internal
// linkage so that no copy built with one file's ISA flags is linked into
// another's.
#ifndef QNNC_KERNELS_SPATIAL_PACK_INTERNAL_AVX2_EPILOGUE_H_
#define QNNC_KERNELS_SPATIAL_PACK_INTERNAL_AVX2_EPILOGUE_H_

#if defined(__AVX2__)
#include <immintrin.h>

#include <cstdint>

#include "kernels/spatial_pack/internal/microkernels.h"

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


// Store16 for the Madd16Lane order: vpackusdw already yields channels 0-15.
inline void Store16InOrder(uint8_t* out, __m256i a, __m256i b) {
  const __m256i mask = _mm256_set1_epi32(0xFF);
  const __m256i w = _mm256_packus_epi32(_mm256_and_si256(a, mask), _mm256_and_si256(b, mask));
  const __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), bytes);
}

// The packed 16-bit epilogue (Epilogue::packed16) of madd16 accumulators in
// Madd16Lane order: one or two pixels (a0, a1), (b0, b1) to 16 or 32 bytes.
// Half the vector instructions of Requantize8 + Store16 per pixel.
inline void Madd16StorePacked(uint8_t* out, __m256i a0, __m256i a1, __m256 m0, __m256 m1, bool two,
                              __m256i b0, __m256i b1, const Epilogue& e) {
  auto scale = [](__m256i acc, __m256 m) { return _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(acc), m)); };
  const __m256i zp16 = _mm256_set1_epi16(static_cast<int16_t>(e.zp));
  const __m256i pa = _mm256_adds_epi16(_mm256_packs_epi32(scale(a0, m0), scale(a1, m1)), zp16);
  const __m256i pb = two ? _mm256_adds_epi16(_mm256_packs_epi32(scale(b0, m0), scale(b1, m1)), zp16) : pa;
  // Bytes: a 0-7, b 0-7 | a 8-15, b 8-15.
  __m256i bytes = e.out_signed ? _mm256_packs_epi16(pa, pb) : _mm256_packus_epi16(pa, pb);
  if (e.clamp16) {
    // Clamping the saturated bytes equals clamping the 16-bit values first:
    // [lo_abs, hi_abs] lies inside the dtype's range.
    const __m256i lo8 = _mm256_set1_epi8(static_cast<char>(e.lo_abs));
    const __m256i hi8 = _mm256_set1_epi8(static_cast<char>(e.hi_abs));
    bytes = e.out_signed ? _mm256_min_epi8(_mm256_max_epi8(bytes, lo8), hi8)
                         : _mm256_min_epu8(_mm256_max_epu8(bytes, lo8), hi8);
  }
  bytes = _mm256_permute4x64_epi64(bytes, 0xD8);
  if (two) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), bytes);
  } else {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(bytes));
  }
}

// A ymm tile's accumulators in Madd16Lane order (madd16, AVX-VNNI): 2 * NCO
// ymm at NPIX pixels. The epilogue takes them by value, always inlined:
// taking the array by reference made GCC keep it on the stack (spilled after
// the main loop, reloaded by the epilogue): 0.39 instead of 0.33 ms on
// mbv2_pw_112 (16 input channels).
template <int NCO, int NPIX>
struct Madd16Acc {
  __m256i v[2 * NCO][NPIX];
};

// The epilogue of a tile in Madd16Lane order: raw int32, the packed 16-bit
// path (Epilogue::packed16: about half the vector instructions per pixel),
// or the float clamp of Requantize8.
template <int NCO, int NPIX>
__attribute__((always_inline)) inline void StoreMadd16Tile(const DenseGeom& g, const DenseTile& t,
                                                           Madd16Acc<NCO, NPIX> tile) {
  const auto& acc = tile.v;
  for (int j = 0; j < NCO; ++j) {
    const __m256 m0 = _mm256_loadu_ps(t.mult + 16 * j), m1 = _mm256_loadu_ps(t.mult + 16 * j + 8);
    uint8_t* o = t.out + j * g.out_cstride;
    if (g.ep.raw32) {
      // Madd16Lane order: channels 0-3, 8-11 in the first, 4-7, 12-15 in the second.
      for (int p = 0; p < NPIX; ++p) {
        const __m256i a = acc[2 * j][p], b = acc[2 * j + 1][p];
        StoreRaw(o + p * kRawPixelBytes, _mm256_permute2x128_si256(a, b, 0x20),
                 _mm256_permute2x128_si256(a, b, 0x31));
      }
    } else if (g.ep.packed16) {
      for (int p = 0; p < NPIX; p += 2) {
        Madd16StorePacked(o + p * 16, acc[2 * j][p], acc[2 * j + 1][p], m0, m1, p + 1 < NPIX,
                          acc[2 * j][p + 1 < NPIX ? p + 1 : p], acc[2 * j + 1][p + 1 < NPIX ? p + 1 : p], g.ep);
      }
    } else {
      const __m256 lo = _mm256_set1_ps(g.ep.lo), hi = _mm256_set1_ps(g.ep.hi);
      const __m256i zp = _mm256_set1_epi32(g.ep.zp);
      const bool nan = g.ep.nan_check;
      for (int p = 0; p < NPIX; ++p) {
        Store16InOrder(o + p * 16, Requantize8(acc[2 * j][p], m0, lo, hi, zp, nan),
                       Requantize8(acc[2 * j + 1][p], m1, lo, hi, zp, nan));
      }
    }
  }
}

}  // namespace
}  // namespace qnnc::kernels::spatial_pack::internal

#endif  // __AVX2__
#endif  // QNNC_KERNELS_SPATIAL_PACK_INTERNAL_AVX2_EPILOGUE_H_
