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

template <typename T>
std::vector<T> Values(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.num_elements());
}

TEST(UnaryTest, ReluSigmoidRound) {
  auto r = Relu(Tensor::FromVector<float>({3}, {-1, 0, 2.5f}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Values<float>(*r), (std::vector<float>{0, 0, 2.5f}));
  auto ri = Relu(Tensor::FromVector<int8_t>({2}, {-5, 5}));
  ASSERT_TRUE(ri.ok());
  EXPECT_EQ(Values<int8_t>(*ri), (std::vector<int8_t>{0, 5}));
  auto s = Sigmoid(Tensor::FromVector<float>({3}, {0, 100, -100}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Values<float>(*s), (std::vector<float>{0.5f, 1.0f, 0.0f}));
  auto rd = Round(Tensor::FromVector<float>({6}, {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 2.6f}));
  ASSERT_TRUE(rd.ok());
  EXPECT_EQ(Values<float>(*rd), (std::vector<float>{0, 2, 2, -0.0f, -2, 3}));
  EXPECT_FALSE(Sigmoid(Tensor::Zeros(DType::kI32, {1})).ok());
}

TEST(UnaryTest, NegAbsWrap) {
  auto n = Neg(Tensor::FromVector<int8_t>({3}, {-128, 5, 0}));
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(Values<int8_t>(*n), (std::vector<int8_t>{-128, -5, 0}));
  auto a = Abs(Tensor::FromVector<int8_t>({3}, {-128, -5, 3}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(Values<int8_t>(*a), (std::vector<int8_t>{-128, 5, 3}));
  auto af = Abs(Tensor::FromVector<float>({2}, {-1.5f, 2}));
  ASSERT_TRUE(af.ok());
  EXPECT_EQ(Values<float>(*af), (std::vector<float>{1.5f, 2}));
}

TEST(UnaryTest, Clip) {
  auto f = Clip(Tensor::FromVector<float>({4}, {-2, 0.5f, 7, std::nanf("")}), -1, 6);
  ASSERT_TRUE(f.ok());
  std::vector<float> v = Values<float>(*f);
  EXPECT_EQ(v[0], -1);
  EXPECT_EQ(v[1], 0.5f);
  EXPECT_EQ(v[2], 6);
  EXPECT_TRUE(std::isnan(v[3]));
  // Integer bounds: ceil(-1.5) = -1, floor(200.7) = 200 within u8 [0, 255].
  auto u = Clip(Tensor::FromVector<uint8_t>({3}, {0, 100, 255}), -1.5, 200.7);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(Values<uint8_t>(*u), (std::vector<uint8_t>{0, 100, 200}));
  auto i = Clip(Tensor::FromVector<int8_t>({3}, {-128, 0, 127}), -1e30, 1e30);
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(Values<int8_t>(*i), (std::vector<int8_t>{-128, 0, 127}));
  EXPECT_FALSE(Clip(Tensor::Zeros(DType::kF32, {1}), 2, 1).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
