// AVX2 depthwise rows: two taps per vpmaddwd on zero-extended inputs,
// exact for any weights. Compiled with -mavx2 -mfma; a stub otherwise.
#include "kernels/spatial_pack/internal/microkernels.h"

#if defined(__AVX2__)
#include <immintrin.h>

#include "kernels/spatial_pack/internal/avx2_epilogue.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {

// Depthwise: two taps per vpmaddwd. The 16 channels of taps a and b are
// interleaved (vpunpcklbw/hbw) and zero-extended to the int16 pairs
// (a_c, b_c), multiplied by the weight pairs (w_c,a, w_c,b): 16 MACs per
// vpmaddwd, exact (a pair sums two products of at most 255 * 128). An odd
// last tap is paired with weight 0.
struct DwAcc {
  __m256i lo, hi;  // channels 0-7, 8-15
};

inline void DwMac(DwAcc* a, __m128i xa, __m128i xb, const int16_t* w) {
  const __m256i p0 = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(xa, xb));
  const __m256i p1 = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(xa, xb));
  a->lo = _mm256_add_epi32(a->lo, _mm256_madd_epi16(p0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w))));
  a->hi = _mm256_add_epi32(a->hi, _mm256_madd_epi16(p1, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 16))));
}

// A lone tap: the pairs (x_c, 0) are its bytes zero-extended to 32 bits.
inline void DwMacLast(DwAcc* a, __m128i x, const int16_t* w) {
  const __m256i p0 = _mm256_cvtepu8_epi32(x);
  const __m256i p1 = _mm256_cvtepu8_epi32(_mm_srli_si128(x, 8));
  a->lo = _mm256_add_epi32(a->lo, _mm256_madd_epi16(p0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w))));
  a->hi = _mm256_add_epi32(a->hi, _mm256_madd_epi16(p1, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 16))));
}

// One output pixel of a depthwise row: requantized bytes, or raw int32.
inline void DwStore(const DwGeom& g, const DwRow& r, int64_t ox, const DwAcc& a, __m256 m0, __m256 m1,
                    __m256 lo, __m256 hi, __m256i zp, bool nan) {
  if (g.ep.raw32) {
    StoreRaw(r.out + ox * kRawPixelBytes, a.lo, a.hi);
    return;
  }
  Store16(r.out + ox * 16, Requantize8(a.lo, m0, lo, hi, zp, nan), Requantize8(a.hi, m1, lo, hi, zp, nan));
}

inline __m128i LoadPix16(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

// KxK (3x3, 5x5) with all K rows inside, columns [ox, ox_end) all inside:
// the taps at compile time, no bounds checks, two pixels at a time (the
// generic loop below ran at 30 GOPS on mbv2_dw_112, its index arithmetic
// and branches per tap outweighing the multiplies). K * K is odd: its last
// tap goes alone.
template <int K>
void DwRowInterior(const DwGeom& g, const DwRow& r, int64_t ox, int64_t ox_end, __m256 m0, __m256 m1,
                   __m256 lo, __m256 hi, __m256i zp, bool nan) {
  constexpr int kTaps = K * K, kPairs = kTaps / 2;
  const int64_t ih0 = r.oh * g.sh - g.pad_t;
  const uint8_t* rows[K];
  for (int ky = 0; ky < K; ++ky) rows[ky] = r.in + (ih0 + ky * g.dh) * g.w * 16;
  const int64_t dx = g.dw * 16, sx = g.sw * 16;
  const __m256i bias_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r.bias));
  const __m256i bias_hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r.bias + 8));
  auto tap = [&](int t, int64_t base) { return LoadPix16(rows[t / K] + base + (t % K) * dx); };
  for (; ox + 2 <= ox_end; ox += 2) {
    const int64_t b0 = (ox * g.sw - g.pad_l) * 16, b1 = b0 + sx;
    DwAcc a = {bias_lo, bias_hi}, b = {bias_lo, bias_hi};
    for (int j = 0; j < kPairs; ++j) {
      DwMac(&a, tap(2 * j, b0), tap(2 * j + 1, b0), r.w_pairs + 32 * j);
      DwMac(&b, tap(2 * j, b1), tap(2 * j + 1, b1), r.w_pairs + 32 * j);
    }
    DwMacLast(&a, tap(kTaps - 1, b0), r.w_pairs + 32 * kPairs);
    DwMacLast(&b, tap(kTaps - 1, b1), r.w_pairs + 32 * kPairs);
    DwStore(g, r, ox, a, m0, m1, lo, hi, zp, nan);
    DwStore(g, r, ox + 1, b, m0, m1, lo, hi, zp, nan);
  }
  if (ox < ox_end) {
    const int64_t b0 = (ox * g.sw - g.pad_l) * 16;
    DwAcc a = {bias_lo, bias_hi};
    for (int j = 0; j < kPairs; ++j) DwMac(&a, tap(2 * j, b0), tap(2 * j + 1, b0), r.w_pairs + 32 * j);
    DwMacLast(&a, tap(kTaps - 1, b0), r.w_pairs + 32 * kPairs);
    DwStore(g, r, ox, a, m0, m1, lo, hi, zp, nan);
  }
}

void DwRowImpl(const DwGeom& g, const DwRow& r) {
  const __m256 lo = _mm256_set1_ps(g.ep.lo), hi = _mm256_set1_ps(g.ep.hi);
  const __m256i zp = _mm256_set1_epi32(g.ep.zp);
  const __m128i zx16 = _mm_set1_epi8(static_cast<char>(g.zx));
  const __m256 m0 = _mm256_loadu_ps(r.mult), m1 = _mm256_loadu_ps(r.mult + 8);
  const bool nan = g.ep.nan_check;
  const int64_t ih0 = r.oh * g.sh - g.pad_t;
  // Any column: every tap checked against the borders.
  auto column = [&](int64_t ox) {
    const int64_t iw0 = ox * g.sw - g.pad_l;
    const bool interior = ox >= g.ow_lo && ox < g.ow_hi;
    DwAcc a = {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(r.bias)),
               _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r.bias + 8))};
    const int16_t* w = r.w_pairs;
    __m128i pending = zx16;
    bool have = false;
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const int64_t ih = ih0 + ky * g.dh;
      const bool row_in = ih >= 0 && ih < g.h;
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t iw = iw0 + kx * g.dw;
        __m128i x = zx16;
        if (row_in && (interior || (iw >= 0 && iw < g.w))) x = LoadPix16(r.in + (ih * g.w + iw) * 16);
        if (have) {
          DwMac(&a, pending, x, w);
          w += 32;
        } else {
          pending = x;
        }
        have = !have;
      }
    }
    if (have) DwMac(&a, pending, zx16, w);  // its weight pair is (w, 0)
    DwStore(g, r, ox, a, m0, m1, lo, hi, zp, nan);
  };
  const bool rows_in = ih0 >= 0 && ih0 + (g.kh - 1) * g.dh < g.h;
  const bool k3 = g.kh == 3 && g.kw == 3, k5 = g.kh == 5 && g.kw == 5;
  if ((k3 || k5) && rows_in && g.ow_lo < g.ow_hi) {
    for (int64_t ox = 0; ox < g.ow_lo; ++ox) column(ox);
    if (k3) {
      DwRowInterior<3>(g, r, g.ow_lo, g.ow_hi, m0, m1, lo, hi, zp, nan);
    } else {
      DwRowInterior<5>(g, r, g.ow_lo, g.ow_hi, m0, m1, lo, hi, zp, nan);
    }
    for (int64_t ox = g.ow_hi; ox < g.ow; ++ox) column(ox);
  } else {
    for (int64_t ox = 0; ox < g.ow; ++ox) column(ox);
  }
}

}  // namespace

DwRowFn GetDwRowAvx2() { return &DwRowImpl; }

}  // namespace qnnc::kernels::spatial_pack::internal

#else  // no AVX2 in this build

namespace qnnc::kernels::spatial_pack::internal {
DwRowFn GetDwRowAvx2() { return nullptr; }
}  // namespace qnnc::kernels::spatial_pack::internal

#endif
