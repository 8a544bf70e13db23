// NEON depthwise rows (every AArch64 CPU): each tap's 16 u8 channels
// widened to int16 and multiplied by its int16 weights with smlal/smlal2
// into 4 int32x4 accumulators, exact for any weights w - zw. A stub on
// other architectures.
#include "kernels/spatial_pack/internal/microkernels.h"

#if defined(__aarch64__)
#include "kernels/spatial_pack/internal/neon_epilogue.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {

inline void DwMac(int32x4_t acc[4], uint8x16_t x, const int16_t* w) {
  const int16x8_t x0 = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(x)));
  const int16x8_t x1 = vreinterpretq_s16_u16(vmovl_high_u8(x));
  const int16x8_t w0 = vld1q_s16(w), w1 = vld1q_s16(w + 8);
  acc[0] = vmlal_s16(acc[0], vget_low_s16(x0), vget_low_s16(w0));
  acc[1] = vmlal_high_s16(acc[1], x0, w0);
  acc[2] = vmlal_s16(acc[2], vget_low_s16(x1), vget_low_s16(w1));
  acc[3] = vmlal_high_s16(acc[3], x1, w1);
}

// KxK (3x3, 5x5) with all K rows inside, columns [ox, ox_end) all inside:
// the taps unrolled at compile time, no bounds checks. Out of line (one call
// a row), so that bench/arm_mca.py finds its loop.
template <int K>
__attribute__((noinline)) void DwRowInterior(const DwGeom& g, const DwRow& r, int64_t ox, int64_t ox_end, const NeonEpilogue& e) {
  const int64_t ih0 = r.oh * g.sh - g.pad_t;
  const uint8_t* rows[K];
  for (int ky = 0; ky < K; ++ky) rows[ky] = r.in + (ih0 + ky * g.dh) * g.w * 16;
  const int64_t dx = g.dw * 16, pix_out = OutPixelBytes(g.ep);
  for (; ox < ox_end; ++ox) {
    const int64_t base = (ox * g.sw - g.pad_l) * 16;
    int32x4_t acc[4];
    for (int q = 0; q < 4; ++q) acc[q] = vld1q_s32(r.bias + 4 * q);
    for (int t = 0; t < K * K; ++t) DwMac(acc, vld1q_u8(rows[t / K] + base + (t % K) * dx), r.w16 + 16 * t);
    NeonStorePixel(r.out + ox * pix_out, acc, r.mult, e);
  }
}

void DwRowImpl(const DwGeom& g, const DwRow& r) {
  const NeonEpilogue e(g.ep);
  const uint8x16_t zx = vdupq_n_u8(g.zx);
  const int64_t ih0 = r.oh * g.sh - g.pad_t;
  const bool rows_in = ih0 >= 0 && ih0 + (g.kh - 1) * g.dh < g.h;
  const int64_t pix_out = OutPixelBytes(g.ep);
  const bool k3 = g.kh == 3 && g.kw == 3, k5 = g.kh == 5 && g.kw == 5;
  const bool interior = (k3 || k5) && rows_in && g.ow_lo < g.ow_hi;
  for (int64_t ox = 0; ox < g.ow; ++ox) {
    if (interior && ox == g.ow_lo) {
      if (k3) {
        DwRowInterior<3>(g, r, g.ow_lo, g.ow_hi, e);
      } else {
        DwRowInterior<5>(g, r, g.ow_lo, g.ow_hi, e);
      }
      ox = g.ow_hi - 1;
      continue;
    }
    const int64_t iw0 = ox * g.sw - g.pad_l;
    // Interior columns with every row inside read each tap unchecked.
    const bool inside = rows_in && ox >= g.ow_lo && ox < g.ow_hi;
    int32x4_t acc[4];
    for (int q = 0; q < 4; ++q) acc[q] = vld1q_s32(r.bias + 4 * q);
    const int16_t* w = r.w16;
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const int64_t ih = ih0 + ky * g.dh;
      const bool row_in = ih >= 0 && ih < g.h;
      const uint8_t* row = r.in + ih * g.w * 16;
      for (int64_t kx = 0; kx < g.kw; ++kx, w += 16) {
        const int64_t iw = iw0 + kx * g.dw;
        const bool tap_in = inside || (row_in && iw >= 0 && iw < g.w);
        DwMac(acc, tap_in ? vld1q_u8(row + iw * 16) : zx, w);
      }
    }
    NeonStorePixel(r.out + ox * pix_out, acc, r.mult, e);
  }
}

}  // namespace

DwRowFn GetDwRowNeon() { return &DwRowImpl; }

}  // namespace qnnc::kernels::spatial_pack::internal

#else  // not AArch64

namespace qnnc::kernels::spatial_pack::internal {
DwRowFn GetDwRowNeon() { return nullptr; }
}  // namespace qnnc::kernels::spatial_pack::internal

#endif
