// AVX2 microkernels: vpmaddubsw (u8 x s8 pairs -> s16, saturating) then
// vpmaddwd by ones (-> s32), on weights packed so that every pair fits (the
// rest of the pairs that did not: corrections of half steps after the
// main loop, by vpmaddwd; exact); the madd16 tiles (a widened input, int16 weights,
// vpmaddwd alone: exact for any weights). The depthwise rows: avx2_depthwise.cc.
// Compiled with -mavx2 -mfma; stubs otherwise.
#include "kernels/spatial_pack/internal/microkernels.h"

#if defined(__AVX2__)
#include <immintrin.h>

#include <cstring>
#include <type_traits>
#include <utility>

#include "kernels/spatial_pack/internal/avx2_epilogue.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {

// Runs pass(P0, P1) over the tile's pixels [P0, P1) as DenseTileOne's
// register budget allows (integral constants): up to 5 pixels in one pass,
// 6 in two passes of 3.
template <int NPIX, typename Pass>
__attribute__((always_inline)) inline void InPasses(Pass pass) {
  if constexpr (NPIX <= 5) {
    pass(std::integral_constant<int, 0>(), std::integral_constant<int, NPIX>());
  } else {
    pass(std::integral_constant<int, 0>(), std::integral_constant<int, NPIX / 2>());
    pass(std::integral_constant<int, NPIX / 2>(), std::integral_constant<int, NPIX>());
  }
}

// The tile's single steps (after its pairs and half pairs).
template <int NPIX>
__attribute__((always_inline)) inline void DenseTileSingles(const DenseGeom& g, const DenseTile& t,
                                                            __m256i (&acc)[2][NPIX]) {
  constexpr bool kWeightsFromMemory = NPIX <= 5;  // as DenseTileOne's
  const __m256i ones = _mm256_set1_epi16(1);
  const int64_t pix = g.pix_bytes;
  const int64_t* so = t.step_offsets;
  const int64_t half_pairs = t.half_paired[0] + t.half_paired[1];
  // The single steps over pixels [P0, P1). Not unrolled: unrolled, GCC
  // hoisted the products of several steps and spilled them (ResNet-50's 1x1
  // at K = 256: 0.57-0.60 against 0.52-0.54 ms, one thread, cap avx2).
  InPasses<NPIX>([&](auto p0, auto p1) __attribute__((always_inline)) {
    constexpr int P0 = decltype(p0)::value, P1 = decltype(p1)::value;
    const int32_t* one = t.steps + 2 * (t.paired + half_pairs);
    const int8_t* sw = t.w + 128 * (t.paired + half_pairs);
#pragma GCC unroll 1
    for (int64_t e = 0; e < t.single; ++e, ++one, sw += 64) {
      const uint8_t* src = t.in + so[*one];
      for (int p = P0; p < P1; ++p) {
        const int8_t* wp = sw;
        if constexpr (kWeightsFromMemory) asm volatile("" : "+r"(wp));
        const __m256i x = _mm256_set1_epi32(LoadWord(src + p * pix));
        for (int h = 0; h < 2; ++h) {
          const __m256i wh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp + 32 * h));
          acc[h][p] = _mm256_add_epi32(acc[h][p], _mm256_madd_epi16(_mm256_maddubs_epi16(x, wh), ones));
        }
      }
    }
  });
}

// The tile's corrections.
template <int NPIX>
__attribute__((always_inline)) inline void DenseTileCorrect(const DenseGeom& g, const DenseTile& t,
                                                            __m256i (&acc)[2][NPIX]) {
  const int64_t pix = g.pix_bytes;
  const int64_t* so = t.step_offsets;
  // The halves of steps whose pairs did not all fit, with the rest of their
  // first weights (DenseTile::correction_w): channels 0 and 2 of the word as
  // int16, by one vpmaddwd (exact in int32). The steps corrected in both
  // halves, then in the first only, then in the second.
  const int32_t* corrected = t.correction_steps;
  const __m256i* cw = reinterpret_cast<const __m256i*>(t.correction_w);
  const __m256i even = _mm256_set1_epi16(0x00ff);
#pragma GCC unroll 1
  for (int64_t e = 0; e < t.correction_count[kBothHalves]; ++e, cw += 2) {
    const uint8_t* src = t.in + so[*corrected++];
    for (int p = 0; p < NPIX; ++p) {
      const __m256i* cp = cw;
      asm volatile("" : "+r"(cp));  // weights from memory, as the steps'
      const __m256i x = _mm256_and_si256(_mm256_set1_epi32(LoadWord(src + p * pix)), even);
      acc[0][p] = _mm256_add_epi32(acc[0][p], _mm256_madd_epi16(x, _mm256_loadu_si256(cp)));
      acc[1][p] = _mm256_add_epi32(acc[1][p], _mm256_madd_epi16(x, _mm256_loadu_si256(cp + 1)));
    }
  }
  auto correct = [&](auto half, int64_t count) __attribute__((always_inline)) {
#pragma GCC unroll 1
    for (int64_t e = 0; e < count; ++e, ++cw) {
      const uint8_t* src = t.in + so[*corrected++];
      const __m256i c = _mm256_loadu_si256(cw);
      for (int p = 0; p < NPIX; ++p) {
        const __m256i x = _mm256_and_si256(_mm256_set1_epi32(LoadWord(src + p * pix)), even);
        acc[half][p] = _mm256_add_epi32(acc[half][p], _mm256_madd_epi16(x, c));
      }
    }
  };
  correct(std::integral_constant<int, 0>(), t.correction_count[kFirstHalf]);
  correct(std::integral_constant<int, 1>(), t.correction_count[kSecondHalf]);
}

// Requantized bytes, or raw int32, of the tile's pixels.
template <int NPIX>
__attribute__((always_inline)) inline void DenseTileStore(const DenseGeom& g, const DenseTile& t,
                                                          __m256i (&acc)[2][NPIX]) {
  const __m256 lo = _mm256_set1_ps(g.ep.lo), hi = _mm256_set1_ps(g.ep.hi);
  const __m256i zp = _mm256_set1_epi32(g.ep.zp);
  const __m256 m0 = _mm256_loadu_ps(t.mult), m1 = _mm256_loadu_ps(t.mult + 8);
  const bool nan = g.ep.nan_check;
  for (int p = 0; p < NPIX; ++p) {
    if (g.ep.raw32) {
      StoreRaw(t.out + p * kRawPixelBytes, acc[0][p], acc[1][p]);
      continue;
    }
    Store16(t.out + p * 16, Requantize8(acc[0][p], m0, lo, hi, zp, nan),
            Requantize8(acc[1][p], m1, lo, hi, zp, nan));
  }
}

template <int NPIX>
__attribute__((always_inline)) inline void DenseTileOne(const DenseGeom& g, const DenseTile& t) {
  __m256i acc[2][NPIX];
  for (int h = 0; h < 2; ++h) {
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.bias + 8 * h));
    for (int p = 0; p < NPIX; ++p) acc[h][p] = b;
  }
  const __m256i ones = _mm256_set1_epi16(1);
  const int64_t pix = g.pix_bytes;
  const int64_t* so = t.step_offsets;
  // Registers: 2 accumulators per pixel, the inputs, the products and the
  // ones. Up to 5 pixels each pixel reads the weight vectors from memory
  // (vpmaddubsw's memory operand; the empty asm keeps GCC from hoisting them
  // into registers, where it spilled accumulators); 6 pixels run in two
  // passes of 3 over the steps, the weights in registers (ResNet-18 at cap
  // avx2: the 6-pixel tiles of its 56x56 and 28x28 layers 2-5% faster than
  // one pass from memory; 5 pixels in passes of 3 and 2 were slower).
  constexpr bool kWeightsFromMemory = NPIX <= 5;
  // `count` pairs of steps from the tile's pair `first` (step_pairs.h),
  // over its pixels in passes: per pixel both steps' inputs and their
  // weights (w_of(step, half)) go to add(p, xa, xb, w_of). Not unrolled, as
  // the single steps below.
  auto over_pairs = [&](int64_t first, int64_t count, auto add) __attribute__((always_inline)) {
    InPasses<NPIX>([&](auto p0, auto p1) __attribute__((always_inline)) {
      constexpr int P0 = decltype(p0)::value, P1 = decltype(p1)::value;
      const int32_t* pair = t.steps + 2 * first;
      const int8_t* pw = t.w + 128 * first;
#pragma GCC unroll 1
      for (int64_t e = 0; e < count; ++e, pair += 2, pw += 128) {
        const uint8_t* a = t.in + so[pair[0]];
        const uint8_t* b = t.in + so[pair[1]];
        for (int p = P0; p < P1; ++p) {
          const int8_t* wp = pw;
          if constexpr (kWeightsFromMemory) asm volatile("" : "+r"(wp));
          auto w_of = [wp](int step, int h) __attribute__((always_inline)) {
            return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wp + 64 * step + 32 * h));
          };
          add(p, _mm256_set1_epi32(LoadWord(a + p * pix)), _mm256_set1_epi32(LoadWord(b + p * pix)), w_of);
        }
      }
    });
  };
  // The paired steps: both steps' int16 products added before one vpmaddwd
  // widens them (exact: PairSteps checked their sums).
  over_pairs(0, t.paired, [&](int p, __m256i xa, __m256i xb, auto w_of) __attribute__((always_inline)) {
    for (int h = 0; h < 2; ++h) {
      const __m256i sum = _mm256_add_epi16(_mm256_maddubs_epi16(xa, w_of(0, h)), _mm256_maddubs_epi16(xb, w_of(1, h)));
      acc[h][p] = _mm256_add_epi32(acc[h][p], _mm256_madd_epi16(sum, ones));
    }
  });
  // The half pairs: half H's products added before its vpmaddwd, the
  // other half's widened step by step (7 multiplies for two steps, not 8).
  auto half_paired = [&](auto half) __attribute__((always_inline)) {
    constexpr int H = decltype(half)::value, O = 1 - H;
    over_pairs(t.paired + (H == 1 ? t.half_paired[0] : 0), t.half_paired[H],
               [&](int p, __m256i xa, __m256i xb, auto w_of) __attribute__((always_inline)) {
                 const __m256i sum =
                     _mm256_add_epi16(_mm256_maddubs_epi16(xa, w_of(0, H)), _mm256_maddubs_epi16(xb, w_of(1, H)));
                 acc[H][p] = _mm256_add_epi32(acc[H][p], _mm256_madd_epi16(sum, ones));
                 acc[O][p] = _mm256_add_epi32(acc[O][p], _mm256_madd_epi16(_mm256_maddubs_epi16(xa, w_of(0, O)), ones));
                 acc[O][p] = _mm256_add_epi32(acc[O][p], _mm256_madd_epi16(_mm256_maddubs_epi16(xb, w_of(1, O)), ones));
               });
  };
  half_paired(std::integral_constant<int, 0>());
  half_paired(std::integral_constant<int, 1>());
  DenseTileSingles<NPIX>(g, t, acc);
  DenseTileCorrect<NPIX>(g, t, acc);
  DenseTileStore<NPIX>(g, t, acc);
}

// DenseTile::strips tiles, one after the other.
template <int NPIX>
void DenseTileImpl(const DenseGeom& g, const DenseTile& t) {
  DenseTile s = t;
  for (int i = 0; i < t.strips; ++i) {
    DenseTileOne<NPIX>(g, s);
    s.in += NPIX * g.pix_bytes;
    s.out += NPIX * OutPixelBytes(g.ep);
  }
}

template <size_t... P>
const DenseTileFn* MakeTable(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&DenseTileImpl<static_cast<int>(P) + 1>...};
  return table;
}

// u8 x i16 by vpmaddwd alone (exact for any weights: a pair sums two
// products of at most 255 * 128 into int32). The input is widened
// beforehand (WidenPairs): the 4 input channels of a pixel are the int16
// pairs (x0, x2) and (x1, x3), each broadcast as one word (the stem's taps
// along the row: PackRow, 4 values of a row per step). The weights of a
// step hold four ymm of int16 pairs (microkernels.h): one vpmaddwd per 16
// MACs, half the multiplies of the split vpmaddubsw scheme, and no other
// vector instruction but its vpaddd (widening in registers instead cost a
// vpand and a vpsrlw per pixel and step: 147 against 159 GOPS). Its
// accumulators: Madd16Acc (avx2_epilogue.h).
//
// Madd16Step is one step (q) of such a tile at `src`: per 16-channel group
// j, the even pairs of its two ymm, then the odd.
template <int NCO, int NPIX>
__attribute__((always_inline)) inline void Madd16Step(Madd16Acc<NCO, NPIX>* tile, const uint8_t* src,
                                                      int64_t pix, const int8_t* w) {
  auto& acc = tile->v;
  for (int p = 0; p < NPIX; ++p) {
    const __m256i xe = _mm256_set1_epi32(LoadWord(src + p * pix));
    const __m256i xo = _mm256_set1_epi32(LoadWord(src + p * pix + 4));
    for (int j = 0; j < NCO; ++j) {
      const __m256i* wj = reinterpret_cast<const __m256i*>(w + 128 * j);
      acc[2 * j][p] = _mm256_add_epi32(acc[2 * j][p], _mm256_madd_epi16(xe, _mm256_loadu_si256(wj)));
      acc[2 * j + 1][p] = _mm256_add_epi32(acc[2 * j + 1][p], _mm256_madd_epi16(xe, _mm256_loadu_si256(wj + 1)));
      acc[2 * j][p] = _mm256_add_epi32(acc[2 * j][p], _mm256_madd_epi16(xo, _mm256_loadu_si256(wj + 2)));
      acc[2 * j + 1][p] = _mm256_add_epi32(acc[2 * j + 1][p], _mm256_madd_epi16(xo, _mm256_loadu_si256(wj + 3)));
    }
  }
}

template <int NCO, int NPIX, int Q>
void DenseTileMadd16Impl(const DenseGeom& g, const DenseTile& t) {
  constexpr int kVecs = 2 * NCO;  // 8 output channels per ymm
  const int64_t pix = g.pix_bytes;
  // Where a row's taps are adjacent pixels (dilation 1: the next tap is
  // the next 8 * Q bytes of the widened input, and its weights the next
  // steps), the kw * Q steps of a row of the kernel run as one loop (a 7x7
  // stem on 4-channel blocks, one step per tap, paid a tap loop per step;
  // the stem's taps along the row come here too, its row's steps as taps).
  const bool row_runs = g.dil_w_bytes == 8 * Q;
  // 1x1 layers (most of the small-K ones: MobileNetV2's expansions) take a
  // loop of blocks and steps only.
  const bool one_tap = g.kh == 1 && g.kw == 1;
  DenseTile s = t;
  for (int strip = 0; strip < t.strips; ++strip) {
    Madd16Acc<NCO, NPIX> tile;
    auto& acc = tile.v;
    if (s.acc_in != nullptr) {
      for (int p = 0; p < NPIX; ++p) {
        for (int v = 0; v < kVecs; ++v) {
          acc[v][p] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.acc_in + (p * kVecs + v) * 8));
        }
      }
    } else {
      for (int v = 0; v < kVecs; ++v) {
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.bias + 8 * v));
        for (int p = 0; p < NPIX; ++p) acc[v][p] = b;
      }
    }
    const int8_t* w = t.w;
    // Not unrolled: GCC would hoist the products of several steps and
    // spill them (measured: 110 instead of 147 GOPS at 4 pixels).
    auto run = [&](const uint8_t* src, int steps) __attribute__((always_inline)) {
#pragma GCC unroll 1
      for (int q = 0; q < steps; ++q, w += 128 * NCO) Madd16Step(&tile, src + 8 * q, pix, w);
    };
    for (int64_t icb = 0; icb < t.icb_count; ++icb) {
      const uint8_t* src_b = s.in + icb * g.in_cstride;
      const int q_end = icb + 1 == t.icb_count && t.q_last > 0 ? t.q_last : Q;
      if (one_tap) {
        run(src_b, q_end);
        w += 128 * NCO * (Q - q_end);
        continue;
      }
      for (int64_t ky = 0; ky < g.kh; ++ky) {
        const uint8_t* src_y = src_b + ky * g.dil_h_bytes;
        if (row_runs && q_end == Q) {
          run(src_y, static_cast<int>(g.kw) * Q);
          continue;
        }
        for (int64_t kx = 0; kx < g.kw; ++kx) {
          run(src_y + kx * g.dil_w_bytes, q_end);
          w += 128 * NCO * (Q - q_end);  // the skipped steps' zero weights
        }
      }
    }
    if (s.acc_out != nullptr) {
      for (int p = 0; p < NPIX; ++p) {
        for (int v = 0; v < kVecs; ++v) {
          _mm256_storeu_si256(reinterpret_cast<__m256i*>(s.acc_out + (p * kVecs + v) * 8), acc[v][p]);
        }
      }
    } else {
      StoreMadd16Tile<NCO, NPIX>(g, s, tile);
    }
    s.in += NPIX * pix;
    s.out += NPIX * OutPixelBytes(g.ep);
    if (s.acc_in != nullptr) s.acc_in += NPIX * kVecs * 8;
    if (s.acc_out != nullptr) s.acc_out += NPIX * kVecs * 8;
  }
}

// Grouped convolutions (GetGroupedTileMadd16Avx2): the widened pixel's 32
// bytes hold the int16 pairs (x0, x2), (x1, x3) of each 4 input channels;
// lane k of accumulator h (channel l = k / 4 * 8 + h * 4 + k % 4, Madd16Lane
// order, group l / (4D)) takes pair 2 * (group * D + d) + parity by vpermd:
// 4D permutes and 4D vpmaddwd per pixel and tap for 16 channels, where the
// dense tile spends 16 vpmaddwd (3/4 of them on zero weights for D = 1).
template <int NCO, int NPIX, int D>
void GroupedTileMadd16Impl(const DenseGeom& g, const DenseTile& t) {
  Madd16Acc<NCO, NPIX> tile;
  auto& acc = tile.v;
  for (int v = 0; v < 2 * NCO; ++v) {
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.bias + 8 * v));
    for (int p = 0; p < NPIX; ++p) acc[v][p] = b;
  }
  // [d][parity][h]: the pair each lane takes.
  alignas(32) int32_t lanes[D][2][2][8];
  for (int d = 0; d < D; ++d) {
    for (int parity = 0; parity < 2; ++parity) {
      for (int h = 0; h < 2; ++h) {
        for (int k = 0; k < 8; ++k) {
          const int l = k / 4 * 8 + h * 4 + k % 4;
          lanes[d][parity][h][k] = 2 * (l / (4 * D) * D + d) + parity;
        }
      }
    }
  }
  const int8_t* w = t.w;
  const int64_t pix = g.pix_bytes;
  for (int64_t ky = 0; ky < g.kh; ++ky) {
    for (int64_t kx = 0; kx < g.kw; ++kx) {
      const uint8_t* src = t.in + ky * g.dil_h_bytes + kx * g.dil_w_bytes;
#pragma GCC unroll 1
      for (int d = 0; d < D; ++d) {
        for (int p = 0; p < NPIX; ++p) {
          for (int j = 0; j < NCO; ++j) {
            const __m256i x =
                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + j * g.in_cstride + p * pix));
            const __m256i* wj = reinterpret_cast<const __m256i*>(w + 128 * j);
            for (int parity = 0; parity < 2; ++parity) {
              for (int h = 0; h < 2; ++h) {
                const __m256i idx = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes[d][parity][h]));
                const __m256i xp = _mm256_permutevar8x32_epi32(x, idx);
                acc[2 * j + h][p] =
                    _mm256_add_epi32(acc[2 * j + h][p], _mm256_madd_epi16(xp, _mm256_loadu_si256(wj + parity * 2 + h)));
              }
            }
          }
        }
        w += 128 * NCO;
      }
    }
  }
  StoreMadd16Tile<NCO, NPIX>(g, t, tile);
}

template <int NCO, int D, size_t... P>
const DenseTileFn* MakeGroupedMadd16Table(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&GroupedTileMadd16Impl<NCO, static_cast<int>(P) + 1, D>...};
  return table;
}

template <int NCO, int Q, size_t... P>
const DenseTileFn* MakeMadd16Table(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&DenseTileMadd16Impl<NCO, static_cast<int>(P) + 1, Q>...};
  return table;
}

}  // namespace

DenseTileFn GetDenseTileAvx2(int nco, int npix, int64_t icblk) {
  if (nco != 1 || npix < 1 || npix > kMaxPixAvx2) return nullptr;
  using Seq = std::make_index_sequence<kMaxPixAvx2>;
  // Any block of whole words: the steps' offsets come with the tile.
  if (icblk == 16 || icblk == 4) return MakeTable(Seq{})[npix - 1];
  return nullptr;
}

DenseTileFn GetGroupedTileMadd16Avx2(int nco, int npix, int group_words) {
  if (npix < 1 || npix > kMaxPixAvx2 || nco < 1 || nco > 2) return nullptr;
  using Seq = std::make_index_sequence<kMaxPixAvx2>;
  if (group_words == 1) {
    return (nco == 1 ? MakeGroupedMadd16Table<1, 1>(Seq{}) : MakeGroupedMadd16Table<2, 1>(Seq{}))[npix - 1];
  }
  if (group_words == 2) {
    return (nco == 1 ? MakeGroupedMadd16Table<1, 2>(Seq{}) : MakeGroupedMadd16Table<2, 2>(Seq{}))[npix - 1];
  }
  return nullptr;
}

DenseTileFn GetDenseTileMadd16Avx2(int nco, int npix, int64_t icblk) {
  if (npix < 1 || npix > kMaxPixAvx2) return nullptr;
  using Seq = std::make_index_sequence<kMaxPixAvx2>;
  if (nco == 1 && icblk == 16) return MakeMadd16Table<1, 4>(Seq{})[npix - 1];
  if (nco == 1 && icblk == 4) return MakeMadd16Table<1, 1>(Seq{})[npix - 1];
  if (nco == 2 && icblk == 16) return MakeMadd16Table<2, 4>(Seq{})[npix - 1];
  if (nco == 2 && icblk == 4) return MakeMadd16Table<2, 1>(Seq{})[npix - 1];
  return nullptr;
}

namespace {
// 16 bytes -> 32: per 4-byte group, the bytes 0, 2, 1, 3 each followed by a zero.
void WidenPairsImpl(const uint8_t* src, uint8_t* dst, int64_t bytes) {
  // vpshufb works per 128-bit lane: the same pattern in both.
  const __m256i shuffle = _mm256_setr_epi8(0, -1, 2, -1, 1, -1, 3, -1, 4, -1, 6, -1, 5, -1, 7, -1,
                                           0, -1, 2, -1, 1, -1, 3, -1, 4, -1, 6, -1, 5, -1, 7, -1);
  const int64_t vector_bytes = bytes / 16 * 16;
  if (vector_bytes < bytes) {  // NCHW4c rows: a multiple of 4
    WidenPairsScalar(src + vector_bytes, dst + 2 * vector_bytes, bytes - vector_bytes);
  }
  for (int64_t i = 0; i < vector_bytes; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    // Low lane: bytes 0-7 of x; high lane: bytes 8-15.
    const __m256i both = _mm256_inserti128_si256(_mm256_castsi128_si256(x), _mm_srli_si128(x, 8), 1);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 2 * i), _mm256_shuffle_epi8(both, shuffle));
  }
}

// Two pixels per vpshufb (it works per 128-bit lane: the order in both),
// then the flips by one vpxor.
void ShufflePixelsImpl(const uint8_t* src, uint8_t* dst, int64_t bytes, const uint8_t* order,
                       const uint8_t* flip) {
  const __m128i o = _mm_loadu_si128(reinterpret_cast<const __m128i*>(order));
  const __m128i f = flip ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(flip)) : _mm_setzero_si128();
  const __m256i control = _mm256_broadcastsi128_si256(o), flips = _mm256_broadcastsi128_si256(f);
  int64_t i = 0;
  for (; i + 32 <= bytes; i += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_xor_si256(_mm256_shuffle_epi8(x, control), flips));
  }
  if (i < bytes) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm_xor_si128(_mm_shuffle_epi8(x, o), f));
  }
}
}  // namespace

namespace {
// Two pixels (8 bytes) per vpshufb: their first `keep` bytes each, each
// followed by a zero byte, into 4 * keep bytes of the 16 stored (the rest is
// overwritten by the next pair, or left for the scalar tail to overwrite).
void PackRowImpl(const uint8_t* src, uint8_t* dst, int64_t pixels, int keep) {
  alignas(16) int8_t control[16];
  for (int b = 0; b < 16; ++b) {
    const int value = b / 2, pixel = value / keep, channel = value % keep;
    control[b] = b % 2 == 0 && pixel < 2 ? static_cast<int8_t>(4 * pixel + channel) : int8_t{-1};
  }
  const __m128i shuffle = _mm_load_si128(reinterpret_cast<const __m128i*>(control));
  const int64_t out_pixel = 2 * keep;
  int64_t i = 0;
  // Each store writes 16 bytes: stop where it would pass the row's end.
  for (; i * out_pixel + 16 <= pixels * out_pixel; i += 2) {
    const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + 4 * i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i * out_pixel), _mm_shuffle_epi8(x, shuffle));
  }
  PackRowScalar(src + 4 * i, dst + i * out_pixel, pixels - i, keep);
}
}  // namespace

WidenFn GetWidenPairsAvx2() { return &WidenPairsImpl; }
PackRowFn GetPackRowAvx2() { return &PackRowImpl; }
ShuffleFn GetShufflePixelsAvx2() { return &ShufflePixelsImpl; }


}  // namespace qnnc::kernels::spatial_pack::internal

#else  // no AVX2 in this build

namespace qnnc::kernels::spatial_pack::internal {
DenseTileFn GetDenseTileAvx2(int, int, int64_t) { return nullptr; }
DenseTileFn GetDenseTileMadd16Avx2(int, int, int64_t) { return nullptr; }
DenseTileFn GetGroupedTileMadd16Avx2(int, int, int) { return nullptr; }
WidenFn GetWidenPairsAvx2() { return nullptr; }
PackRowFn GetPackRowAvx2() { return nullptr; }
ShuffleFn GetShufflePixelsAvx2() { return nullptr; }
}  // namespace qnnc::kernels::spatial_pack::internal

#endif
