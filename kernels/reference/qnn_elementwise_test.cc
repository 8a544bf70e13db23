#include "kernels/reference/qnn_elementwise.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;


Tensor F(float v) { return Tensor::Scalar<float>(v); }
Tensor U8(uint8_t v) { return Tensor::Scalar<uint8_t>(v); }

TEST(QnnAddTest, BroadcastRoundingSaturation) {
  Tensor a = Tensor::FromVector<uint8_t>({2, 2}, {130, 128, 255, 0});
  Tensor b = Tensor::FromVector<uint8_t>({2}, {129, 100});
  // ra = 0.5, rb = 1: v = 0.5 * (a - 128) + (b - 100).
  auto y = QnnAdd(a, F(0.5f), U8(128), b, F(1.0f), U8(100), F(1.0f), U8(10), DType::kU8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{2, 2}));
  // (1 + 29) + 10 = 40; (0 + 0) + 10 = 10; 63.5 + 29 = 92.5 -> 92, + 10;
  // -64 + 0 = -64 + 10 < 0 -> 0.
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{40, 10, 102, 0}));
  auto s = QnnAdd(Tensor::FromVector<int8_t>({1}, {127}), F(1.0f), Tensor::Scalar<int8_t>(-128),
                  Tensor::FromVector<int8_t>({1}, {127}), F(1.0f), Tensor::Scalar<int8_t>(0),
                  F(1.0f), Tensor::Scalar<int8_t>(0), DType::kI8);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->data<int8_t>()[0], 127);
}

TEST(QnnAddTest, HalfToEvenTies) {
  Tensor a = Tensor::FromVector<int8_t>({4}, {1, 3, -1, -3});
  Tensor zero = Tensor::FromVector<int8_t>({1}, {0});
  auto y = QnnAdd(a, F(0.5f), Tensor::Scalar<int8_t>(0), zero, F(1.0f), Tensor::Scalar<int8_t>(0),
                  F(1.0f), Tensor::Scalar<int8_t>(0), DType::kI8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{0, 2, 0, -2}));
}

TEST(QnnMulTest, HandComputed) {
  Tensor a = Tensor::FromVector<uint8_t>({3}, {138, 118, 128});
  Tensor b = Tensor::FromVector<uint8_t>({3, 1}, {133, 123, 255});
  // m = 0.1 * 0.2 / 0.01 = 2 (in float32); v = 2 * (a - 128) * (b - 128).
  auto y = QnnMul(a, F(0.1f), U8(128), b, F(0.2f), U8(128), F(0.01f), U8(100), DType::kU8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{3, 3}));
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{200, 0, 100, 0, 200, 100, 255, 0, 100}));
  auto q = QnnMul(Tensor::FromVector<int8_t>({2}, {3, -3}), F(0.5f), Tensor::Scalar<int8_t>(0),
                  Tensor::FromVector<int8_t>({1}, {1}), F(1.0f), Tensor::Scalar<int8_t>(0), F(1.0f),
                  Tensor::Scalar<int8_t>(0), DType::kI8);
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->ToVector<int8_t>(), (std::vector<int8_t>{2, -2}));  // 1.5 -> 2, -1.5 -> -2
}

TEST(QnnConcatTest, RequantizesThenConcatenates) {
  Tensor a = Tensor::FromVector<uint8_t>({1, 2}, {10, 20});
  Tensor b = Tensor::FromVector<uint8_t>({1, 1}, {7});
  // a: scale 1, zp 0 -> out scale 2, zp 5: 10 -> 10, 20 -> 15.
  // b: scale 3, zp 6 -> (7 - 6) * 1.5 = 1.5 -> 2, + 5 = 7.
  auto y = QnnConcat({a, b}, {F(1.0f), F(3.0f)}, {U8(0), U8(6)}, F(2.0f), U8(5), 1);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{1, 3}));
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{10, 15, 7}));
  EXPECT_FALSE(QnnConcat({a, b}, {F(1.0f)}, {U8(0), U8(6)}, F(2.0f), U8(5), 1).ok());
  EXPECT_FALSE(QnnConcat({a, Tensor::Zeros(DType::kI8, {1, 1})}, {F(1.0f), F(1.0f)}, {U8(0), U8(0)},
                         F(2.0f), U8(5), 1)
                   .ok());
}

TEST(QnnAddTest, Errors) {
  Tensor a = Tensor::Zeros(DType::kU8, {2, 3});
  EXPECT_FALSE(
      QnnAdd(a, F(1), U8(0), Tensor::Zeros(DType::kU8, {2}), F(1), U8(0), F(1), U8(0), DType::kU8)
          .ok());
  EXPECT_FALSE(QnnAdd(a, F(1), U8(0), a, F(1), U8(0), F(0), U8(0), DType::kU8).ok());
  EXPECT_FALSE(
      QnnAdd(a, F(1), U8(0), a, Tensor::Zeros(DType::kF32, {2}), U8(0), F(1), U8(0), DType::kU8)
          .ok());
  EXPECT_FALSE(
      QnnMul(Tensor::Zeros(DType::kF32, {2}), F(1), U8(0), a, F(1), U8(0), F(1), U8(0), DType::kU8)
          .ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
