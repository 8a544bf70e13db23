#include "kernels/resize/resize.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "kernels/reference/layout_transform.h"
#include "kernels/reference/resize.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::resize {
namespace {

using reference::ResizeParams;
using tensor::DType;
using tensor::Tensor;

// Every mode and coordinate transform the reference takes, up and down,
// given scales and sizes, serial and on two threads, with NaN and infinity
// among the inputs.
TEST(ResizeF32, MatchesTheReferenceBitForBit) {
  testing::TwoThreads pool;
  std::mt19937 rng(47);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  Tensor x = *Tensor::Create(DType::kF32, {1, 6, 37, 41});
  for (float& v : x.span<float>()) v = u(rng);
  x.data<float>()[100] = std::nanf("");
  x.data<float>()[2000] = std::numeric_limits<float>::infinity();
  int cases = 0;
  for (const char* mode : {"nearest", "linear"}) {
    for (const char* coord : {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"}) {
      for (const char* nearest : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}) {
        if (std::string(mode) == "linear" && std::string(nearest) != "round_prefer_floor") continue;
        for (auto [oh, ow, sh, sw] : {std::tuple<int64_t, int64_t, float, float>{74, 82, 2.0f, 2.0f},
                                      {150, 170, 0.0f, 0.0f}, {18, 20, 0.0f, 0.0f}, {1, 1, 0.0f, 0.0f}}) {
          ResizeParams p;
          p.mode = mode;
          p.coordinate_transformation_mode = coord;
          p.nearest_mode = nearest;
          p.scale_h = sh;
          p.scale_w = sw;
          auto want = reference::Resize2D(x, oh, ow, p);
          ASSERT_TRUE(want.ok()) << want.status();
          for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
            SCOPED_TRACE(std::string(mode) + " " + coord + " " + nearest + " " + std::to_string(oh) + "x" +
                         std::to_string(ow) + (threads ? " 2 threads" : ""));
            Tensor got;
            ASSERT_TRUE(Resize(x, oh, ow, p, &got, threads).ok());
            EXPECT_TRUE(got.BitwiseEquals(*want));
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 2 * 4 * (16 + 4));
  ResizeParams bad;
  bad.mode = "cubic";
  Tensor out;
  EXPECT_FALSE(Resize(x, 2, 2, bad, &out, nullptr).ok());
  ResizeParams linear;
  linear.mode = "linear";
  EXPECT_FALSE(Resize(Tensor::Zeros(DType::kU8, {1, 1, 2, 2}), 4, 4, linear, &out, nullptr).ok());
  EXPECT_FALSE(Resize(Tensor::Zeros(DType::kI32, {1, 1, 2, 2}), 4, 4, {}, &out, nullptr).ok());
}

// Channel-blocked tensors: each lane resized as its channel in NCHW.
TEST(ResizeF32, BlockedMatchesNchwBitForBit) {
  testing::TwoThreads pool;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  Tensor x = *Tensor::Create(DType::kF32, {2, 32, 19, 23});
  for (float& v : x.span<float>()) v = u(rng);
  x.data<float>()[77] = std::nanf("");
  const Tensor xb = reference::LayoutTransform(x, "NCHW", "NCHW16c").value();
  for (const char* mode : {"nearest", "linear"}) {
    for (const char* coord : {"half_pixel", "align_corners", "asymmetric"}) {
      ResizeParams p;
      p.mode = mode;
      p.coordinate_transformation_mode = coord;
      const Tensor want = reference::Resize2D(x, 38, 46, p).value();
      for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
        SCOPED_TRACE(std::string(mode) + " " + coord + (threads ? " 2 threads" : ""));
        Tensor got;
        ASSERT_TRUE(Resize(xb, 38, 46, p, &got, threads).ok());
        ASSERT_EQ(got.shape(), (tensor::Shape{2, 2, 38, 46, 16}));
        EXPECT_TRUE(reference::LayoutTransform(got, "NCHW16c", "NCHW")->BitwiseEquals(want));
      }
    }
  }
}

// 8-bit nearest resize (a QDQ Resize on the integers), NCHW and NCHW16c,
// every nearest mode and coordinate transform, against the reference.
TEST(Resize, EightBitNearestMatchesTheReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(5);
  for (DType dt : {DType::kU8, DType::kI8}) {
    Tensor x = *Tensor::Create(dt, {1, 32, 13, 17});
    for (uint8_t& v : absl::MakeSpan(static_cast<uint8_t*>(x.raw_data()), x.byte_size())) v = rng();
    const Tensor xb = reference::LayoutTransform(x, "NCHW", "NCHW16c").value();
    for (const char* coord : {"half_pixel", "align_corners", "asymmetric"}) {
      for (const char* nearest : {"round_prefer_floor", "floor", "ceil"}) {
        ResizeParams p;
        p.coordinate_transformation_mode = coord;
        p.nearest_mode = nearest;
        const Tensor want = reference::Resize2D(x, 26, 30, p).value();
        for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
          SCOPED_TRACE(std::string(coord) + " " + nearest + (threads ? " 2 threads" : ""));
          Tensor got, got_blocked;
          ASSERT_TRUE(Resize(x, 26, 30, p, &got, threads).ok());
          EXPECT_TRUE(got.BitwiseEquals(want));
          ASSERT_TRUE(Resize(xb, 26, 30, p, &got_blocked, threads).ok());
          EXPECT_TRUE(reference::LayoutTransform(got_blocked, "NCHW16c", "NCHW")->BitwiseEquals(want));
        }
      }
    }
  }
}

}  // namespace
}  // namespace qnnc::kernels::resize
