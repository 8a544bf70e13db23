#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/spatial_pack/conv2d.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cmath>
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kernels/cpu/isa.h"
#include "kernels/testing/two_threads.h"
#include "kernels/reference/conv2d.h"
#include "kernels/reference/layout_transform.h"
#include "kernels/reference/requantize.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using tensor::DType;
using tensor::Tensor;

struct Case {
  std::string name;
  int64_t n, c, h, w, oc, kh, kw;
  std::array<int64_t, 2> s{1, 1};
  std::array<int64_t, 4> pads{0, 0, 0, 0};
  int64_t groups = 1;
  std::array<int64_t, 2> d{1, 1};
  int32_t zx = 113;
  DType out = DType::kU8;
  int32_t out_zp = 121;
  int32_t cmin = INT_MIN, cmax = INT_MAX;
  bool per_channel = true;
  int wmin = -128, wmax = 127;  // u8s8 weights w - zw
  // Shrink the second weight of each input-channel pair (2m, 2m+1) so that
  // the pair just fits vpmaddubsw (MaxWeightPairSum <= 128).
  bool fit_pairs = false;
  // Weights whose pairs fit vpmaddubsw only in another channel order: of
  // each 4 input channels, the first two take full-range weights ([-127,
  // 127]) and the last two [-1, 1], so every natural pair of large weights
  // could saturate and a large channel must pair with a small one.
  bool reorder_pairs = false;
  // Weights in [-40, 40] but one in 40 of magnitude 100-127: a few pairs
  // saturate in any order, so the AVX2 one-pass kernel corrects some steps.
  bool sparse_large = false;
  // Weights of magnitude 90-110, each channel one sign per output channel
  // half (8): every same-signed pair could saturate, and every pair fits
  // with one of its channels flipped (read as 255 - x, weights negated).
  bool flip_pairs = false;
  // Weights of magnitude `paired` or, one in four, paired + 1, random signs:
  // with paired = 32, four of 32 fill an int16 lane exactly at 255 (the AVX2
  // kernel's paired steps, step_pairs.h), a 33 among them overflows it.
  int paired = 0;
  // With `paired`, the half (output channels 8h..8h+7 of each 16) whose
  // weights take magnitude 64 instead: no two steps share a vpmaddwd there,
  // so they pair in the other half only (half pairs); -1: none.
  int heavy_half = -1;
  // Inputs in [xmin, 255]: large inputs make a saturating pair saturate.
  int xmin = 0;
};

// The layer suite (full size) and edge cases.
std::vector<Case> Cases() {
  std::vector<Case> v;
  auto add = [&](Case c) { v.push_back(c); };
  add({"r50_c2_3x3", 1, 64, 56, 56, 64, 3, 3, {1, 1}, {1, 1, 1, 1}});
  add({"r50_c2_1x1", 1, 256, 56, 56, 64, 1, 1});
  add({"r50_c3_3x3", 1, 128, 28, 28, 128, 3, 3, {1, 1}, {1, 1, 1, 1}});
  add({"r50_c5_3x3", 1, 512, 7, 7, 512, 3, 3, {1, 1}, {1, 1, 1, 1}});
  add({"r50_stem_7x7", 1, 3, 224, 224, 64, 7, 7, {2, 2}, {3, 3, 3, 3}});
  add({"mbv2_pw_112", 1, 16, 112, 112, 96, 1, 1});
  add({"mbv2_dw_112", 1, 32, 112, 112, 32, 3, 3, {1, 1}, {1, 1, 1, 1}, 32});
  add({"mbv2_dw_s2", 1, 96, 112, 112, 96, 3, 3, {2, 2}, {1, 1, 1, 1}, 96});
  add({"pw_5_to_17", 1, 5, 7, 9, 17, 1, 1});
  add({"c7x7_s2_17_to_33", 1, 17, 19, 21, 33, 7, 7, {2, 2}, {3, 3, 3, 3}});
  add({"asymmetric_pads", 1, 20, 11, 13, 24, 3, 3, {1, 1}, {0, 2, 1, 3}});
  add({"dilation2", 1, 33, 12, 10, 16, 3, 3, {1, 1}, {2, 2, 2, 2}, 1, {2, 2}});
  add({"groups2", 1, 16, 9, 9, 32, 3, 3, {1, 1}, {1, 1, 1, 1}, 2});
  add({"groups4_aligned", 1, 64, 8, 8, 64, 3, 3, {1, 1}, {1, 1, 1, 1}, 4});
  add({"resnext_g32x4", 1, 128, 9, 11, 128, 3, 3, {1, 1}, {1, 1, 1, 1}, 32});
  add({"resnext_g32x8_s2", 2, 256, 9, 10, 256, 3, 3, {2, 2}, {1, 1, 1, 1}, 32});
  add({"grouped_g4x4_1x1", 1, 16, 5, 7, 16, 1, 1, {1, 1}, {0, 0, 0, 0}, 4});
  add({"groups4_unaligned", 1, 12, 8, 9, 20, 3, 3, {2, 1}, {1, 0, 1, 2}, 4});
  add({"depthwise_mult2", 1, 17, 10, 11, 34, 3, 3, {1, 1}, {1, 1, 1, 1}, 17});
  add({"depthwise_mult3_5x5_s2", 1, 24, 13, 12, 72, 5, 5, {2, 2}, {2, 1, 2, 3}, 24});
  add({"depthwise_5x5_mbv3", 1, 40, 14, 15, 40, 5, 5, {1, 1}, {2, 2, 2, 2}, 40});
  add({"depthwise_5x5_dilated", 1, 16, 16, 17, 16, 5, 5, {1, 1}, {4, 3, 4, 3}, 16, {2, 2}});
  add({"depthwise_3ch_dilated", 1, 3, 9, 9, 3, 3, 3, {1, 1}, {2, 2, 2, 2}, 3, {2, 2}});
  add({"input_1x1_padded", 1, 33, 1, 1, 17, 3, 3, {1, 1}, {1, 1, 1, 1}});
  add({"input_3x3_valid", 1, 17, 3, 3, 33, 3, 3});
  add({"batch2", 2, 20, 9, 8, 40, 3, 3, {1, 1}, {1, 1, 1, 1}});
  add({"batch2_depthwise", 2, 16, 9, 8, 16, 3, 3, {1, 1}, {1, 1, 1, 1}, 16});
  add({"channels_1", 1, 1, 10, 10, 5, 3, 3, {1, 1}, {1, 1, 1, 1}});
  // Images of 1-3 channels: u8i16.avx2 packs a kernel row's taps of every
  // channel side by side (RowTapSteps), its copy keeping the real channels
  // (odd widths: the vector packing's tail; the last step's values past the
  // row's taps: the extra border). Dilated rows; dilated columns (none).
  add({"rgb_5x5_rows_dilated_batch2", 2, 3, 13, 11, 20, 5, 5, {1, 1}, {2, 1, 3, 2}, 1, {2, 1}});
  add({"two_channels_7x7_s2", 1, 2, 15, 17, 16, 7, 7, {2, 2}, {3, 3, 3, 3}});
  add({"one_channel_7x7_wide", 1, 1, 9, 37, 24, 7, 7, {1, 2}, {3, 0, 3, 1}});
  add({"one_channel_columns_dilated", 1, 1, 9, 12, 8, 3, 3, {1, 1}, {1, 2, 1, 2}, 1, {1, 2}});
  add({"one_channel_narrow", 1, 1, 6, 5, 8, 3, 3, {1, 1}, {1, 1, 1, 1}});  // no vector packing
  add({"channels_4_1x1", 1, 4, 6, 7, 3, 1, 1});
  add({"stride2_1x1", 1, 40, 9, 11, 24, 1, 1, {2, 2}});
  add({"wide_row_1x1_padded", 1, 32, 2, 61, 48, 1, 1, {1, 1}, {0, 1, 0, 2}});
  // u8i16.avx2 splits tiles whose weights outgrow L1 into input-channel
  // chunks (partial sums between them): a partial last block (200 = 12.5
  // blocks, in the last chunk only) with pixel-major work items; then
  // weights over 512 KB (items of several whole rows), batch 2, strided,
  // asymmetric padding and a partial block again (300 channels).
  add({"chunked_partial_block", 1, 200, 6, 9, 40, 3, 3, {1, 1}, {1, 1, 1, 1}});
  add({"chunked_rows_batch2_s2", 2, 300, 9, 8, 96, 3, 3, {2, 2}, {1, 0, 1, 2}});
  // The AVX2 tiles run a row as tiles of sizes one pixel apart, each size
  // in one call of several strips (DenseTile::strips): a flat 7x7 plane
  // (49 = 4 x 6 + 5 x 5 at tile_ow 6, 10 x 4 + 3 x 3 at 4) with K = 16,
  // and rows of 14 (5, 5, 4 / 4, 4, 3, 3) through a 3x3.
  add({"split_tiles_flat_7x7", 1, 16, 7, 7, 48, 1, 1});
  add({"split_tiles_rows_14", 1, 24, 14, 14, 32, 3, 3, {1, 1}, {1, 1, 1, 1}});
  // Zero points and clamps at the limits; per-tensor multiplier.
  Case c = {"zx0_u8zp0", 1, 24, 9, 9, 20, 3, 3, {1, 1}, {1, 1, 1, 1}};
  c.zx = 0, c.out_zp = 0;
  add(c);
  c.name = "zx255_u8zp255", c.zx = 255, c.out_zp = 255;
  add(c);
  c.name = "i8_zp_min", c.zx = 7, c.out = DType::kI8, c.out_zp = -128;
  add(c);
  c.name = "i8_zp_max_per_tensor", c.out_zp = 127, c.per_channel = false;
  add(c);
  c.name = "clamp_relu6", c.out = DType::kU8, c.out_zp = 10, c.cmin = 10, c.cmax = 60;
  c.per_channel = true;
  add(c);
  c.name = "weights_within_64", c.wmin = -64, c.wmax = 64, c.cmin = INT_MIN, c.cmax = INT_MAX;
  add(c);
  c.name = "weights_extremes", c.wmin = -128, c.wmax = -127, c.zx = 128;
  add(c);
  // Full-range weights whose input-channel pairs just fit vpmaddubsw (one
  // pass on AVX2), with the largest inputs.
  c.name = "weight_pairs_at_the_limit", c.wmin = -128, c.wmax = 127, c.zx = 255, c.fit_pairs = true;
  add(c);
  c.name = "weight_pairs_at_the_limit_3x3_s2", c.kh = c.kw = 3, c.s = {2, 2}, c.zx = 0;
  add(c);
  // Pairs that fit only reordered (the AVX2 one-pass kernel reads a copy in
  // their order): 1x1 (no padding), a last block of 8 channels; then 3x3
  // with padding. Inputs of 224-255, so a wrongly paired large pair saturates.
  Case r = {"weight_pairs_reordered_1x1", 1, 40, 5, 7, 24, 1, 1};
  r.zx = 255, r.reorder_pairs = true, r.xmin = 224;
  add(r);
  // 1x1 planes of up to 196 pixels run as one row, a copied input too
  // (u8s8_dense.cc, kFlatCopiedPixels): 14x14 flat, 14x15 by rows.
  r = {"weight_pairs_reordered_1x1_flat_14x14", 1, 40, 14, 14, 24, 1, 1};
  r.zx = 255, r.reorder_pairs = true, r.xmin = 224;
  add(r);
  r.name = "weight_pairs_reordered_1x1_rows_14x15", r.w = 15;
  add(r);
  r = {"weight_pairs_reordered_3x3_padded", 2, 20, 9, 8, 33, 3, 3, {1, 1}, {1, 1, 1, 1}};
  r.reorder_pairs = true, r.xmin = 224;
  add(r);
  // A few pairs that saturate in any order (corrected steps), large inputs;
  // then strided, padded, two images.
  r = {"weight_pairs_corrected_1x1", 1, 64, 6, 7, 40, 1, 1};
  r.zx = 255, r.sparse_large = true, r.xmin = 224;
  add(r);
  r = {"weight_pairs_corrected_3x3_s2", 2, 48, 11, 9, 24, 3, 3, {2, 2}, {1, 0, 1, 2}};
  r.sparse_large = true, r.xmin = 224;
  add(r);
  // Pairs that fit only with a channel flipped: padded with a zero point
  // the flip must complement too; then 1x1 (no padding), two orders.
  r = {"weight_pairs_flipped_3x3_padded", 1, 24, 8, 9, 16, 3, 3, {1, 1}, {1, 1, 1, 1}};
  r.zx = 37, r.flip_pairs = true, r.xmin = 200;
  add(r);
  r = {"weight_pairs_flipped_1x1", 2, 32, 5, 6, 40, 1, 1};
  r.zx = 250, r.flip_pairs = true, r.xmin = 200;
  add(r);
  r = {"weight_pairs_flipped_3x3_orders", 1, 20, 7, 7, 48, 3, 3, {1, 1}, {1, 1, 1, 1}};
  r.zx = 215, r.flip_pairs = true, r.xmin = 180;
  add(r);
  // Steps paired at the limit (the AVX2 one-pass kernel adds two steps'
  // products in int16), every input 255: 3x3 padded, two tiles of output
  // channels; then 1x1 with a partial last block, and strided.
  r = {"steps_paired_at_the_limit_3x3", 1, 64, 6, 7, 32, 3, 3, {1, 1}, {1, 1, 1, 1}};
  r.zx = 3, r.paired = 32, r.xmin = 255;
  add(r);
  r = {"steps_paired_at_the_limit_1x1", 1, 40, 5, 6, 24, 1, 1};
  r.zx = 9, r.paired = 32, r.xmin = 255;
  add(r);
  r = {"steps_paired_3x3_s2", 2, 48, 9, 11, 40, 3, 3, {2, 2}, {1, 0, 1, 2}};
  r.zx = 120, r.paired = 32, r.xmin = 230;
  add(r);
  // Steps that share one half's vpmaddwd only (the other half's weights
  // too large), at the limit: the first half, then the second.
  r = {"steps_half_paired_first_3x3", 1, 32, 6, 7, 32, 3, 3, {1, 1}, {1, 1, 1, 1}};
  r.zx = 5, r.paired = 32, r.heavy_half = 1, r.xmin = 255;
  add(r);
  r.name = "steps_half_paired_second_3x3", r.heavy_half = 0;
  add(r);
  Case dw = {"depthwise_i8_clamp", 1, 32, 7, 7, 32, 3, 3, {1, 1}, {1, 1, 1, 1}, 32};
  dw.zx = 255, dw.out = DType::kI8, dw.out_zp = -5, dw.cmin = -20, dw.cmax = 90;
  add(dw);
  return v;
}

struct Problem {
  Tensor x;       // u8 NCHW
  Tensor w;       // i8 (u8s8) or i16 (int16) OIHW, zero point already subtracted
  QuantizedConvParams params;
  Tensor expected;  // NCHW
};

// int16: weights w - zw in [-255, 255] and bias without compensation.
// small_m: every multiplier below 0.5 (the kernels' packed 16-bit epilogue);
// otherwise one channel in 7 has 1.75. input_seed != 0: the same weights and
// parameters as with 0, another input.
Problem MakeProblem(const Case& k, bool int16, bool small_m = false, uint32_t seed = 1,
                    uint32_t input_seed = 0) {
  std::mt19937 rng(seed);
  Problem p;
  const int64_t cg = k.c / k.groups;
  std::vector<uint8_t> xv(k.n * k.c * k.h * k.w);
  for (auto& e : xv) e = static_cast<uint8_t>(k.xmin + rng() % (256 - k.xmin));
  if (input_seed != 0) {
    std::mt19937 other(input_seed);
    for (auto& e : xv) e = static_cast<uint8_t>(k.xmin + other() % (256 - k.xmin));
  }
  p.x = Tensor::FromVector<uint8_t>({k.n, k.c, k.h, k.w}, xv);
  const int64_t wn = k.oc * cg * k.kh * k.kw;
  std::vector<int64_t> wv(wn);
  const int lo = int16 ? -255 : k.wmin, hi = int16 ? 255 : k.wmax;
  for (auto& e : wv) e = lo + static_cast<int>(rng() % (hi - lo + 1));
  if (k.sparse_large) {
    for (auto& e : wv) {
      e = rng() % 40 == 0 ? (rng() % 2 ? 1 : -1) * (100 + static_cast<int>(rng() % 28))
                          : -40 + static_cast<int>(rng() % 81);
    }
  }
  if (k.flip_pairs) {
    const int64_t kk = k.kh * k.kw;
    std::vector<int> sign(2 * cg);
    for (auto& e : sign) e = rng() % 2 ? 1 : -1;
    for (int64_t i = 0; i < wn; ++i) {
      const int64_t o = i / (cg * kk), ic = i / kk % cg;
      wv[i] = sign[(o / 8 % 2) * cg + ic] * (90 + static_cast<int>(rng() % 21));
    }
  }
  if (k.paired > 0) {
    for (int64_t i = 0; i < wn; ++i) {
      const bool heavy = i / (cg * k.kh * k.kw) % 16 / 8 == k.heavy_half;
      wv[i] = (rng() % 2 ? 1 : -1) * (heavy ? 64 : k.paired + (rng() % 4 == 0));
    }
  }
  if (k.reorder_pairs) {
    for (int64_t i = 0; i < wn; ++i) {
      const bool large = (i / (k.kh * k.kw)) % cg % 4 < 2;
      wv[i] = large ? -127 + static_cast<int>(rng() % 255) : -1 + static_cast<int>(rng() % 3);
    }
  }
  if (k.fit_pairs) {
    const int64_t kk = k.kh * k.kw;
    for (int64_t o = 0; o < k.oc; ++o) {
      for (int64_t i = 1; i < cg; i += 2) {
        for (int64_t t = 0; t < kk; ++t) {
          const int64_t a = wv[(o * cg + i - 1) * kk + t];
          int64_t& b = wv[(o * cg + i) * kk + t];
          if ((a > 0) == (b > 0) && std::abs(a) + std::abs(b) > 128) {
            b = (b > 0 ? 1 : -1) * (128 - std::abs(a));
          }
        }
      }
    }
  }
  tensor::Shape wshape = {k.oc, cg, k.kh, k.kw};
  if (int16) {
    p.w = Tensor::FromVector<int16_t>(wshape, std::vector<int16_t>(wv.begin(), wv.end()));
  } else {
    p.w = Tensor::FromVector<int8_t>(wshape, std::vector<int8_t>(wv.begin(), wv.end()));
  }
  reference::Conv2DParams rp;
  rp.strides = k.s;
  rp.pads = k.pads;
  rp.dilation = k.d;
  rp.groups = k.groups;
  rp.out_dtype = DType::kI32;
  auto acc = reference::QnnConv2D(p.x, p.w, Tensor::Scalar<int32_t>(k.zx),
                                  Tensor::Scalar<int32_t>(0), rp);
  EXPECT_TRUE(acc.ok()) << acc.status();
  // Model bias, then per-channel multipliers: a spread around the scale that
  // keeps results in range, exact ties (0.5, 0.25) and one > 1.
  std::vector<int32_t> bias(k.oc);
  for (auto& b : bias) b = static_cast<int32_t>(rng() % 20001) - 10000;
  const double base = 100.0 / (std::sqrt(static_cast<double>(cg * k.kh * k.kw)) * 80.0 * 70.0);
  std::vector<float> mult(k.oc);
  for (int64_t o = 0; o < k.oc; ++o) {
    switch (o % 7) {
      case 3: mult[o] = small_m ? 0.125f : 0.5f; break;
      case 5: mult[o] = small_m ? 0.375f : 1.75f; break;
      case 6: mult[o] = 0.25f; break;
      default: mult[o] = static_cast<float>(base * (0.3 + (rng() % 1000) / 500.0));
    }
  }
  if (!k.per_channel) mult.assign(1, static_cast<float>(base));
  const int64_t plane = acc->dim(2) * acc->dim(3);
  int32_t* a = acc->data<int32_t>();
  for (int64_t i = 0; i < acc->num_elements(); ++i) a[i] += bias[(i / plane) % k.oc];
  auto expected = reference::Requantize(
      *acc, Tensor::FromVector<float>({static_cast<int64_t>(mult.size())}, mult),
      Tensor::Scalar<int32_t>(0), Tensor::Scalar<float>(1.0f), Tensor::Scalar<int32_t>(k.out_zp),
      1, k.out, k.cmin == INT_MIN ? std::nullopt : std::optional<int64_t>(k.cmin),
      k.cmax == INT_MAX ? std::nullopt : std::optional<int64_t>(k.cmax));
  EXPECT_TRUE(expected.ok()) << expected.status();
  p.expected = *expected;
  // The case must exercise the requantization, not saturate everywhere.
  std::set<int64_t> distinct;
  for (int64_t i = 0; i < p.expected.num_elements(); ++i) distinct.insert(p.expected.GetAsInt(i));
  EXPECT_GE(distinct.size(), std::min<size_t>(8, p.expected.num_elements() / 4)) << k.name;

  QuantizedConvParams& q = p.params;
  q.in_channels = k.c;
  q.out_channels = k.oc;
  q.groups = k.groups;
  q.kernel_h = k.kh;
  q.kernel_w = k.kw;
  q.in_height = k.h, q.in_width = k.w;  // the AVX2 vpmaddubsw kernel's orders per output channels
  q.strides = k.s;
  q.dilation = k.d;
  q.pads = k.pads;
  q.input_zero_point = int16 ? 0 : k.zx;
  q.bias = bias;
  if (!int16) {  // fold the zero-point compensation -zx * sum(w') into the bias
    const int64_t per_oc = cg * k.kh * k.kw;
    for (int64_t o = 0; o < k.oc; ++o) {
      int64_t sum = 0;
      for (int64_t i = 0; i < per_oc; ++i) sum += wv[o * per_oc + i];
      q.bias[o] -= static_cast<int32_t>(k.zx * sum);
    }
  }
  q.requant_multiplier = mult;
  q.output_zero_point = k.out_zp;
  q.clamp_min = k.cmin;
  q.clamp_max = k.cmax;
  q.out_dtype = k.out;
  return p;
}

using Pool = testing::TwoThreads;

// Runs a u8s8 kernel on the problem and compares with the reference.
void CheckKernel(const Conv2DKernel& kernel, const Problem& p, pthreadpool_t pool, const std::string& what);

// The kernel made over the weights `made` packed, as a plan holds them:
// copied, so that nothing is shared with `made`.
absl::StatusOr<std::unique_ptr<Conv2DKernel>> Restored(const Conv2DKernel& made, const Problem& p,
                                                       const KnobMap& config, Isa isa, Arithmetic arith) {
  std::optional<PackedConvWeights> packed = made.packed();
  if (!packed) return absl::NotFoundError("no packed weights");
  PackedConvWeights copy = *packed;
  copy.weights = packed->weights.Clone();
  if (packed->bias.defined()) copy.bias = packed->bias.Clone();
  return Conv2DKernel::RestoreU8S8(p.w.shape(), p.params, config, isa, arith, copy, /*bind=*/true);
}

// Runs a u8s8 kernel on the problem and compares with the reference; so
// does the kernel restored from its packed weights, where it has them.
void CheckU8S8(const Problem& p, Isa isa, const KnobMap& config, pthreadpool_t pool,
               const std::string& what, Arithmetic arith = Arithmetic::kMaddubs) {
  auto kernel = Conv2DKernel::CreateU8S8(p.w, p.params, config, isa, arith);
  ASSERT_TRUE(kernel.ok()) << what << ": " << kernel.status();
  CheckKernel(**kernel, p, pool, what);
  auto restored = Restored(**kernel, p, config, isa, arith);
  if (restored.status().code() == absl::StatusCode::kNotFound) return;
  ASSERT_TRUE(restored.ok()) << what << ": " << restored.status();
  EXPECT_EQ((*restored)->description(), (*kernel)->description());
  CheckKernel(**restored, p, pool, what + " restored");
}

void CheckKernel(const Conv2DKernel& kernel, const Problem& p, pthreadpool_t pool, const std::string& what) {
  const Conv2DKernel* k = &kernel;
  const int64_t block = k->input_layout() == "NCHW4c" ? 4 : 16;
  auto x = ToBlocked(p.x, block, /*pad_value=*/77);  // padding lanes must not matter
  ASSERT_TRUE(x.ok()) << x.status();
  Tensor y;
  for (int run = 0; run < 2; ++run) {  // the second run reuses the output
    ASSERT_TRUE(k->Run(*x, &y, pool).ok()) << what;
    auto shape = k->OutputShape(x->shape());
    ASSERT_TRUE(shape.ok());
    ASSERT_EQ(y.shape(), *shape);
    auto got = FromBlocked(y, p.params.out_channels);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_TRUE(got->BitwiseEquals(p.expected))
        << what << " " << k->description() << ": first mismatch at " << [&] {
             for (int64_t i = 0; i < got->num_elements(); ++i) {
               if (got->GetAsInt(i) != p.expected.GetAsInt(i)) {
                 return std::to_string(i) + " got " + std::to_string(got->GetAsInt(i)) +
                        " want " + std::to_string(p.expected.GetAsInt(i));
               }
             }
             return std::string("?");
           }();
  }
}

// Runs the int16 kernel on the problem and compares with the reference; so
// does the kernel restored from a copy of its packed weights.
void CheckInt16(const Problem& p, const KnobMap& config, pthreadpool_t pool,
                const std::string& what, int32_t zx) {
  auto kernel = Conv2DKernel::CreateInt16(p.w, p.params, config);
  ASSERT_TRUE(kernel.ok()) << what << ": " << kernel.status();
  EXPECT_EQ((*kernel)->layout(), "NCHW");
  std::optional<PackedConvWeights> packed = (*kernel)->packed();
  ASSERT_TRUE(packed.has_value()) << what;
  packed->weights = packed->weights.Clone();
  auto restored = Conv2DKernel::RestoreInt16(p.w.shape(), p.params, config, *packed);
  ASSERT_TRUE(restored.ok()) << what << ": " << restored.status();
  EXPECT_EQ((*restored)->description(), (*kernel)->description());
  std::vector<int16_t> x16(p.x.num_elements());
  for (int64_t i = 0; i < p.x.num_elements(); ++i) x16[i] = p.x.data<uint8_t>()[i] - zx;
  Tensor x = Tensor::FromVector<int16_t>(p.x.shape(), x16);
  for (const Conv2DKernel* k : {kernel->get(), restored->get()}) {
    Tensor y;
    ASSERT_TRUE(k->Run(x, &y, pool).ok()) << what;
    ASSERT_TRUE(y.BitwiseEquals(p.expected)) << what << " " << k->description() << (k == kernel->get() ? "" : " restored");
  }
}

// Each u8s8 kernel this host may run on the problem (kU8S8Variants).
std::vector<U8S8Variant> AvailableVariants(const Problem& p) {
  std::vector<U8S8Variant> v;
  const bool depthwise = p.params.groups > 1 && p.params.groups == p.params.in_channels;
  for (const U8S8Variant& variant : kU8S8Variants) {
    if (IsaSupported(variant.isa) && VariantApplies(variant, depthwise)) {
      v.push_back(variant);
    }
  }
  return v;
}

// Threads pad the input rows they read into their own scratch and keep them
// for the rest of a run: runs on another input, then on the first again,
// must not reuse a previous run's rows (bands of rows at two threads; whole
// images, batch 2, when large weights split output channels).
TEST(U8S8Test, ConsecutiveRunsOnDifferentInputs) {
  const std::vector<Case> cases = {
      {"padded_row_bands", 2, 20, 9, 8, 40, 3, 3, {1, 1}, {1, 1, 1, 1}},
      {"padded_large_weights", 2, 256, 5, 4, 256, 3, 3, {2, 1}, {1, 2, 0, 1}},
      {"pointwise_flat_copied", 2, 40, 7, 7, 24, 1, 1},
      {"rgb_stem_rows", 2, 3, 11, 10, 16, 7, 7, {2, 2}, {3, 3, 3, 3}},  // u8i16.avx2: taps=row
  };
  Pool pool;
  for (const Case& k : cases) {
    const Problem a = MakeProblem(k, false), b = MakeProblem(k, false, false, 1, 99);
    ASSERT_FALSE(a.expected.BitwiseEquals(b.expected));
    for (const U8S8Variant& v : AvailableVariants(a)) {
      auto kernel = Conv2DKernel::CreateU8S8(a.w, a.params, {}, v.isa, v.arith);
      ASSERT_TRUE(kernel.ok()) << kernel.status();
      // The factory describes the kernel it makes.
      auto described = Conv2DKernel::DescribeU8S8(a.w, a.params, {}, v.isa, v.arith);
      ASSERT_TRUE(described.ok()) << described.status();
      EXPECT_EQ(*described, (*kernel)->description()) << k.name;
      const int64_t block = (*kernel)->input_layout() == "NCHW4c" ? 4 : 16;
      for (pthreadpool_t threads : {pool.get(), static_cast<pthreadpool_t>(nullptr)}) {
        for (const Problem* p : {&a, &b, &a}) {
          auto x = ToBlocked(p->x, block);
          ASSERT_TRUE(x.ok());
          Tensor y;
          ASSERT_TRUE((*kernel)->Run(*x, &y, threads).ok());
          auto got = FromBlocked(y, k.oc);
          ASSERT_TRUE(got.ok());
          EXPECT_TRUE(got->BitwiseEquals(p->expected))
              << k.name << " " << v.name << (threads ? " 2 threads" : " serial")
              << (p == &a ? " input a" : " input b");
        }
      }
    }
  }
}

// A plan's packed weights: PackU8S8 (for a host that may not run the
// kernel) packs what CreateU8S8 packs, the AVX2 vpmaddubsw kernel's pairing
// included; weights packed otherwise, of another size, or a damaged
// pairing, are refused.
// Each part of the AVX2 pairing damaged where it indexes a table: refused.
void CheckDamagedPairing(const Problem& p, const U8S8Variant& v, const PackedConvWeights& w) {
  auto restore = [&](size_t blob, int64_t at, int64_t value) {
    PackedConvWeights bad = w;
    bad.pairing[blob] = w.pairing[blob].Clone();
    if (at >= bad.pairing[blob].num_elements()) return absl::OkStatus();  // nothing there to damage
    switch (bad.pairing[blob].dtype()) {
      case DType::kI64: bad.pairing[blob].data<int64_t>()[at] = value; break;
      case DType::kI32: bad.pairing[blob].data<int32_t>()[at] = static_cast<int32_t>(value); break;
      default: bad.pairing[blob].data<uint8_t>()[at] = static_cast<uint8_t>(value); break;
    }
    return Conv2DKernel::RestoreU8S8(p.w.shape(), p.params, {}, v.isa, v.arith, bad, false).status();
  };
  EXPECT_TRUE(restore(3, 0, w.pairing[3].data<int32_t>()[0]).ok());  // unchanged
  for (auto [blob, at, value] : std::vector<std::array<int64_t, 3>>{
           {0, 2, 1},           // the first tile's step0
           {0, 3, 1 << 20},     // its paired steps
           {0, 7, 5},           // its corrections' start
           {3, 0, -1},          // a step number
           {3, 0, 1 << 20},
           {4, 0, 1 << 20},     // a correction's step
           {1, 0, 16},          // an order's channel
       }) {
    const absl::Status s = restore(blob, at, value);
    if (blob == 1 && w.pairing[1].num_elements() == 0) continue;
    if (blob == 4 && w.pairing[4].num_elements() == 0) continue;
    EXPECT_NE(s.message().find("damaged"), std::string::npos) << blob << "[" << at << "] = " << value << ": " << s;
  }
  PackedConvWeights fewer = w;
  fewer.pairing.pop_back();
  EXPECT_FALSE(Conv2DKernel::RestoreU8S8(p.w.shape(), p.params, {}, v.isa, v.arith, fewer, false).ok());
}

// `restore` given `w` damaged three ways: another packing's name, weights of
// 3 bytes, and a 1-channel bias; each must be refused.
struct Damaged {
  absl::Status packing, weights, bias;
};
Damaged RestoreDamaged(const PackedConvWeights& w,
                       const std::function<absl::Status(const PackedConvWeights&)>& restore) {
  Damaged out;
  PackedConvWeights other = w;
  other.packing += "x";
  out.packing = restore(other);
  other = w;
  other.weights = Tensor::FromVector<int8_t>({3}, {1, 2, 3});
  out.weights = restore(other);
  other = w;
  other.bias = Tensor::FromVector<int32_t>({1}, {0});
  out.bias = restore(other);
  return out;
}

TEST(PackedWeightsTest, PackedOnceRestoredOrRefused) {
  const Problem p = MakeProblem({"packed", 1, 40, 7, 9, 40, 3, 3, {1, 1}, {1, 1, 1, 1}}, false);
  int restorable = 0;
  for (const U8S8Variant& v : kU8S8Variants) {
    if (!VariantApplies(v, /*depthwise=*/false) || v.isa == Isa::kAvx512bw) continue;
    auto packed_only = Conv2DKernel::PackU8S8(p.w, p.params, {}, v.isa, v.arith);
    ASSERT_TRUE(packed_only.ok()) << v.name << ": " << packed_only.status();
    const std::optional<PackedConvWeights> w = (*packed_only)->packed();
    ASSERT_TRUE(w.has_value()) << v.name;
    const bool paired = v.isa == Isa::kAvx2 && v.arith == Arithmetic::kMaddubs;
    EXPECT_EQ(w->pairing.size(), paired ? 6u : 0u) << v.name;
    if (paired) CheckDamagedPairing(p, v, *w);
    ++restorable;
    EXPECT_NE(w->packing.find((*packed_only)->description()), std::string::npos) << w->packing;
    if (IsaSupported(v.isa)) {
      auto made = Conv2DKernel::CreateU8S8(p.w, p.params, {}, v.isa, v.arith);
      ASSERT_TRUE(made.ok());
      const std::optional<PackedConvWeights> m = (*made)->packed();
      ASSERT_TRUE(m.has_value());
      EXPECT_EQ(m->packing, w->packing);
      EXPECT_TRUE(m->weights.BitwiseEquals(w->weights)) << v.name;
      EXPECT_TRUE(m->bias.BitwiseEquals(w->bias)) << v.name;
      for (size_t i = 0; i < w->pairing.size(); ++i) EXPECT_TRUE(m->pairing[i].BitwiseEquals(w->pairing[i])) << i;
    }
    // Restored without binding, anywhere: the same packed weights back.
    auto restored = Conv2DKernel::RestoreU8S8(p.w.shape(), p.params, {}, v.isa, v.arith, *w, /*bind=*/false);
    ASSERT_TRUE(restored.ok()) << v.name << ": " << restored.status();
    EXPECT_TRUE((*restored)->packed()->weights.BitwiseEquals(w->weights));
    const Damaged bad = RestoreDamaged(*w, [&](const PackedConvWeights& d) {
      return Conv2DKernel::RestoreU8S8(p.w.shape(), p.params, {}, v.isa, v.arith, d, false).status();
    });
    EXPECT_NE(bad.packing.message().find("packed as"), std::string::npos) << bad.packing;
    EXPECT_NE(bad.weights.message().find("packed weights should be i8["), std::string::npos) << bad.weights;
    EXPECT_NE(bad.bias.message().find("packed bias should be i32["), std::string::npos) << bad.bias;
    // Another tile packs otherwise.
    const KnobMap tiles = {{"tile_co", 16}};
    auto other_tiles = Conv2DKernel::RestoreU8S8(p.w.shape(), p.params, tiles, v.isa, v.arith, *w, false);
    if ((*packed_only)->description().find("tile_co=16") == std::string::npos) {
      EXPECT_FALSE(other_tiles.ok()) << v.name;
    }
  }
  EXPECT_GE(restorable, 3);
}

// The depthwise kernel packs its weights as its level's microkernel reads
// them (int32, int16 or int16 pairs), for a plan of any host; another
// packing or size is refused.
TEST(PackedWeightsTest, DepthwisePackedOnceRestoredOrRefused) {
  const Problem p = MakeProblem({"packed dw", 1, 24, 7, 9, 24, 3, 3, {1, 1}, {1, 1, 1, 1}, 24}, false);
  int restorable = 0;
  for (const U8S8Variant& v : kU8S8Variants) {
    if (!VariantApplies(v, /*depthwise=*/true) || v.isa == Isa::kAvx512bw) continue;
    auto packed_only = Conv2DKernel::PackU8S8(p.w, p.params, {}, v.isa, v.arith);
    ASSERT_TRUE(packed_only.ok()) << v.name << ": " << packed_only.status();
    const std::optional<PackedConvWeights> w = (*packed_only)->packed();
    ASSERT_TRUE(w.has_value()) << v.name;
    ++restorable;
    EXPECT_EQ(w->packing, (*packed_only)->description() + " packing=1");
    EXPECT_FALSE(w->bias.defined());
    if (IsaSupported(v.isa)) {
      auto made = Conv2DKernel::CreateU8S8(p.w, p.params, {}, v.isa, v.arith);
      ASSERT_TRUE(made.ok());
      EXPECT_TRUE((*made)->packed()->weights.BitwiseEquals(w->weights)) << v.name;
    }
    auto restored = Conv2DKernel::RestoreU8S8(p.w.shape(), p.params, {}, v.isa, v.arith, *w, /*bind=*/false);
    ASSERT_TRUE(restored.ok()) << v.name << ": " << restored.status();
    EXPECT_EQ((*restored)->packed()->weights.raw_data(), w->weights.raw_data()) << "used in place";
    const Damaged bad = RestoreDamaged(*w, [&](const PackedConvWeights& d) {
      return Conv2DKernel::RestoreU8S8(p.w.shape(), p.params, {}, v.isa, v.arith, d, false).status();
    });
    EXPECT_NE(bad.packing.message().find("packed as"), std::string::npos) << bad.packing;
    EXPECT_NE(bad.weights.message().find("packed weights should be i"), std::string::npos) << bad.weights;
    EXPECT_NE(bad.bias.message().find("packs only weights"), std::string::npos) << bad.bias;
  }
  EXPECT_GE(restorable, 3);
}

// The int16 kernel's packing is named and sized by its tiles: another
// packing, tile or size is refused.
TEST(PackedWeightsTest, Int16RestoredOrRefused) {
  for (const bool depthwise : {false, true}) {
    const Problem p = depthwise ? MakeProblem({"packed dw", 1, 24, 7, 9, 24, 3, 3, {1, 1}, {1, 1, 1, 1}, 24}, true)
                                : MakeProblem({"packed", 1, 40, 7, 9, 40, 3, 3, {1, 1}, {1, 1, 1, 1}}, true);
    auto made = Conv2DKernel::CreateInt16(p.w, p.params, {});
    ASSERT_TRUE(made.ok()) << made.status();
    const std::optional<PackedConvWeights> w = (*made)->packed();
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(w->packing, (*made)->description() + " packing=1");
    EXPECT_FALSE(w->bias.defined());
    auto restored = Conv2DKernel::RestoreInt16(p.w.shape(), p.params, {}, *w);
    ASSERT_TRUE(restored.ok()) << restored.status();
    EXPECT_EQ((*restored)->packed()->weights.raw_data(), w->weights.raw_data()) << "used in place";
    const Damaged bad = RestoreDamaged(*w, [&](const PackedConvWeights& d) {
      return Conv2DKernel::RestoreInt16(p.w.shape(), p.params, {}, d).status();
    });
    EXPECT_NE(bad.packing.message().find("packed as"), std::string::npos) << bad.packing;
    EXPECT_NE(bad.weights.message().find("packed weights should be i16["), std::string::npos) << bad.weights;
    EXPECT_NE(bad.bias.message().find("packs only weights"), std::string::npos) << bad.bias;
    if (!depthwise) {
      const KnobMap tiles = {{"tile_co", 4}};
      EXPECT_FALSE(Conv2DKernel::RestoreInt16(p.w.shape(), p.params, tiles, *w).ok());
    }
  }
}

class SuiteTest : public ::testing::TestWithParam<Case> {};

TEST_P(SuiteTest, U8S8MatchesReference) {
  const Case& k = GetParam();
  Pool pool;
  for (bool small_m : {false, true}) {
    const Problem p = MakeProblem(k, /*int16=*/false, small_m);
    const std::string m = small_m ? " multipliers<0.5" : " one multiplier>1";
    for (const U8S8Variant& v : AvailableVariants(p)) {
      CheckU8S8(p, v.isa, {}, pool.get(), std::string(v.name) + " 2 threads" + m, v.arith);
      if (v.isa == DetectIsa() || v.isa == Isa::kAvxvnni || v.arith == Arithmetic::kMadd16) {
        CheckU8S8(p, v.isa, {}, nullptr, std::string(v.name) + " serial" + m, v.arith);
      }
    }
  }
}

TEST_P(SuiteTest, Int16MatchesReference) {
  const Case& k = GetParam();
  const Problem p = MakeProblem(k, /*int16=*/true);
  Pool pool;
  CheckInt16(p, {}, pool.get(), "int16", k.zx);
}

INSTANTIATE_TEST_SUITE_P(Cases, SuiteTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// Every config of every space on small dense, grouped and depthwise cases.
TEST(ConfigSpaceTest, EveryConfigIsCorrect) {
  const std::vector<Case> cases = {
      {"dense", 1, 20, 9, 23, 40, 3, 3, {1, 1}, {1, 1, 1, 1}},
      {"grouped_s2", 2, 12, 10, 17, 20, 3, 3, {2, 2}, {1, 0, 1, 2}, 4},
      {"stem_like", 1, 3, 17, 19, 33, 7, 7, {2, 2}, {3, 3, 3, 3}},
      {"depthwise", 1, 16, 9, 9, 32, 3, 3, {1, 1}, {1, 1, 1, 1}, 16},
  };
  Pool pool;
  for (const Case& k : cases) {
    const Problem p8 = MakeProblem(k, false), p8s = MakeProblem(k, false, true);
    const Problem p16 = MakeProblem(k, true);
    for (const U8S8Variant& v : AvailableVariants(p8)) {
      const KnobSpace space = ConfigSpaceU8S8(v.isa, v.arith);
      for (int64_t co : space.at("tile_co")) {
        for (int64_t ow : space.at("tile_ow")) {
          CheckU8S8(p8, v.isa, {{"tile_co", co}, {"tile_ow", ow}}, pool.get(),
                    k.name + " " + v.name, v.arith);
          CheckU8S8(p8s, v.isa, {{"tile_co", co}, {"tile_ow", ow}}, pool.get(),
                    k.name + " small multipliers " + v.name, v.arith);
        }
      }
    }
    const KnobSpace space = ConfigSpaceInt16();
    for (int64_t co : space.at("tile_co")) {
      for (int64_t ow : space.at("tile_ow")) {
        CheckInt16(p16, {{"tile_co", co}, {"tile_ow", ow}}, pool.get(), k.name + " int16", k.zx);
      }
    }
  }
}

// Random layers (seeded): dense, grouped and depthwise (channel multiplier
// 1 or 2), any kernel size, stride, dilation and padding, u8 or i8 output,
// per-tensor or per-channel; every variant this host runs at its default
// tiles and at a random tile of its space, and the int16 kernel.
TEST(RandomShapesTest, EveryKernelMatchesTheReference) {
  std::mt19937 rng(20261206);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  Pool pool;
  for (int i = 0; i < 48; ++i) {
    Case k;
    k.name = "random_" + std::to_string(i);
    k.n = pick(1, 2);
    k.kh = pick(1, 5), k.kw = pick(1, 5);
    k.d = {pick(1, 2), pick(1, 2)};
    k.s = {pick(1, 3), pick(1, 3)};
    k.pads = {pick(0, static_cast<int>(k.kh) - 1), pick(0, static_cast<int>(k.kw) - 1),
              pick(0, static_cast<int>(k.kh) - 1), pick(0, static_cast<int>(k.kw) - 1)};
    k.h = (k.kh - 1) * k.d[0] + pick(1, 12);
    k.w = (k.kw - 1) * k.d[1] + pick(1, 12);
    switch (pick(0, 2)) {
      case 0:
        k.c = pick(1, 40), k.oc = pick(1, 40);
        break;
      case 1:  // depthwise
        k.c = k.groups = pick(1, 40);
        k.oc = k.c * pick(1, 2);
        break;
      default: {  // grouped
        k.groups = pick(2, 4);
        k.c = k.groups * pick(1, 8);
        k.oc = k.groups * pick(1, 8);
      }
    }
    k.zx = pick(0, 255);
    if (pick(0, 1) == 1) k.out = DType::kI8, k.out_zp = pick(-128, 127);
    k.per_channel = pick(0, 1) == 1;
    const bool small_m = pick(0, 1) == 1;
    const Problem p = MakeProblem(k, false, small_m, /*seed=*/i + 1);
    const pthreadpool_t threads = i % 2 == 0 ? pool.get() : nullptr;
    for (const U8S8Variant& v : AvailableVariants(p)) {
      CheckU8S8(p, v.isa, {}, threads, k.name + " " + v.name, v.arith);
      const KnobSpace space = ConfigSpaceU8S8(v.isa, v.arith);
      const auto& cos = space.at("tile_co");
      const auto& ows = space.at("tile_ow");
      const KnobMap tiles = {{"tile_co", cos[rng() % cos.size()]}, {"tile_ow", ows[rng() % ows.size()]}};
      CheckU8S8(p, v.isa, tiles, threads,
                k.name + " " + v.name + " tile " + std::to_string(tiles.at("tile_co")) + "x" +
                    std::to_string(tiles.at("tile_ow")),
                v.arith);
    }
    CheckInt16(MakeProblem(k, true, small_m, i + 1), {}, threads, k.name + " int16", k.zx);
  }
}

// Every u8i16.avx2 config on layers whose tiles run in input-channel chunks
// (pixel-major and whole-row items; two output-channel groups per tile too).
TEST(ConfigSpaceTest, EveryChunkedMadd16ConfigIsCorrect) {
  if (!IsaSupported(Isa::kAvx2)) GTEST_SKIP() << "needs AVX2; this host (or the cap) has less";
  const std::vector<Case> cases = {
      {"chunked", 1, 136, 5, 7, 48, 3, 3, {1, 1}, {1, 1, 1, 1}},
      {"chunked_rows", 2, 264, 7, 20, 112, 3, 3, {1, 1}, {1, 1, 1, 1}},
  };
  Pool pool;
  for (const Case& k : cases) {
    const Problem p = MakeProblem(k, false);
    const KnobSpace space = ConfigSpaceU8S8(Isa::kAvx2, Arithmetic::kMadd16);
    for (int64_t co : space.at("tile_co")) {
      for (int64_t ow : space.at("tile_ow")) {
        for (pthreadpool_t threads : {pool.get(), static_cast<pthreadpool_t>(nullptr)}) {
          CheckU8S8(p, Isa::kAvx2, {{"tile_co", co}, {"tile_ow", ow}}, threads,
                    k.name + (threads ? " 2 threads" : " serial"), Arithmetic::kMadd16);
        }
      }
    }
  }
}

// The variant table and the factories agree: a variant applies to a layer
// exactly when the factory would make (here: describe) its kernel.
TEST(U8S8VariantsTest, ApplyExactlyWhereTheFactoriesAccept) {
  const std::vector<Case> cases = {
      {"dense_pairs_fit", 1, 8, 6, 6, 16, 3, 3, {1, 1}, {1, 1, 1, 1}, 1, {1, 1}, 113, DType::kU8,
       121, INT_MIN, INT_MAX, true, -128, 127, /*fit_pairs=*/true},
      {"dense_full_range", 1, 8, 6, 6, 16, 3, 3},
      {"depthwise", 1, 16, 6, 6, 16, 3, 3, {1, 1}, {1, 1, 1, 1}, 16},
  };
  for (const Case& k : cases) {
    const Problem p = MakeProblem(k, false);
    const bool depthwise = k.groups > 1 && k.groups == k.c;
    for (const U8S8Variant& v : kU8S8Variants) {
      auto described = Conv2DKernel::DescribeU8S8(p.w, p.params, {}, v.isa, v.arith);
      EXPECT_EQ(VariantApplies(v, depthwise), described.ok())
          << k.name << " " << v.name << ": " << described.status();
    }
  }
  EXPECT_FALSE(Conv2DKernel::DescribeU8S8(MakeProblem({"d", 1, 8, 6, 6, 16, 3, 3}, false).w,
                                          MakeProblem({"d", 1, 8, 6, 6, 16, 3, 3}, false).params,
                                          {}, Isa::kAvx512bw)
                   .ok())
      << "no kernels at avx512bw";
}

TEST(ConfigSpaceTest, DefaultsAreInTheSpace) {
  QuantizedConvParams p;
  p.in_channels = 64;
  p.out_channels = 64;
  p.kernel_h = p.kernel_w = 3;
  for (const U8S8Variant& v : kU8S8Variants) {
    const KnobSpace space = ConfigSpaceU8S8(v.isa, v.arith);
    for (int64_t width : {0, 1, 7, 28, 56, 112}) {
      for (const auto& [knob, value] : DefaultConfigU8S8(p, v.isa, width, v.arith)) {
        const auto& values = space.at(knob);
        EXPECT_NE(std::find(values.begin(), values.end(), value), values.end())
            << v.name << " width " << width << " " << knob << "=" << value;
      }
    }
  }
  const KnobSpace space16 = ConfigSpaceInt16();
  for (const auto& [knob, value] : DefaultConfigInt16(p, 3)) {
    const auto& values = space16.at(knob);
    EXPECT_NE(std::find(values.begin(), values.end(), value), values.end()) << knob;
  }
}

TEST(ErrorTest, BadKnobsAndParams) {
  const Problem p = MakeProblem({"small", 1, 8, 5, 5, 8, 3, 3, {1, 1}, {1, 1, 1, 1}}, false);
  auto k = Conv2DKernel::CreateU8S8(p.w, p.params, {{"tile_co", 48}}, Isa::kScalar);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.status().message().find("tile_co=48"), std::string::npos) << k.status();
  k = Conv2DKernel::CreateU8S8(p.w, p.params, {{"unroll", 2}}, Isa::kScalar);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.status().message().find("unknown knob 'unroll'"), std::string::npos);
  QuantizedConvParams bad = p.params;
  bad.in_channels = 9;
  EXPECT_FALSE(Conv2DKernel::CreateU8S8(p.w, bad, {}, Isa::kScalar).ok());
  bad = p.params;
  bad.requant_multiplier = {1.0f, 2.0f};
  EXPECT_FALSE(Conv2DKernel::CreateU8S8(p.w, bad, {}, Isa::kScalar).ok());
  bad = p.params;
  bad.clamp_min = 300;
  EXPECT_FALSE(Conv2DKernel::CreateU8S8(p.w, bad, {}, Isa::kScalar).ok());
  // int16 wants i16 weights and no zero point.
  EXPECT_FALSE(Conv2DKernel::CreateInt16(p.w, p.params, {}).ok());
  // Wrong input layout at run time.
  auto kernel = Conv2DKernel::CreateU8S8(p.w, p.params, {}, Isa::kScalar);
  ASSERT_TRUE(kernel.ok());
  Tensor y;
  EXPECT_FALSE((*kernel)->Run(p.x, &y, nullptr).ok());
  EXPECT_EQ((*kernel)->layout(), "NCHW16c");
  // madd16 is AVX2's, and dense only (checked before the host's ISA, so the
  // same errors on every host).
  auto d = Conv2DKernel::DescribeU8S8(p.w, p.params, {}, Isa::kScalar, Arithmetic::kMadd16);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("madd16 arithmetic is for AVX2 and AVX-512 VNNI only"), std::string::npos)
      << d.status();
  const Problem dw =
      MakeProblem({"dw", 1, 16, 5, 5, 16, 3, 3, {1, 1}, {1, 1, 1, 1}, 16}, false);
  d = Conv2DKernel::DescribeU8S8(dw.w, dw.params, {}, Isa::kAvx2, Arithmetic::kMadd16);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("no depthwise kernel"), std::string::npos) << d.status();
  d = Conv2DKernel::DescribeU8S8(p.w, p.params, {}, Isa::kAvx2, Arithmetic::kMadd16);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(*d, "u8i16.avx2.dense tile_co=16 tile_ow=4");
  // An RGB 7x7 packs its rows' taps (6 steps of 4 values, not 7 of 4
  // channels); an RGB 3x3 gains nothing (3 steps either way); AVX-512
  // VNNI's madd16 tile keeps a step per tap.
  const Problem stem = MakeProblem({"stem", 1, 3, 9, 9, 16, 7, 7, {2, 2}, {3, 3, 3, 3}}, false);
  auto stem_d = Conv2DKernel::DescribeU8S8(stem.w, stem.params, {}, Isa::kAvx2, Arithmetic::kMadd16);
  ASSERT_TRUE(stem_d.ok()) << stem_d.status();
  EXPECT_EQ(*stem_d, "u8i16.avx2.dense tile_co=16 tile_ow=4 taps=row");
  auto stem_vnni = Conv2DKernel::DescribeU8S8(stem.w, stem.params, {}, Isa::kAvx512vnni, Arithmetic::kMadd16);
  ASSERT_TRUE(stem_vnni.ok()) << stem_vnni.status();
  EXPECT_EQ(stem_vnni->find("taps=row"), std::string::npos) << *stem_vnni;
  const Problem rgb3x3 = MakeProblem({"rgb3x3", 1, 3, 9, 9, 16, 3, 3}, false);
  auto rgb3x3_d = Conv2DKernel::DescribeU8S8(rgb3x3.w, rgb3x3.params, {}, Isa::kAvx2, Arithmetic::kMadd16);
  ASSERT_TRUE(rgb3x3_d.ok()) << rgb3x3_d.status();
  EXPECT_EQ(rgb3x3_d->find("taps=row"), std::string::npos) << *rgb3x3_d;
  // vpmaddubsw takes weights whose pairs could saturate in every order,
  // correcting those steps, and says how many of its units it corrects.
  const Problem full = MakeProblem({"full16", 1, 16, 5, 5, 8, 3, 3, {1, 1}, {1, 1, 1, 1}}, false);
  ASSERT_GT(MaxWeightPairSum(full.w, 1), kMaddubsMaxPairSum);
  const PairingPlan plan = PlanPairing(full.w, 1);
  EXPECT_EQ(plan.units, 4 * 9);
  EXPECT_GT(plan.corrected_halves, 0);
  auto corrected = Conv2DKernel::DescribeU8S8(full.w, full.params, {{"tile_ow", 4}}, Isa::kAvx2);
  ASSERT_TRUE(corrected.ok()) << corrected.status();
  EXPECT_NE(corrected->find(absl::StrCat(" corrected=", plan.corrected_halves, "/72")), std::string::npos)
      << *corrected;
}

// The pairs are input channels (2m, 2m+1) of one output channel and tap;
// same-signed parts add, opposite ones do not; a channel of another group
// counts 0 (odd group sizes straddle pairs).
TEST(MaxWeightPairSumTest, PairsAndSigns) {
  auto sum = [](std::vector<int8_t> w, tensor::Shape shape, int64_t groups) {
    return MaxWeightPairSum(Tensor::FromVector<int8_t>(shape, w), groups);
  };
  EXPECT_EQ(sum({100, 28, -128, 0}, {1, 4, 1, 1}, 1), 128);
  EXPECT_EQ(sum({100, 29, -128, 0}, {1, 4, 1, 1}, 1), 129);
  EXPECT_EQ(sum({127, -128, -1, 1}, {1, 4, 1, 1}, 1), 128);   // opposite signs
  EXPECT_EQ(sum({-100, -60, 0, 5}, {1, 4, 1, 1}, 1), 160);
  EXPECT_EQ(sum({90, 0, 0, 90}, {1, 2, 1, 2}, 1), 90);         // taps are separate
  // Two groups of 3 input channels: group 0 holds channels 0-2, group 1
  // channels 3-5. Pair (2,3) straddles them: for output channel 0 it is
  // (w[0][2], 0), for output channel 1 (0, w[1][0]), never their sum.
  EXPECT_EQ(sum({0, 0, 100, 100, 0, 0}, {2, 3, 1, 1}, 2), 100);
  EXPECT_EQ(sum({0, 0, 0, 0, 100, 100}, {2, 3, 1, 1}, 2), 200);  // pair (4,5)
}

// A pairing order exists when the channels of each block of 16 can be
// paired so that every pair fits: the natural order when it does. (Without
// flips here: FlipsTurnSameSignedPairs covers them.)
TEST(PlanPairingTest, NaturalReorderedOrCorrected) {
  auto find = [](std::vector<int8_t> w, tensor::Shape shape, int64_t groups) {
    // The plan's order when it needs no correction.
    PairingPlan plan = PlanPairing(Tensor::FromVector<int8_t>(shape, w), groups, 1, /*flips=*/false);
    return plan.corrected_halves == 0 ? std::optional<PairingOrder>(plan.order) : std::nullopt;
  };
  // Natural: fits as is (one block, channels past 3 are padding).
  auto natural = find({100, 28, -128, 0}, {1, 4, 1, 1}, 1);
  ASSERT_TRUE(natural.has_value());
  EXPECT_EQ(natural->size(), 16u);
  EXPECT_TRUE(IsNaturalOrder(*natural));
  // Five channels: (100, 100) cannot pair, but each pairs with a zero.
  auto reordered = find({100, 100, 0, 0, 0}, {1, 5, 1, 1}, 1);
  ASSERT_TRUE(reordered.has_value());
  EXPECT_FALSE(IsNaturalOrder(*reordered));
  std::set<int> seen(reordered->begin(), reordered->end());
  EXPECT_EQ(seen.size(), 16u) << "a permutation of the block";
  for (int m = 0; m < 8; ++m) {
    const int a = (*reordered)[2 * m], b = (*reordered)[2 * m + 1];
    EXPECT_FALSE(a < 2 && b < 2) << "channels 0 and 1 paired";
  }
  // The 5 channels and one padding channel keep the first 6 slots (the
  // kernels skip the steps past them).
  for (int slot = 6; slot < 16; ++slot) EXPECT_EQ((*reordered)[slot], slot);
  // Nine of 16 channels at 100 for one output channel: at least two of
  // them must pair. Other groupings keep the natural order only.
  std::vector<int8_t> nine(16, 0);
  for (int c = 0; c < 9; ++c) nine[c] = 100;
  EXPECT_FALSE(find(nine, {1, 16, 1, 1}, 1).has_value());
  // The plan pairs them so that one word of 4 slots (of the block's 4)
  // needs correcting.
  const PairingPlan plan = PlanPairing(Tensor::FromVector<int8_t>({1, 16, 1, 1}, nine), 1, 1, /*flips=*/false);
  EXPECT_EQ(plan.units, 4);
  EXPECT_EQ(plan.corrected_halves, 1);
  // Units are the steps the kernel runs: a tile reads only its groups'
  // blocks (4 groups of 16: one block per tile), and a partial block up to
  // its last real word (8 channels: 2 of 4).
  auto units = [](tensor::Shape shape, int64_t groups) {
    return PlanPairing(Tensor::Zeros(DType::kI8, shape), groups).units;
  };
  EXPECT_EQ(units({64, 16, 1, 1}, 4), 4 * 1 * 4);
  EXPECT_EQ(units({64, 64, 1, 1}, 1), 4 * 4 * 4);
  EXPECT_EQ(units({16, 8, 3, 3}, 1), 2 * 9);
  EXPECT_EQ(units({16, 3, 7, 7}, 1), 49);  // the stem: one word per tap
  EXPECT_FALSE(find({100, 100, 0, 0, 0, 0}, {2, 3, 1, 1}, 2).has_value());
  // A second block (channels 16-31) is ordered on its own; taps and output
  // channels each count: channels 16 and 17 clash only at tap 1 of output 1.
  std::vector<int8_t> two(2 * 32 * 2, 0);
  two[(1 * 32 + 16) * 2 + 1] = 90;
  two[(1 * 32 + 17) * 2 + 1] = -90;  // opposite signs fit
  auto fits = find(two, {2, 32, 1, 2}, 1);
  ASSERT_TRUE(fits.has_value());
  EXPECT_TRUE(IsNaturalOrder(*fits));
  two[(1 * 32 + 17) * 2 + 1] = 90;
  fits = find(two, {2, 32, 1, 2}, 1);
  ASSERT_TRUE(fits.has_value());
  EXPECT_TRUE(std::equal(fits->begin(), fits->begin() + 16, natural->begin())) << "block 0 untouched";
  EXPECT_NE((*fits)[17], 1) << "channels 16 and 17 paired";
}

// A half step is corrected where either pair of its word could saturate,
// so pairs that saturate in the same halves share words. Six channels of 16
// output channels: 0, 1, 4 and 5 are 100 in outputs 0-7 and 50 in 8-15,
// channels 2 and 3 the other way round; every pair saturates somewhere (100
// + 50 > 128), least in pairs of alike channels: (0, 1) and (4, 5) in the
// first half, (2, 3) in the second. In words as paired, (0, 1, 2, 3) and
// (4, 5, padding) would need three halves corrected; (0, 1, 4, 5) and (2, 3,
// padding) need two.
TEST(PlanPairingTest, PairsThatSaturateAlikeShareWords) {
  std::vector<int8_t> w(16 * 6);
  for (int oc = 0; oc < 16; ++oc) {
    for (int ic = 0; ic < 6; ++ic) w[oc * 6 + ic] = ((oc < 8) != (ic == 2 || ic == 3)) ? 100 : 50;
  }
  const PairingPlan plan = PlanPairing(Tensor::FromVector<int8_t>({16, 6, 1, 1}, w), 1, 1, /*flips=*/false);
  EXPECT_EQ(plan.units, 2);
  EXPECT_EQ(plan.corrected_halves, 2);
  const std::set<int> first_word(plan.order.begin(), plan.order.begin() + 4);
  EXPECT_EQ(first_word, (std::set<int>{0, 1, 4, 5}));
  EXPECT_EQ(std::set<int>(plan.order.begin() + 4, plan.order.begin() + 6), (std::set<int>{2, 3}));
  EXPECT_EQ(plan.order[6], 6);  // padding keeps its slots
  EXPECT_EQ(plan.order[7], 7);
}

// Output channels may read the input in orders of their own: channels 4
// and 5 clash (50 + 100) in output channels 0-15, while in 16-31 channels
// 2 and 3 (100) must pair with 0 and 1 (0), leaving 4 and 5 together. One
// order must correct a half step; one per 16 output channels none.
TEST(PlanPairingTest, OrdersPerOutputChannelGroup) {
  std::vector<int8_t> w(32 * 6);
  const int8_t first[6] = {0, 0, 0, 0, 50, 100}, second[6] = {0, 0, 100, 100, 50, 50};
  for (int oc = 0; oc < 32; ++oc) {
    for (int ic = 0; ic < 6; ++ic) w[oc * 6 + ic] = oc < 16 ? first[ic] : second[ic];
  }
  const Tensor weight = Tensor::FromVector<int8_t>({32, 6, 1, 1}, w);
  const PairingPlan one = PlanPairing(weight, 1, 1, /*flips=*/false);
  EXPECT_EQ(one.order_groups, 1);
  EXPECT_GT(one.corrected_halves, 0);
  const PairingPlan two = PlanPairing(weight, 1, 2, /*flips=*/false);
  ASSERT_EQ(two.order_groups, 2);
  EXPECT_EQ(two.oc_per_order, 16);
  ASSERT_EQ(two.order.size(), 32u);
  EXPECT_EQ(two.corrected_halves, 0);
  EXPECT_EQ(two.units, one.units);
  auto partner = [](const uint8_t* order, int channel) {
    const int slot = static_cast<int>(std::find(order, order + 16, channel) - order);
    return order[slot ^ 1];
  };
  EXPECT_NE(partner(two.OrderOf(0), 4), 5);
  EXPECT_EQ(partner(two.OrderOf(16), 4), 5);
  EXPECT_EQ(two.OrderOf(31), two.OrderOf(16));
  // More orders than tiles: one per tile.
  EXPECT_EQ(PlanPairing(weight, 1, 8, /*flips=*/false).order_groups, 2);
}

// Flipping one channel of a pair (reading 255 - x, its weights negated)
// makes same-signed weights opposite: six channels of 100 saturate in every
// pairing, and fit with one channel of each pair flipped. A channel with a
// -128 weight is never flipped (128 does not fit s8): its partner is; two
// such channels keep their saturating pair.
TEST(PlanPairingTest, FlipsTurnSameSignedPairs) {
  // Two taps (a 1x1 layer in the natural order would rather not copy).
  const Tensor hundreds = Tensor::FromVector<int8_t>({16, 6, 1, 2}, std::vector<int8_t>(192, 100));
  EXPECT_GT(PlanPairing(hundreds, 1, 1, /*flips=*/false).corrected_halves, 0);
  const PairingPlan plan = PlanPairing(hundreds, 1);
  EXPECT_EQ(plan.corrected_halves, 0);
  ASSERT_TRUE(plan.HasFlips());
  for (int m = 0; m < 3; ++m) EXPECT_EQ(plan.flip[2 * m] + plan.flip[2 * m + 1], 1) << "pair " << m;
  for (int s = 6; s < 16; ++s) EXPECT_EQ(plan.flip[s], 0) << "padding slot " << s;
  // Channels 0 and 1 hold -128 (in output channel 3 only), 2-5 hold -100.
  std::vector<int8_t> w(16 * 6 * 2, -100);
  w[(3 * 6 + 0) * 2] = w[(3 * 6 + 1) * 2] = -128;
  const PairingPlan limited = PlanPairing(Tensor::FromVector<int8_t>({16, 6, 1, 2}, w), 1);
  EXPECT_EQ(limited.corrected_halves, 0);
  for (int s = 0; s < 6; ++s) {
    if (limited.order[s] < 2) {
      EXPECT_EQ(limited.flip[s], 0) << "channel " << int{limited.order[s]} << " flipped";
    }
  }
  for (int c = 2; c < 6; ++c) w[(3 * 6 + c) * 2] = -128;
  const PairingPlan none = PlanPairing(Tensor::FromVector<int8_t>({16, 6, 1, 2}, w), 1);
  EXPECT_FALSE(none.HasFlips());
  EXPECT_GT(none.corrected_halves, 0);
  // A 1x1 layer whose pairs saturate in every order keeps the natural order
  // and reads its input in place: no flips.
  const PairingPlan in_place = PlanPairing(Tensor::FromVector<int8_t>({16, 6, 1, 1}, std::vector<int8_t>(96, 100)), 1);
  EXPECT_TRUE(IsNaturalOrder(in_place.order));
  EXPECT_FALSE(in_place.HasFlips());
}

// Plans are kept by their weights (a model's layers are planned twice):
// planning other weights of the same shape in between gives each its own.
TEST(PlanPairingTest, PlansAreKeptPerWeights) {
  std::vector<int8_t> a(32 * 6 * 2, 100), b(32 * 6 * 2, 100);
  for (size_t i = 0; i < b.size(); i += 12) b[i] = -128;  // channel 0: never flipped
  const Tensor ta = Tensor::FromVector<int8_t>({32, 6, 1, 2}, a), tb = Tensor::FromVector<int8_t>({32, 6, 1, 2}, b);
  const PairingPlan first = PlanPairing(ta, 1, 2);
  const PairingPlan other = PlanPairing(tb, 1, 2);
  const PairingPlan again = PlanPairing(ta, 1, 2);
  EXPECT_EQ(again.order, first.order);
  EXPECT_EQ(again.flip, first.flip);
  EXPECT_EQ(again.corrected_halves, first.corrected_halves);
  for (int s = 0; s < 6; ++s) {
    if (other.order[s] == 0) {
      EXPECT_EQ(other.flip[s], 0) << "channel 0 holds -128";
    }
  }
  EXPECT_NE(other.flip, first.flip);
}

// ForEachFlipped visits the flipped slots' channels of each output
// channel's order (slots past the input channels skipped) and stops when
// told to.
TEST(PlanPairingTest, ForEachFlippedWalksEachOrdersFlips) {
  PairingPlan plan;
  plan.order_groups = 2;
  plan.oc_per_order = 16;
  plan.order.resize(2 * 32);
  plan.flip.assign(2 * 32, 0);
  for (int g = 0; g < 2; ++g) {
    for (int s = 0; s < 32; ++s) plan.order[g * 32 + s] = static_cast<uint8_t>(15 - s % 16);  // reversed blocks
  }
  plan.flip[0] = 1;        // order 0, block 0, slot 0: channel 15
  plan.flip[16] = 1;       // order 0, block 1, slot 0: channel 31, past 20 channels
  plan.flip[32 + 17] = 1;  // order 1, block 1, slot 1: channel 30, past them too
  plan.flip[32 + 31] = 1;  // order 1, block 1, slot 15: channel 16
  std::vector<std::pair<int64_t, int64_t>> seen;
  EXPECT_TRUE(plan.ForEachFlipped(32, 20, [&](int64_t oc, int64_t ic) {
    seen.emplace_back(oc, ic);
    return true;
  }));
  ASSERT_EQ(seen.size(), 32u);
  for (int64_t oc = 0; oc < 32; ++oc) EXPECT_EQ(seen[oc], std::make_pair(oc, oc < 16 ? int64_t{15} : int64_t{16}));
  int calls = 0;
  EXPECT_FALSE(plan.ForEachFlipped(32, 20, [&](int64_t, int64_t) { return ++calls < 3; }));
  EXPECT_EQ(calls, 3);
}

// One order per 16 output channels of a 3x3 or larger kernel while the
// copies stay within about 2 MiB; one for 1x1, grouped weights and unknown
// planes.
TEST(PlanPairingTest, OrderGroupsByShape) {
  EXPECT_EQ(PairingOrderGroups({512, 512, 3, 3}, 1, 7, 7), 32);
  EXPECT_EQ(PairingOrderGroups({64, 64, 3, 3}, 1, 56, 56), 4);
  EXPECT_EQ(PairingOrderGroups({40, 64, 3, 3}, 1, 56, 56), 3);  // a partial tile
  EXPECT_EQ(PairingOrderGroups({256, 256, 1, 1}, 1, 14, 14), 1);
  EXPECT_EQ(PairingOrderGroups({64, 32, 3, 3}, 2, 56, 56), 1);
  EXPECT_EQ(PairingOrderGroups({64, 64, 3, 3}, 1, 0, 0), 1);
  // 64 channels of 128x128 (1 MiB): two copies; of 256x256: one.
  EXPECT_EQ(PairingOrderGroups({256, 64, 3, 3}, 1, 128, 128), 2);
  EXPECT_EQ(PairingOrderGroups({256, 64, 3, 3}, 1, 256, 256), 1);
  // Equal groups of whole tiles: 3 copies allowed of 16 tiles -> 6 tiles
  // each, so 3 orders.
  EXPECT_EQ(PairingOrderGroups({256, 64, 3, 3}, 1, 100, 100), 3);
}

// The block matcher finds a pairing with the fewest saturating pairs (it
// skips partners that cannot beat the best so far and stops at none):
// against every pairing of random blocks. One output channel and tap, no
// flips: each word of two pairs is one half step, corrected where either of
// its pairs saturates, and the words group the saturating pairs together,
// so the plan corrects ceil(k / 2) halves for the fewest saturating pairs k.
TEST(PlanPairingTest, MatchingIsOptimalOnRandomBlocks) {
  std::mt19937 rng(26);
  for (int channels : {8, 12, 16}) {
    for (int trial = 0; trial < (channels == 16 ? 4 : 60); ++trial) {
      std::vector<int8_t> w(channels);
      for (int8_t& v : w) v = static_cast<int8_t>(static_cast<int>(rng() % 255) - 127);
      // The fewest saturating pairs over every pairing.
      int fewest = INT_MAX;
      std::vector<int> open;
      for (int c = 0; c < channels; ++c) open.push_back(c);
      std::function<void(std::vector<int>&, int)> pair_up = [&](std::vector<int>& rest, int so_far) {
        if (so_far >= fewest) return;
        if (rest.empty()) {
          fewest = so_far;
          return;
        }
        const int a = rest[0];
        for (size_t i = 1; i < rest.size(); ++i) {
          const int b = rest[i];
          const int pos = std::max<int>(w[a], 0) + std::max<int>(w[b], 0);
          const int neg = std::max<int>(-w[a], 0) + std::max<int>(-w[b], 0);
          std::vector<int> next;
          for (int c : rest) {
            if (c != a && c != b) next.push_back(c);
          }
          pair_up(next, so_far + (pos > kMaddubsMaxPairSum || neg > kMaddubsMaxPairSum));
        }
      };
      pair_up(open, 0);
      const PairingPlan plan =
          PlanPairing(Tensor::FromVector<int8_t>({1, channels, 1, 1}, w), 1, 1, /*flips=*/false);
      EXPECT_EQ(plan.corrected_halves, (fewest + 1) / 2) << channels << " channels, trial " << trial;
    }
  }
}

// Each half step (8 output channels) counts on its own: 16 channels at 100
// saturate in every pairing, so every word of the block is corrected in
// each half holding such an output channel.
TEST(PlanPairingTest, CorrectedHalvesCountEachHalf) {
  auto corrected = [](int heavy_outputs) {
    std::vector<int8_t> w(16 * 16, 0);
    for (int oc = 0; oc < heavy_outputs; ++oc) std::fill(w.begin() + oc * 16, w.begin() + (oc + 1) * 16, 100);
    const PairingPlan plan = PlanPairing(Tensor::FromVector<int8_t>({16, 16, 1, 1}, w), 1, 1, /*flips=*/false);
    EXPECT_EQ(plan.units, 4);
    return plan.corrected_halves;
  };
  EXPECT_EQ(corrected(16), 8);
  EXPECT_EQ(corrected(8), 4);   // the first half only
  EXPECT_EQ(corrected(9), 8);   // and output channel 8, of the second
  EXPECT_EQ(corrected(0), 0);
}

// The AVX2 one-pass kernel takes weights that fit only reordered, and says so.
TEST(U8S8Test, Avx2DescribesReorderedPairs) {
  Case k = {"reordered", 1, 40, 5, 7, 24, 1, 1};
  k.reorder_pairs = true;
  const Problem r = MakeProblem(k, false);
  ASSERT_GT(MaxWeightPairSum(r.w, 1), kMaddubsMaxPairSum);
  auto d = Conv2DKernel::DescribeU8S8(r.w, r.params, {{"tile_ow", 4}}, Isa::kAvx2);
  ASSERT_TRUE(d.ok()) << d.status();
  // 40 channels: 10 words of nonzero weights per tile, 2 tiles; large
  // weights pair no steps.
  EXPECT_EQ(*d, "u8s8.avx2.dense tile_co=16 tile_ow=4 pairs=reordered paired=0/20 half_paired=10");
  k.reorder_pairs = false, k.fit_pairs = true;
  d = Conv2DKernel::DescribeU8S8(MakeProblem(k, false).w, r.params, {{"tile_ow", 4}}, Isa::kAvx2);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(*d, "u8s8.avx2.dense tile_co=16 tile_ow=4 paired=0/20 half_paired=10");
}

// Weights of magnitude 32 and 33 (Case::paired): the kernel pairs steps,
// and says how many. Checked against the reference in SuiteTest.
TEST(U8S8Test, Avx2DescribesPairedSteps) {
  Case k = {"paired", 1, 64, 6, 7, 32, 3, 3, {1, 1}, {1, 1, 1, 1}};
  k.paired = 32;
  const Problem p = MakeProblem(k, false);
  auto d = Conv2DKernel::DescribeU8S8(p.w, p.params, {{"tile_ow", 4}}, Isa::kAvx2);
  ASSERT_TRUE(d.ok()) << d.status();
  int64_t paired = -1, steps = -1;
  ASSERT_EQ(std::sscanf(d->c_str() + d->find("paired="), "paired=%ld/%ld", &paired, &steps), 2) << *d;
  EXPECT_EQ(steps, 2 * 64 * 9 / 4) << *d;  // 2 tiles of 16 output channels, 144 words each
  EXPECT_GT(paired, steps / 4) << *d;
  EXPECT_LT(paired, steps) << *d;  // some steps hold a 33 where the others cannot take it
  // A half of weights too large to share: the other half's pairs only.
  k.heavy_half = 0;
  const Problem h = MakeProblem(k, false);
  d = Conv2DKernel::DescribeU8S8(h.w, h.params, {{"tile_ow", 4}}, Isa::kAvx2);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(std::sscanf(d->c_str() + d->find("paired="), "paired=%ld/%ld", &paired, &steps), 2) << *d;
  EXPECT_EQ(paired, 0) << *d;
  int64_t half_paired = -1;
  ASSERT_EQ(std::sscanf(d->c_str() + d->find("half_paired="), "half_paired=%ld", &half_paired), 1) << *d;
  EXPECT_GT(half_paired, steps / 4) << *d;
}

// AvailableVariants drops u8s8.avxvnni silently where the host lacks
// AVX-VNNI: say so here, and check that the kernel follows the feature.
TEST(IsaTest, AvxVnniFollowsTheCpuFeature) {
  EXPECT_EQ(IsaSupported(Isa::kAvxvnni), kernels::cpu::HostCpuFeatures().avxvnni);
  if (!IsaSupported(Isa::kAvxvnni)) {
    GTEST_SKIP() << "u8s8.avxvnni is not run against the reference here: needs AVX-VNNI, which "
                    "this host may not use: "
                 << kernels::cpu::DescribeHostIsa();
  }
}

TEST(IsaTest, DetectIsaIsSupported) {
  EXPECT_TRUE(IsaSupported(DetectIsa()));
  if (!IsaSupported(Isa::kAvx512vnni)) GTEST_SKIP() << "needs avx512vnni, which this host may not use: " << kernels::cpu::DescribeHostIsa();
  EXPECT_EQ(DetectIsa(), Isa::kAvx512vnni);
}

// The output's padding lanes hold clamp(output zero point).
// Every kernel this host runs writes clamp(output zero point) into the
// output's padding lanes.
TEST(LayoutTest, OutputPaddingLanes) {
  const Problem p = MakeProblem({"pad", 1, 5, 4, 4, 17, 1, 1}, false);
  for (const U8S8Variant& v : AvailableVariants(p)) {
    SCOPED_TRACE(v.name);
    auto kernel = Conv2DKernel::CreateU8S8(p.w, p.params, {}, v.isa, v.arith);
    ASSERT_TRUE(kernel.ok()) << kernel.status();
    auto x = ToBlocked(p.x, (*kernel)->input_layout() == "NCHW4c" ? 4 : 16);
    Tensor y;
    ASSERT_TRUE((*kernel)->Run(*x, &y, nullptr).ok());
    for (int64_t i = 0; i < 16; ++i) {
      for (int64_t lane = 1; lane < 16; ++lane) {
        EXPECT_EQ(y.data<uint8_t>()[(16 + i) * 16 + lane], p.params.output_zero_point);
      }
    }
  }
}

// ToBlocked/FromBlocked against the reference layout transform: every
// element size, channel counts below, at and past a block (3 channels: the
// RGB path of 1-byte blocks of 4), planes of one and of several pixel tiles.
TEST(LayoutTest, PackersMatchTheReferenceTransform) {
  std::mt19937 rng(5);
  Pool pool;
  for (DType dtype : {DType::kU8, DType::kI16, DType::kF32, DType::kI64}) {
    for (int64_t c : {1, 3, 16, 17, 40}) {
      for (int64_t block : {4, 16}) {
        for (tensor::Shape shape : {tensor::Shape{2, c, 9, 11}, tensor::Shape{1, c, 37, 41}}) {
          SCOPED_TRACE(std::string(tensor::DTypeName(dtype)) + " C=" + std::to_string(c) +
                       " block " + std::to_string(block) + " " + tensor::ShapeToString(shape));
          Tensor x = *Tensor::Create(dtype, shape);
          auto* bytes = static_cast<uint8_t*>(x.raw_data());
          const int64_t nbytes = x.num_elements() * static_cast<int64_t>(tensor::DTypeSize(dtype));
          for (int64_t i = 0; i < nbytes; ++i) bytes[i] = static_cast<uint8_t>(rng());
          const std::string layout = "NCHW" + std::to_string(block) + "c";
          auto want = reference::LayoutTransform(x, "NCHW", layout);
          // Each block size serial on one shape, on two threads on the other.
          pthreadpool_t threads = (block == 16) == (shape[0] == 2) ? pool.get() : nullptr;
          auto got = ToBlocked(x, block, 0, threads);
          ASSERT_TRUE(want.ok() && got.ok());
          EXPECT_TRUE(got->BitwiseEquals(*want));
          auto back = FromBlocked(*got, c, threads);
          ASSERT_TRUE(back.ok());
          EXPECT_TRUE(back->BitwiseEquals(x));
        }
      }
    }
  }
  // Padding lanes take the pad value.
  Tensor x = *Tensor::Create(DType::kU8, {1, 3, 2, 2});
  auto padded = ToBlocked(x, 4, 77);
  ASSERT_TRUE(padded.ok());
  for (int64_t px = 0; px < 4; ++px) EXPECT_EQ(padded->data<uint8_t>()[px * 4 + 3], 77);
}

}  // namespace
}  // namespace qnnc::kernels::spatial_pack
