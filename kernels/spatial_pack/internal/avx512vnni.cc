// AVX-512 VNNI microkernels: vpdpbusd (u8 x s8, 4 pairs per 32-bit lane).
// Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512vnni; stubs otherwise.
#include "kernels/spatial_pack/internal/microkernels.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VNNI__)
#include <immintrin.h>

#include <cstring>
#include <utility>

namespace qnnc::kernels::spatial_pack::internal {
namespace {

inline __m512i Requantize16(__m512i acc, __m512 m, __m512 lo, __m512 hi, __m512i zp, bool nan) {
  __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(acc), m);
  if (nan) v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), v);
  v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
  return _mm512_add_epi32(_mm512_cvtps_epi32(v), zp);
}

// A register tile's accumulators: NCO groups of 16 channels at NPIX pixels.
// The epilogue takes them by value, always inlined: taking the array by
// reference made GCC keep it on the stack (spilled after the main loop and
// reloaded by the epilogue): 0.14 instead of 0.11 ms on mbv2_pw_112 (16
// input channels).
template <int NCO, int NPIX>
struct TileAcc {
  __m512i v[NCO][NPIX];
};

template <int NCO, int NPIX>
__attribute__((always_inline)) inline void StoreTile(const DenseGeom& g, const DenseTile& t,
                                                     TileAcc<NCO, NPIX> tile);

// S > 0: the pixel stride (stride_w) known at compile time.
template <int NCO, int NPIX, int Q, int S>
void DenseTileImpl(const DenseGeom& g, const DenseTile& t) {
  TileAcc<NCO, NPIX> tile;
  auto& acc = tile.v;
  for (int j = 0; j < NCO; ++j) {
    const __m512i b = _mm512_loadu_si512(t.bias + 16 * j);
    for (int p = 0; p < NPIX; ++p) acc[j][p] = b;
  }
  const int8_t* w = t.w;
  const int64_t pix = S > 0 ? 4 * Q * S : g.pix_bytes;
  for (int64_t icb = 0; icb < t.icb_count; ++icb) {
    const uint8_t* src_b = t.in + icb * g.in_cstride;
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const uint8_t* src_y = src_b + ky * g.dil_h_bytes;
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const uint8_t* src = src_y + kx * g.dil_w_bytes;
        for (int q = 0; q < Q; ++q) {
          __m512i wv[NCO];
          for (int j = 0; j < NCO; ++j) wv[j] = _mm512_loadu_si512(w + 64 * j);
          w += 64 * NCO;
          for (int p = 0; p < NPIX; ++p) {
            const __m512i x = _mm512_set1_epi32(LoadWord(src + p * pix + 4 * q));
            for (int j = 0; j < NCO; ++j) acc[j][p] = _mm512_dpbusd_epi32(acc[j][p], x, wv[j]);
          }
        }
      }
    }
  }
  StoreTile<NCO, NPIX>(g, t, tile);
}

// The epilogue of a u8s8 register tile: requantized bytes (or raw int32) of
// NCO groups of 16 channels at NPIX pixels.
template <int NCO, int NPIX>
__attribute__((always_inline)) inline void StoreTile(const DenseGeom& g, const DenseTile& t,
                                                     TileAcc<NCO, NPIX> tile) {
  const auto& acc = tile.v;
  const __m512 lo = _mm512_set1_ps(g.ep.lo), hi = _mm512_set1_ps(g.ep.hi);
  const __m512i zp = _mm512_set1_epi32(g.ep.zp);
  const bool nan = g.ep.nan_check;
  for (int j = 0; j < NCO; ++j) {
    const __m512 m = _mm512_loadu_ps(t.mult + 16 * j);
    uint8_t* o = t.out + j * g.out_cstride;
    if (g.ep.raw32) {
      for (int p = 0; p < NPIX; ++p) _mm512_storeu_si512(o + p * kRawPixelBytes, acc[j][p]);
    } else if (g.ep.packed16) {
      // 4 pixels (64 output bytes) at a time through 16-bit lanes; a last
      // group of 1-3 pixels is packed with zeros and stored under a mask.
      const __m512i perm = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
      const __m512i zp16 = _mm512_set1_epi16(g.ep.zp);
      // Clamping the saturated bytes equals clamping the 16-bit values first:
      // [lo_abs, hi_abs] lies inside the dtype's range.
      const __m512i lo8 = _mm512_set1_epi8(static_cast<char>(g.ep.lo_abs));
      const __m512i hi8 = _mm512_set1_epi8(static_cast<char>(g.ep.hi_abs));
      for (int p = 0; p < NPIX; p += 4) {
        const int n = NPIX - p < 4 ? NPIX - p : 4;
        __m512i r[4];
        for (int i = 0; i < 4; ++i) {
          r[i] = i < n ? _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_cvtepi32_ps(acc[j][p + i]), m))
                       : _mm512_setzero_si512();
        }
        const __m512i ab = _mm512_adds_epi16(_mm512_packs_epi32(r[0], r[1]), zp16);
        const __m512i cd = _mm512_adds_epi16(_mm512_packs_epi32(r[2], r[3]), zp16);
        __m512i bytes;
        if (g.ep.out_signed) {
          bytes = _mm512_packs_epi16(ab, cd);
          if (g.ep.clamp16) bytes = _mm512_min_epi8(_mm512_max_epi8(bytes, lo8), hi8);
        } else {
          bytes = _mm512_packus_epi16(ab, cd);
          if (g.ep.clamp16) bytes = _mm512_min_epu8(_mm512_max_epu8(bytes, lo8), hi8);
        }
        bytes = _mm512_permutexvar_epi32(perm, bytes);
        if (n == 4) {
          _mm512_storeu_si512(o + p * 16, bytes);
        } else {
          _mm512_mask_storeu_epi8(o + p * 16, (__mmask64{1} << (16 * n)) - 1, bytes);
        }
      }
    } else {
      for (int p = 0; p < NPIX; ++p) {
        const __m512i q = Requantize16(acc[j][p], m, lo, hi, zp, nan);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(o + p * 16), _mm512_cvtepi32_epi8(q));
      }
    }
  }
}

template <int NCO, int Q, int S, size_t... P>
const DenseTileFn* MakeTable(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&DenseTileImpl<NCO, static_cast<int>(P) + 1, Q, S>...};
  return table;
}

template <int Q, int S>
const DenseTileFn* Table(int nco) {
  using Seq = std::make_index_sequence<kMaxPixVnni>;
  return nco == 1 ? MakeTable<1, Q, S>(Seq{}) : MakeTable<2, Q, S>(Seq{});
}

// Grouped convolutions with 4 or 8 channels per group in and out (ResNeXt's
// 32 x 4d): a 16-channel output block reads only its own groups' input
// channels, the same 16 of the input block at its index. Lane l (group
// l / (4D)) takes the 4-channel word D * (l / (4D)) + d of the pixel at
// step d (vpermd of the pixel's 16 bytes), so one vpdpbusd per step does
// the 16 channels' 4 multiply-adds, where the dense tile spent 4 (3 of them
// on zero weights). Packed weights: [ky][kx][d < D][j < NCO][16 oc][4 ic].
template <int NCO, int NPIX, int D>
void GroupedTileImpl(const DenseGeom& g, const DenseTile& t) {
  TileAcc<NCO, NPIX> tile;
  auto& acc = tile.v;
  for (int j = 0; j < NCO; ++j) {
    const __m512i b = _mm512_loadu_si512(t.bias + 16 * j);
    for (int p = 0; p < NPIX; ++p) acc[j][p] = b;
  }
  __m512i idx[D];
  for (int d = 0; d < D; ++d) {
    alignas(64) int32_t lanes[16];
    for (int l = 0; l < 16; ++l) lanes[l] = l / (4 * D) * D + d;
    idx[d] = _mm512_load_si512(lanes);
  }
  const int8_t* w = t.w;
  const int64_t pix = g.pix_bytes;
  for (int64_t ky = 0; ky < g.kh; ++ky) {
    for (int64_t kx = 0; kx < g.kw; ++kx) {
      const uint8_t* src = t.in + ky * g.dil_h_bytes + kx * g.dil_w_bytes;
      __m512i wv[D][NCO];
      for (int d = 0; d < D; ++d) {
        for (int j = 0; j < NCO; ++j) wv[d][j] = _mm512_loadu_si512(w + 64 * (d * NCO + j));
      }
      w += 64 * D * NCO;
      for (int p = 0; p < NPIX; ++p) {
        for (int j = 0; j < NCO; ++j) {
          const __m512i px = _mm512_castsi128_si512(
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + j * g.in_cstride + p * pix)));
          for (int d = 0; d < D; ++d) {
            acc[j][p] = _mm512_dpbusd_epi32(acc[j][p], _mm512_permutexvar_epi32(idx[d], px), wv[d][j]);
          }
        }
      }
    }
  }
  StoreTile<NCO, NPIX>(g, t, tile);
}

template <int NCO, int D, size_t... P>
const DenseTileFn* MakeGroupedTable(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&GroupedTileImpl<NCO, static_cast<int>(P) + 1, D>...};
  return table;
}

// u8 x i16 by vpdpwssd (exact for any int16 weights: a pair sums two
// products of at most 255 * 255 into int32): the madd16 packing and widened
// input of the AVX2 kernel (microkernels.h), one zmm per step holding the two
// ymm of a pair half, so lane k of a 16-channel group is channel
// Madd16Lane(k). The epilogue permutes the accumulators to channel order.
template <int NCO, int NPIX, int Q>
void DenseTileMadd16Impl(const DenseGeom& g, const DenseTile& t) {
  __m512i acc[NCO][NPIX];
  for (int j = 0; j < NCO; ++j) {
    const __m512i b = _mm512_loadu_si512(t.bias + 16 * j);
    for (int p = 0; p < NPIX; ++p) acc[j][p] = b;
  }
  const int8_t* w = t.w;
  const int64_t pix = g.pix_bytes;
  for (int64_t icb = 0; icb < t.icb_count; ++icb) {
    const uint8_t* src_b = t.in + icb * g.in_cstride;
    const int q_end = icb + 1 == t.icb_count && t.q_last > 0 ? t.q_last : Q;
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const uint8_t* src_y = src_b + ky * g.dil_h_bytes;
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const uint8_t* src = src_y + kx * g.dil_w_bytes;
#pragma GCC unroll 1
        for (int q = 0; q < q_end; ++q) {
          __m512i we[NCO], wo[NCO];
          for (int j = 0; j < NCO; ++j) {
            we[j] = _mm512_loadu_si512(w + 128 * j);
            wo[j] = _mm512_loadu_si512(w + 128 * j + 64);
          }
          for (int p = 0; p < NPIX; ++p) {
            const __m512i xe = _mm512_set1_epi32(LoadWord(src + p * pix + 8 * q));
            const __m512i xo = _mm512_set1_epi32(LoadWord(src + p * pix + 8 * q + 4));
            for (int j = 0; j < NCO; ++j) {
              acc[j][p] = _mm512_dpwssd_epi32(acc[j][p], xe, we[j]);
              acc[j][p] = _mm512_dpwssd_epi32(acc[j][p], xo, wo[j]);
            }
          }
          w += 128 * NCO;
        }
        w += 128 * NCO * (Q - q_end);  // the skipped steps' zero weights
      }
    }
  }
  // Lane k holds channel Madd16Lane(k) (its own inverse): put channel l in
  // lane l.
  const __m512i order = _mm512_setr_epi32(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
  const __m512 lo = _mm512_set1_ps(g.ep.lo), hi = _mm512_set1_ps(g.ep.hi);
  const __m512i zp = _mm512_set1_epi32(g.ep.zp);
  const bool nan = g.ep.nan_check;
  for (int j = 0; j < NCO; ++j) {
    uint8_t* o = t.out + j * g.out_cstride;
    const __m512 m = _mm512_permutexvar_ps(order, _mm512_loadu_ps(t.mult + 16 * j));
    for (int p = 0; p < NPIX; ++p) {
      const __m512i a = _mm512_permutexvar_epi32(order, acc[j][p]);
      if (g.ep.raw32) {
        _mm512_storeu_si512(o + p * kRawPixelBytes, a);
      } else {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(o + p * 16),
                         _mm512_cvtepi32_epi8(Requantize16(a, m, lo, hi, zp, nan)));
      }
    }
  }
}

template <int NCO, size_t... P>
const DenseTileFn* MakeMadd16Table(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&DenseTileMadd16Impl<NCO, static_cast<int>(P) + 1, 4>...};
  return table;
}

template <int NCO, size_t... P>
const DenseTileFn* MakeMadd16Table4(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&DenseTileMadd16Impl<NCO, static_cast<int>(P) + 1, 1>...};
  return table;
}

// Depthwise: the 16 channels of a pixel widened to 32-bit lanes (x, 0) and
// multiplied with (w, 0) by vpdpwssd (exact: |x * w| < 2^16).
inline __m512i LoadPix(const uint8_t* p) {
  return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// KxK (3x3, 5x5) with all K rows inside, columns [ox, ox_end) all inside:
// the taps at compile time, four pixels at a time (each tap's weights loaded
// once for the four), then one. Returns where it stopped (ox_end).
template <int K, typename Store>
int64_t DwInterior(const DwGeom& g, const DwRow& r, int64_t ih0, int64_t ox, int64_t ox_end, __m512i bias,
                   const Store& store) {
  const uint8_t* rows[K];
  for (int ky = 0; ky < K; ++ky) rows[ky] = r.in + (ih0 + ky * g.dh) * g.w * 16;
  const int64_t dx = g.dw * 16, sx = g.sw * 16;
  // 3x3: the 9 weight vectors stay in registers (reloading them cost 7-11%
  // on MobileNetV2's large maps); 5x5: loaded per tap.
  constexpr int kHeld = K == 3 ? 9 : 1;
  __m512i held[kHeld];
  for (int i = 0; i < kHeld; ++i) held[i] = _mm512_loadu_si512(r.w + i * 16);
  for (; ox + 4 <= ox_end; ox += 4) {
    const int64_t base = (ox * g.sw - g.pad_l) * 16;
    __m512i a[4] = {bias, bias, bias, bias};
    for (int ky = 0; ky < K; ++ky) {
      const uint8_t* s = rows[ky] + base;
      for (int kx = 0; kx < K; ++kx) {
        const __m512i w = K == 3 ? held[(ky * K + kx) % kHeld] : _mm512_loadu_si512(r.w + (ky * K + kx) * 16);
        for (int i = 0; i < 4; ++i) a[i] = _mm512_dpwssd_epi32(a[i], LoadPix(s + i * sx + kx * dx), w);
      }
    }
    for (int i = 0; i < 4; ++i) store(ox + i, a[i]);
  }
  for (; ox < ox_end; ++ox) {
    const int64_t base = (ox * g.sw - g.pad_l) * 16;
    __m512i a = bias;
    for (int ky = 0; ky < K; ++ky) {
      for (int kx = 0; kx < K; ++kx) {
        a = _mm512_dpwssd_epi32(a, LoadPix(rows[ky] + base + kx * dx), _mm512_loadu_si512(r.w + (ky * K + kx) * 16));
      }
    }
    store(ox, a);
  }
  return ox;
}

void DwRowImpl(const DwGeom& g, const DwRow& r) {
  const __m512 lo = _mm512_set1_ps(g.ep.lo), hi = _mm512_set1_ps(g.ep.hi);
  const __m512i zp = _mm512_set1_epi32(g.ep.zp);
  const __m512i zxv = _mm512_set1_epi32(g.zx);
  const __m512i bias = _mm512_loadu_si512(r.bias);
  const __m512 m = _mm512_loadu_ps(r.mult);
  const bool nan = g.ep.nan_check;
  const bool raw = g.ep.raw32;
  auto store = [&](int64_t ox, __m512i acc) {
    if (raw) {
      _mm512_storeu_si512(r.out + ox * kRawPixelBytes, acc);
    } else {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(r.out + ox * 16),
                       _mm512_cvtepi32_epi8(Requantize16(acc, m, lo, hi, zp, nan)));
    }
  };
  const int64_t ih0 = r.oh * g.sh - g.pad_t;
  int64_t ky_lo = 0, ky_hi = g.kh;  // rows inside: ky in [ky_lo, ky_hi)
  while (ky_lo < g.kh && ih0 + ky_lo * g.dh < 0) ++ky_lo;
  while (ky_hi > ky_lo && ih0 + (ky_hi - 1) * g.dh >= g.h) --ky_hi;
  // Contribution of the padding rows (independent of the column).
  __m512i row_pad = bias;
  for (int64_t ky = 0; ky < g.kh; ++ky) {
    if (ky >= ky_lo && ky < ky_hi) continue;
    for (int64_t kx = 0; kx < g.kw; ++kx) {
      row_pad = _mm512_dpwssd_epi32(row_pad, zxv, _mm512_loadu_si512(r.w + (ky * g.kw + kx) * 16));
    }
  }
  auto border = [&](int64_t ox) {
    const int64_t iw0 = ox * g.sw - g.pad_l;
    __m512i acc = row_pad;
    for (int64_t ky = ky_lo; ky < ky_hi; ++ky) {
      const uint8_t* row = r.in + (ih0 + ky * g.dh) * g.w * 16;
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t iw = iw0 + kx * g.dw;
        const __m512i x = (iw >= 0 && iw < g.w) ? LoadPix(row + iw * 16) : zxv;
        acc = _mm512_dpwssd_epi32(acc, x, _mm512_loadu_si512(r.w + (ky * g.kw + kx) * 16));
      }
    }
    store(ox, acc);
  };
  const int64_t ow_lo = g.ow_lo < g.ow ? g.ow_lo : g.ow;
  const int64_t ow_hi = g.ow_hi > ow_lo ? g.ow_hi : ow_lo;
  for (int64_t ox = 0; ox < ow_lo; ++ox) border(ox);
  if (((g.kh == 3 && g.kw == 3) || (g.kh == 5 && g.kw == 5)) && ky_lo == 0 && ky_hi == g.kh) {
    const int64_t ox = g.kh == 3 ? DwInterior<3>(g, r, ih0, ow_lo, ow_hi, bias, store)
                                 : DwInterior<5>(g, r, ih0, ow_lo, ow_hi, bias, store);
    for (int64_t x = ox; x < ow_hi; ++x) border(x);
  } else {
    for (int64_t ox = ow_lo; ox < ow_hi; ++ox) {
      const int64_t iw0 = ox * g.sw - g.pad_l;
      __m512i acc = row_pad;
      for (int64_t ky = ky_lo; ky < ky_hi; ++ky) {
        const uint8_t* s = r.in + ((ih0 + ky * g.dh) * g.w + iw0) * 16;
        for (int64_t kx = 0; kx < g.kw; ++kx) {
          acc = _mm512_dpwssd_epi32(acc, LoadPix(s + kx * g.dw * 16),
                                    _mm512_loadu_si512(r.w + (ky * g.kw + kx) * 16));
        }
      }
      store(ox, acc);
    }
  }
  for (int64_t ox = ow_hi; ox < g.ow; ++ox) border(ox);
}

}  // namespace

DenseTileFn GetDenseTileAvx512Vnni(int nco, int npix, int64_t icblk, int64_t stride_w) {
  if (npix < 1 || npix > kMaxPixVnni || nco < 1 || nco > kMaxNcoVnni) return nullptr;
  const DenseTileFn* table;
  if (icblk == 16) {
    table = stride_w == 1 ? Table<4, 1>(nco) : stride_w == 2 ? Table<4, 2>(nco) : Table<4, 0>(nco);
  } else if (icblk == 4) {
    table = stride_w == 1 ? Table<1, 1>(nco) : stride_w == 2 ? Table<1, 2>(nco) : Table<1, 0>(nco);
  } else {
    return nullptr;
  }
  return table[npix - 1];
}

DenseTileFn GetGroupedTileAvx512Vnni(int nco, int npix, int group_words) {
  if (npix < 1 || npix > kMaxPixVnni || nco < 1 || nco > kMaxNcoVnni) return nullptr;
  using Seq = std::make_index_sequence<kMaxPixVnni>;
  if (group_words == 1) return (nco == 1 ? MakeGroupedTable<1, 1>(Seq{}) : MakeGroupedTable<2, 1>(Seq{}))[npix - 1];
  if (group_words == 2) return (nco == 1 ? MakeGroupedTable<1, 2>(Seq{}) : MakeGroupedTable<2, 2>(Seq{}))[npix - 1];
  return nullptr;
}

DwRowFn GetDwRowAvx512Vnni() { return &DwRowImpl; }

DenseTileFn GetDenseTileMadd16Avx512Vnni(int nco, int npix, int64_t icblk) {
  if (npix < 1 || npix > kMaxPixMadd16Vnni || nco < 1 || nco > kMaxNcoVnni) return nullptr;
  using Seq = std::make_index_sequence<kMaxPixMadd16Vnni>;
  if (icblk == 16) return (nco == 1 ? MakeMadd16Table<1>(Seq{}) : MakeMadd16Table<2>(Seq{}))[npix - 1];
  if (icblk == 4) return (nco == 1 ? MakeMadd16Table4<1>(Seq{}) : MakeMadd16Table4<2>(Seq{}))[npix - 1];
  return nullptr;
}

}  // namespace qnnc::kernels::spatial_pack::internal

#else  // no AVX-512 VNNI in this build

namespace qnnc::kernels::spatial_pack::internal {
DenseTileFn GetDenseTileAvx512Vnni(int, int, int64_t, int64_t) { return nullptr; }
DenseTileFn GetGroupedTileAvx512Vnni(int, int, int) { return nullptr; }
DwRowFn GetDwRowAvx512Vnni() { return nullptr; }
DenseTileFn GetDenseTileMadd16Avx512Vnni(int, int, int64_t) { return nullptr; }
}  // namespace qnnc::kernels::spatial_pack::internal

#endif
