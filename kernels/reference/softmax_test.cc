#include "kernels/reference/softmax.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::Tensor;

TEST(SoftmaxTest, EachAxisSumsToOne) {
  const Tensor x = Tensor::FromVector<float>({2, 3}, {1, 2, 3, -1, 0, 1000});
  auto rows = Softmax(x, -1);
  ASSERT_TRUE(rows.ok()) << rows.status();
  const float* r = rows->data<float>();
  const float e1 = std::exp(-2.0f), e2 = std::exp(-1.0f);
  EXPECT_FLOAT_EQ(r[0], e1 / (e1 + e2 + 1.0f));
  EXPECT_FLOAT_EQ(r[2], 1.0f / (e1 + e2 + 1.0f));
  // A large value: the max is subtracted first, no overflow.
  EXPECT_EQ(r[5], 1.0f);
  EXPECT_EQ(r[3], 0.0f);
  auto cols = Softmax(x, 0);
  ASSERT_TRUE(cols.ok());
  const float* c = cols->data<float>();
  for (int j = 0; j < 3; ++j) EXPECT_FLOAT_EQ(c[j] + c[3 + j], 1.0f) << j;
  EXPECT_FLOAT_EQ(c[0], 1.0f / (1.0f + std::exp(-2.0f)));
}

TEST(SoftmaxTest, RefusesBadInput) {
  EXPECT_FALSE(Softmax(Tensor::Zeros(tensor::DType::kI8, {2}), 0).ok());
  EXPECT_FALSE(Softmax(Tensor::Zeros(tensor::DType::kF32, {2}), 1).ok());
}

}  // namespace
}  // namespace qnnc::kernels::reference
