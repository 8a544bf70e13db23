#include "kernels/reference/pool.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;


Tensor Iota1(Shape shape) {  // 1, 2, 3, ...
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 1.0f);
  return Tensor::FromVector<float>(shape, v);
}

TEST(MaxPoolTest, OnnxCeilMode) {
  Pool2DParams p;
  p.kernel = {3, 3};
  p.strides = {2, 2};
  p.ceil_mode = true;
  auto y = MaxPool2D(Iota1({1, 1, 4, 4}), p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{1, 1, 2, 2}));
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{11, 12, 15, 16}));
  p.ceil_mode = false;
  y = MaxPool2D(Iota1({1, 1, 4, 4}), p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{11}));
}

TEST(MaxPoolTest, CeilModeWindowsMustStartBeforeEndPadding) {
  Pool2DParams p;
  p.kernel = {2, 1};
  p.strides = {2, 1};
  p.pads = {1, 0, 0, 0};
  p.ceil_mode = true;
  Tensor x = Tensor::FromVector<int8_t>({1, 1, 6, 1}, {1, 5, 2, 8, 3, 4});
  auto y = MaxPool2D(x, p);  // windows {x0}, {x1,x2}, {x3,x4}, {x5}
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{1, 5, 8, 4}));
  p.ceil_mode = false;
  y = MaxPool2D(x, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{1, 5, 8}));
  // H = 5, pads 1 + 1: a 4th window would start in the end padding.
  p.ceil_mode = true;
  p.pads = {1, 0, 1, 0};
  y = MaxPool2D(Tensor::FromVector<int8_t>({1, 1, 5, 1}, {-5, -4, -3, -2, -1}), p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{-5, -3, -1}));  // padding never wins
}

TEST(MaxPoolTest, DilationAndPadding) {
  Pool2DParams p;
  p.kernel = {2, 2};
  p.dilation = {2, 2};
  Tensor x = Iota1({1, 1, 4, 4});
  auto y = MaxPool2D(x, p);  // ONNX maxpool_2d_dilations: [[11, 12], [15, 16]]
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{11, 12, 15, 16}));
}

TEST(AvgPoolTest, OnnxPrecomputedPads) {
  Pool2DParams p;
  p.kernel = {5, 5};
  p.pads = {2, 2, 2, 2};
  auto y = AvgPool2D(Iota1({1, 1, 5, 5}), p);
  ASSERT_TRUE(y.ok()) << y.status();
  const std::vector<float> expected = {7,  7.5f,  8,  8.5f,  9,  9.5f,  10, 10.5f, 11, 11.5f,
                                       12, 12.5f, 13, 13.5f, 14, 14.5f, 15, 15.5f, 16, 16.5f,
                                       17, 17.5f, 18, 18.5f, 19};
  std::vector<float> got = y->ToVector<float>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-5) << i;
  p.count_include_pad = true;
  y = AvgPool2D(Iota1({1, 1, 5, 5}), p);
  ASSERT_TRUE(y.ok()) << y.status();
  const std::vector<float> with_pad = {
      2.52f, 3.6f, 4.8f,  4.08f, 3.24f, 4.56f,  6.4f,  8.4f,  7.04f, 5.52f, 7.2f,  10.0f, 13.0f,
      10.8f, 8.4f, 6.96f, 9.6f,  12.4f, 10.24f, 7.92f, 6.12f, 8.4f,  10.8f, 8.88f, 6.84f};
  got = y->ToVector<float>();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], with_pad[i], 1e-5) << i;
}

TEST(AvgPoolTest, IntegerRoundsHalfToEven) {
  Pool2DParams p;
  p.kernel = {1, 2};
  auto y = AvgPool2D(Tensor::FromVector<uint8_t>({1, 1, 1, 4}, {1, 2, 3, 4}), p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{2, 2, 4}));  // 1.5, 2.5, 3.5
  auto z = AvgPool2D(Tensor::FromVector<int8_t>({1, 1, 1, 4}, {-1, -2, -3, 127}), p);
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(z->ToVector<int8_t>(), (std::vector<int8_t>{-2, -2, 62}));  // -1.5, -2.5, 62
}

TEST(GlobalAvgPoolTest, FloatAndInteger) {
  auto y = GlobalAvgPool2D(Tensor::FromVector<float>({1, 2, 2, 2}, {1, 2, 3, 4, 0, 0, 0, 1}));
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{1, 2, 1, 1}));
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{2.5f, 0.25f}));
  auto q = GlobalAvgPool2D(Tensor::FromVector<uint8_t>({1, 2, 2, 2}, {1, 2, 3, 5, 1, 1, 2, 2}));
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->ToVector<uint8_t>(), (std::vector<uint8_t>{3, 2}));  // 2.75, 1.5
}

TEST(PoolTest, Errors) {
  Pool2DParams p;
  p.kernel = {3, 3};
  EXPECT_FALSE(MaxPool2D(Tensor::Zeros(DType::kF32, {1, 1, 2, 2}), p).ok());
  EXPECT_FALSE(MaxPool2D(Tensor::Zeros(DType::kF32, {1, 2, 2}), p).ok());
  p.kernel = {1, 1};
  p.strides = {0, 1};
  EXPECT_FALSE(AvgPool2D(Tensor::Zeros(DType::kF32, {1, 1, 2, 2}), p).ok());
  EXPECT_FALSE(GlobalAvgPool2D(Tensor::Zeros(DType::kF32, {1, 1, 0, 2})).ok());
  EXPECT_FALSE(GlobalAvgPool2D(Tensor::Zeros(DType::kF16, {1, 1, 2, 2})).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
