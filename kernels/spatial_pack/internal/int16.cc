// The int16 kernels: portable code written for auto-vectorization over the
// output channels of a tile (compiled with -O3), and on AArch64 the dense
// tiles' products in NEON (smlal by lane).
#include "kernels/spatial_pack/internal/int16.h"

#include <algorithm>
#include <utility>

#if defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace qnnc::kernels::spatial_pack::internal {
namespace {

// Adds a tile's products (TOW pixels x TCO output channels, over the tile's
// input channels and window) to `acc`, wrapping in uint32.
template <int TCO, int TOW>
void AccumulatePortable(uint32_t (&acc)[TOW][TCO], const int16_t* in_tile, const int16_t* w,
                        int64_t ic_count, int64_t plane, int64_t kh, int64_t kw, int64_t dh, int64_t dw,
                        int64_t sw) {
  for (int64_t ic = 0; ic < ic_count; ++ic) {
    for (int64_t ky = 0; ky < kh; ++ky) {
      for (int64_t kx = 0; kx < kw; ++kx) {
        const int16_t* src = in_tile + ic * plane + ky * dh + kx * dw;
        for (int p = 0; p < TOW; ++p) {
          const int32_t x = src[p * sw];
          for (int c = 0; c < TCO; ++c) acc[p][c] += static_cast<uint32_t>(x * static_cast<int32_t>(w[c]));
        }
        w += TCO;
      }
    }
  }
}

#if defined(__aarch64__)
// NEON: smlal/smlal2 of the weights by the pixel's lane of one vector of the
// TOW inputs (as XNNPACK's mlal_lane kernels multiply), TCO / 4 int32x4
// accumulators per pixel, whose lanes wrap as the uint32 sums do.
template <int TCO, int TOW>
struct NeonInt16Tile {
  static constexpr int kW = TCO == 4 ? 1 : TCO / 8;  // weight vectors
  int32x4_t a[TOW][TCO / 4];

  template <int P>
  void Pixel(const int16x8_t (&wv)[kW], int16x8_t x) {
    if constexpr (TCO == 4) {
      a[P][0] = vmlal_laneq_s16(a[P][0], vget_low_s16(wv[0]), x, P);
    } else {
      for (int v = 0; v < kW; ++v) {
        a[P][2 * v] = vmlal_laneq_s16(a[P][2 * v], vget_low_s16(wv[v]), x, P);
        a[P][2 * v + 1] = vmlal_high_laneq_s16(a[P][2 * v + 1], wv[v], x, P);
      }
    }
  }
  template <int... P>
  void Pixels(const int16x8_t (&wv)[kW], int16x8_t x, std::integer_sequence<int, P...>) {
    (Pixel<P>(wv, x), ...);
  }
};

// kUnitStride: the pixels are adjacent (stride 1), one load; else gathered.
// Not inlined: bench/arm_mca.py reads each loop from its own symbol.
template <int TCO, int TOW, bool kUnitStride>
__attribute__((noinline)) void AccumulateNeon(uint32_t (&acc)[TOW][TCO], const int16_t* in_tile,
                                              const int16_t* w, int64_t ic_count, int64_t plane, int64_t kh,
                                              int64_t kw, int64_t dh, int64_t dw, int64_t sw) {
  static_assert(TOW == 4 || TOW == 8, "one vector of pixels");
  NeonInt16Tile<TCO, TOW> t;
  for (int p = 0; p < TOW; ++p) {
    for (int v = 0; v < TCO / 4; ++v) t.a[p][v] = vreinterpretq_s32_u32(vld1q_u32(&acc[p][4 * v]));
  }
  for (int64_t ic = 0; ic < ic_count; ++ic) {
    for (int64_t ky = 0; ky < kh; ++ky) {
      for (int64_t kx = 0; kx < kw; ++kx) {
        const int16_t* src = in_tile + ic * plane + ky * dh + kx * dw;
        int16x8_t x;
        if constexpr (kUnitStride) {
          // The pixels the portable loop reads, no more.
          x = TOW == 8 ? vld1q_s16(src) : vcombine_s16(vld1_s16(src), vdup_n_s16(0));
        } else {
          int16_t xs[8] = {};
          for (int p = 0; p < TOW; ++p) xs[p] = src[p * sw];
          x = vld1q_s16(xs);
        }
        int16x8_t wv[NeonInt16Tile<TCO, TOW>::kW];
        if constexpr (TCO == 4) {
          wv[0] = vcombine_s16(vld1_s16(w), vdup_n_s16(0));
        } else {
          for (int v = 0; v < TCO / 8; ++v) wv[v] = vld1q_s16(w + 8 * v);
        }
        t.Pixels(wv, x, std::make_integer_sequence<int, TOW>{});
        w += TCO;
      }
    }
  }
  for (int p = 0; p < TOW; ++p) {
    for (int v = 0; v < TCO / 4; ++v) vst1q_u32(&acc[p][4 * v], vreinterpretq_u32_s32(t.a[p][v]));
  }
}
#endif

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
#if defined(__aarch64__)
    if (sw == 1) {
      AccumulateNeon<TCO, TOW, true>(acc, in_row + ox, s.weights + t.w_offset, t.ic_count, plane, r.kh, r.kw, dh,
                                     dw, sw);
    } else {
      AccumulateNeon<TCO, TOW, false>(acc, in_row + ox * sw, s.weights + t.w_offset, t.ic_count, plane, r.kh,
                                      r.kw, dh, dw, sw);
    }
#else
    AccumulatePortable<TCO, TOW>(acc, in_row + ox * sw, s.weights + t.w_offset, t.ic_count, plane, r.kh, r.kw,
                                 dh, dw, sw);
#endif
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

#if defined(__aarch64__)
// One tap of a depthwise row's 16 pixels at p (kStride apart: the even
// lanes of two loads at 2), by its weight wk, into four accumulators by
// smlal/smlal2.
template <int kStride>
inline void DepthwiseTap16(int32x4_t (&a)[4], const int16_t* p, int16_t wk) {
  int16x8_t x0, x1;
  if constexpr (kStride == 1) {
    x0 = vld1q_s16(p);
    x1 = vld1q_s16(p + 8);
  } else {
    x0 = vuzp1q_s16(vld1q_s16(p), vld1q_s16(p + 8));
    x1 = vuzp1q_s16(vld1q_s16(p + 16), vld1q_s16(p + 24));
  }
  a[0] = vmlal_n_s16(a[0], vget_low_s16(x0), wk);
  a[1] = vmlal_high_n_s16(a[1], x0, wk);
  a[2] = vmlal_n_s16(a[2], vget_low_s16(x1), wk);
  a[3] = vmlal_high_n_s16(a[3], x1, wk);
}

// The sums of 16 output pixels of a depthwise row whose pixels lie kStride
// (1 or 2) apart. The taps go in pairs into two sets of four
// accumulators: eight independent sums, as many as a core that issues two
// smlal a cycle (Neoverse-V1) keeps busy over their 4-cycle latency; int32
// lanes wrap as the uint32 sums do.
template <int kStride>
__attribute__((noinline)) void DepthwiseSums16(const int16_t* src, const int16_t* w, int64_t kh, int64_t kw,
                                               int64_t row, int64_t dw, int32_t bias,
                                               uint32_t (&sums)[kInt16DepthwisePixels]) {
  static_assert(kInt16DepthwisePixels == 16, "four int32x4 accumulators");
  int32x4_t a[4], b[4];
  for (int i = 0; i < 4; ++i) {
    a[i] = vdupq_n_s32(bias);
    b[i] = vdupq_n_s32(0);
  }
  // Tap t = ky * kw + kx reads p = src + ky * row + kx * dw, walked on.
  const int16_t* p = src;
  int64_t kx = 0;
  auto tap = [&](int32x4_t (&acc)[4], int64_t t) {
    DepthwiseTap16<kStride>(acc, p, w[t]);
    const bool row_end = ++kx == kw;
    p += row_end ? row - (kw - 1) * dw : dw;
    kx = row_end ? 0 : kx;
  };
  const int64_t taps = kh * kw;
  int64_t t = 0;
  for (; t + 1 < taps; t += 2) {
    tap(a, t);
    tap(b, t + 1);
  }
  if (t < taps) tap(a, t);
  for (int i = 0; i < 4; ++i) vst1q_u32(sums + 4 * i, vreinterpretq_u32_s32(vaddq_s32(a[i], b[i])));
}
#endif

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
  auto store = [&](int64_t ox, uint32_t sum) {
    const int32_t acc = static_cast<int32_t>(sum);
    if (s.ep.raw32) {
      out32[ox] = acc;
    } else {
      out[ox] = static_cast<uint8_t>(RequantizeScalar(acc, m, s.ep));
    }
  };
  int64_t ox = 0;
#if defined(__aarch64__)
  // 16 pixels at a time; the last 16 may read past the row (the padded
  // copy has slack for kInt16DepthwisePixels).
  if (r.sw == 1 || r.sw == 2) {
    for (; ox < r.ow; ox += kInt16DepthwisePixels) {
      uint32_t sums[kInt16DepthwisePixels];
      const int16_t* src = in + ox * r.sw;
      if (r.sw == 1) {
        DepthwiseSums16<1>(src, w, r.kh, r.kw, r.dh * r.wp, r.dw, s.bias[oc], sums);
      } else {
        DepthwiseSums16<2>(src, w, r.kh, r.kw, r.dh * r.wp, r.dw, s.bias[oc], sums);
      }
      for (int64_t i = 0; i < kInt16DepthwisePixels && ox + i < r.ow; ++i) store(ox + i, sums[i]);
    }
  }
#endif
  for (; ox < r.ow; ++ox) {
    uint32_t sum = static_cast<uint32_t>(s.bias[oc]);  // wraps, as DenseRow's
    const int16_t* src = in + ox * r.sw;
    for (int64_t ky = 0; ky < r.kh; ++ky) {
      for (int64_t kx = 0; kx < r.kw; ++kx) {
        sum += static_cast<uint32_t>(static_cast<int32_t>(src[ky * r.dh * r.wp + kx * r.dw]) * w[ky * r.kw + kx]);
      }
    }
    store(ox, sum);
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
