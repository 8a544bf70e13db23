#include "kernels/reference/resize.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;


void ExpectNear(const Tensor& t, const std::vector<float>& expected) {
  std::vector<float> got = t.ToVector<float>();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-5) << "at " << i;
}

Tensor Sixteen() {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = static_cast<float>(i + 1);
  return Tensor::FromVector<float>({1, 1, 4, 4}, v);
}

// Expected 8x8 output of Sixteen() picking rows and columns idx.
std::vector<float> Pick(const std::vector<int>& idx) {
  std::vector<float> out;
  for (int y : idx) {
    for (int x : idx) out.push_back(static_cast<float>(y * 4 + x + 1));
  }
  return out;
}

TEST(ResizeTest, OnnxLinearHalfPixelAndAlignCorners) {
  Tensor x = Tensor::FromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  ResizeParams p;
  p.mode = "linear";
  auto y = Resize2D(x, 4, 4, p);
  ASSERT_TRUE(y.ok()) << y.status();
  ExpectNear(*y, {1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f, 2.5f, 2.75f, 3.25f, 3.5f, 3, 3.25f,
                  3.75f, 4});
  p.coordinate_transformation_mode = "align_corners";
  y = Resize2D(x, 4, 4, p);
  ASSERT_TRUE(y.ok()) << y.status();
  const float a = 1.0f / 3, b = 2.0f / 3;
  ExpectNear(
      *y, {1, 1 + a, 1 + b, 2, 1 + b, 2, 2 + a, 2 + b, 2 + a, 2 + b, 3, 3 + a, 3, 3 + a, 3 + b, 4});
}

TEST(ResizeTest, OnnxDownsampleWithScales) {
  Tensor x = Tensor::FromVector<float>({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  ResizeParams p;
  p.mode = "linear";
  p.scale_h = p.scale_w = 0.6f;
  auto y = Resize2D(x, 1, 2, p);
  ASSERT_TRUE(y.ok()) << y.status();
  ExpectNear(*y, {2.6666665f, 4.3333331f});
  p.mode = "nearest";
  y = Resize2D(x, 1, 2, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{1, 3}));
}

TEST(ResizeTest, OnnxNearestSizes) {
  Tensor x = Tensor::FromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  auto y = Resize2D(x, 7, 8);
  ASSERT_TRUE(y.ok()) << y.status();
  std::vector<float> expected;
  for (int r = 0; r < 7; ++r) {
    for (int c = 0; c < 8; ++c) expected.push_back((r < 4 ? 1 : 3) + (c < 4 ? 0 : 1));
  }
  EXPECT_EQ(y->ToVector<float>(), expected);
}

TEST(ResizeTest, OnnxNearestModes) {
  ResizeParams p;
  p.nearest_mode = "ceil";  // half_pixel
  auto y = Resize2D(Sixteen(), 8, 8, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), Pick({0, 1, 1, 2, 2, 3, 3, 3}));
  p.nearest_mode = "floor";
  p.coordinate_transformation_mode = "align_corners";
  y = Resize2D(Sixteen(), 8, 8, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), Pick({0, 0, 0, 1, 1, 2, 2, 3}));
  p.nearest_mode = "round_prefer_ceil";
  p.coordinate_transformation_mode = "asymmetric";
  y = Resize2D(Sixteen(), 8, 8, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), Pick({0, 1, 1, 2, 2, 3, 3, 3}));
  p.nearest_mode = "round_prefer_floor";
  y = Resize2D(Sixteen(), 8, 8, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), Pick({0, 0, 1, 1, 2, 2, 3, 3}));
}

TEST(ResizeTest, PytorchHalfPixelSingleOutput) {
  ResizeParams p;
  p.mode = "linear";
  p.coordinate_transformation_mode = "pytorch_half_pixel";
  auto y = Resize2D(Sixteen(), 1, 1, p);  // coordinate 0 on both axes
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{1}));
  p.coordinate_transformation_mode = "half_pixel";
  y = Resize2D(Sixteen(), 1, 1, p);  // coordinate 1.5: mean of 6, 7, 10, 11
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{8.5f}));
}

TEST(ResizeTest, IntegerBilinearRoundsHalfToEven) {
  ResizeParams p;
  p.mode = "linear";
  auto y = Resize2D(Tensor::FromVector<uint8_t>({1, 1, 1, 2}, {0, 3}), 1, 4, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{0, 1, 2, 3}));  // 0.75, 2.25
  p.coordinate_transformation_mode = "align_corners";
  y = Resize2D(Tensor::FromVector<uint8_t>({1, 1, 1, 2}, {0, 1}), 1, 3, p);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<uint8_t>(), (std::vector<uint8_t>{0, 0, 1}));  // 0.5 -> 0
  auto z = Resize2D(Tensor::FromVector<int8_t>({1, 1, 1, 2}, {1, 2}), 1, 3, p);
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(z->ToVector<int8_t>(), (std::vector<int8_t>{1, 2, 2}));  // 1.5 -> 2
}

TEST(ResizeTest, Errors) {
  Tensor x = Tensor::Zeros(DType::kF32, {1, 1, 2, 2});
  ResizeParams p;
  p.mode = "cubic";
  EXPECT_FALSE(Resize2D(x, 4, 4, p).ok());
  p = {};
  p.coordinate_transformation_mode = "tf_crop_and_resize";
  EXPECT_FALSE(Resize2D(x, 4, 4, p).ok());
  p = {};
  p.nearest_mode = "nearest";
  EXPECT_FALSE(Resize2D(x, 4, 4, p).ok());
  EXPECT_FALSE(Resize2D(x, -1, 4).ok());
  EXPECT_FALSE(Resize2D(Tensor::Zeros(DType::kF32, {2, 2}), 4, 4).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
