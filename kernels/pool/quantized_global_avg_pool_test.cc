#include "kernels/pool/quantized_global_avg_pool.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/cpu/isa.h"
#include "kernels/reference/pool.h"
#include "kernels/reference/quantize.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::pool {
namespace {

using tensor::DType;
using tensor::Tensor;

// The definition: the three reference ops, NCHW.
Tensor Reference(const Tensor& x, const GlobalPoolQuantization& q) {
  Tensor f = *reference::Dequantize(x, Tensor::Scalar<float>(q.input_scale),
                                    x.dtype() == DType::kU8
                                        ? Tensor::Scalar<uint8_t>(static_cast<uint8_t>(q.input_zero_point))
                                        : Tensor::Scalar<int8_t>(static_cast<int8_t>(q.input_zero_point)),
                                    1);
  Tensor pooled = *reference::GlobalAvgPool2D(f);
  Tensor zp = q.output_dtype == DType::kU8
                  ? Tensor::Scalar<uint8_t>(static_cast<uint8_t>(q.output_zero_point))
                  : Tensor::Scalar<int8_t>(static_cast<int8_t>(q.output_zero_point));
  return *reference::Quantize(pooled, Tensor::Scalar<float>(q.output_scale), zp, 1, q.output_dtype);
}

Tensor Random(DType dtype, const tensor::Shape& shape, std::mt19937& rng) {
  Tensor x = *Tensor::Create(dtype, shape);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int64_t i = 0; i < x.num_elements(); ++i) x.data<uint8_t>()[i] = static_cast<uint8_t>(byte(rng));
  return x;
}

// Calls check(threads) at every instruction-set level this host runs (each
// clone), serial and on two threads, then restores the cap.
template <typename Check>
void AtEveryLevel(pthreadpool_t two, Check check) {
  const std::optional<cpu::IsaLevel> cap = cpu::IsaCap();
  for (cpu::IsaLevel level : cpu::kBuildIsaLevels) {
    if (!cpu::Includes(cpu::DetectedIsaLevel(), level)) continue;
    cpu::SetIsaCap(level);
    for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), two}) {
      SCOPED_TRACE("level " + std::to_string(static_cast<int>(level)) + (threads ? ", 2 threads" : ", serial"));
      check(threads);
    }
  }
  cpu::SetIsaCap(cap);
}

// Scales with long mantissas, so that any other order of the float adds, a
// fused multiply-add or a mean taken in integers would round differently
// somewhere; output scales near the mean's step, so that the rounding of the
// quantize is exercised at many near-ties. Every instruction-set level this
// host runs (the clones), one and two threads, both 8-bit types.
TEST(QuantizedGlobalAvgPool, MatchesTheThreeOpsBitForBit) {
  testing::TwoThreads two;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  int compared = 0;
  for (const tensor::Shape& shape : std::vector<tensor::Shape>{
           {1, 1280, 7, 7}, {2, 13, 5, 3}, {1, 7, 1, 1}, {1, 3, 1, 9}, {1, 520, 14, 14}}) {
    for (DType in : {DType::kU8, DType::kI8}) {
      GlobalPoolQuantization q;
      q.input_scale = mantissa(rng) * 0.0173f;
      q.input_zero_point = in == DType::kU8 ? 117 : -9;
      q.output_scale = q.input_scale * mantissa(rng) * 0.37f;
      q.output_dtype = in == DType::kU8 ? DType::kI8 : DType::kU8;
      q.output_zero_point = q.output_dtype == DType::kU8 ? 3 : -5;
      const Tensor x = Random(in, shape, rng);
      const Tensor want = Reference(x, q);
      const Tensor blocked = *spatial_pack::ToBlocked(x, 16, 0);
      SCOPED_TRACE(tensor::ShapeToString(shape) + " " + tensor::DTypeName(in));
      AtEveryLevel(two.get(), [&](pthreadpool_t threads) {
        Tensor got;
        ASSERT_TRUE(QuantizedGlobalAvgPool2D(x, q, &got, threads).ok());
        EXPECT_TRUE(got.BitwiseEquals(want));
        Tensor got_blocked;
        ASSERT_TRUE(QuantizedGlobalAvgPool2D(blocked, q, &got_blocked, threads).ok());
        ASSERT_EQ(got_blocked.shape(), (tensor::Shape{shape[0], (shape[1] + 15) / 16, 1, 1, 16}));
        EXPECT_TRUE(spatial_pack::FromBlocked(got_blocked, shape[1])->BitwiseEquals(want));
        ++compared;
      });
    }
  }
  EXPECT_GT(compared, 0);
}

// The float means before the quantize, bit for bit against the two reference
// ops: a fused multiply-add, another order of the adds or a reciprocal
// instead of the division would change low bits here, which the quantized
// output shows only at near-ties.
TEST(QuantizedGlobalAvgPool, MeansMatchDequantizeThenPoolBitForBit) {
  testing::TwoThreads two;
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  for (const tensor::Shape& shape : std::vector<tensor::Shape>{{1, 1280, 7, 7}, {2, 13, 5, 3}, {1, 520, 14, 14}}) {
    for (DType in : {DType::kU8, DType::kI8}) {
      const float scale = mantissa(rng) * 0.0131f;
      const int32_t zp = in == DType::kU8 ? 129 : 4;
      const Tensor x = Random(in, shape, rng);
      Tensor zp_t = in == DType::kU8 ? Tensor::Scalar<uint8_t>(static_cast<uint8_t>(zp))
                                     : Tensor::Scalar<int8_t>(static_cast<int8_t>(zp));
      const Tensor want =
          *reference::GlobalAvgPool2D(*reference::Dequantize(x, Tensor::Scalar<float>(scale), zp_t, 1));
      SCOPED_TRACE(tensor::ShapeToString(shape) + " " + tensor::DTypeName(in));
      AtEveryLevel(two.get(), [&](pthreadpool_t threads) {
        Tensor got;
        ASSERT_TRUE(DequantizedGlobalAvgPool2D(x, scale, zp, &got, threads).ok());
        EXPECT_TRUE(got.BitwiseEquals(want));
        for (int64_t block : {16, 8, 5}) {  // the 16- and 8-lane paths, and any other
          SCOPED_TRACE("block " + std::to_string(block));
          Tensor got_blocked;
          const Tensor blocked = *spatial_pack::ToBlocked(x, block, 0);
          ASSERT_TRUE(DequantizedGlobalAvgPool2D(blocked, scale, zp, &got_blocked, threads).ok());
          EXPECT_TRUE(spatial_pack::FromBlocked(got_blocked, shape[1])->BitwiseEquals(want));
        }
      });
    }
  }
}

// Writes into an output of the right type in place (the executor's arena).
TEST(QuantizedGlobalAvgPool, WritesInPlace) {
  std::mt19937 rng(8);
  const Tensor x = Random(DType::kU8, {1, 32, 4, 4}, rng);
  GlobalPoolQuantization q;
  q.input_scale = 0.05f;
  q.output_scale = 0.02f;
  Tensor out = *Tensor::Create(DType::kU8, {1, 32, 1, 1});
  const void* data = out.data<uint8_t>();
  ASSERT_TRUE(QuantizedGlobalAvgPool2D(x, q, &out, nullptr).ok());
  EXPECT_EQ(out.data<uint8_t>(), data);
  EXPECT_TRUE(out.BitwiseEquals(Reference(x, q)));
}

TEST(QuantizedGlobalAvgPool, RefusesWhatItDoesNotTake) {
  GlobalPoolQuantization q;
  Tensor out;
  auto f32 = QuantizedGlobalAvgPool2D(*Tensor::Create(DType::kF32, {1, 2, 3, 3}), q, &out, nullptr);
  EXPECT_FALSE(f32.ok());
  EXPECT_NE(std::string(f32.message()).find("u8 or i8"), std::string::npos) << f32;
  EXPECT_FALSE(QuantizedGlobalAvgPool2D(*Tensor::Create(DType::kU8, {1, 2, 0, 3}), q, &out, nullptr).ok());
  EXPECT_FALSE(QuantizedGlobalAvgPool2D(*Tensor::Create(DType::kU8, {2, 3, 3}), q, &out, nullptr).ok());
  EXPECT_FALSE(QuantizedGlobalAvgPool2D(*Tensor::Create(DType::kU8, {1, 1, 3, 3, 65}), q, &out, nullptr).ok());
  EXPECT_FALSE(DequantizedGlobalAvgPool2D(*Tensor::Create(DType::kI8, {1, 2, 3, 3}), 1.0f, 128, &out, nullptr).ok());
  q.output_scale = 0;
  EXPECT_FALSE(QuantizedGlobalAvgPool2D(*Tensor::Create(DType::kU8, {1, 2, 3, 3}), q, &out, nullptr).ok());
  q.output_scale = 1;
  q.input_zero_point = 300;
  EXPECT_FALSE(QuantizedGlobalAvgPool2D(*Tensor::Create(DType::kU8, {1, 2, 3, 3}), q, &out, nullptr).ok());
  EXPECT_FALSE(QuantizedGlobalAvgPool2D(*Tensor::Create(DType::kU8, {1, 2, 3, 3}), GlobalPoolQuantization{}, nullptr, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::pool
