#include "kernels/reference/elementwise.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;


TEST(ElementwiseTest, BroadcastF32) {
  Tensor a = Tensor::FromVector<float>({2, 1, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = Tensor::FromVector<float>({2, 1}, {10, 20});
  auto y = Add(a, b);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(y->ToVector<float>(),
            (std::vector<float>{11, 12, 13, 21, 22, 23, 14, 15, 16, 24, 25, 26}));
  auto d = Divide(Tensor::Scalar<float>(1), Tensor::FromVector<float>({3}, {2, 0, -4}));
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->ToVector<float>(),
            (std::vector<float>{0.5f, std::numeric_limits<float>::infinity(), -0.25f}));
  auto s = Subtract(Tensor::FromVector<float>({1, 2}, {5, 6}),
                    Tensor::FromVector<float>({2, 1}, {1, 2}));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->ToVector<float>(), (std::vector<float>{4, 5, 3, 4}));
}

TEST(ElementwiseTest, IntegerWrapAndTruncation) {
  Tensor a = Tensor::FromVector<int8_t>({4}, {100, -128, 7, -7});
  Tensor b = Tensor::FromVector<int8_t>({4}, {100, -1, 2, 2});
  auto add = Add(a, b);
  ASSERT_TRUE(add.ok()) << add.status();
  EXPECT_EQ(add->ToVector<int8_t>(), (std::vector<int8_t>{-56, 127, 9, -5}));
  auto mul = Multiply(a, b);
  ASSERT_TRUE(mul.ok()) << mul.status();
  EXPECT_EQ(mul->ToVector<int8_t>(), (std::vector<int8_t>{16, -128, 14, -14}));
  auto div = Divide(a, b);
  ASSERT_TRUE(div.ok()) << div.status();
  EXPECT_EQ(div->ToVector<int8_t>(), (std::vector<int8_t>{1, -128, 3, -3}));
  auto sub = Subtract(Tensor::Scalar<uint8_t>(1), Tensor::Scalar<uint8_t>(2));
  ASSERT_TRUE(sub.ok()) << sub.status();
  EXPECT_EQ(sub->data<uint8_t>()[0], 255);
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  auto big = Divide(Tensor::Scalar<int64_t>(kMin), Tensor::Scalar<int64_t>(-1));
  ASSERT_TRUE(big.ok()) << big.status();
  EXPECT_EQ(big->data<int64_t>()[0], kMin);
  auto big_mul = Multiply(Tensor::Scalar<int32_t>(65536), Tensor::Scalar<int32_t>(65537));
  ASSERT_TRUE(big_mul.ok()) << big_mul.status();
  EXPECT_EQ(big_mul->data<int32_t>()[0], 65536);
}

TEST(ElementwiseTest, MaxMin) {
  Tensor a = Tensor::FromVector<int32_t>({3}, {1, 5, -3});
  Tensor b = Tensor::Scalar<int32_t>(2);
  auto mx = Maximum(a, b), mn = Minimum(a, b);
  ASSERT_TRUE(mx.ok() && mn.ok());
  EXPECT_EQ(mx->ToVector<int32_t>(), (std::vector<int32_t>{2, 5, 2}));
  EXPECT_EQ(mn->ToVector<int32_t>(), (std::vector<int32_t>{1, 2, -3}));
}

TEST(ElementwiseTest, Errors) {
  EXPECT_FALSE(
      Divide(Tensor::FromVector<int32_t>({2}, {1, 2}), Tensor::FromVector<int32_t>({2}, {1, 0}))
          .ok());
  EXPECT_FALSE(Add(Tensor::Zeros(DType::kF32, {2, 3}), Tensor::Zeros(DType::kF32, {3, 2})).ok());
  EXPECT_FALSE(Add(Tensor::Zeros(DType::kF32, {2}), Tensor::Zeros(DType::kI32, {2})).ok());
  EXPECT_FALSE(Add(Tensor::Zeros(DType::kF16, {2}), Tensor::Zeros(DType::kF16, {2})).ok());
  auto s = Add(Tensor::Zeros(DType::kF32, {2, 3}), Tensor::Zeros(DType::kF32, {3, 2}));
  EXPECT_NE(s.status().message().find("[2,3]"), std::string::npos) << s.status();
}

TEST(BiasAddTest, AlongChannels) {
  Tensor x = Tensor::FromVector<float>({1, 2, 2, 1}, {1, 2, 3, 4});
  auto y = BiasAdd(x, Tensor::FromVector<float>({2}, {10, 20}), 1);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->ToVector<float>(), (std::vector<float>{11, 12, 23, 24}));
  auto z = BiasAdd(Tensor::FromVector<int32_t>({2, 2}, {1, 2, 3, 4}),
                   Tensor::FromVector<int32_t>({2}, {-1, 1}), -1);
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(z->ToVector<int32_t>(), (std::vector<int32_t>{0, 3, 2, 5}));
  EXPECT_FALSE(BiasAdd(x, Tensor::FromVector<float>({3}, {1, 2, 3}), 1).ok());
  EXPECT_FALSE(BiasAdd(x, Tensor::FromVector<float>({2}, {1, 2}), 4).ok());
  EXPECT_FALSE(BiasAdd(x, Tensor::FromVector<int32_t>({2}, {1, 2}), 1).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
