// AVX-VNNI microkernels (vpdpbusd on ymm: the AVX2 hosts with VNNI, Intel
// since Alder Lake and Sapphire Rapids, AMD since Zen 5): the u8s8 dense
// tile. vpdpbusd adds the four u8 x s8 products of a 32-bit lane to its
// int32 accumulator without an int16 step, so it is exact for any s8
// weights in one pass (no pairing, no corrections: the packing is the VNNI
// one of microkernels.h, its 16 output channels in Madd16Lane order) and
// does 32 MACs per instruction, twice
// u8i16.avx2's vpmaddwd. Compiled with -mavx2 -mfma -mavxvnni; stubs
// otherwise.
#include "kernels/spatial_pack/internal/microkernels.h"

#if defined(__AVXVNNI__)
#include <immintrin.h>

#include <utility>

#include "kernels/spatial_pack/internal/avx2_epilogue.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {

template <int NCO, int NPIX, int Q>
void DenseTileImpl(const DenseGeom& g, const DenseTile& t) {
  // Output channels in Madd16Lane order (the packing puts them there), so
  // the tile shares madd16's packed 16-bit epilogue.
  Madd16Acc<NCO, NPIX> tile;
  auto& acc = tile.v;
  for (int v = 0; v < 2 * NCO; ++v) {
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.bias + 8 * v));
    for (int p = 0; p < NPIX; ++p) acc[v][p] = b;
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
        // Not unrolled, as the AVX2 tiles (GCC hoists the loads of several
        // steps and spills).
#pragma GCC unroll 1
        for (int q = 0; q < q_end; ++q) {
          __m256i wv[2 * NCO];
          for (int v = 0; v < 2 * NCO; ++v) wv[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 32 * v));
          w += 64 * NCO;
          for (int p = 0; p < NPIX; ++p) {
            const __m256i x = _mm256_set1_epi32(LoadWord(src + p * pix + 4 * q));
            for (int v = 0; v < 2 * NCO; ++v) acc[v][p] = _mm256_dpbusd_avx_epi32(acc[v][p], x, wv[v]);
          }
        }
        w += 64 * NCO * (Q - q_end);  // the skipped steps' zero weights
      }
    }
  }
  StoreMadd16Tile<NCO, NPIX>(g, t, tile);
}

template <int NCO, int Q, size_t... P>
const DenseTileFn* MakeTable(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&DenseTileImpl<NCO, static_cast<int>(P) + 1, Q>...};
  return table;
}

template <int Q>
const DenseTileFn* Table(int nco) {
  using Seq = std::make_index_sequence<kMaxPixAvxVnni>;
  return nco == 1 ? MakeTable<1, Q>(Seq{}) : MakeTable<2, Q>(Seq{});
}

}  // namespace

DenseTileFn GetDenseTileAvxVnni(int nco, int npix, int64_t icblk) {
  if (npix < 1 || npix > kMaxPixAvxVnni || nco < 1 || nco > kMaxNcoAvxVnni) return nullptr;
  if (icblk == 16) return Table<4>(nco)[npix - 1];
  if (icblk == 4) return Table<1>(nco)[npix - 1];
  return nullptr;
}

}  // namespace qnnc::kernels::spatial_pack::internal

#else  // !__AVXVNNI__

namespace qnnc::kernels::spatial_pack::internal {
DenseTileFn GetDenseTileAvxVnni(int, int, int64_t) { return nullptr; }
}  // namespace qnnc::kernels::spatial_pack::internal

#endif
