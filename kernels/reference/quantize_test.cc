#include "kernels/reference/quantize.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Tensor;


TEST(QuantizeTest, OnnxExampleAndTies) {
  Tensor x = Tensor::FromVector<float>({6}, {0, 2, 3, 1000, -254, -1000});
  auto y = Quantize(x, Tensor::Scalar<float>(2), Tensor::Scalar<uint8_t>(128), 1, DType::kU8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{128, 129, 130, 255, 1, 0}));
  Tensor ties = Tensor::FromVector<float>({6}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f});
  y = Quantize(ties, Tensor::Scalar<float>(1), Tensor::Scalar<int8_t>(0), 0, DType::kI8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{0, 2, 2, 0, -2, -2}));
}

TEST(QuantizeTest, PerAxis) {
  Tensor x = Tensor::FromVector<float>({1, 3, 3, 2}, {-162, 10, -100, 232, -20, -50, -76, 0, 0, 252,
                                                      32, -44, 245, -485, -960, -270, -375, -470});
  auto y = Quantize(x, Tensor::FromVector<float>({3}, {2, 4, 5}),
                    Tensor::FromVector<uint8_t>({3}, {84, 24, 196}), 1, DType::kU8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{3, 89, 34, 200, 74, 59, 5, 24, 24, 87, 32,
                                                       13, 245, 99, 4, 142, 121, 102}));
}

TEST(QuantizeTest, NanAndInfinity) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = Tensor::FromVector<float>({3}, {std::nanf(""), inf, -inf});
  auto y = Quantize(x, Tensor::Scalar<float>(0.1f), Tensor::Scalar<int8_t>(-3), 0, DType::kI8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{-3, 127, -128}));
}

TEST(QuantizeTest, UsesDivisionNotReciprocal) {
  // 2.25f / 0.3f = 7.4999995f -> 7, but 2.25f * (1 / 0.3f) = 7.5f -> 8.
  Tensor x = Tensor::FromVector<float>({1}, {2.25f});
  auto y = Quantize(x, Tensor::Scalar<float>(0.3f), Tensor::Scalar<int8_t>(0), 0, DType::kI8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>()[0], 7);
}

TEST(QuantizeTest, Errors) {
  Tensor x = Tensor::Zeros(DType::kF32, {2, 3});
  EXPECT_FALSE(
      Quantize(x, Tensor::Scalar<float>(0), Tensor::Scalar<uint8_t>(0), 0, DType::kU8).ok());
  EXPECT_FALSE(
      Quantize(x, Tensor::Scalar<float>(1), Tensor::Scalar<int32_t>(300), 0, DType::kU8).ok());
  EXPECT_FALSE(
      Quantize(x, Tensor::Zeros(DType::kF32, {3}), Tensor::Scalar<uint8_t>(0), 0, DType::kU8).ok());
  EXPECT_FALSE(
      Quantize(x, Tensor::Scalar<float>(1), Tensor::Scalar<uint8_t>(0), 0, DType::kF32).ok());
  EXPECT_FALSE(Quantize(Tensor::Zeros(DType::kU8, {2}), Tensor::Scalar<float>(1),
                        Tensor::Scalar<uint8_t>(0), 0, DType::kU8)
                   .ok());
}

TEST(DequantizeTest, OnnxExampleAndPerAxis) {
  Tensor q = Tensor::FromVector<uint8_t>({4}, {0, 3, 128, 255});
  auto y = Dequantize(q, Tensor::Scalar<float>(2), Tensor::Scalar<uint8_t>(128), 0);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{-256, -250, 0, 254}));
  Tensor qa = Tensor::FromVector<int8_t>({2, 2}, {10, -10, 10, -10});
  y = Dequantize(qa, Tensor::FromVector<float>({2}, {0.5f, 2.0f}),
                 Tensor::FromVector<int8_t>({2}, {0, 2}), -1);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{5, -24, 5, -24}));
}

TEST(DequantizeTest, Int32) {
  Tensor q = Tensor::FromVector<int32_t>({2}, {std::numeric_limits<int32_t>::max(), -7});
  auto y = Dequantize(q, Tensor::Scalar<float>(0.5f), Tensor::Scalar<int32_t>(0), 0);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{1073741824.0f, -3.5f}));
  EXPECT_FALSE(Dequantize(Tensor::Zeros(DType::kF32, {2}), Tensor::Scalar<float>(1),
                          Tensor::Scalar<int32_t>(0), 0)
                   .ok());
}

TEST(DynamicQuantizeTest, OnnxExamples) {
  auto r = DynamicQuantize(Tensor::FromVector<float>({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FLOAT_EQ(r->y_scale.data<float>()[0], 0.019607844f);
  EXPECT_EQ(r->y_zero_point.data<uint8_t>()[0], 153);
  EXPECT_EQ(r->y_scale.shape(), tensor::Shape{});
  EXPECT_EQ(r->y.ToVector<uint8_t>(), (std::vector<uint8_t>{153, 255, 0, 26, 221, 179}));

  r = DynamicQuantize(Tensor::FromVector<float>({6}, {-1.0f, -2.1f, -1.3f, -2.5f, -3.34f, -4.0f}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FLOAT_EQ(r->y_scale.data<float>()[0], 0.015686275f);
  EXPECT_EQ(r->y_zero_point.data<uint8_t>()[0], 255);
  EXPECT_EQ(r->y.ToVector<uint8_t>(), (std::vector<uint8_t>{191, 121, 172, 96, 42, 0}));

  r = DynamicQuantize(Tensor::FromVector<float>(
      {3, 4}, {1, 2.1f, 1.3f, 2.5f, 3.34f, 4.0f, 1.5f, 2.6f, 3.9f, 4.0f, 3.0f, 2.345f}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->y_zero_point.data<uint8_t>()[0], 0);
  EXPECT_EQ(r->y.ToVector<uint8_t>(),
            (std::vector<uint8_t>{64, 134, 83, 159, 213, 255, 96, 166, 249, 255, 191, 149}));
}

TEST(DynamicQuantizeTest, AllZerosHasUnitScale) {
  auto r = DynamicQuantize(Tensor::FromVector<float>({3}, {0, 0, 0}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->y_scale.data<float>()[0], 1.0f);
  EXPECT_EQ(r->y_zero_point.data<uint8_t>()[0], 0);
  EXPECT_EQ(r->y.ToVector<uint8_t>(), (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_FALSE(
      DynamicQuantize(Tensor::FromVector<float>({1}, {std::numeric_limits<float>::infinity()}))
          .ok());
  EXPECT_FALSE(DynamicQuantize(Tensor::Zeros(DType::kU8, {1})).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
