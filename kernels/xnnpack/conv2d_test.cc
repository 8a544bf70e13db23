#include "kernels/xnnpack/conv2d.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdint>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/xnnpack/internal/test_util.h"
#include "pthreadpool.h"

namespace qnnc::kernels::xnnpack {
namespace {

using internal::Compare;
using internal::RandomInts;
using internal::ReferenceConv;
using tensor::DType;
using tensor::Tensor;

constexpr Variant kAll[] = {Variant::kQu8, Variant::kQs8, Variant::kQc8};

// Whether this build offers `v` (common.h: on AArch64 XNNPACK's qu8 rounds
// ties upward and is refused); says so when it does not.
bool Offered(Variant v) {
  if (RoundsHalfToEven(OperatorVariant(v))) return true;
  std::cout << "skipped " << VariantName(v) << ": XNNPACK's " << VariantName(v)
            << " rounds ties upward on this architecture and is not offered\n";
  return false;
}

// One convolution of the table; the setters return *this for chaining.
struct Case {
  std::string name;
  int64_t n = 1, h = 8, w = 8, c = 8, k = 8;  // c, k: total channels
  int64_t kh = 3, kw = 3;
  std::array<int64_t, 2> strides{1, 1};
  std::array<int64_t, 4> pads{1, 1, 1, 1};
  std::array<int64_t, 2> dilation{1, 1};
  int64_t groups = 1;
  std::vector<Variant> variants{std::begin(kAll), std::end(kAll)};
  bool bias = true;
  std::optional<int32_t> zx, zw, zy;
  bool relu = false;
  std::optional<std::array<int32_t, 2>> clip;  // offsets from zy

  Case(std::string name, int64_t h, int64_t w, int64_t c, int64_t k)
      : name(std::move(name)), h(h), w(w), c(c), k(k) {}
  Case& Batch(int64_t v) { n = v; return *this; }
  Case& Kernel(int64_t y, int64_t x) { kh = y; kw = x; return *this; }
  Case& Stride(int64_t y, int64_t x) { strides = {y, x}; return *this; }
  Case& Pads(std::array<int64_t, 4> v) { pads = v; return *this; }
  Case& Dilation(int64_t y, int64_t x) { dilation = {y, x}; return *this; }
  Case& Groups(int64_t v) { groups = v; return *this; }
  Case& Only(std::vector<Variant> v) { variants = std::move(v); return *this; }
  Case& NoBias() { bias = false; return *this; }
  Case& ZeroPoints(int32_t x, std::optional<int32_t> w, int32_t y) {
    zx = x; zw = w; zy = y; return *this;
  }
  Case& Relu() { relu = true; return *this; }
  Case& Clip(int32_t lo, int32_t hi) { clip = std::array<int32_t, 2>{lo, hi}; return *this; }
};

// Zero points, scales (qc8: spread x7 over channels) and the clamp; the
// output scale keeps outputs spread over about +-48 steps.
ConvParams MakeParams(const Case& c, Variant v) {
  ConvParams p;
  p.kernel_h = c.kh;
  p.kernel_w = c.kw;
  p.strides = c.strides;
  p.pads = c.pads;
  p.dilation = c.dilation;
  p.groups = c.groups;
  p.group_input_channels = c.c / c.groups;
  p.group_output_channels = c.k / c.groups;
  const bool u8 = v == Variant::kQu8;
  p.input_zero_point = c.zx.value_or(u8 ? 121 : -9);
  p.kernel_zero_point = u8 ? c.zw.value_or(133) : 0;
  p.output_zero_point = c.zy.value_or(u8 ? 128 : 5);
  p.input_scale = 0.02f;
  p.kernel_scale = {0.005f};
  if (v == Variant::kQc8) {
    p.kernel_scale.clear();
    for (int64_t o = 0; o < c.k; ++o) p.kernel_scale.push_back(0.005f * (0.25f + 1.5f * o / c.k));
  }
  const double reduction = static_cast<double>(p.group_input_channels * c.kh * c.kw);
  const double multiplier = 48.0 / (std::sqrt(reduction) * 74.0 * 74.0);
  p.output_scale = static_cast<float>(0.02 * 0.005 / multiplier);
  if (c.relu) p.output_min = p.output_zero_point;
  if (c.clip) {
    p.output_min = p.output_zero_point + (*c.clip)[0];
    p.output_max = p.output_zero_point + (*c.clip)[1];
  }
  return p;
}

std::vector<Case> Cases() {
  const std::array<int64_t, 4> no_pad{0, 0, 0, 0}, pad2{2, 2, 2, 2}, pad3{3, 3, 3, 3};
  const std::vector<Variant> u8{Variant::kQu8}, s8{Variant::kQs8, Variant::kQc8};
  return {
      // The layer suite of bench/layer_suite.h, spatial sizes reduced.
      Case("r50_c2_3x3", 14, 14, 64, 64),
      Case("r50_c2_1x1", 14, 14, 256, 64).Kernel(1, 1).Pads(no_pad),
      Case("r50_c3_3x3", 10, 10, 128, 128),
      Case("r50_c5_3x3", 5, 5, 512, 512),
      Case("r50_stem_7x7", 32, 32, 3, 64).Kernel(7, 7).Stride(2, 2).Pads(pad3),
      Case("mbv2_pw", 28, 28, 16, 96).Kernel(1, 1).Pads(no_pad),
      Case("mbv2_dw", 28, 28, 32, 32).Groups(32),
      Case("mbv2_dw_s2", 28, 28, 96, 96).Stride(2, 2).Groups(96),
      // Shapes and geometry.
      Case("1x1", 6, 5, 5, 7).Kernel(1, 1).Pads(no_pad),
      Case("7x7_s2", 19, 17, 6, 10).Kernel(7, 7).Stride(2, 2).Pads(pad3),
      Case("asymmetric_pads", 9, 7, 5, 6).Pads({0, 1, 2, 3}),
      Case("kernel_3x5_stride_2x1", 9, 11, 4, 5).Kernel(3, 5).Stride(2, 1).Pads({1, 2, 0, 1}),
      Case("dilation_2", 11, 10, 6, 9).Dilation(2, 2).Pads(pad2),
      Case("groups_2", 7, 7, 10, 14).Groups(2),
      Case("groups_4", 7, 6, 12, 20).Groups(4),
      Case("depthwise", 9, 9, 19, 19).Groups(19),
      Case("depthwise_5x5_s2", 12, 11, 24, 24).Kernel(5, 5).Stride(2, 2).Pads(pad2).Groups(24),
      Case("depthwise_multiplier_2", 8, 9, 8, 16).Groups(8),
      Case("channels_3_to_5", 6, 6, 3, 5),
      Case("channels_17_to_19", 6, 5, 17, 19),
      Case("channels_33_to_1", 5, 6, 33, 1),
      Case("input_1x1", 1, 1, 24, 40).Kernel(1, 1).Pads(no_pad),
      Case("input_1x1_pad", 1, 1, 8, 8),
      Case("input_3x3_valid", 3, 3, 16, 24).Pads(no_pad),
      Case("batch_2", 7, 8, 12, 18).Batch(2),
      Case("batch_2_depthwise", 7, 8, 12, 12).Batch(2).Groups(12),
      Case("no_bias", 6, 6, 9, 11).NoBias(),
      Case("relu", 6, 6, 9, 11).Relu(),
      Case("clip", 6, 6, 9, 11).Clip(-20, 30),
      Case("clip_depthwise", 6, 6, 9, 9).Groups(9).Clip(-7, 12),
      // Zero points at the limits of u8 and i8.
      Case("qu8_zp_0_255_255", 8, 8, 8, 8).Only(u8).ZeroPoints(0, 255, 255),
      Case("qu8_zp_255_0_0", 8, 8, 8, 8).Only(u8).ZeroPoints(255, 0, 0),
      Case("qu8_zp_dw_0_255_0", 8, 8, 8, 8).Groups(8).Only(u8).ZeroPoints(0, 255, 0),
      Case("s8_zp_min_max", 8, 8, 8, 8).Only(s8).ZeroPoints(-128, std::nullopt, 127),
      Case("s8_zp_max_min", 8, 8, 8, 8).Only(s8).ZeroPoints(127, std::nullopt, -128),
      Case("s8_zp_dw_min_min", 8, 8, 8, 8).Groups(8).Only(s8).ZeroPoints(-128, std::nullopt, -128),
  };
}

struct Inputs {
  Tensor input, weight, bias;
};

Inputs MakeInputs(const Case& c, Variant v, uint32_t seed) {
  std::mt19937 rng(seed);
  const DType dt = DataType(v);
  Inputs in;
  in.input = RandomInts(dt, {c.n, c.h, c.w, c.c}, rng);
  in.weight = RandomInts(dt, {c.k, c.c / c.groups, c.kh, c.kw}, rng);
  if (c.bias) in.bias = RandomInts(DType::kI32, {c.k}, -60000, 60000, rng);
  return in;
}

class ConvCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(ConvCaseTest, MatchesReference) {
  const Case& c = GetParam();
  for (Variant v : c.variants) {
    if (!Offered(v)) continue;
    SCOPED_TRACE(std::string(VariantName(v)));
    const ConvParams p = MakeParams(c, v);
    const Inputs in = MakeInputs(c, v, /*seed=*/static_cast<uint32_t>(c.c * 131 + c.k));
    auto conv = Conv2D::Create(v, p, in.weight, in.bias);
    ASSERT_TRUE(conv.ok()) << conv.status();
    Tensor out;
    ASSERT_TRUE((*conv)->Run(in.input, &out, nullptr).ok());
    auto ref = ReferenceConv(v, p, in.input, in.weight, in.bias);
    ASSERT_TRUE(ref.ok()) << ref.status();
    ASSERT_EQ(out.shape(), ref->shape());
    const internal::Diff d = Compare(out, *ref);
    std::cout << "[diff] " << c.name << " " << VariantName(v) << ": " << d.ToString() << "\n";
    // Both round float32 products half to even: no tolerance needed.
    EXPECT_EQ(d.differing, 0) << d.ToString();
    EXPECT_LE(d.max_abs, 1) << d.ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(Table, ConvCaseTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// x * 0.5 for every x of the data type: ties go to even, for the gemm (1x1)
// and the depthwise paths of every variant.
TEST(Conv2DRoundingTest, TiesToEven) {
  for (Variant v : kAll) {
    if (!Offered(v)) continue;
    for (int64_t groups : {1, 2}) {
      SCOPED_TRACE(std::string(VariantName(v)) + " groups " + std::to_string(groups));
      ConvParams p;
      p.groups = groups;
      p.input_scale = 0.5f;
      const bool u8 = v == Variant::kQu8;
      p.kernel_zero_point = u8 ? 100 : 0;
      p.output_zero_point = u8 ? 128 : 0;
      // w - zw = 1 in every group.
      Tensor weight = u8 ? Tensor::FromVector<uint8_t>({groups, 1, 1, 1}, {101, 101})
                         : Tensor::FromVector<int8_t>({groups, 1, 1, 1}, {1, 1});
      std::vector<int64_t> xs;
      for (int64_t x = tensor::DTypeMin(DataType(v)); x <= tensor::DTypeMax(DataType(v)); ++x) {
        for (int64_t g = 0; g < groups; ++g) xs.push_back(x);
      }
      Tensor input = Tensor::Zeros(DataType(v), {1, 1, 256, groups});
      for (size_t i = 0; i < xs.size(); ++i) {
        if (u8) input.data<uint8_t>()[i] = static_cast<uint8_t>(xs[i]);
        else input.data<int8_t>()[i] = static_cast<int8_t>(xs[i]);
      }
      auto conv = Conv2D::Create(v, p, weight, Tensor());
      ASSERT_TRUE(conv.ok()) << conv.status();
      Tensor out;
      ASSERT_TRUE((*conv)->Run(input, &out, nullptr).ok());
      for (size_t i = 0; i < xs.size(); ++i) {
        const int64_t want = static_cast<int64_t>(std::nearbyint(xs[i] * 0.5)) + p.output_zero_point;
        ASSERT_EQ(out.GetAsInt(i), std::clamp<int64_t>(want, tensor::DTypeMin(DataType(v)),
                                                       tensor::DTypeMax(DataType(v))))
            << "x = " << xs[i];
      }
    }
  }
}

Case MidCase() { return Case("mid", 12, 11, 24, 40).Batch(2); }

// Created once: runs on different inputs (setup rebinds pointers) and into a
// preallocated output give the same results as fresh runs.
TEST(Conv2DTest, CreateOnceRunMany) {
  const Case c = MidCase();
  for (Variant v : kAll) {
    if (!Offered(v)) continue;
    const ConvParams p = MakeParams(c, v);
    const Inputs a = MakeInputs(c, v, 1), b = MakeInputs(c, v, 2);
    auto conv = Conv2D::Create(v, p, a.weight, a.bias);
    ASSERT_TRUE(conv.ok()) << conv.status();
    Tensor out_a1, out_b, out_a2;
    ASSERT_TRUE((*conv)->Run(a.input, &out_a1, nullptr).ok());
    ASSERT_TRUE((*conv)->Run(b.input, &out_b, nullptr).ok());
    out_a2 = Tensor::Zeros(out_a1.dtype(), out_a1.shape());
    ASSERT_TRUE((*conv)->Run(a.input, &out_a2, nullptr).ok());
    EXPECT_TRUE(out_a1.BitwiseEquals(out_a2));
    EXPECT_FALSE(out_a1.BitwiseEquals(out_b));
    auto ref_b = ReferenceConv(v, p, b.input, a.weight, a.bias);
    ASSERT_TRUE(ref_b.ok());
    EXPECT_EQ(Compare(out_b, *ref_b).differing, 0);
  }
}

TEST(Conv2DTest, OneAndTwoThreadsAgree) {
  pthreadpool_t pool = pthreadpool_create(2);
  ASSERT_NE(pool, nullptr);
  for (const Case& c : {MidCase(), Case("dw", 20, 20, 32, 32).Batch(2).Groups(32)}) {
    for (Variant v : kAll) {
      if (!Offered(v)) continue;
      const Inputs in = MakeInputs(c, v, 3);
      auto conv = Conv2D::Create(v, MakeParams(c, v), in.weight, in.bias);
      ASSERT_TRUE(conv.ok()) << conv.status();
      Tensor one, two;
      ASSERT_TRUE((*conv)->Run(in.input, &one, nullptr).ok());
      ASSERT_TRUE((*conv)->Run(in.input, &two, pool).ok());
      EXPECT_TRUE(one.BitwiseEquals(two)) << c.name << " " << VariantName(v);
    }
  }
  pthreadpool_destroy(pool);
}

// CheckSupported rejects, and Create fails cleanly (never aborts), on what
// this XNNPACK cannot run.
TEST(CheckSupportedTest, Rejections) {
  const Case c = MidCase();
  struct Bad {
    std::string name;
    Variant variant;
    std::function<void(ConvParams&)> edit;
    absl::StatusCode code;
    std::string substr;
  };
  const std::vector<Bad> bads = {
      {"scale_256", Variant::kQs8, [](ConvParams& p) { p.output_scale = p.input_scale * p.kernel_scale[0] / 300.0f; },
       absl::StatusCode::kUnimplemented, "not below 256"},
      {"scale_1000_qu8", Variant::kQu8, [](ConvParams& p) { p.output_scale = 1e-10f; },
       absl::StatusCode::kUnimplemented, "not below 256"},
      {"qc8_channel_scale_256", Variant::kQc8,
       [](ConvParams& p) { p.kernel_scale[7] = 300.0f * p.output_scale / p.input_scale; },
       absl::StatusCode::kUnimplemented, "kernel_scale[7]"},
      {"scale_tiny_qs8", Variant::kQs8, [](ConvParams& p) { p.output_scale = 1e10f; },
       absl::StatusCode::kUnimplemented, "below 2^-32"},
      {"scale_tiny_qu8", Variant::kQu8, [](ConvParams& p) { p.input_scale = 1e-20f; },
       absl::StatusCode::kUnimplemented, "below 2^-32"},
      {"scale_zero", Variant::kQs8, [](ConvParams& p) { p.input_scale = 0.0f; },
       absl::StatusCode::kInvalidArgument, "input_scale"},
      {"scale_nan", Variant::kQc8, [](ConvParams& p) { p.kernel_scale[3] = NAN; },
       absl::StatusCode::kInvalidArgument, "kernel_scale[3]"},
      {"scale_denormal", Variant::kQu8, [](ConvParams& p) { p.output_scale = 1e-40f; },
       absl::StatusCode::kInvalidArgument, "output_scale"},
      {"kernel_zp_qs8", Variant::kQs8, [](ConvParams& p) { p.kernel_zero_point = 3; },
       absl::StatusCode::kInvalidArgument, "kernel_zero_point 0"},
      {"kernel_zp_qc8", Variant::kQc8, [](ConvParams& p) { p.kernel_zero_point = -1; },
       absl::StatusCode::kInvalidArgument, "kernel_zero_point 0"},
      {"input_zp_qs8", Variant::kQs8, [](ConvParams& p) { p.input_zero_point = 128; },
       absl::StatusCode::kInvalidArgument, "input_zero_point"},
      {"output_zp_qu8", Variant::kQu8, [](ConvParams& p) { p.output_zero_point = -1; },
       absl::StatusCode::kInvalidArgument, "output_zero_point"},
      {"kernel_zp_qu8", Variant::kQu8, [](ConvParams& p) { p.kernel_zero_point = 256; },
       absl::StatusCode::kInvalidArgument, "kernel_zero_point"},
      {"clamp_empty", Variant::kQs8, [](ConvParams& p) { p.output_min = p.output_max = 4; },
       absl::StatusCode::kInvalidArgument, "output_min < output_max"},
      {"clamp_outside", Variant::kQu8, [](ConvParams& p) { p.output_min = 300; },
       absl::StatusCode::kInvalidArgument, "output_min < output_max"},
      {"scales_count_qs8", Variant::kQs8, [](ConvParams& p) { p.kernel_scale = {1.0f, 1.0f}; },
       absl::StatusCode::kInvalidArgument, "kernel scales"},
      {"scales_count_qc8", Variant::kQc8, [](ConvParams& p) { p.kernel_scale.pop_back(); },
       absl::StatusCode::kInvalidArgument, "kernel scales"},
      {"stride_0", Variant::kQs8, [](ConvParams& p) { p.strides[1] = 0; },
       absl::StatusCode::kInvalidArgument, "strides[1]"},
      {"pad_negative", Variant::kQs8, [](ConvParams& p) { p.pads[2] = -1; },
       absl::StatusCode::kInvalidArgument, "pads[2]"},
      {"groups_0", Variant::kQs8, [](ConvParams& p) { p.groups = 0; },
       absl::StatusCode::kInvalidArgument, "groups"},
  };
  for (const Bad& bad : bads) {
    if (!Offered(bad.variant)) continue;
    SCOPED_TRACE(bad.name);
    ConvParams p = MakeParams(c, bad.variant);
    ASSERT_TRUE(CheckSupported(bad.variant, p).ok());
    bad.edit(p);
    const absl::Status s = CheckSupported(bad.variant, p);
    EXPECT_EQ(s.code(), bad.code) << s;
    EXPECT_NE(s.message().find(bad.substr), std::string::npos) << s;
    const Inputs in = MakeInputs(c, bad.variant, 4);
    EXPECT_EQ(Conv2D::Create(bad.variant, p, in.weight, in.bias).status().code(), bad.code);
  }
}

// What rounds otherwise than the reference is refused, saying why.
TEST(CheckSupportedTest, RefusesWhatRoundsTiesUpward) {
  int refused = 0;
  for (Variant v : kAll) {
    if (RoundsHalfToEven(OperatorVariant(v))) continue;
    ++refused;
    const Case c = MidCase();
    const ConvParams p = MakeParams(c, v);
    const absl::Status s = CheckSupported(v, p);
    EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
    EXPECT_NE(s.message().find("rounds ties upward"), std::string::npos) << s;
  }
  if (refused == 0) GTEST_SKIP() << "every variant rounds half to even on this architecture";
}

// qc8 packs its scales with the weights: tiny per-channel scales are fine.
TEST(CheckSupportedTest, Qc8AcceptsTinyScales) {
  Case c = MidCase();
  ConvParams p = MakeParams(c, Variant::kQc8);
  p.kernel_scale[0] = 1e-12f;
  EXPECT_TRUE(CheckSupported(Variant::kQc8, p).ok());
  const Inputs in = MakeInputs(c, Variant::kQc8, 5);
  auto conv = Conv2D::Create(Variant::kQc8, p, in.weight, in.bias);
  ASSERT_TRUE(conv.ok()) << conv.status();
  Tensor out;
  ASSERT_TRUE((*conv)->Run(in.input, &out, nullptr).ok());
  auto ref = ReferenceConv(Variant::kQc8, p, in.input, in.weight, in.bias);
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(Compare(out, *ref).differing, 0);
}

TEST(Conv2DTest, BadTensors) {
  const Case c = MidCase();
  const ConvParams p = MakeParams(c, Variant::kQs8);
  const Inputs in = MakeInputs(c, Variant::kQs8, 6);
  const Inputs u8 = MakeInputs(c, Variant::kQu8, 6);
  EXPECT_FALSE(Conv2D::Create(Variant::kQs8, p, u8.weight, in.bias).ok());  // u8 weight
  EXPECT_FALSE(Conv2D::Create(Variant::kQs8, p, Tensor(), in.bias).ok());
  EXPECT_FALSE(Conv2D::Create(Variant::kQs8, p, in.weight,
                              Tensor::Zeros(DType::kI32, {c.k + 1})).ok());
  auto conv = Conv2D::Create(Variant::kQs8, p, in.weight, in.bias);
  ASSERT_TRUE(conv.ok());
  Tensor out;
  EXPECT_FALSE((*conv)->Run(u8.input, &out, nullptr).ok());  // u8 input
  EXPECT_FALSE((*conv)->Run(Tensor::Zeros(DType::kI8, {1, 5, 5, c.c + 1}), &out, nullptr).ok());
  EXPECT_FALSE((*conv)->Run(Tensor::Zeros(DType::kI8, {5, 5, c.c}), &out, nullptr).ok());
  Tensor wrong = Tensor::Zeros(DType::kI8, {1, 1, 1, 1});
  EXPECT_FALSE((*conv)->Run(in.input, &wrong, nullptr).ok());
  EXPECT_FALSE((*conv)->Run(in.input, nullptr, nullptr).ok());
  // A 3x3 kernel on a 1x1 input without padding has no output.
  ConvParams valid = p;
  valid.pads = {0, 0, 0, 0};
  auto conv_valid = Conv2D::Create(Variant::kQs8, valid, in.weight, in.bias);
  ASSERT_TRUE(conv_valid.ok());
  const absl::Status s =
      (*conv_valid)->Run(Tensor::Zeros(DType::kI8, {1, 1, 1, c.c}), &out, nullptr);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
}

}  // namespace
}  // namespace qnnc::kernels::xnnpack
