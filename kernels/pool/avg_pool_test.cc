#include "kernels/pool/avg_pool.h"

#include <random>
#include <string>

#include "gtest/gtest.h"
#include "kernels/reference/pool.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/testing/pool_window.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::pool {
namespace {

using tensor::DType;
using tensor::Tensor;

// NCHW and NCHW4c/16c against the reference on NCHW, bit for bit: Inception's
// 3x3/1 pad 1 with and without count_include_pad, ceil mode with a partial
// last window, asymmetric pads, a window wholly in the padding, a global one.
TEST(AvgPoolTest, MatchesReferenceBitForBit) {
  testing::TwoThreads two;
  std::mt19937 rng(21);
  std::vector<reference::Pool2DParams> params;
  params.push_back(testing::PoolWindow({3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, false, false));
  params.push_back(testing::PoolWindow({3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, false, true));
  params.push_back(testing::PoolWindow({3, 3}, {2, 2}, {0, 0, 0, 0}, {1, 1}, true, false));
  params.push_back(testing::PoolWindow({2, 3}, {1, 2}, {0, 1, 1, 2}, {1, 1}, false, true));
  params.push_back(testing::PoolWindow({4, 4}, {1, 1}, {3, 3, 3, 3}, {1, 1}, false, false));  // windows only in padding
  params.push_back(testing::PoolWindow({7, 9}, {1, 1}, {0, 0, 0, 0}, {1, 1}, false, false));
  Tensor x = *Tensor::Create(DType::kF32, {2, 19, 7, 9});
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  for (float& v : x.span<float>()) v = u(rng);
  for (const reference::Pool2DParams& p : params) {
    SCOPED_TRACE(std::to_string(p.kernel[0]) + "x" + std::to_string(p.kernel[1]) +
                 (p.count_include_pad ? " include_pad" : "") + (p.ceil_mode ? " ceil" : ""));
    auto want = reference::AvgPool2D(x, p);
    ASSERT_TRUE(want.ok()) << want.status();
    for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
      Tensor got;
      ASSERT_TRUE(AvgPool2DF32(x, p, &got, pool).ok());
      EXPECT_TRUE(got.BitwiseEquals(*want)) << "NCHW";
    }
    for (int64_t block : {4, 16}) {
      auto blocked = spatial_pack::ToBlocked(x, block);
      ASSERT_TRUE(blocked.ok());
      Tensor got;
      ASSERT_TRUE(AvgPool2DF32(*blocked, p, &got, two.get()).ok());
      auto back = spatial_pack::FromBlocked(got, 19);
      ASSERT_TRUE(back.ok());
      EXPECT_TRUE(back->BitwiseEquals(*want)) << "NCHW" << block << "c";
    }
  }
}

TEST(AvgPoolTest, RejectsBadArguments) {
  Tensor out;
  reference::Pool2DParams p;
  p.kernel = {3, 3};
  EXPECT_FALSE(AvgPool2DF32(*Tensor::Create(DType::kU8, {1, 1, 4, 4}), p, &out, nullptr).ok());
  EXPECT_FALSE(AvgPool2DF32(*Tensor::Create(DType::kF32, {1, 1, 2, 2}), p, &out, nullptr).ok());
  p.dilation = {2, 1};
  EXPECT_FALSE(AvgPool2DF32(*Tensor::Create(DType::kF32, {1, 1, 8, 8}), p, &out, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::pool
