#include "kernels/reference/unary.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Tensor;


TEST(UnaryTest, ReluSigmoidRound) {
  auto r = Relu(Tensor::FromVector<float>({3}, {-1, 0, 2.5f}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ToVector<float>(), (std::vector<float>{0, 0, 2.5f}));
  auto ri = Relu(Tensor::FromVector<int8_t>({2}, {-5, 5}));
  ASSERT_TRUE(ri.ok());
  EXPECT_EQ(ri->ToVector<int8_t>(), (std::vector<int8_t>{0, 5}));
  auto s = Sigmoid(Tensor::FromVector<float>({3}, {0, 100, -100}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->ToVector<float>(), (std::vector<float>{0.5f, 1.0f, 0.0f}));
  auto rd = Round(Tensor::FromVector<float>({6}, {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 2.6f}));
  ASSERT_TRUE(rd.ok());
  EXPECT_EQ(rd->ToVector<float>(), (std::vector<float>{0, 2, 2, -0.0f, -2, 3}));
  EXPECT_FALSE(Sigmoid(Tensor::Zeros(DType::kI32, {1})).ok());
}

TEST(UnaryTest, NegAbsWrap) {
  auto n = Neg(Tensor::FromVector<int8_t>({3}, {-128, 5, 0}));
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->ToVector<int8_t>(), (std::vector<int8_t>{-128, -5, 0}));
  auto a = Abs(Tensor::FromVector<int8_t>({3}, {-128, -5, 3}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->ToVector<int8_t>(), (std::vector<int8_t>{-128, 5, 3}));
  auto af = Abs(Tensor::FromVector<float>({2}, {-1.5f, 2}));
  ASSERT_TRUE(af.ok());
  EXPECT_EQ(af->ToVector<float>(), (std::vector<float>{1.5f, 2}));
}

TEST(UnaryTest, Clip) {
  auto f = Clip(Tensor::FromVector<float>({4}, {-2, 0.5f, 7, std::nanf("")}), -1, 6);
  ASSERT_TRUE(f.ok());
  std::vector<float> v = f->ToVector<float>();
  EXPECT_EQ(v[0], -1);
  EXPECT_EQ(v[1], 0.5f);
  EXPECT_EQ(v[2], 6);
  EXPECT_TRUE(std::isnan(v[3]));
  // Integer bounds: ceil(-1.5) = -1, floor(200.7) = 200 within u8 [0, 255].
  auto u = Clip(Tensor::FromVector<uint8_t>({3}, {0, 100, 255}), -1.5, 200.7);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->ToVector<uint8_t>(), (std::vector<uint8_t>{0, 100, 200}));
  auto i = Clip(Tensor::FromVector<int8_t>({3}, {-128, 0, 127}), -1e30, 1e30);
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->ToVector<int8_t>(), (std::vector<int8_t>{-128, 0, 127}));
  EXPECT_FALSE(Clip(Tensor::Zeros(DType::kF32, {1}), 2, 1).ok());
}

TEST(UnaryTest, Activations) {
  const Tensor x = Tensor::FromVector<float>({5}, {-6.0f, -1.0f, 0.0f, 1.5f, 4.0f});
  auto t = Tanh(x);
  ASSERT_TRUE(t.ok());
  EXPECT_FLOAT_EQ(t->ToVector<float>()[1], std::tanh(-1.0f));
  EXPECT_EQ(t->ToVector<float>()[2], 0.0f);
  auto l = LeakyRelu(x, 0.1f);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->ToVector<float>(), (std::vector<float>{0.1f * -6.0f, -0.1f, 0.0f, 1.5f, 4.0f}));
  auto hs = HardSigmoid(x, 0.2f, 0.5f);
  ASSERT_TRUE(hs.ok());
  EXPECT_EQ(hs->ToVector<float>(), (std::vector<float>{0.0f, 0.2f * -1.0f + 0.5f, 0.5f,
                                                    0.2f * 1.5f + 0.5f, 1.0f}));
  auto hw = HardSwish(x);
  ASSERT_TRUE(hw.ok());
  EXPECT_EQ(hw->ToVector<float>()[0], -0.0f);
  EXPECT_FLOAT_EQ(hw->ToVector<float>()[1], -1.0f * (1.0f / 3.0f));
  EXPECT_FLOAT_EQ(hw->ToVector<float>()[3], 1.5f * 0.75f);
  EXPECT_EQ(hw->ToVector<float>()[4], 4.0f);
  // NaN passes through the clamps; integer dtypes are refused.
  auto nan = HardSigmoid(Tensor::FromVector<float>({1}, {NAN}), 1.0f, 0.0f);
  ASSERT_TRUE(nan.ok());
  EXPECT_TRUE(std::isnan(nan->ToVector<float>()[0]));
  auto e = Erf(x);
  ASSERT_TRUE(e.ok());
  EXPECT_FLOAT_EQ(e->ToVector<float>()[1], -0.84270079f);
  EXPECT_EQ(e->ToVector<float>()[2], 0.0f);
  EXPECT_FLOAT_EQ(e->ToVector<float>()[0], -1.0f);
  EXPECT_FALSE(Tanh(Tensor::Zeros(DType::kI8, {1})).ok());
  EXPECT_FALSE(Erf(Tensor::Zeros(DType::kI32, {1})).ok());
  EXPECT_FALSE(HardSwish(Tensor::Zeros(DType::kU8, {1})).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
