#include "kernels/spatial_pack/dynamic_conv.h"

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/conv2d.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/unary.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/testing/two_threads.h"

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
};

std::vector<Case> Cases() {
  return {
      {"dense_3x3_padded", 1, 20, 11, 13, 24, 3, 3, {1, 1}, {1, 1, 1, 1}},
      {"pw_16_to_40", 1, 16, 9, 10, 40, 1, 1},
      {"head_16_to_2", 1, 16, 9, 10, 2, 1, 1},  // a segmentation head: kBlockedInNchwOut's case
      {"stem_3ch_s2", 1, 3, 17, 15, 32, 3, 3, {2, 2}, {1, 1, 1, 1}},
      {"asymmetric_pads_s2", 2, 33, 10, 9, 17, 3, 3, {2, 2}, {0, 1, 2, 1}},
      {"groups2", 1, 16, 9, 9, 32, 3, 3, {1, 1}, {1, 1, 1, 1}, 2},
      {"depthwise", 1, 40, 12, 11, 40, 3, 3, {1, 1}, {1, 1, 1, 1}, 40},
      {"depthwise_s2", 2, 24, 13, 12, 24, 3, 3, {2, 2}, {1, 1, 1, 1}, 24},
  };
}

// What a host may run: (isa, arithmetic) pairs to try.
std::vector<std::pair<Isa, Arithmetic>> Variants() {
  std::vector<std::pair<Isa, Arithmetic>> v = {{Isa::kScalar, Arithmetic::kMaddubs}};
  if (IsaSupported(Isa::kAvx2)) {
    v.push_back({Isa::kAvx2, Arithmetic::kMaddubs});
    v.push_back({Isa::kAvx2, Arithmetic::kMadd16});
  }
  if (IsaSupported(Isa::kAvx512vnni)) {
    v.push_back({Isa::kAvx512vnni, Arithmetic::kMaddubs});
    v.push_back({Isa::kAvx512vnni, Arithmetic::kMadd16});
  }
  return v;
}

struct Problem {
  Tensor x, w;
  std::vector<int32_t> zw;
  int32_t zx;
  QuantizedConvParams geometry;
};

// u8 weights with zero point 111 (w - zw up to 144: beyond s8) or i8
// weights with zero point 0 (symmetric, as quantize_dynamic's QInt8).
Problem Make(const Case& k, bool u8_weights, bool per_channel_zw, uint32_t seed) {
  std::mt19937 rng(seed);
  Problem p;
  std::vector<uint8_t> xv(k.n * k.c * k.h * k.w);
  for (auto& e : xv) e = static_cast<uint8_t>(rng() & 255);
  p.x = Tensor::FromVector<uint8_t>({k.n, k.c, k.h, k.w}, xv);
  const tensor::Shape ws = {k.oc, k.c / k.groups, k.kh, k.kw};
  const int64_t wn = ws[0] * ws[1] * ws[2] * ws[3];
  if (u8_weights) {
    std::vector<uint8_t> wv(wn);
    for (auto& e : wv) e = static_cast<uint8_t>(rng() & 255);
    p.w = Tensor::FromVector<uint8_t>(ws, wv);
    p.zw = {111};
    if (per_channel_zw) {
      p.zw.clear();
      for (int64_t o = 0; o < k.oc; ++o) p.zw.push_back(static_cast<int32_t>(rng() % 256));
    }
  } else {
    std::vector<int8_t> wv(wn);
    for (auto& e : wv) e = static_cast<int8_t>(static_cast<int>(rng() % 255) - 127);
    p.w = Tensor::FromVector<int8_t>(ws, wv);
    p.zw = {0};
  }
  p.zx = static_cast<int32_t>(rng() % 256);
  p.geometry.in_channels = k.c;
  p.geometry.out_channels = k.oc;
  p.geometry.groups = k.groups;
  p.geometry.kernel_h = k.kh;
  p.geometry.kernel_w = k.kw;
  p.geometry.strides = k.s;
  p.geometry.pads = k.pads;
  return p;
}

Tensor ReferenceAcc(const Problem& p) {
  reference::Conv2DParams rp;
  rp.strides = p.geometry.strides;
  rp.pads = p.geometry.pads;
  rp.groups = p.geometry.groups;
  rp.out_dtype = DType::kI32;
  Tensor zw = p.w.dtype() == DType::kU8
                  ? Tensor::FromVector<int32_t>({static_cast<int64_t>(p.zw.size())}, p.zw)
                  : Tensor::FromVector<int32_t>({1}, {0});
  return reference::QnnConv2D(p.x, p.w, Tensor::FromVector<uint8_t>({}, {static_cast<uint8_t>(p.zx)}),
                              zw, rp)
      .value();
}

// The reference's cast -> multiply -> add -> clip.
Tensor ReferenceFloat(const Tensor& acc, const Tensor& scale, const Tensor& bias, float lo, float hi) {
  Tensor f = reference::Cast(acc, DType::kF32).value();
  f = reference::Multiply(f, scale).value();
  f = reference::Add(f, bias).value();
  return reference::Clip(f, lo, hi).value();
}

void ExpectSameBits(const Tensor& a, const Tensor& b, const std::string& what) {
  ASSERT_EQ(a.dtype(), b.dtype()) << what;
  ASSERT_EQ(a.shape(), b.shape()) << what;
  const size_t bytes = a.num_elements() * tensor::DTypeSize(a.dtype());
  if (std::memcmp(a.raw_data(), b.raw_data(), bytes) == 0) return;
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    ASSERT_EQ(a.GetAsDouble(i), b.GetAsDouble(i)) << what << " at element " << i;
  }
}

// The portable int16 path (CreateInt16): every case, i8 and u8 weights (beyond
// s8, per-channel zero points), raw i32 and the float epilogue with its
// range, unclipped with a bias and clipped, one and two threads; written in
// place. It subtracts zx while packing, so no compensation is involved.
TEST(DynamicConv2DTest, TheInt16KernelMatchesTheReference) {
  testing::TwoThreads two;
  for (const Case& k : Cases()) {
    for (int wkind = 0; wkind < 3; ++wkind) {
      const bool u8w = wkind > 0, per_channel = wkind == 2;
      const Problem p = Make(k, u8w, per_channel, 17 + wkind);
      const std::string what = k.name + (u8w ? (per_channel ? " u8 per-channel zw" : " u8 zw") : " i8");
      const Tensor acc = ReferenceAcc(p);
      auto kernel = DynamicConv2D::CreateInt16(p.w, p.zw, p.geometry, {});
      ASSERT_TRUE(kernel.ok()) << what << ": " << kernel.status();
      EXPECT_NE((*kernel)->description().find("int16.portable"), std::string::npos)
          << (*kernel)->description();
      std::vector<float> sv(k.oc), bv(k.oc);
      std::mt19937 rng(5);
      for (auto& e : sv) e = 1e-4f * static_cast<float>(1 + rng() % 100);
      for (auto& e : bv) e = 0.01f * (static_cast<float>(rng() % 200) - 100.0f);
      const Tensor scale = Tensor::FromVector<float>({1, k.oc, 1, 1}, sv);
      const Tensor bias = Tensor::FromVector<float>({1, k.oc, 1, 1}, bv);
      for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
        Tensor raw;
        ASSERT_TRUE((*kernel)->Run(p.x, p.zx, nullptr, &raw, pool).ok()) << what;
        ExpectSameBits(raw, acc, what + " i32");
        for (bool clip : {false, true}) {
          DynamicEpilogue ep;
          ep.scale = sv.data();
          ep.scale_count = k.oc;
          ep.bias = bv.data();
          ep.bias_count = k.oc;
          ep.clip = clip;
          ep.clip_min = 0.0f;
          ep.clip_max = 6.0f;
          const Tensor expected =
              ReferenceFloat(acc, scale, bias, clip ? 0.0f : -INFINITY, clip ? 6.0f : INFINITY);
          float lo = 0.0f, hi = 0.0f;
          for (float v : expected.span<float>()) {
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
          }
          Tensor y;
          float range[2] = {1.0f, -1.0f};
          ASSERT_TRUE((*kernel)->Run(p.x, p.zx, &ep, &y, pool, DynamicConv2D::Layouts::kNchw, range).ok())
              << what;
          ExpectSameBits(y, expected, what + (clip ? " f32 clipped" : " f32"));
          EXPECT_EQ(range[0], lo) << what;
          EXPECT_EQ(range[1], hi) << what;
          const void* before = y.raw_data();
          ASSERT_TRUE((*kernel)->Run(p.x, p.zx, &ep, &y, pool).ok()) << what;
          EXPECT_EQ(before, y.raw_data()) << what << ": written in place";
          ExpectSameBits(y, expected, what + " f32 in place");
        }
      }
      Tensor y;
      EXPECT_FALSE((*kernel)->Run(p.x, p.zx, nullptr, &y, nullptr, DynamicConv2D::Layouts::kBlocked).ok())
          << what << ": the int16 kernel is NCHW only";
    }
  }
}

TEST(DynamicConv2DTest, MatchesTheReferenceOnEveryVariantThatTakesTheWeights) {
  testing::TwoThreads two;
  int checked = 0, u8_madd16 = 0;
  for (const Case& k : Cases()) {
    for (int wkind = 0; wkind < 3; ++wkind) {
      const bool u8w = wkind > 0, per_channel = wkind == 2;
      const Problem p = Make(k, u8w, per_channel, 7 + wkind);
      const Tensor acc = ReferenceAcc(p);
      const int64_t oc = k.oc;
      std::vector<float> sv(oc), bv(oc);
      std::mt19937 rng(3);
      for (auto& e : sv) e = 1e-4f * static_cast<float>(1 + rng() % 100);
      for (auto& e : bv) e = 0.01f * (static_cast<float>(rng() % 200) - 100.0f);
      const Tensor scale = Tensor::FromVector<float>({1, oc, 1, 1}, sv);
      const Tensor bias = Tensor::FromVector<float>({1, oc, 1, 1}, bv);
      const Tensor expected = ReferenceFloat(acc, scale, bias, 0.0f, 6.0f);
      for (auto [isa, arith] : Variants()) {
        const std::string what = k.name + (u8w ? (per_channel ? " u8 per-channel zw " : " u8 zw ") : " i8 ") +
                                 IsaName(isa) + (arith == Arithmetic::kMadd16 ? " madd16" : "");
        auto kernel = DynamicConv2D::Create(p.w, p.zw, p.geometry, {}, isa, arith);
        if (!kernel.ok()) {
          // Refusals must be the documented ones: weights beyond s8 on a
          // u8s8 dense kernel, vpmaddubsw pairs, madd16 for depthwise.
          const std::string msg(kernel.status().message());
          EXPECT_TRUE(msg.find("outside [-128, 127]") != std::string::npos ||
                      msg.find("vpmaddubsw") != std::string::npos ||
                      msg.find("no depthwise kernel") != std::string::npos)
              << what << ": " << kernel.status();
          continue;
        }
        for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
          Tensor raw;
          ASSERT_TRUE((*kernel)->Run(p.x, p.zx, nullptr, &raw, pool).ok()) << what;
          ExpectSameBits(raw, acc, what + " i32");
          DynamicEpilogue ep;
          ep.scale = sv.data();
          ep.scale_count = oc;
          ep.bias = bv.data();
          ep.bias_count = oc;
          ep.clip = true;
          ep.clip_min = 0.0f;
          ep.clip_max = 6.0f;
          Tensor y;
          float range[2] = {-1.0f, -1.0f};
          ASSERT_TRUE((*kernel)->Run(p.x, p.zx, &ep, &y, pool, DynamicConv2D::Layouts::kNchw, range).ok()) << what;
          ExpectSameBits(y, expected, what + " f32");
          // DynamicQuantizeLinear's range of the result, computed tile by tile.
          float want[2] = {0.0f, 0.0f};
          for (float v : expected.span<float>()) {
            want[0] = v < want[0] ? v : want[0];
            want[1] = v > want[1] ? v : want[1];
          }
          EXPECT_EQ(range[0], want[0]) << what;
          EXPECT_EQ(range[1], want[1]) << what;
          // Unclipped, the range is the values' own, negative and positive,
          // its extremes anywhere in a tile.
          {
            DynamicEpilogue open = ep;
            open.clip = false;
            Tensor y_open;
            float got[2] = {1.0f, -1.0f};
            ASSERT_TRUE((*kernel)->Run(p.x, p.zx, &open, &y_open, pool, DynamicConv2D::Layouts::kNchw, got).ok()) << what;
            const Tensor values = ReferenceFloat(acc, scale, bias, -INFINITY, INFINITY);
            ExpectSameBits(y_open, values, what + " f32 unclipped");
            float lo = 0.0f, hi = 0.0f;
            for (float v : values.span<float>()) {
              lo = v < lo ? v : lo;
              hi = v > hi ? v : hi;
            }
            ASSERT_LT(lo, 0.0f) << what;
            EXPECT_EQ(got[0], lo) << what << " unclipped";
            EXPECT_EQ(got[1], hi) << what << " unclipped";
          }
          // Written in place the second time.
          const void* before = y.raw_data();
          ASSERT_TRUE((*kernel)->Run(p.x, p.zx, &ep, &y, pool).ok()) << what;
          EXPECT_EQ(before, y.raw_data()) << what;
          // Blocked in and out: the same values, padding lanes 0.
          const int64_t in_block = (*kernel)->input_layout() == "NCHW4c" ? 4 : 16;
          Tensor yb;
          float range_b[2] = {-1.0f, -1.0f};
          ASSERT_TRUE(
              (*kernel)->Run(ToBlocked(p.x, in_block).value(), p.zx, &ep, &yb, pool, DynamicConv2D::Layouts::kBlocked, range_b).ok())
              << what;
          EXPECT_EQ(range_b[0], want[0]) << what << " blocked";
          EXPECT_EQ(range_b[1], want[1]) << what << " blocked";
          ASSERT_EQ(yb.rank(), 5) << what;
          ExpectSameBits(FromBlocked(yb, oc).value(), expected, what + " blocked");
          const float* fb = yb.data<float>();
          for (int64_t i = 0; i < yb.num_elements(); ++i) {
            const int64_t lane = i % 16, block = (i / 16 / (yb.dim(2) * yb.dim(3))) % yb.dim(1);
            if (block * 16 + lane >= oc) {
              ASSERT_EQ(fb[i], 0.0f) << what << " padding lane";
            }
          }
          // Blocked in, NCHW out: the NCHW values and range.
          Tensor yn;
          float range_n[2] = {-1.0f, -1.0f};
          ASSERT_TRUE((*kernel)->Run(ToBlocked(p.x, in_block).value(), p.zx, &ep, &yn, pool,
                                     DynamicConv2D::Layouts::kBlockedInNchwOut, range_n).ok())
              << what;
          ExpectSameBits(yn, expected, what + " blocked in, NCHW out");
          EXPECT_EQ(range_n[0], want[0]) << what << " blocked in, NCHW out";
          EXPECT_EQ(range_n[1], want[1]) << what << " blocked in, NCHW out";
        }
        ++checked;
        if (u8w && arith == Arithmetic::kMadd16) ++u8_madd16;
      }
    }
  }
  // Every case has at least the depthwise or madd16/i8 variants on an AVX2
  // host, and the scalar kernel takes i8 weights everywhere.
  EXPECT_GE(checked, static_cast<int>(Cases().size()));
  if (IsaSupported(Isa::kAvx2)) {
    EXPECT_GE(u8_madd16, 8) << "u8 weights (beyond s8) on the madd16 dense kernel";
  } else {
    GTEST_LOG_(INFO) << "no AVX2 on this host (or above the cap): madd16 not checked";
  }
}

TEST(DynamicConv2DTest, PerTensorScaleNoBiasNoClip) {
  const Case k = {"dense", 1, 8, 6, 7, 20, 3, 3, {1, 1}, {1, 1, 1, 1}};
  const Problem p = Make(k, false, false, 11);
  const Tensor acc = ReferenceAcc(p);
  const float s = 0.0123f;
  const Tensor expected =
      reference::Multiply(reference::Cast(acc, DType::kF32).value(), Tensor::FromVector<float>({1}, {s}))
          .value();
  auto kernel = DynamicConv2D::Create(p.w, p.zw, p.geometry, {}, Isa::kScalar, Arithmetic::kMaddubs);
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  DynamicEpilogue ep;
  ep.scale = &s;
  Tensor y;
  ASSERT_TRUE((*kernel)->Run(p.x, p.zx, &ep, &y, nullptr).ok());
  ExpectSameBits(y, expected, "per-tensor scale");
}

TEST(DynamicConv2DTest, BadInputsAreErrors) {
  const Case k = {"dense", 1, 8, 6, 7, 20, 3, 3};
  Problem p = Make(k, true, false, 5);
  // u8 weights beyond s8 on the scalar dense kernel: refused, with the reason.
  auto scalar = DynamicConv2D::Create(p.w, p.zw, p.geometry, {}, Isa::kScalar, Arithmetic::kMaddubs);
  ASSERT_FALSE(scalar.ok());
  EXPECT_NE(std::string(scalar.status().message()).find("outside [-128, 127]"), std::string::npos)
      << scalar.status();
  EXPECT_FALSE(DynamicConv2D::Create(p.w, {300}, p.geometry, {}, Isa::kScalar, Arithmetic::kMaddubs).ok());
  EXPECT_FALSE(DynamicConv2D::Create(p.w, {1, 2}, p.geometry, {}, Isa::kScalar, Arithmetic::kMaddubs).ok());
  p = Make(k, false, false, 5);
  auto kernel = DynamicConv2D::Create(p.w, p.zw, p.geometry, {}, Isa::kScalar, Arithmetic::kMaddubs);
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  Tensor y;
  EXPECT_FALSE((*kernel)->Run(p.x, 256, nullptr, &y, nullptr).ok());
  EXPECT_FALSE((*kernel)->Run(Tensor::FromVector<uint8_t>({1, 3, 2, 2}, std::vector<uint8_t>(12)), 0,
                              nullptr, &y, nullptr)
                   .ok());
  const float two[2] = {1, 2};
  DynamicEpilogue ep;
  ep.scale = two;
  ep.scale_count = 2;
  EXPECT_FALSE((*kernel)->Run(p.x, 0, &ep, &y, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::spatial_pack
