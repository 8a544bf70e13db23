#include "kernels/reference/dense.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;


TEST(DenseTest, F32HandComputed) {
  Tensor x = Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor w = Tensor::FromVector<float>({2, 3}, {1, 0, -1, 0.5, 0.5, 0.5});
  auto y = DenseF32(x, w);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{2, 2}));
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{-2, 3, -2, 7.5}));
}

TEST(DenseTest, QnnDensePerChannelZeroPoint) {
  Tensor x = Tensor::FromVector<uint8_t>({1, 2, 2}, {130, 120, 0, 255});
  Tensor w = Tensor::FromVector<int8_t>({3, 2}, {1, 2, -3, 4, 127, -128});
  auto y =
      QnnDense(x, w, Tensor::Scalar<uint8_t>(128), Tensor::FromVector<int8_t>({3}, {0, 1, -1}));
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{1, 2, 3}));
  // Row 0: x - zx = (2, -8). n=0: 2*1 + -8*2 = -14; n=1: 2*-4 + -8*3 = -32;
  // n=2: 2*128 + -8*-127 = 1272. Row 1: (-128, 127): -128 + 254 = 126;
  // 512 + 381 = 893; -16384 - 16129 = -32513.
  EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{-14, -32, 1272, 126, 893, -32513}));
}

TEST(DenseTest, ThreadPoolMatchesSerial) {
  std::vector<float> xs(37 * 19), ws(23 * 19);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i % 7) - 3.0f;
  for (size_t i = 0; i < ws.size(); ++i) ws[i] = static_cast<float>(i % 5) * 0.25f;
  Tensor x = Tensor::FromVector<float>({37, 19}, xs), w = Tensor::FromVector<float>({23, 19}, ws);
  pthreadpool_t pool = pthreadpool_create(2);
  auto a = DenseF32(x, w), b = DenseF32(x, w, pool);
  pthreadpool_destroy(pool);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a->BitwiseEquals(*b));
}

TEST(MatMulTest, NumpyRankOnePromotion) {
  Tensor m = Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor v3 = Tensor::FromVector<float>({3}, {1, 1, 2});
  Tensor v2 = Tensor::FromVector<float>({2}, {1, -1});
  auto mv = MatMul(m, v3);  // [2, 3] x [3] -> [2]
  ASSERT_TRUE(mv.ok()) << mv.status();
  EXPECT_EQ(mv->shape(), (Shape{2}));
  EXPECT_EQ(mv->ToVector<float>(), (std::vector<float>{9, 21}));
  auto vm = MatMul(v2, m);  // [2] x [2, 3] -> [3]
  ASSERT_TRUE(vm.ok()) << vm.status();
  EXPECT_EQ(vm->shape(), (Shape{3}));
  EXPECT_EQ(vm->ToVector<float>(), (std::vector<float>{-3, -3, -3}));
  auto dot = MatMul(v3, v3);  // [3] x [3] -> scalar
  ASSERT_TRUE(dot.ok()) << dot.status();
  EXPECT_EQ(dot->shape(), (Shape{}));
  EXPECT_EQ(dot->data<float>()[0], 6);
}

TEST(MatMulTest, BroadcastBatch) {
  // a [2, 1, 1, 2] x b [3, 2, 1] -> [2, 3, 1, 1].
  Tensor a = Tensor::FromVector<int8_t>({2, 1, 1, 2}, {1, 2, 3, 4});
  Tensor b = Tensor::FromVector<int16_t>({3, 2, 1}, {1, 0, 0, 1, 1, 1});
  auto y = MatMul(a, b);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->dtype(), DType::kI32);
  EXPECT_EQ(y->shape(), (Shape{2, 3, 1, 1}));
  EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 3, 4, 7}));
}

TEST(MatMulTest, QnnMatMulPerColumnZeroPoint) {
  Tensor a = Tensor::FromVector<uint8_t>({2, 2}, {10, 12, 8, 11});
  Tensor b = Tensor::FromVector<int8_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto y =
      QnnMatMul(a, b, Tensor::Scalar<uint8_t>(10), Tensor::FromVector<int32_t>({3}, {1, 0, -1}));
  ASSERT_TRUE(y.ok()) << y.status();
  // a - za = [[0, 2], [-2, 1]]; b - zb = [[0, 2, 4], [3, 5, 7]].
  EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{6, 10, 14, 3, 1, -1}));
}

TEST(MatMulTest, Errors) {
  Tensor a = Tensor::Zeros(DType::kF32, {2, 3});
  EXPECT_FALSE(MatMul(a, Tensor::Zeros(DType::kF32, {2, 3})).ok());
  EXPECT_FALSE(
      MatMul(Tensor::Zeros(DType::kF32, {2, 2, 3}), Tensor::Zeros(DType::kF32, {3, 3, 1})).ok());
  EXPECT_FALSE(MatMul(a, Tensor::Zeros(DType::kI8, {3, 3})).ok());
  EXPECT_FALSE(MatMul(Tensor::Scalar<float>(1), a).ok());
  EXPECT_FALSE(QnnMatMul(Tensor::Zeros(DType::kU8, {2, 3}), Tensor::Zeros(DType::kI8, {3, 4}),
                         Tensor::Scalar<uint8_t>(0), Tensor::Zeros(DType::kI8, {3}))
                   .ok());
  EXPECT_FALSE(DenseF32(a, Tensor::Zeros(DType::kF32, {4, 2})).ok());
  EXPECT_FALSE(QnnDense(a, Tensor::Zeros(DType::kF32, {4, 3}), Tensor::Scalar<uint8_t>(0),
                        Tensor::Scalar<uint8_t>(0))
                   .ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
