#include "kernels/reference/cast.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Tensor;


TEST(CastTest, FloatToIntTruncatesAndSaturates) {
  const float inf = std::numeric_limits<float>::infinity();
  Tensor x = Tensor::FromVector<float>({7}, {2.9f, -2.9f, 300, -300, std::nanf(""), inf, -0.5f});
  auto y = Cast(x, DType::kI8);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{2, -2, 127, -128, 0, 127, 0}));
  auto u = Cast(x, DType::kU8);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->ToVector<uint8_t>(), (std::vector<uint8_t>{2, 0, 255, 0, 0, 255, 0}));
  auto big = Cast(Tensor::FromVector<float>({2}, {3e10f, -3e30f}), DType::kI32);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->ToVector<int32_t>(), (std::vector<int32_t>{std::numeric_limits<int32_t>::max(),
                                                         std::numeric_limits<int32_t>::min()}));
}

TEST(CastTest, IntToIntWraps) {
  auto y = Cast(Tensor::FromVector<int32_t>({4}, {300, -1, 128, -129}), DType::kI8);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->ToVector<int8_t>(), (std::vector<int8_t>{44, -1, -128, 127}));
  auto u = Cast(Tensor::FromVector<int8_t>({2}, {-1, 5}), DType::kU16);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->ToVector<uint16_t>(), (std::vector<uint16_t>{65535, 5}));
  auto w = Cast(Tensor::FromVector<uint8_t>({1}, {200}), DType::kI64);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->data<int64_t>()[0], 200);
}

TEST(CastTest, BoolAndHalf) {
  auto b = Cast(Tensor::FromVector<float>({4}, {0, -0.0f, 0.1f, std::nanf("")}), DType::kBool);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->ToVector<uint8_t>(), (std::vector<uint8_t>{0, 0, 1, 1}));
  auto fb = Cast(*b, DType::kF32);
  ASSERT_TRUE(fb.ok());
  EXPECT_EQ(fb->ToVector<float>(), (std::vector<float>{0, 0, 1, 1}));
  auto h = Cast(Tensor::FromVector<int32_t>({2}, {1, -2}), DType::kF16);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->ToVector<uint16_t>(), (std::vector<uint16_t>{0x3C00, 0xC000}));
  auto back = Cast(*h, DType::kI32);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->ToVector<int32_t>(), (std::vector<int32_t>{1, -2}));
  auto f = Cast(Tensor::FromVector<int64_t>({1}, {16777217}), DType::kF32);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->data<float>()[0], 16777216.0f);
}

}  // namespace
}  // namespace qnnc::kernels::reference
