#include "kernels/elementwise/quantize.h"

#include "kernels/elementwise/dequantize.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/testing/every_isa_level.h"
#include "kernels/testing/two_threads.h"
#include "kernels/reference/quantize.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;

void ExpectMatchesReference(const Tensor& x, float scale, int32_t zp, DType out_dtype,
                            pthreadpool_t pool, const std::string& what) {
  SCOPED_TRACE(what);
  const Tensor zp_tensor = out_dtype == DType::kU8
                               ? Tensor::Scalar<uint8_t>(static_cast<uint8_t>(zp))
                               : Tensor::Scalar<int8_t>(static_cast<int8_t>(zp));
  auto want = reference::Quantize(x, Tensor::Scalar<float>(scale), zp_tensor, 1, out_dtype);
  ASSERT_TRUE(want.ok()) << want.status();
  Tensor got;
  ASSERT_TRUE(QuantizePerTensor(x, scale, zp, out_dtype, &got, pool).ok());
  ASSERT_EQ(got.shape(), x.shape());
  const auto* g = static_cast<const uint8_t*>(got.raw_data());
  const auto* w = static_cast<const uint8_t*>(want->raw_data());
  int64_t mismatches = 0, first = -1;
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    if (g[i] != w[i] && mismatches++ == 0) first = i;
  }
  EXPECT_EQ(mismatches, 0) << "first at " << first << ": x " << x.data<float>()[first]
                           << " got " << int(g[first]) << " want " << int(w[first]);
}

using testing::AtEveryIsaLevel;

TEST(QuantizeTest, MatchesReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(11);
  const float inf = std::numeric_limits<float>::infinity();
  // Specials, ties at scale 0.5 (x = k + 0.25), then random values spanning
  // far beyond the range on both sides; enough that two threads split them
  // (ParallelRows runs up to 64K elements on the calling thread).
  std::vector<float> values = {0.0f, -0.0f, inf, -inf, std::nanf(""), 1e30f, -1e30f,
                               std::numeric_limits<float>::denorm_min()};
  for (int k = -300; k <= 300; ++k) values.push_back(k + 0.25f);
  std::uniform_real_distribution<float> wide(-400.0f, 400.0f);
  while (values.size() < 100000) values.push_back(wide(rng));
  const Tensor x = Tensor::FromVector<float>({1, static_cast<int64_t>(values.size())}, values);
  int cases = 0;
  AtEveryIsaLevel([&] {
    for (DType dt : {DType::kU8, DType::kI8}) {
      const int lo = dt == DType::kU8 ? 0 : -128, hi = dt == DType::kU8 ? 255 : 127;
      for (float scale : {0.5f, 1.0f, 0.0078125f, 3.7f, -0.25f, 1e-30f}) {
        for (int zp : {lo, hi, (lo + hi) / 2 + 3}) {
          ExpectMatchesReference(x, scale, zp, dt, cases % 2 ? pool.get() : nullptr,
                                 std::string(tensor::DTypeName(dt)) + " scale " +
                                     std::to_string(scale) + " zp " + std::to_string(zp));
          ++cases;
        }
      }
    }
  });
  EXPECT_GE(cases, 36);
  EXPECT_EQ(cases % 36, 0);
}

// Values at and around x = (k + 0.5) * scale, a few ulps either way, for
// many scales (DynamicQuantizeLinear's are (hi - lo) / 255), give the
// reference's bits at every level (its rounding of ties to even).
TEST(QuantizeTest, NearTiesGiveTheReferencesBits) {
  AtEveryIsaLevel([] {
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> log_scale(-12.0f, 4.0f);
  int scales = 0;
  for (int s = 0; s < 300; ++s) {
    const float scale = s % 3 == 0 ? (static_cast<float>(rng() % 1000) + 1.0f) / 255.0f
                                   : std::exp2(log_scale(rng));
    std::vector<float> values;
    for (int k = -260; k <= 260; ++k) {
      float x = (static_cast<float>(k) + 0.5f) * scale;
      for (int step = 0; step < 4; ++step) x = std::nextafter(x, -INFINITY);
      for (int step = 0; step < 9; ++step, x = std::nextafter(x, INFINITY)) values.push_back(x);
    }
    const Tensor x = Tensor::FromVector<float>({static_cast<int64_t>(values.size())}, values);
    ExpectMatchesReference(x, scale, 128, DType::kU8, nullptr, "scale " + std::to_string(scale));
    ExpectMatchesReference(x, scale, -3, DType::kI8, nullptr, "i8 scale " + std::to_string(scale));
    ++scales;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(scales, 300);
  });
}

TEST(QuantizeTest, RefusesWhatItDoesNotCover) {
  EXPECT_TRUE(QuantizeSupported(DType::kU8, 0.1f, 0));
  EXPECT_FALSE(QuantizeSupported(DType::kI32, 0.1f, 0));
  EXPECT_FALSE(QuantizeSupported(DType::kU8, 0.0f, 0));
  EXPECT_FALSE(QuantizeSupported(DType::kU8, std::nanf(""), 0));
  EXPECT_FALSE(QuantizeSupported(DType::kU8, 0.1f, 256));
  EXPECT_FALSE(QuantizeSupported(DType::kI8, 0.1f, -129));
  Tensor out;
  const auto status =
      QuantizePerTensor(Tensor::FromVector<int32_t>({2}, {1, 2}), 0.1f, 0, DType::kU8, &out, nullptr);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("f32"), std::string::npos) << status;
}

// Every u8 and i8 value (and more than one task's worth), zero points at the
// limits and far outside, scales of both signs and extreme magnitudes.
TEST(DequantizeTest, MatchesReference) {
  testing::TwoThreads pool;
  for (DType dt : {DType::kU8, DType::kI8}) {
    Tensor q = *Tensor::Create(dt, {3, 40000});  // past ParallelRows' 64K serial limit
    auto* bytes = static_cast<uint8_t*>(q.raw_data());
    for (int64_t i = 0; i < q.num_elements(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
    for (float scale : {0.02f, -3.5f, 1e-38f, 3e38f}) {
      for (int32_t zp : {0, 255, -128, 2147483647}) {
        SCOPED_TRACE(std::string(tensor::DTypeName(dt)) + " scale " + std::to_string(scale) +
                     " zp " + std::to_string(zp));
        auto want = reference::Dequantize(q, Tensor::Scalar<float>(scale), Tensor::Scalar<int32_t>(zp), 1);
        ASSERT_TRUE(want.ok()) << want.status();
        Tensor got;
        ASSERT_TRUE(DequantizePerTensor(q, scale, zp, &got, pool.get()).ok());
        EXPECT_TRUE(got.BitwiseEquals(*want));
      }
    }
  }
  Tensor out;
  EXPECT_FALSE(DequantizePerTensor(Tensor::FromVector<float>({1}, {1.0f}), 1.0f, 0, &out, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
