// Runs the portable kernels of the spatial pack (the u8s8 scalar
// microkernels and the int16 path, the Arm default) on a fixed table of
// cases with pseudo-random data and prints one line per case: its name and
// a hash of every output byte. The same source is built for the host (a
// Bazel cc_binary, whose kernels conv2d_test checks against the reference)
// and, by aarch64_qemu_test.sh, for aarch64 and run under qemu-user: both
// must print the same lines, i.e. the Arm build computes the same bits.
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/spatial_pack/internal/int16.h"
#include "kernels/spatial_pack/internal/microkernels.h"

namespace qnnc::kernels::spatial_pack::internal {
namespace {

std::mt19937 rng(2026);  // raw outputs only: the same on every platform

int Next(int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint32_t>(hi - lo + 1)); }

// FNV-1a over the bytes.
uint64_t Hash(const std::vector<uint8_t>& v) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t b : v) h = (h ^ b) * 1099511628211ull;
  return h;
}

// Multipliers that keep most outputs inside the dtype (so that every bit of
// an accumulator can show in the hash): `k` products of about 147 (input)
// by 74 (weight) in magnitude per output; plus exact ties (0.5, 0.25), one
// past 1 and (optionally) a NaN.
std::vector<float> Multipliers(int n, int64_t k, bool with_nan) {
  const double base = 60.0 / (std::sqrt(static_cast<double>(k)) * 147.0 * 74.0);
  std::vector<float> m(n);
  for (int i = 0; i < n; ++i) {
    switch (i % 7) {
      case 0: m[i] = 0.5f; break;
      case 1: m[i] = 0.25f; break;
      case 2: m[i] = 1.75f; break;
      default: m[i] = static_cast<float>(base * (0.3 + Next(0, 1000) / 500.0));
    }
  }
  if (with_nan) m[n / 2] = std::numeric_limits<float>::quiet_NaN();
  return m;
}

// A bias of the size of the accumulators (two draws, in this order).
int32_t Bias(int64_t k) {
  const int sign = Next(-1, 1);
  return sign * Next(0, static_cast<int>(std::sqrt(static_cast<double>(k)) * 147 * 74));
}

Epilogue MakeEpilogue(int32_t zp, int32_t lo, int32_t hi, bool nan) {
  Epilogue e;
  e.lo = static_cast<float>(lo - zp);
  e.hi = static_cast<float>(hi - zp);
  e.zp = zp;
  e.nan_check = nan;
  return e;
}

void DenseCase(const char* name, int nco, int npix, int64_t icblk, int64_t icb_count, int64_t kh,
               int64_t kw, int64_t stride, bool nan) {
  const int64_t wp = npix * stride + kw + 2, hp = kh + 2;
  DenseGeom g;
  g.icblk = icblk;
  g.kh = kh;
  g.kw = kw;
  g.in_cstride = hp * wp * icblk;
  g.dil_h_bytes = wp * icblk;
  g.dil_w_bytes = icblk;
  g.pix_bytes = stride * icblk;
  g.out_cstride = npix * 16;
  g.ep = MakeEpilogue(Next(0, 255), 0, 255, nan);
  std::vector<uint8_t> in(icb_count * g.in_cstride);
  for (auto& x : in) x = static_cast<uint8_t>(Next(0, 255));
  std::vector<int8_t> w(icb_count * kh * kw * (icblk / 4) * nco * 64);
  for (auto& x : w) x = static_cast<int8_t>(Next(-128, 127));
  const int64_t k = icb_count * icblk * kh * kw;
  std::vector<int32_t> bias(nco * 16);
  for (auto& b : bias) b = Bias(k);
  const std::vector<float> mult = Multipliers(nco * 16, k, nan);
  std::vector<uint8_t> out(nco * g.out_cstride);
  DenseTile t;
  t.in = in.data();
  t.w = w.data();
  t.icb_count = icb_count;
  t.bias = bias.data();
  t.mult = mult.data();
  t.out = out.data();
  t.nco = nco;
  t.npix = npix;
  DenseTileScalar(g, t);
  std::printf("dense_%s %016" PRIx64 "\n", name, Hash(out));
}

void DepthwiseRowCase(const char* name, int64_t h, int64_t w, int64_t k, int64_t s, int64_t pad) {
  DwGeom g;
  g.h = h;
  g.w = w;
  g.kh = g.kw = k;
  g.sh = g.sw = s;
  g.pad_t = g.pad_l = pad;
  g.ow = (w + 2 * pad - k) / s + 1;
  g.zx = static_cast<uint8_t>(Next(0, 255));
  g.ep = MakeEpilogue(Next(-128, 127), -128, 127, false);
  std::vector<uint8_t> in(h * w * 16);
  for (auto& x : in) x = static_cast<uint8_t>(Next(0, 255));
  std::vector<int32_t> wt(k * k * 16), bias(16);
  for (auto& x : wt) x = Next(-128, 127);
  for (auto& b : bias) b = Bias(k * k);
  const std::vector<float> mult = Multipliers(16, k * k, false);
  const int64_t oh = (h + 2 * pad - k) / s + 1;
  std::vector<uint8_t> out(oh * g.ow * 16);
  for (int64_t oy = 0; oy < oh; ++oy) {
    DwRow r;
    r.in = in.data();
    r.w = wt.data();
    r.bias = bias.data();
    r.mult = mult.data();
    r.out = out.data() + oy * g.ow * 16;
    r.oh = oy;
    DwRowScalar(g, r);
  }
  std::printf("depthwise_%s %016" PRIx64 "\n", name, Hash(out));
}

void Int16Case(const char* name, int64_t c, int64_t oc, int64_t groups, int64_t k, int64_t stride,
               int64_t h, int64_t tile_co, int64_t tile_ow, bool depthwise) {
  Int16Setup s;
  s.tile_co = tile_co;
  s.tile_ow = tile_ow;
  s.ep = MakeEpilogue(Next(0, 255), 0, 255, false);
  const int64_t cg = c / groups;
  std::vector<int16_t> w(oc * cg * k * k);
  for (auto& x : w) x = static_cast<int16_t>(Next(-255, 255));
  const int64_t oc_pad = (oc + tile_co - 1) / tile_co * tile_co;
  s.bias.assign(oc_pad, 0);
  for (int64_t i = 0; i < oc; ++i) s.bias[i] = Bias(cg * k * k);
  // int16 weights span [-255, 255]: products about 3.5x those of s8.
  s.mult = Multipliers(static_cast<int>(oc_pad), cg * k * k * 12, false);
  PackInt16(w.data(), c, oc, groups, k, k, depthwise, &s);
  Int16Run r;
  r.n = 1;
  r.c = c;
  r.hp = r.wp = h;  // the input is already padded
  r.oh = r.ow = (h - k) / stride + 1;
  r.oc = oc;
  r.groups = groups;
  r.kh = r.kw = k;
  r.sh = r.sw = stride;
  r.dh = r.dw = 1;
  // Readable past its end (full register tiles), as the driver pads it.
  std::vector<int16_t> in(c * h * h + (tile_ow * stride + k + 64));
  for (auto& x : in) x = static_cast<int16_t>(Next(-255, 255));
  std::vector<uint8_t> out(oc * r.oh * r.ow);
  r.in = in.data();
  r.out = out.data();
  RunInt16(s, r, depthwise, nullptr);
  std::printf("int16_%s %016" PRIx64 "\n", name, Hash(out));
}

}  // namespace
}  // namespace qnnc::kernels::spatial_pack::internal

int main() {
  using namespace qnnc::kernels::spatial_pack::internal;
  DenseCase("1x1_nco1_pix14", 1, 14, 16, 4, 1, 1, 1, false);
  DenseCase("3x3_nco2_pix7", 2, 7, 16, 3, 3, 3, 1, false);
  DenseCase("3x3_s2_nco2_pix5", 2, 5, 16, 2, 3, 3, 2, false);
  DenseCase("7x7_s2_icblk4", 2, 8, 4, 1, 7, 7, 2, false);
  DenseCase("nan_multiplier", 1, 3, 16, 2, 1, 1, 1, true);
  DepthwiseRowCase("3x3", 9, 11, 3, 1, 1);
  DepthwiseRowCase("3x3_s2", 12, 13, 3, 2, 1);
  DepthwiseRowCase("5x5_pad2", 8, 8, 5, 1, 2);
  Int16Case("dense_3x3", 20, 24, 1, 3, 1, 11, 16, 8, false);
  Int16Case("dense_1x1_tile4", 17, 9, 1, 1, 1, 7, 4, 4, false);
  Int16Case("grouped_s2", 16, 32, 4, 3, 2, 13, 8, 8, false);
  Int16Case("depthwise", 16, 16, 16, 3, 1, 10, 16, 8, true);
  return 0;
}
