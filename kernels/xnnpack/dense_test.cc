#include "kernels/xnnpack/dense.h"

#include <cmath>
#include <iostream>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "kernels/xnnpack/internal/test_util.h"

namespace qnnc::kernels::xnnpack {
namespace {

using internal::Compare;
using internal::RandomInts;
using tensor::DType;
using tensor::Tensor;

struct DenseCase {
  std::string name;
  tensor::Shape input;  // [..., K]
  int64_t n;
  bool bias = true;
  bool relu = false;
};

DenseParams MakeParams(const DenseCase& c, Variant v) {
  DenseParams p;
  p.input_channels = c.input.back();
  p.output_channels = c.n;
  const bool u8 = v == Variant::kQu8;
  p.input_zero_point = u8 ? 117 : -3;
  p.kernel_zero_point = u8 ? 140 : 0;
  p.output_zero_point = u8 ? 131 : -2;
  p.input_scale = 0.03f;
  p.kernel_scale = 0.007f;
  const double multiplier = 48.0 / (std::sqrt(static_cast<double>(p.input_channels)) * 74 * 74);
  p.output_scale = static_cast<float>(0.03 * 0.007 / multiplier);
  if (c.relu) p.output_min = p.output_zero_point;
  return p;
}

TEST(DenseTest, MatchesReference) {
  const std::vector<DenseCase> cases = {
      {"vector", {37}, 19},
      {"matrix", {3, 37}, 19},
      {"rank3", {2, 5, 64}, 48},
      {"k1", {4, 1}, 7},
      {"n1", {4, 129}, 1},
      {"large", {16, 1024}, 1000},
      {"no_bias", {5, 33}, 17, false},
      {"relu", {5, 33}, 17, true, true},
  };
  for (const DenseCase& c : cases) {
    for (Variant v : {Variant::kQu8, Variant::kQs8}) {
      SCOPED_TRACE(c.name + " " + VariantName(v));
      if (!RoundsHalfToEven(v)) {
        // Refused, saying why (common.h), rather than rounding otherwise.
        const absl::Status s = CheckSupported(v, MakeParams(c, v));
        EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
        EXPECT_NE(s.message().find("rounds ties upward"), std::string::npos) << s;
        std::cout << "skipped dense " << c.name << " " << VariantName(v)
                  << ": XNNPACK's rounds ties upward on this architecture\n";
        continue;
      }
      std::mt19937 rng(static_cast<uint32_t>(c.n * 7 + c.input.back()));
      const DType dt = DataType(v);
      const Tensor input = RandomInts(dt, c.input, rng);
      const Tensor weight = RandomInts(dt, {c.n, c.input.back()}, rng);
      const Tensor bias = c.bias ? RandomInts(DType::kI32, {c.n}, -60000, 60000, rng) : Tensor();
      const DenseParams p = MakeParams(c, v);
      auto dense = Dense::Create(v, p, weight, bias);
      ASSERT_TRUE(dense.ok()) << dense.status();
      Tensor out;
      ASSERT_TRUE((*dense)->Run(input, &out, nullptr).ok());
      auto ref = internal::ReferenceDense(v, p, input, weight, bias);
      ASSERT_TRUE(ref.ok()) << ref.status();
      ASSERT_EQ(out.shape(), ref->shape());
      const internal::Diff d = Compare(out, *ref);
      std::cout << "[diff] dense " << c.name << " " << VariantName(v) << ": " << d.ToString()
                << "\n";
      EXPECT_EQ(d.differing, 0) << d.ToString();
    }
  }
}

TEST(DenseTest, Rejections) {
  if (!RoundsHalfToEven(Variant::kQs8)) {
    GTEST_SKIP() << "XNNPACK's qs8 fully connected rounds ties upward on this architecture";
  }
  DenseParams p = MakeParams({"m", {3, 8}, 4}, Variant::kQs8);
  const Tensor w = Tensor::Zeros(DType::kI8, {4, 8});
  EXPECT_EQ(Dense::Create(Variant::kQc8, p, w, Tensor()).status().code(),
            absl::StatusCode::kUnimplemented);
  DenseParams big = p;
  big.output_scale = big.input_scale * big.kernel_scale / 300.0f;
  EXPECT_EQ(CheckSupported(Variant::kQs8, big).code(), absl::StatusCode::kUnimplemented);
  DenseParams tiny = p;
  tiny.output_scale = 1e10f;
  EXPECT_EQ(Dense::Create(Variant::kQs8, tiny, w, Tensor()).status().code(),
            absl::StatusCode::kUnimplemented);
  DenseParams zp = p;
  zp.kernel_zero_point = 1;
  EXPECT_EQ(CheckSupported(Variant::kQs8, zp).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(Dense::Create(Variant::kQs8, p, Tensor::Zeros(DType::kI8, {8, 4}), Tensor()).ok());
  auto dense = Dense::Create(Variant::kQs8, p, w, Tensor());
  ASSERT_TRUE(dense.ok());
  Tensor out;
  EXPECT_FALSE((*dense)->Run(Tensor::Zeros(DType::kI8, {3, 7}), &out, nullptr).ok());
  EXPECT_FALSE((*dense)->Run(Tensor::Zeros(DType::kU8, {3, 8}), &out, nullptr).ok());
  EXPECT_TRUE((*dense)->Run(Tensor::Zeros(DType::kI8, {3, 8}), &out, nullptr).ok());
  EXPECT_EQ(out.shape(), (tensor::Shape{3, 4}));
}

}  // namespace
}  // namespace qnnc::kernels::xnnpack
