// Dense u8 x s8 tiles of Armv8.6's int8 matrix multiply extension, exact
// for any s8 weights in one pass, without sdot's input flip and bias term:
//   NCHW16c input: usmmla, a 2 x 8 by 8 x 2 product (2 pixels x 8 input
//     channels of u8 by 8 input channels x 2 output channels of s8), 32
//     MACs per instruction where the dot products do 16, on the mmla
//     packing (microkernels.h);
//   NCHW4c input (4 channels a pixel, so no 8): sudot by element on the
//     VNNI packing, as the dotprod tile (neon_dense_tile.h).
// Compiled with +i8mm; a stub elsewhere.
#include "kernels/spatial_pack/internal/microkernels.h"

#if defined(__ARM_FEATURE_MATMUL_INT8)
#include "kernels/spatial_pack/internal/neon_dense_tile.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {

struct SudotMac {
  using Input = uint8x16_t;
  static Input Load(uint8x16_t x) { return x; }
  template <int kLane>
  static int32x4_t Dot(int32x4_t acc, int8x16_t w, uint8x16_t x) {
    return vsudotq_laneq_s32(acc, w, x, kLane);
  }
};

// kNco groups of 16 output channels x kPix pixels by usmmla. Pixels go in
// pairs (an odd last one pairs with itself, its copy's sums dropped): per
// (icb, ky, kx) and half block each pair's two 16-byte pixels become one
// register, input channels 0-7 of both, or 8-15 (trn1/trn2 on 64-bit
// lanes), and each
// accumulator holds a pair x an output-channel pair: lanes (p0, c0), (p0,
// c1), (p1, c0), (p1, c1).
template <int kNco, int kPix>
void MmlaTile(const DenseGeom& g, const DenseTile& t) {
  constexpr int kPairs = (kPix + 1) / 2;
  int32x4_t acc[kPairs][kNco][8];
  for (int j = 0; j < kNco; ++j) {
    for (int c = 0; c < 8; ++c) {
      const int32x2_t b = vld1_s32(t.bias + j * 16 + 2 * c);
      for (int pp = 0; pp < kPairs; ++pp) acc[pp][j][c] = vcombine_s32(b, b);
    }
  }
  const int8_t* w = t.w;
  for (int64_t icb = 0; icb < t.icb_count; ++icb) {
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      for (int64_t kx = 0; kx < g.kw; ++kx, w += kNco * 256) {
        const uint8_t* src = t.in + icb * g.in_cstride + ky * g.dil_h_bytes + kx * g.dil_w_bytes;
        // One half block at a time, so that only its inputs are live beside
        // the accumulators (both halves at once spill at 16 x 6).
        for (int h = 0; h < 2; ++h) {
          uint8x16_t x[kPairs];
          for (int pp = 0; pp < kPairs; ++pp) {
            const uint64x2_t a = vreinterpretq_u64_u8(vld1q_u8(src + 2 * pp * g.pix_bytes));
            const uint64x2_t b =
                2 * pp + 1 < kPix ? vreinterpretq_u64_u8(vld1q_u8(src + (2 * pp + 1) * g.pix_bytes)) : a;
            x[pp] = vreinterpretq_u8_u64(h == 0 ? vtrn1q_u64(a, b) : vtrn2q_u64(a, b));
          }
          for (int j = 0; j < kNco; ++j) {
            for (int c = 0; c < 8; ++c) {
              const int8x16_t wc = vld1q_s8(w + j * 256 + h * 128 + c * 16);
              for (int pp = 0; pp < kPairs; ++pp) acc[pp][j][c] = vusmmlaq_s32(acc[pp][j][c], x[pp], wc);
            }
          }
        }
      }
    }
  }
  const NeonEpilogue e(g.ep);
  const int64_t pix_out = OutPixelBytes(g.ep);
  for (int j = 0; j < kNco; ++j) {
    for (int pp = 0; pp < kPairs; ++pp) {
      int32x4_t p0[4], p1[4];
      for (int r = 0; r < 4; ++r) {
        const int64x2_t a = vreinterpretq_s64_s32(acc[pp][j][2 * r]);
        const int64x2_t b = vreinterpretq_s64_s32(acc[pp][j][2 * r + 1]);
        p0[r] = vreinterpretq_s32_s64(vtrn1q_s64(a, b));
        p1[r] = vreinterpretq_s32_s64(vtrn2q_s64(a, b));
      }
      uint8_t* out = t.out + j * g.out_cstride + 2 * pp * pix_out;
      NeonStorePixel(out, p0, t.mult + j * 16, e);
      if (2 * pp + 1 < kPix) NeonStorePixel(out + pix_out, p1, t.mult + j * 16, e);
    }
  }
}

template <int kNco, size_t... P>
const DenseTileFn* MmlaTable(std::index_sequence<P...>) {
  static constexpr DenseTileFn table[] = {&MmlaTile<kNco, static_cast<int>(P) + 1>...};
  return table;
}

}  // namespace

DenseTileFn GetDenseTileI8mm(int nco, int npix, int64_t icblk) {
  if (icblk != 16) return NeonDenseTileFor<SudotMac>(nco, npix, icblk);
  if (npix < 1 || npix > kMaxPixNeon || nco < 1 || nco > kMaxNcoNeon) return nullptr;
  using Seq = std::make_index_sequence<kMaxPixNeon>;
  return (nco == 1 ? MmlaTable<1>(Seq{}) : MmlaTable<2>(Seq{}))[npix - 1];
}

}  // namespace qnnc::kernels::spatial_pack::internal

#else  // no int8 matrix multiply in this build

namespace qnnc::kernels::spatial_pack::internal {
DenseTileFn GetDenseTileI8mm(int, int, int64_t) { return nullptr; }
}  // namespace qnnc::kernels::spatial_pack::internal

#endif
