#include "kernels/reference/layout_transform.h"

#include <cstdint>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;


Tensor Iota(Shape shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return Tensor::FromVector<float>(shape, v);
}

TEST(LayoutTransformTest, NchwToNhwc) {
  Tensor x = Iota({1, 3, 1, 2});  // c0: 0 1, c1: 2 3, c2: 4 5
  auto y = LayoutTransform(x, "NCHW", "NHWC");
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{1, 1, 2, 3}));
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{0, 2, 4, 1, 3, 5}));
  auto back = LayoutTransform(*y, "NHWC", "NCHW");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->BitwiseEquals(x));
}

TEST(LayoutTransformTest, BlockedChannelsPadWithZeros) {
  Tensor x = Tensor::FromVector<int8_t>({1, 3, 1, 2}, {1, 2, 3, 4, 5, 6});
  auto y = LayoutTransform(x, "NCHW", "NCHW2c");
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{1, 2, 1, 2, 2}));
  // Block 0 = channels 0, 1; block 1 = channel 2 and a zero channel.
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{1, 3, 2, 4, 5, 0, 6, 0}));
  auto back = LayoutTransform(*y, "NCHW2c", "NCHW");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->shape(), (Shape{1, 4, 1, 2}));
  EXPECT_EQ(back->ToVector<int8_t>(), (std::vector<int8_t>{1, 2, 3, 4, 5, 6, 0, 0}));
}

TEST(LayoutTransformTest, RoundTrips) {
  Tensor x = Iota({2, 32, 3, 5});
  for (const char* layout : {"NHWC", "NCHW16c", "NCHW8c", "NHWC4c", "CHWN"}) {
    auto there = LayoutTransform(x, "NCHW", layout);
    ASSERT_TRUE(there.ok()) << layout << ": " << there.status();
    auto back = LayoutTransform(*there, layout, "NCHW");
    ASSERT_TRUE(back.ok()) << layout << ": " << back.status();
    EXPECT_TRUE(back->BitwiseEquals(x)) << layout;
  }
  auto a = LayoutTransform(x, "NCHW", "NCHW8c");
  auto b = LayoutTransform(*a, "NCHW8c", "NCHW16c");
  auto c = LayoutTransform(x, "NCHW", "NCHW16c");
  ASSERT_TRUE(b.ok() && c.ok());
  EXPECT_TRUE(b->BitwiseEquals(*c));
}

TEST(LayoutTransformTest, Weights) {
  Tensor w = Iota({2, 3, 1, 1});  // O=2, I=3
  auto hwio = LayoutTransform(w, "OIHW", "HWIO");
  ASSERT_TRUE(hwio.ok()) << hwio.status();
  EXPECT_EQ(hwio->shape(), (Shape{1, 1, 3, 2}));
  EXPECT_EQ(hwio->ToVector<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  auto ohwi = LayoutTransform(*hwio, "HWIO", "OHWI");
  ASSERT_TRUE(ohwi.ok()) << ohwi.status();
  EXPECT_EQ(ohwi->shape(), (Shape{2, 1, 1, 3}));
  EXPECT_EQ(ohwi->ToVector<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

TEST(LayoutTransformTest, Errors) {
  Tensor x = Iota({1, 4, 2, 2});
  EXPECT_FALSE(LayoutTransform(x, "NCHW", "OIHW").ok());
  EXPECT_FALSE(LayoutTransform(x, "NCHW", "NCHWc").ok());
  EXPECT_FALSE(LayoutTransform(x, "NCHW", "NCHW4").ok());
  EXPECT_FALSE(LayoutTransform(x, "NCHW", "NCCHW").ok());
  EXPECT_FALSE(LayoutTransform(x, "NCH", "NHC").ok());
  EXPECT_FALSE(LayoutTransform(Iota({1, 1, 2, 2, 3}), "NCHW4c", "NCHW").ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
