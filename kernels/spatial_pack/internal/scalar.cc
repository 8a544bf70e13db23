// Portable microkernels of the u8s8 path (the same packing as the SIMD ones).
#include <cstring>

#include "kernels/spatial_pack/internal/microkernels.h"

namespace qnnc::kernels::spatial_pack::internal {

void DenseTileScalar(const DenseGeom& g, const DenseTile& t) {
  constexpr int kMaxNco = 4, kMaxPix = 32;
  int32_t acc[kMaxPix][kMaxNco * 16];
  for (int p = 0; p < t.npix; ++p) {
    for (int c = 0; c < t.nco * 16; ++c) acc[p][c] = t.bias[c];
  }
  const int8_t* w = t.w;
  const int64_t groups4 = g.icblk / 4;
  for (int64_t icb = 0; icb < t.icb_count; ++icb) {
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const uint8_t* src = t.in + icb * g.in_cstride + ky * g.dil_h_bytes + kx * g.dil_w_bytes;
        for (int64_t q = 0; q < groups4; ++q) {
          for (int p = 0; p < t.npix; ++p) {
            const uint8_t* x = src + p * g.pix_bytes + q * 4;
            for (int c = 0; c < t.nco * 16; ++c) {
              const int8_t* wc = w + c * 4;
              acc[p][c] += x[0] * wc[0] + x[1] * wc[1] + x[2] * wc[2] + x[3] * wc[3];
            }
          }
          w += t.nco * 64;
        }
      }
    }
  }
  for (int j = 0; j < t.nco; ++j) {
    for (int p = 0; p < t.npix; ++p) {
      if (g.ep.raw32) {
        std::memcpy(t.out + j * g.out_cstride + p * kRawPixelBytes, &acc[p][j * 16], kRawPixelBytes);
        continue;
      }
      uint8_t* o = t.out + j * g.out_cstride + p * 16;
      for (int l = 0; l < 16; ++l) {
        const int c = j * 16 + l;
        o[l] = static_cast<uint8_t>(RequantizeScalar(acc[p][c], t.mult[c], g.ep));
      }
    }
  }
}

void DwRowScalar(const DwGeom& g, const DwRow& r) {
  const int64_t ih0 = r.oh * g.sh - g.pad_t;
  for (int64_t ox = 0; ox < g.ow; ++ox) {
    const int64_t iw0 = ox * g.sw - g.pad_l;
    int32_t acc[16];
    for (int l = 0; l < 16; ++l) acc[l] = r.bias[l];
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const int64_t ih = ih0 + ky * g.dh;
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t iw = iw0 + kx * g.dw;
        const int32_t* w = r.w + (ky * g.kw + kx) * 16;
        const bool inside = ih >= 0 && ih < g.h && iw >= 0 && iw < g.w;
        const uint8_t* x = inside ? r.in + (ih * g.w + iw) * 16 : nullptr;
        for (int l = 0; l < 16; ++l) acc[l] += (inside ? x[l] : g.zx) * w[l];
      }
    }
    if (g.ep.raw32) {
      std::memcpy(r.out + ox * kRawPixelBytes, acc, kRawPixelBytes);
      continue;
    }
    uint8_t* o = r.out + ox * 16;
    for (int l = 0; l < 16; ++l) o[l] = static_cast<uint8_t>(RequantizeScalar(acc[l], r.mult[l], g.ep));
  }
}

void PackRowScalar(const uint8_t* src, uint8_t* dst, int64_t pixels, int keep) {
  for (int64_t i = 0; i < pixels; ++i) {
    for (int c = 0; c < keep; ++c, dst += 2) dst[0] = src[4 * i + c], dst[1] = 0;
  }
}

void WidenPairsScalar(const uint8_t* src, uint8_t* dst, int64_t bytes) {
  for (int64_t i = 0; i < bytes; i += 4) {
    const uint8_t x0 = src[i], x1 = src[i + 1], x2 = src[i + 2], x3 = src[i + 3];
    uint8_t* d = dst + 2 * i;
    d[0] = x0, d[1] = 0, d[2] = x2, d[3] = 0, d[4] = x1, d[5] = 0, d[6] = x3, d[7] = 0;
  }
}

}  // namespace qnnc::kernels::spatial_pack::internal
