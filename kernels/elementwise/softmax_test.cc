#include "kernels/elementwise/softmax.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "gtest/gtest.h"
#include "kernels/reference/softmax.h"
#include "kernels/testing/two_threads.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;

// The same bits, except that any two NaNs are equal: which NaN a sum of
// NaNs keeps depends on the order the compiler gives an add's operands (the
// reference built at -O1 under ASan returns -nan where -O3 returns +nan).
bool SameBitsOrBothNan(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape() || a.dtype() != b.dtype()) return false;
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    const float x = a.data<float>()[i], y = b.data<float>()[i];
    uint32_t bx, by;
    std::memcpy(&bx, &x, 4);
    std::memcpy(&by, &y, 4);
    if (bx != by && !(std::isnan(x) && std::isnan(y))) return false;
  }
  return true;
}

// Every axis of a rank-4 tensor (the last: one slice per row; the others:
// slices side by side, with a ragged run of lanes), a classifier's [1, 1000]
// logits, NaN and infinities among the inputs, a planned output written in
// place, serial and on two threads.
TEST(SoftmaxF32, MatchesTheReferenceBitForBit) {
  testing::TwoThreads two;
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-30.0f, 30.0f);
  for (const tensor::Shape& shape : {tensor::Shape{2, 7, 9, 11}, tensor::Shape{1, 1000}}) {
    Tensor x = *Tensor::Create(DType::kF32, shape);
    for (float& v : x.span<float>()) v = u(rng);
    x.data<float>()[5] = std::nanf("");
    x.data<float>()[50] = std::numeric_limits<float>::infinity();
    x.data<float>()[60] = -std::numeric_limits<float>::infinity();
    for (int64_t axis = -x.rank(); axis < x.rank(); ++axis) {
      auto want = reference::Softmax(x, axis);
      ASSERT_TRUE(want.ok()) << want.status();
      for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
        Tensor got = *Tensor::Create(DType::kF32, shape);
        const void* at = got.raw_data();
        ASSERT_TRUE(SoftmaxF32(x, axis, &got, pool).ok());
        EXPECT_EQ(got.raw_data(), at);
        EXPECT_TRUE(SameBitsOrBothNan(got, *want)) << "axis " << axis << " of rank " << x.rank();
      }
    }
  }
  Tensor out;
  EXPECT_FALSE(SoftmaxF32(Tensor::Zeros(DType::kF32, {2, 3}), 2, &out, nullptr).ok());
  EXPECT_FALSE(SoftmaxF32(Tensor::Zeros(DType::kU8, {2, 3}), 1, &out, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
