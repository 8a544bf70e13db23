#include "kernels/elementwise/qnn_add.h"

#include <cstdint>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "kernels/testing/every_isa_level.h"
#include "kernels/testing/two_threads.h"
#include "kernels/reference/qnn_elementwise.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {
namespace {

using testing::AtEveryIsaLevel;
using tensor::DType;
using tensor::Tensor;

Tensor Random(DType dtype, const tensor::Shape& shape, std::mt19937& rng) {
  Tensor t = Tensor::Create(dtype, shape).value();
  std::uniform_int_distribution<int> byte(0, 255);
  auto* p = static_cast<uint8_t*>(t.raw_data());
  for (int64_t i = 0; i < t.num_elements(); ++i) p[i] = static_cast<uint8_t>(byte(rng));
  return t;
}

Tensor ZeroPoint(DType dtype, int32_t v) {
  return dtype == DType::kU8 ? Tensor::Scalar<uint8_t>(static_cast<uint8_t>(v))
                             : Tensor::Scalar<int8_t>(static_cast<int8_t>(v));
}

// Every element of the fast kernel against reference::QnnAdd.
void ExpectMatchesReference(const Tensor& a, const Tensor& b, const QnnBinaryParams& p,
                            DType out_dtype, pthreadpool_t pool, const std::string& what) {
  SCOPED_TRACE(what);
  auto want = reference::QnnAdd(a, Tensor::Scalar<float>(p.a_scale),
                                ZeroPoint(a.dtype(), p.a_zero_point), b,
                                Tensor::Scalar<float>(p.b_scale),
                                ZeroPoint(b.dtype(), p.b_zero_point),
                                Tensor::Scalar<float>(p.out_scale),
                                ZeroPoint(out_dtype, p.out_zero_point), out_dtype);
  ASSERT_TRUE(want.ok()) << want.status();
  ASSERT_TRUE(QnnAddSupported(a.dtype(), a.shape(), b.dtype(), b.shape(), p, out_dtype));
  Tensor got;
  ASSERT_TRUE(QnnAddSameShape(a, b, p, out_dtype, &got, pool).ok());
  ASSERT_EQ(got.dtype(), out_dtype);
  ASSERT_EQ(got.shape(), a.shape());
  const auto* g = static_cast<const uint8_t*>(got.raw_data());
  const auto* w = static_cast<const uint8_t*>(want->raw_data());
  int64_t mismatches = 0, first = -1;
  for (int64_t i = 0; i < got.num_elements(); ++i) {
    if (g[i] != w[i] && mismatches++ == 0) first = i;
  }
  EXPECT_EQ(mismatches, 0) << "first at " << first << ": got " << int(g[first]) << ", want "
                           << int(w[first]);
}

TEST(QnnAddTest, MatchesReferenceOnRandomCases) {
  testing::TwoThreads pool;
  std::mt19937 rng(7);
  const DType types[] = {DType::kU8, DType::kI8};
  // Shapes: tiny, not a multiple of any vector width, a blocked residual
  // activation spanning several tasks, small planes split in row bands
  // (7x7), planes too small to split (ranges of planes).
  const tensor::Shape shapes[] = {{1}, {3, 5, 7}, {1, 4, 56, 56, 16}, {1, 100, 7, 7, 16},
                                  {1, 2000, 1, 1, 40}};
  std::uniform_real_distribution<float> log_scale(-9.0f, 2.0f);
  int cases = 0;
  for (DType ta : types) {
    for (DType tb : types) {
      for (DType to : types) {
        for (const auto& shape : shapes) {
          for (int rep = 0; rep < 6; ++rep) {
            QnnBinaryParams p;
            p.a_scale = std::exp2(log_scale(rng));
            p.b_scale = std::exp2(log_scale(rng));
            // Output scales around the inputs' so that results span the
            // range and saturate at both ends.
            p.out_scale = (p.a_scale + p.b_scale) * std::exp2(log_scale(rng) / 4.0f);
            auto zp = [&](DType d) {
              // The limits first, then random values.
              const int lo = d == DType::kU8 ? 0 : -128, hi = d == DType::kU8 ? 255 : 127;
              if (rep == 0) return lo;
              if (rep == 1) return hi;
              return std::uniform_int_distribution<int>(lo, hi)(rng);
            };
            p.a_zero_point = zp(ta);
            p.b_zero_point = zp(tb);
            p.out_zero_point = zp(to);
            const Tensor a = Random(ta, shape, rng), b = Random(tb, shape, rng);
            const std::string what = std::string(tensor::DTypeName(ta)) + "+" +
                                     tensor::DTypeName(tb) + "->" + tensor::DTypeName(to) +
                                     " " + tensor::ShapeToString(shape) + " rep " +
                                     std::to_string(rep);
            // Every level the host allows: the explicit AVX2 or NEON
            // vectors and GCC's clones of the loop.
            AtEveryIsaLevel(
                [&] { ExpectMatchesReference(a, b, p, to, rep % 2 ? pool.get() : nullptr, what); });
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 8 * 5 * 6);
}

// Ties: with ratios of 1/2, v is often exactly k + 0.5, which rounds to even.
TEST(QnnAddTest, TiesRoundToEven) {
  std::mt19937 rng(3);
  const Tensor a = Random(DType::kU8, {4096}, rng), b = Random(DType::kU8, {4096}, rng);
  QnnBinaryParams p;
  p.a_scale = 0.5f;
  p.b_scale = 1.0f;
  p.out_scale = 2.0f;
  p.a_zero_point = 3;
  p.out_zero_point = 100;
  AtEveryIsaLevel([&] { ExpectMatchesReference(a, b, p, DType::kU8, nullptr, "ties"); });
}

TEST(QnnAddTest, RefusesWhatItDoesNotCover) {
  std::mt19937 rng(1);
  const Tensor a = Random(DType::kU8, {2, 3}, rng);
  const tensor::Shape s = {2, 3};
  const DType u8 = DType::kU8;
  QnnBinaryParams p;
  EXPECT_TRUE(QnnAddSupported(u8, s, DType::kI8, s, p, u8));
  EXPECT_FALSE(QnnAddSupported(u8, s, u8, {3}, p, u8));  // broadcasting
  EXPECT_FALSE(QnnAddSupported(u8, s, DType::kI32, s, p, u8));
  EXPECT_FALSE(QnnAddSupported(u8, s, u8, s, p, DType::kI32));
  QnnBinaryParams zero_out = p;
  zero_out.out_scale = 0;
  EXPECT_FALSE(QnnAddSupported(u8, s, u8, s, zero_out, u8));
  QnnBinaryParams huge = p;
  huge.a_scale = 1e38f;
  huge.out_scale = 1e-10f;
  EXPECT_FALSE(QnnAddSupported(u8, s, u8, s, huge, u8));
  QnnBinaryParams bad_zp = p;
  bad_zp.out_zero_point = 300;
  EXPECT_FALSE(QnnAddSupported(u8, s, u8, s, bad_zp, u8));
  Tensor out;
  const auto status = QnnAddSameShape(a, Random(DType::kU8, {3}, rng), p, DType::kU8, &out, nullptr);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("one shape"), std::string::npos) << status;
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
