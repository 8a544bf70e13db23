#include "kernels/pool/max_pool.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "kernels/testing/pool_window.h"
#include "kernels/testing/two_threads.h"
#include "kernels/reference/pool.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::pool {
namespace {

using tensor::DType;
using tensor::Tensor;

std::string Describe(const reference::Pool2DParams& p) {
  return "k" + std::to_string(p.kernel[0]) + "x" + std::to_string(p.kernel[1]) + " s" +
         std::to_string(p.strides[0]) + "," + std::to_string(p.strides[1]) + " pads " +
         std::to_string(p.pads[0]) + "," + std::to_string(p.pads[1]) + "," +
         std::to_string(p.pads[2]) + "," + std::to_string(p.pads[3]) + " d" +
         std::to_string(p.dilation[0]) + (p.ceil_mode ? " ceil" : "");
}

// NCHW and NCHW16c/NCHW4c against the reference on NCHW: ResNet's 3x3/2 pad 1,
// ceil mode, dilation, asymmetric pads, a window that can fall wholly in the
// padding, a kernel as large as the input.
TEST(MaxPoolTest, MatchesReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(13);
  std::vector<reference::Pool2DParams> params;
  params.push_back(testing::PoolWindow({3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, false));
  params.push_back(testing::PoolWindow({3, 3}, {2, 2}, {0, 0, 0, 0}, {1, 1}, true));
  params.push_back(testing::PoolWindow({2, 3}, {1, 2}, {0, 1, 1, 2}, {2, 1}, false));
  params.push_back(testing::PoolWindow({2, 2}, {3, 3}, {1, 1, 1, 1}, {1, 1}, true));
  params.push_back(testing::PoolWindow({4, 4}, {1, 1}, {3, 3, 3, 3}, {1, 1}, false));  // windows only in padding
  params.push_back(testing::PoolWindow({7, 9}, {1, 1}, {0, 0, 0, 0}, {1, 1}, false));
  for (DType dt : {DType::kU8, DType::kI8, DType::kF32}) {
    Tensor x = *Tensor::Create(dt, {2, 19, 7, 9});
    auto* bytes = static_cast<uint8_t*>(x.raw_data());
    for (size_t i = 0; i < x.byte_size(); ++i) bytes[i] = static_cast<uint8_t>(rng());
    if (dt == DType::kF32) {
      // Values, and NaN (which wins its windows) and infinities among them.
      std::uniform_real_distribution<float> u(-100.0f, 100.0f);
      for (float& v : x.span<float>()) v = u(rng);
      x.data<float>()[17] = std::nanf("");
      // A NaN of another payload beside it (the last NaN of a window wins)
      // and a signalling one, copied as they are, not quieted.
      const uint32_t payload = 0x7fc00123, signalling = 0x7f800001;
      std::memcpy(&x.data<float>()[18], &payload, 4);
      std::memcpy(&x.data<float>()[40], &signalling, 4);
      x.data<float>()[300] = -std::numeric_limits<float>::infinity();
      x.data<float>()[301] = std::numeric_limits<float>::infinity();
    }
    for (const reference::Pool2DParams& p : params) {
      SCOPED_TRACE(std::string(tensor::DTypeName(dt)) + " " + Describe(p));
      auto want = reference::MaxPool2D(x, p);
      ASSERT_TRUE(want.ok()) << want.status();
      Tensor got;
      ASSERT_TRUE(MaxPool2D(x, p, &got, pool.get()).ok());
      EXPECT_TRUE(got.BitwiseEquals(*want)) << "NCHW";
      for (int64_t block : {4, 16}) {
        auto blocked = spatial_pack::ToBlocked(x, block);
        ASSERT_TRUE(blocked.ok());
        Tensor got_blocked;
        ASSERT_TRUE(MaxPool2D(*blocked, p, &got_blocked, nullptr).ok());
        auto back = spatial_pack::FromBlocked(got_blocked, 19);
        ASSERT_TRUE(back.ok());
        EXPECT_TRUE(back->BitwiseEquals(*want)) << "NCHW" << block << "c";
      }
    }
  }
}

TEST(MaxPoolTest, RejectsBadArguments) {
  Tensor out;
  reference::Pool2DParams p;
  p.kernel = {3, 3};
  EXPECT_FALSE(MaxPool2D(*Tensor::Create(DType::kI32, {1, 1, 4, 4}), p, &out, nullptr).ok());
  EXPECT_FALSE(MaxPool2D(*Tensor::Create(DType::kU8, {1, 4, 4}), p, &out, nullptr).ok());
  const auto big = MaxPool2D(*Tensor::Create(DType::kU8, {1, 1, 2, 2}), p, &out, nullptr);
  EXPECT_FALSE(big.ok());
  EXPECT_NE(std::string(big.message()).find("larger than the padded input"), std::string::npos);
}

}  // namespace
}  // namespace qnnc::kernels::pool
