#include "kernels/reference/requantize.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/conv2d.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Tensor;


Tensor F(float v) { return Tensor::Scalar<float>(v); }
Tensor I(int32_t v) { return Tensor::Scalar<int32_t>(v); }

TEST(RequantizeTest, RoundsHalfToEven) {
  Tensor x = Tensor::FromVector<int32_t>({7}, {1, 3, -1, -3, 5, 7, 2});
  auto y = Requantize(x, F(0.5f), I(0), F(1.0f), I(0), 0, DType::kI8);
  ASSERT_TRUE(y.ok()) << y.status();
  // 0.5 -> 0, 1.5 -> 2, -0.5 -> 0, -1.5 -> -2, 2.5 -> 2, 3.5 -> 4, 1 -> 1.
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{0, 2, 0, -2, 2, 4, 1}));
}

TEST(RequantizeTest, ZeroPointsAndSaturation) {
  Tensor x = Tensor::FromVector<int32_t>({5}, {10, 20, 1000, -1000, 11});
  auto y = Requantize(x, F(1.0f), I(10), F(2.0f), Tensor::Scalar<uint8_t>(128), 0, DType::kU8);
  ASSERT_TRUE(y.ok()) << y.status();
  // (x - 10) / 2 rounded + 128: 128, 133, 623 -> 255, -377 -> 0, 0.5 -> 0 -> 128.
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{128, 133, 255, 0, 128}));
  auto z = Requantize(x, F(1.0f), I(0), F(1.0f), I(0), 0, DType::kI8);
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(z->ToVector<int8_t>(), (std::vector<int8_t>{10, 20, 127, -128, 11}));
}

TEST(RequantizeTest, ClampRange) {
  Tensor x = Tensor::FromVector<int32_t>({4}, {-50, 0, 50, 500});
  auto y = Requantize(x, F(1.0f), I(0), F(1.0f), I(3), 0, DType::kI8, /*clamp_min=*/3,
                      /*clamp_max=*/100);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{3, 3, 53, 100}));
  // Clamp bounds outside the dtype are narrowed to it; an empty range fails.
  y = Requantize(x, F(1.0f), I(0), F(1.0f), I(0), 0, DType::kI8, -1000, 1000);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{-50, 0, 50, 127}));
  EXPECT_FALSE(Requantize(x, F(1.0f), I(0), F(1.0f), I(0), 0, DType::kI8, 10, 5).ok());
}

TEST(RequantizeTest, PerChannelMixedScales) {
  // [2, 3] per channel along axis 0 (input scales) and along axis 1 (output scales).
  Tensor x = Tensor::FromVector<int32_t>({2, 3}, {4, 8, -12, 4, 8, -12});
  auto y = Requantize(x, Tensor::FromVector<float>({2}, {0.5f, 0.25f}), I(0), F(1.0f), I(0), 0,
                      DType::kI8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{2, 4, -6, 1, 2, -3}));
  y = Requantize(x, F(1.0f), I(0), Tensor::FromVector<float>({3}, {1.0f, 2.0f, 8.0f}),
                 Tensor::FromVector<int8_t>({3}, {0, 1, -1}), -1, DType::kI8);
  ASSERT_TRUE(y.ok()) << y.status();
  // Columns: x / 1 + 0, x / 2 + 1, x / 8 - 1 (-1.5 -> -2).
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{4, 5, -3, 4, 5, -3}));
}

TEST(RequantizeTest, HugeAccumulatorsSaturateWithoutOverflow) {
  const int32_t kMax = std::numeric_limits<int32_t>::max(),
                kMin = std::numeric_limits<int32_t>::min();
  Tensor x = Tensor::FromVector<int32_t>({3}, {kMax, kMin, kMin});
  // float(kMax) == 2^31: must clamp to kMax, not wrap.
  auto y = Requantize(x, F(1.0f), I(0), F(1.0f), I(0), 0, DType::kI32);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{kMax, kMin, kMin}));
  y = Requantize(x, F(1000.0f), I(100), F(1e-3f), I(0), 0, DType::kI32);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<int32_t>(), (std::vector<int32_t>{kMax, kMin, kMin}));
  const int64_t kMin64 = std::numeric_limits<int64_t>::min();
  Tensor big = Tensor::FromVector<int64_t>({2}, {kMin64, std::numeric_limits<int64_t>::max()});
  auto z = Requantize(big, F(1.0f), Tensor::Scalar<int64_t>(5), F(1.0f), I(0), 0, DType::kI64);
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(z->ToVector<int64_t>(),
            (std::vector<int64_t>{kMin64, std::numeric_limits<int64_t>::max()}));
}

// ONNX QLinearConv example = QnnConv2D followed by Requantize with
// input_scale = x_scale * w_scale.
TEST(RequantizeTest, OnnxQLinearConvExample) {
  Tensor x = Tensor::FromVector<uint8_t>(
      {1, 1, 7, 7},
      {255, 174, 162, 25,  203, 168, 58,  15,  59,  237, 95,  129, 0,  64,  56, 242, 153,
       221, 168, 12,  166, 232, 178, 186, 195, 237, 162, 237, 188, 39, 124, 77, 80,  102,
       43,  127, 230, 21,  83,  41,  40,  134, 255, 154, 92,  141, 42, 148, 247});
  Tensor w = Tensor::FromVector<uint8_t>({1, 1, 1, 1}, {0});
  Conv2DParams p;
  p.out_dtype = DType::kI32;
  auto acc =
      QnnConv2D(x, w, Tensor::Scalar<uint8_t>(132), Tensor::FromVector<uint8_t>({1}, {255}), p);
  ASSERT_TRUE(acc.ok()) << acc.status();
  const float x_scale = 0.00369204697f, w_scale = 0.00172794575f, y_scale = 0.00162681262f;
  auto y = Requantize(*acc, F(x_scale * w_scale), I(0), F(y_scale), Tensor::Scalar<uint8_t>(123), 1,
                      DType::kU8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<uint8_t>(),
            (std::vector<uint8_t>{0,   81,  93,  230, 52,  87,  197, 240, 196, 18,  160, 126, 255,
                                  191, 199, 13,  102, 34,  87,  243, 89,  23,  77,  69,  60,  18,
                                  93,  18,  67,  216, 131, 178, 175, 153, 212, 128, 25,  234, 172,
                                  214, 215, 121, 0,   101, 163, 114, 213, 107, 8}));
}

TEST(RequantizeTest, Errors) {
  Tensor x = Tensor::Zeros(DType::kI32, {2, 3});
  EXPECT_FALSE(
      Requantize(Tensor::Zeros(DType::kF32, {2}), F(1), I(0), F(1), I(0), 0, DType::kI8).ok());
  EXPECT_FALSE(Requantize(x, F(1), I(0), F(1), I(0), 0, DType::kF32).ok());
  EXPECT_FALSE(Requantize(x, F(1), I(0), F(0), I(0), 0, DType::kI8).ok());
  EXPECT_FALSE(
      Requantize(x, Tensor::Zeros(DType::kF32, {3}), I(0), F(1), I(0), 0, DType::kI8).ok());
  EXPECT_FALSE(
      Requantize(x, Tensor::Zeros(DType::kF32, {3}), I(0), F(1), I(0), 2, DType::kI8).ok());
  EXPECT_FALSE(Requantize(x, F(1), F(0), F(1), I(0), 0, DType::kI8).ok());
  auto s = Requantize(x, Tensor::Zeros(DType::kF32, {3}), I(0), F(1), I(0), 0, DType::kI8);
  EXPECT_NE(s.status().message().find("Requantize"), std::string::npos);
}

}  // namespace
}  // namespace qnnc::kernels::reference
