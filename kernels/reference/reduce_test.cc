#include "kernels/reference/reduce.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;


Tensor Example() {
  return Tensor::FromVector<float>({3, 2, 2}, {5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2});
}

TEST(ReduceTest, MeanSumOverAxes) {
  auto m = ReduceMean(Example(), {1}, true);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->shape(), (Shape{3, 1, 2}));
  EXPECT_EQ(m->ToVector<float>(), (std::vector<float>{12.5f, 1.5f, 35, 1.5f, 57.5f, 1.5f}));
  auto s = ReduceSum(Example(), {}, false);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->shape(), Shape{});
  EXPECT_EQ(s->data<float>()[0], 219);
}

TEST(ReduceTest, MinMaxNegativeAxes) {
  auto mx = ReduceMax(Example(), {-1}, false);
  ASSERT_TRUE(mx.ok()) << mx.status();
  EXPECT_EQ(mx->shape(), (Shape{3, 2}));
  EXPECT_EQ(mx->ToVector<float>(), (std::vector<float>{5, 20, 30, 40, 55, 60}));
  auto mn = ReduceMin(Example(), {0, 2}, true);
  ASSERT_TRUE(mn.ok()) << mn.status();
  EXPECT_EQ(mn->shape(), (Shape{1, 2, 1}));
  EXPECT_EQ(mn->ToVector<float>(), (std::vector<float>{1, 2}));
  auto nan = ReduceMax(Tensor::FromVector<float>({3}, {1, std::nanf(""), 3}), {0});
  ASSERT_TRUE(nan.ok());
  EXPECT_TRUE(std::isnan(nan->data<float>()[0]));
}

TEST(ReduceTest, Integers) {
  auto mean = ReduceMean(Tensor::FromVector<int32_t>({3, 2}, {1, 2, 2, 3, -1, -2}), {1}, false);
  ASSERT_TRUE(mean.ok()) << mean.status();
  EXPECT_EQ(mean->ToVector<int32_t>(), (std::vector<int32_t>{2, 2, -2}));  // 1.5, 2.5, -1.5
  auto sum = ReduceSum(Tensor::FromVector<int8_t>({2}, {100, 100}), {0}, false);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(sum->data<int8_t>()[0], -56);  // wraps
  auto mn = ReduceMin(Tensor::FromVector<uint8_t>({2, 2}, {9, 3, 4, 200}), {0}, false);
  ASSERT_TRUE(mn.ok()) << mn.status();
  EXPECT_EQ(mn->ToVector<uint8_t>(), (std::vector<uint8_t>{4, 3}));
}

TEST(ReduceTest, Errors) {
  EXPECT_FALSE(ReduceSum(Example(), {1, -2}).ok());
  EXPECT_FALSE(ReduceSum(Example(), {3}).ok());
  EXPECT_FALSE(ReduceMax(Tensor::Zeros(DType::kF32, {0, 2}), {0}).ok());
  auto empty_sum = ReduceSum(Tensor::Zeros(DType::kF32, {0, 2}), {0}, false);
  ASSERT_TRUE(empty_sum.ok());
  EXPECT_EQ(empty_sum->ToVector<float>(), (std::vector<float>{0, 0}));
  EXPECT_FALSE(ReduceSum(Tensor::Zeros(DType::kBool, {2}), {0}).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
