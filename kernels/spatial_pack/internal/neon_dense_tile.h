// The AArch64 dot-product register tile, one template for the dotprod
// (sdot) and i8mm (sudot) kernels: `kNco` groups of 16 output channels x
// `kPix` pixels on the VNNI packing (microkernels.h). A step's 64 bytes of
// weights of one group are 4 registers of [4 oc][4 ic], each the first
// operand of a by-element dot product whose indexed second is the pixel's
// word of 4 input channels (lane q of its 16 bytes): 16 MACs per
// instruction, 4 * kNco * kPix accumulators.
//
// `Mac` says how the u8 input meets the s8 weights:
//   Mac::Load(p)              the pixel's kQ words at p as a register
//   Mac::Dot<lane>(acc, w, x) acc + the lane's word of x . w per 32-bit lane
// Included by neon_dotprod.cc and neon_i8mm.cc only (internal linkage, as
// neon_epilogue.h).
#ifndef QNNC_KERNELS_SPATIAL_PACK_INTERNAL_NEON_DENSE_TILE_H_
#define QNNC_KERNELS_SPATIAL_PACK_INTERNAL_NEON_DENSE_TILE_H_

#include <arm_neon.h>

#include <cstring>
#include <utility>

#include "kernels/spatial_pack/internal/microkernels.h"
#include "kernels/spatial_pack/internal/neon_epilogue.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {  // NOLINT(build/namespaces): per ISA file, see above

// The pixel's input at p: its 16 bytes (kQ = 4 words, NCHW16c) or its one
// word (kQ = 1, NCHW4c: only 4 bytes are readable) in every lane.
template <int kQ>
inline uint8x16_t LoadPixelWords(const uint8_t* p) {
  if constexpr (kQ == 4) {
    return vld1q_u8(p);
  } else {
    uint32_t word;
    std::memcpy(&word, p, 4);
    return vreinterpretq_u8_u32(vdupq_n_u32(word));
  }
}

// One kernel tap's weights are kN = kQ * kNco * 4 registers, register k at
// w + 16 k: lane k / (4 kNco) of the pixels' words, group k / 4 % kNco, row
// k % 4. Slot I loads register I and runs the dot products of register
// I - kAhead, so each load is kAhead registers ahead of its first use: an
// in-order core (Cortex-A55) stalls at a use until the load is in. The
// empty asm keeps the load in its slot: GCC would sink it to its use (it is
// not asked to schedule these tiles, NEON_TILE_OPT, and hoisting everything
// ran out of registers).
template <class Mac, int kNco, int kPix, int kN, int kAhead, int I, class X>
inline void NeonSlot(int32x4_t (&acc)[kPix][kNco][4], const X (&x)[kPix], const int8_t* w, int8x16_t (&wr)[kN]) {
  if constexpr (I < kN) {
    wr[I] = vld1q_s8(w + I * 16);
    asm volatile("" : "+w"(wr[I]));
  }
  if constexpr (I >= kAhead) {
    constexpr int k = I - kAhead;
    constexpr int lane = k / (4 * kNco), j = k / 4 % kNco, r = k % 4;
    for (int p = 0; p < kPix; ++p) acc[p][j][r] = Mac::template Dot<lane>(acc[p][j][r], wr[k], x[p]);
  }
}

// How far ahead a weight register is loaded: the A55's 4-cycle load latency
// covered by the dot products of the registers between (kPix each, one a
// cycle).
template <int kPix>
constexpr int kLoadAhead = kPix >= 4 ? 1 : (4 + kPix - 1) / kPix;

template <class Mac, int kNco, int kPix, int kQ, class X, int... I>
inline void NeonTap(int32x4_t (&acc)[kPix][kNco][4], const X (&x)[kPix], const int8_t* w,
                    std::integer_sequence<int, I...>) {
  constexpr int kN = kQ * kNco * 4;
  int8x16_t wr[kN];
  (NeonSlot<Mac, kNco, kPix, kN, kLoadAhead<kPix>, I>(acc, x, w, wr), ...);
}

template <class Mac, int kNco, int kPix, int kQ>
void NeonDenseTile(const DenseGeom& g, const DenseTile& t) {
  int32x4_t acc[kPix][kNco][4];
  for (int p = 0; p < kPix; ++p) {
    for (int j = 0; j < kNco; ++j) {
      for (int r = 0; r < 4; ++r) acc[p][j][r] = vld1q_s32(t.bias + j * 16 + r * 4);
    }
  }
  const int8_t* w = t.w;
  for (int64_t icb = 0; icb < t.icb_count; ++icb) {
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const uint8_t* src = t.in + icb * g.in_cstride + ky * g.dil_h_bytes + kx * g.dil_w_bytes;
        typename Mac::Input x[kPix];
        for (int p = 0; p < kPix; ++p) x[p] = Mac::Load(LoadPixelWords<kQ>(src + p * g.pix_bytes));
        NeonTap<Mac, kNco, kPix, kQ>(acc, x, w, std::make_integer_sequence<int, kQ * kNco * 4 + kLoadAhead<kPix>>{});
        w += kQ * kNco * 64;
      }
    }
  }
  const NeonEpilogue e(g.ep);
  const int64_t pix_out = OutPixelBytes(g.ep);
  for (int j = 0; j < kNco; ++j) {
    for (int p = 0; p < kPix; ++p) NeonStorePixel(t.out + j * g.out_cstride + p * pix_out, acc[p][j], t.mult + j * 16, e);
  }
}

template <class Mac, int kNco, int kQ, size_t... P>
const DenseTileFn* NeonTileTable(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&NeonDenseTile<Mac, kNco, static_cast<int>(P) + 1, kQ>...};
  return table;
}

// The tile function of (nco, npix, icblk) for `Mac`; null outside
// kMaxNcoNeon x kMaxPixNeon or for another input block.
template <class Mac>
DenseTileFn NeonDenseTileFor(int nco, int npix, int64_t icblk) {
  if (npix < 1 || npix > kMaxPixNeon || nco < 1 || nco > kMaxNcoNeon || (icblk != 16 && icblk != 4)) {
    return nullptr;
  }
  using Seq = std::make_index_sequence<kMaxPixNeon>;
  const DenseTileFn* table = icblk == 16 ? (nco == 1 ? NeonTileTable<Mac, 1, 4>(Seq{}) : NeonTileTable<Mac, 2, 4>(Seq{}))
                                         : (nco == 1 ? NeonTileTable<Mac, 1, 1>(Seq{}) : NeonTileTable<Mac, 2, 1>(Seq{}));
  return table[npix - 1];
}

}  // namespace
}  // namespace qnnc::kernels::spatial_pack::internal

#endif  // QNNC_KERNELS_SPATIAL_PACK_INTERNAL_NEON_DENSE_TILE_H_
