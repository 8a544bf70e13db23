#include "kernels/pool/global_avg_pool.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/reference/pool.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::pool {
namespace {

using tensor::DType;
using tensor::Tensor;

// Values of mixed magnitudes, so that any other summation order rounds
// differently; plane counts that are not multiples of the 8 lanes; one shape
// large enough that two threads split it; infinities and NaN.
TEST(GlobalAvgPool, MatchesReferenceBitForBit) {
  testing::TwoThreads pool;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  for (const tensor::Shape& shape : std::vector<tensor::Shape>{
           {1, 1280, 7, 7}, {2, 13, 5, 3}, {1, 7, 1, 1}, {1, 3, 1, 9}, {3, 45, 23, 17}}) {
    Tensor x = *Tensor::Create(DType::kF32, shape);
    float* v = x.data<float>();
    for (int64_t i = 0; i < x.num_elements(); ++i) v[i] = std::ldexp(unit(rng), exponent(rng));
    if (x.num_elements() > 40) {
      v[5] = std::numeric_limits<float>::infinity();
      v[17] = std::nanf("");
    }
    auto want = reference::GlobalAvgPool2D(x);
    ASSERT_TRUE(want.ok()) << want.status();
    for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
      SCOPED_TRACE(tensor::ShapeToString(shape) + (threads ? " 2 threads" : " serial"));
      Tensor got;
      ASSERT_TRUE(GlobalAvgPool2DF32(x, &got, threads).ok());
      ASSERT_EQ(got.shape(), want->shape());
      EXPECT_TRUE(got.BitwiseEquals(*want));
    }
  }
}

// Blocked NCHW16c: each real lane as the reference pools its channel.
TEST(GlobalAvgPool, BlockedLanesMatchTheirChannels) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  Tensor x = *Tensor::Create(DType::kF32, {2, 40, 14, 14});
  for (float& v : x.span<float>()) v = unit(rng);
  auto want = reference::GlobalAvgPool2D(x);
  ASSERT_TRUE(want.ok());
  auto blocked = spatial_pack::ToBlocked(x, 16);
  ASSERT_TRUE(blocked.ok());
  Tensor got;
  ASSERT_TRUE(GlobalAvgPool2DF32(*blocked, &got, nullptr).ok());
  ASSERT_EQ(got.shape(), (tensor::Shape{2, 3, 1, 1, 16}));
  auto back = spatial_pack::FromBlocked(got, 40);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->BitwiseEquals(*want));
}

TEST(GlobalAvgPool, RefusesWhatItDoesNotTake) {
  Tensor out;
  auto u8 = GlobalAvgPool2DF32(*Tensor::Create(DType::kU8, {1, 2, 3, 3}), &out, nullptr);
  EXPECT_FALSE(u8.ok());
  EXPECT_NE(std::string(u8.message()).find("f32"), std::string::npos) << u8;
  EXPECT_FALSE(GlobalAvgPool2DF32(*Tensor::Create(DType::kF32, {2, 3, 3}), &out, nullptr).ok());
  EXPECT_FALSE(GlobalAvgPool2DF32(*Tensor::Create(DType::kF32, {1, 2, 0, 3}), &out, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::pool
