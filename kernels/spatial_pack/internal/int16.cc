// Portable int16 kernels, written for auto-vectorization over the output
// channels of a tile (compiled with -O3).
#include "kernels/spatial_pack/internal/int16.h"

#include <algorithm>

namespace qnnc::kernels::spatial_pack::internal {
namespace {

struct Ctx {
  const Int16Setup* s;
  const Int16Run* r;
};

template <int TCO, int TOW>
void DenseRow(const Int16Setup& s, const Int16Run& r, size_t ti, size_t item) {
  const Int16Setup::Tile& t = s.tiles[ti];
  const int64_t n = item / r.oh, oy = item % r.oh;
  const int64_t plane = r.hp * r.wp;
  const int16_t* in_row = r.in + (n * r.c + t.ic_lo) * plane + oy * r.sh * r.wp;
  const int64_t oc_valid = std::min<int64_t>(TCO, r.oc - t.oc0);
  uint8_t* out_row = r.out + ((n * r.oc + t.oc0) * r.oh + oy) * r.ow;
  const int64_t out_cstride = r.oh * r.ow;
  const int64_t dh = r.dh * r.wp, dw = r.dw, sw = r.sw;
  for (int64_t ox = 0; ox < r.ow; ox += TOW) {
    const int64_t npix = std::min<int64_t>(TOW, r.ow - ox);
    // Unsigned: a sum past int32 (weights no legalization would give, as
    // in a hand-made plan) wraps instead of being undefined.
    uint32_t acc[TOW][TCO];
    for (int p = 0; p < TOW; ++p) {
      for (int c = 0; c < TCO; ++c) acc[p][c] = static_cast<uint32_t>(s.bias[t.oc0 + c]);
    }
    const int16_t* w = s.weights + t.w_offset;
    const int16_t* in_tile = in_row + ox * sw;
    for (int64_t ic = 0; ic < t.ic_count; ++ic) {
      for (int64_t ky = 0; ky < r.kh; ++ky) {
        for (int64_t kx = 0; kx < r.kw; ++kx) {
          const int16_t* src = in_tile + ic * plane + ky * dh + kx * dw;
          for (int p = 0; p < TOW; ++p) {
            const int32_t x = src[p * sw];
            for (int c = 0; c < TCO; ++c) acc[p][c] += static_cast<uint32_t>(x * static_cast<int32_t>(w[c]));
          }
          w += TCO;
        }
      }
    }
    if (s.ep.raw32) {  // the accumulators, i32 (a dynamic convolution's)
      int32_t* o32 = reinterpret_cast<int32_t*>(r.out) + ((n * r.oc + t.oc0) * r.oh + oy) * r.ow + ox;
      for (int64_t c = 0; c < oc_valid; ++c) {
        for (int64_t p = 0; p < npix; ++p) o32[c * out_cstride + p] = static_cast<int32_t>(acc[p][c]);
      }
      continue;
    }
    for (int64_t c = 0; c < oc_valid; ++c) {
      const float m = s.mult[t.oc0 + c];
      uint8_t* o = out_row + c * out_cstride + ox;
      for (int64_t p = 0; p < npix; ++p) {
        o[p] = static_cast<uint8_t>(RequantizeScalar(static_cast<int32_t>(acc[p][c]), m, s.ep));
      }
    }
  }
}

template <int TCO, int TOW>
void DenseTask(void* vctx, size_t ti, size_t item) {
  const Ctx& c = *static_cast<const Ctx*>(vctx);
  DenseRow<TCO, TOW>(*c.s, *c.r, ti, item);
}

void DepthwiseTask(void* vctx, size_t n_oc, size_t oy) {
  const Ctx& c = *static_cast<const Ctx*>(vctx);
  const Int16Setup& s = *c.s;
  const Int16Run& r = *c.r;
  const int64_t n = n_oc / r.oc, oc = n_oc % r.oc, ch = oc / s.mult_ch;
  const int64_t plane = r.hp * r.wp;
  const int16_t* in = r.in + (n * r.c + ch) * plane + oy * r.sh * r.wp;
  const int16_t* w = s.weights + oc * r.kh * r.kw;
  const int64_t at = ((n * r.oc + oc) * r.oh + oy) * r.ow;
  uint8_t* out = r.out + at;
  int32_t* out32 = reinterpret_cast<int32_t*>(r.out) + at;  // raw32
  const float m = s.mult[oc];
  for (int64_t ox = 0; ox < r.ow; ++ox) {
    uint32_t sum = static_cast<uint32_t>(s.bias[oc]);  // wraps, as DenseRow's
    const int16_t* src = in + ox * r.sw;
    for (int64_t ky = 0; ky < r.kh; ++ky) {
      for (int64_t kx = 0; kx < r.kw; ++kx) {
        sum += static_cast<uint32_t>(static_cast<int32_t>(src[ky * r.dh * r.wp + kx * r.dw]) * w[ky * r.kw + kx]);
      }
    }
    const int32_t acc = static_cast<int32_t>(sum);
    if (s.ep.raw32) {
      out32[ox] = acc;
    } else {
      out[ox] = static_cast<uint8_t>(RequantizeScalar(acc, m, s.ep));
    }
  }
}

}  // namespace

int64_t LayOutInt16(int64_t in_channels, int64_t out_channels, int64_t groups, int64_t kh, int64_t kw,
                    bool depthwise, Int16Setup* s) {
  const int64_t kk = kh * kw;
  s->tiles.clear();
  if (depthwise) {
    s->mult_ch = out_channels / groups;
    return out_channels * kk;
  }
  const int64_t cg = in_channels / groups, og = out_channels / groups;
  const int64_t tco = s->tile_co;
  int64_t count = 0;
  for (int64_t oc0 = 0; oc0 < out_channels; oc0 += tco) {
    Int16Setup::Tile t;
    t.oc0 = oc0;
    const int64_t oc_hi = std::min(out_channels, oc0 + tco);
    t.ic_lo = (oc0 / og) * cg;
    t.ic_count = ((oc_hi - 1) / og + 1) * cg - t.ic_lo;
    t.w_offset = count;
    count += t.ic_count * kk * tco;
    s->tiles.push_back(t);
  }
  return count;
}

void PackInt16(const int16_t* w, int64_t in_channels, int64_t out_channels, int64_t groups,
               int64_t kh, int64_t kw, bool depthwise, const Int16Setup& s, int16_t* dst) {
  const int64_t kk = kh * kw;
  if (depthwise) {
    std::copy(w, w + out_channels * kk, dst);
    return;
  }
  const int64_t cg = in_channels / groups, og = out_channels / groups;
  const int64_t tco = s.tile_co;
  for (const Int16Setup::Tile& t : s.tiles) {
    int16_t* d = dst + t.w_offset;
    for (int64_t i = 0; i < t.ic_count; ++i) {
      const int64_t ic = t.ic_lo + i;
      for (int64_t k = 0; k < kk; ++k, d += tco) {
        for (int64_t c = 0; c < tco; ++c) {
          const int64_t oc = t.oc0 + c;
          if (oc >= out_channels || ic / cg != oc / og) continue;
          d[c] = w[(oc * cg + ic % cg) * kk + k];
        }
      }
    }
  }
}

void RunInt16(const Int16Setup& s, const Int16Run& r, bool depthwise, pthreadpool_t pool) {
  Ctx ctx{&s, &r};
  if (depthwise) {
    pthreadpool_parallelize_2d(pool, &DepthwiseTask, &ctx, r.n * r.oc, r.oh, 0);
    return;
  }
  pthreadpool_task_2d_t fn = nullptr;
  const int64_t co = s.tile_co, ow = s.tile_ow;
  if (co == 4) fn = ow == 4 ? &DenseTask<4, 4> : &DenseTask<4, 8>;
  if (co == 8) fn = ow == 4 ? &DenseTask<8, 4> : &DenseTask<8, 8>;
  if (co == 16) fn = ow == 4 ? &DenseTask<16, 4> : &DenseTask<16, 8>;
  pthreadpool_parallelize_2d(pool, fn, &ctx, s.tiles.size(), r.n * r.oh, 0);
}

}  // namespace qnnc::kernels::spatial_pack::internal
