#include "kernels/elementwise/requantize.h"

#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/requantize.h"
#include "kernels/testing/two_threads.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;

void ExpectMatchesReference(const Tensor& x, float in_scale, float out_scale, int32_t zp,
                            std::optional<int64_t> cmin, std::optional<int64_t> cmax,
                            DType dt, pthreadpool_t pool, const std::string& what) {
  SCOPED_TRACE(what);
  auto want = reference::Requantize(x, Tensor::Scalar<float>(in_scale), Tensor::Scalar<int32_t>(0),
                                    Tensor::Scalar<float>(out_scale), Tensor::Scalar<int32_t>(zp),
                                    1, dt, cmin, cmax);
  ASSERT_TRUE(want.ok()) << want.status();
  RequantizeParams p;
  p.multiplier = in_scale / out_scale;
  p.output_zero_point = zp;
  p.lo = static_cast<int32_t>(std::max(cmin.value_or(tensor::DTypeMin(dt)), tensor::DTypeMin(dt)));
  p.hi = static_cast<int32_t>(std::min(cmax.value_or(tensor::DTypeMax(dt)), tensor::DTypeMax(dt)));
  ASSERT_TRUE(RequantizeSupported(0, p, dt));
  Tensor got;
  ASSERT_TRUE(RequantizePerTensor(x, p, dt, &got, pool).ok());
  ASSERT_EQ(got.shape(), x.shape());
  const auto* g = static_cast<const uint8_t*>(got.raw_data());
  const auto* w = static_cast<const uint8_t*>(want->raw_data());
  int64_t mismatches = 0, first = -1;
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    if (g[i] != w[i] && mismatches++ == 0) first = i;
  }
  EXPECT_EQ(mismatches, 0) << "first at " << first << ": x " << x.data<int32_t>()[first]
                           << " got " << int(g[first]) << " want " << int(w[first]);
}

// The int32 limits, exact ties (x * m = k + 1/2 at m = 1/2, 1/4), random
// values of every magnitude; more than ParallelRows' serial 64K, so two
// threads split them.
TEST(RequantizeTest, MatchesReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(5);
  std::vector<int32_t> values = {0, 1, -1, std::numeric_limits<int32_t>::max(),
                                 std::numeric_limits<int32_t>::min()};
  for (int k = -1100; k <= 1100; ++k) values.push_back(k);
  std::uniform_int_distribution<int32_t> any;
  std::uniform_int_distribution<int32_t> small(-70000, 70000);
  while (values.size() < 100000) values.push_back(values.size() % 2 ? any(rng) : small(rng));
  const Tensor x = Tensor::FromVector<int32_t>({1, static_cast<int64_t>(values.size())}, values);
  int cases = 0;
  for (DType dt : {DType::kU8, DType::kI8}) {
    const int lo = dt == DType::kU8 ? 0 : -128, hi = dt == DType::kU8 ? 255 : 127;
    // (input scale, output scale): multipliers 1/2, 1/4, a model's, > 1, < 0.
    const std::vector<std::pair<float, float>> scales = {
        {0.5f, 1.0f}, {1.0f, 4.0f}, {0.0003f, 0.0227573f}, {3.0f, 0.7f}, {-0.01f, 0.3f}, {1e-30f, 1e10f}};
    for (const auto& [si, so] : scales) {
      for (int zp : {lo, hi, (lo + hi) / 2 + 3}) {
        const std::optional<int64_t> cmin = cases % 3 == 1 ? std::optional<int64_t>(lo + 10) : std::nullopt;
        const std::optional<int64_t> cmax = cases % 3 == 2 ? std::optional<int64_t>(hi - 7) : std::nullopt;
        ExpectMatchesReference(x, si, so, zp, cmin, cmax, dt, cases % 2 ? pool.get() : nullptr,
                               std::string(tensor::DTypeName(dt)) + " scales " + std::to_string(si) +
                                   "/" + std::to_string(so) + " zp " + std::to_string(zp) +
                                   " case " + std::to_string(cases));
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 36);
}

TEST(RequantizeTest, RefusesWhatItDoesNotCover) {
  RequantizeParams p;
  p.multiplier = 0.1f;
  p.lo = 0;
  p.hi = 255;
  EXPECT_TRUE(RequantizeSupported(0, p, DType::kU8));
  EXPECT_FALSE(RequantizeSupported(3, p, DType::kU8));   // input zero point
  EXPECT_FALSE(RequantizeSupported(0, p, DType::kI32));  // output dtype
  EXPECT_FALSE(RequantizeSupported(0, p, DType::kI8));   // hi outside i8
  RequantizeParams inf = p;
  inf.multiplier = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(RequantizeSupported(0, inf, DType::kU8));
  RequantizeParams empty = p;
  empty.lo = 9;
  empty.hi = 8;
  EXPECT_FALSE(RequantizeSupported(0, empty, DType::kU8));
  RequantizeParams far = p;
  far.output_zero_point = 300;
  EXPECT_FALSE(RequantizeSupported(0, far, DType::kU8));
  Tensor out;
  const auto status =
      RequantizePerTensor(Tensor::FromVector<float>({2}, {1, 2}), p, DType::kU8, &out, nullptr);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("i32"), std::string::npos) << status;
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
