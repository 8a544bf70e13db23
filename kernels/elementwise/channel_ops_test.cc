#include "kernels/elementwise/channel_ops.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/requantize.h"
#include "kernels/testing/two_threads.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;

TEST(ChannelOpsTest, BiasAddGivesTheReferencesBits) {
  testing::TwoThreads two;
  std::mt19937 rng(3);
  for (const tensor::Shape& shape : {tensor::Shape{1, 1000}, tensor::Shape{2, 40, 33, 31}}) {
    for (DType dt : {DType::kI32, DType::kF32}) {
      Tensor x = *Tensor::Create(dt, shape);
      Tensor b = *Tensor::Create(dt, {shape[1]});
      for (Tensor* t : {&x, &b}) {
        auto* bytes = static_cast<uint8_t*>(t->raw_data());
        for (size_t i = 0; i < t->byte_size(); ++i) bytes[i] = static_cast<uint8_t>(rng());
      }
      if (dt == DType::kF32) {  // finite values (random bytes make NaNs too: also fine)
        for (float& v : x.span<float>()) v = static_cast<float>(rng() % 2001) / 7.0f - 100.0f;
      }
      auto want = reference::BiasAdd(x, b, 1);
      ASSERT_TRUE(want.ok()) << want.status();
      for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
        Tensor got;
        ASSERT_TRUE(BiasAdd(x, b, 1, &got, pool).ok());
        EXPECT_TRUE(got.BitwiseEquals(*want));
      }
    }
  }
  Tensor out;
  EXPECT_FALSE(BiasAdd(Tensor::Zeros(DType::kI32, {2, 3}), Tensor::Zeros(DType::kI32, {2}), 1, &out, nullptr).ok());
}

TEST(ChannelOpsTest, PerChannelRequantizeGivesTheReferencesBits) {
  testing::TwoThreads two;
  std::mt19937 rng(4);
  std::uniform_int_distribution<int32_t> acc(-200000, 200000);
  for (const tensor::Shape& shape : {tensor::Shape{1, 1000}, tensor::Shape{2, 24, 40, 41}}) {
    Tensor x = *Tensor::Create(DType::kI32, shape);
    for (int32_t& v : x.span<int32_t>()) v = acc(rng);
    const int64_t c = shape[1];
    std::vector<float> in_scale(c);
    for (float& s : in_scale) s = 1e-5f * static_cast<float>(1 + rng() % 1000);
    const float out_scale = 0.037f;
    for (DType out_dtype : {DType::kU8, DType::kI8}) {
      const int32_t zp = out_dtype == DType::kU8 ? 117 : -9;
      auto want = reference::Requantize(x, Tensor::FromVector<float>({c}, in_scale), Tensor::Scalar<int32_t>(0),
                                        Tensor::Scalar<float>(out_scale), Tensor::Scalar<int32_t>(zp), 1, out_dtype,
                                        out_dtype == DType::kU8 ? 3 : -100, 120);
      ASSERT_TRUE(want.ok()) << want.status();
      std::vector<float> m(c);
      for (int64_t i = 0; i < c; ++i) m[i] = in_scale[i] / out_scale;  // as the reference divides
      RequantizeParams p;
      p.output_zero_point = zp;
      p.lo = out_dtype == DType::kU8 ? 3 : -100;
      p.hi = 120;
      for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
        Tensor got;
        ASSERT_TRUE(RequantizePerChannel(x, m, 1, p, out_dtype, &got, pool).ok());
        EXPECT_TRUE(got.BitwiseEquals(*want));
      }
    }
  }
  Tensor out;
  EXPECT_FALSE(RequantizePerChannel(Tensor::Zeros(DType::kI32, {1, 3}), {1.0f, 2.0f}, 1, RequantizeParams{},
                                    DType::kU8, &out, nullptr)
                   .ok());
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
