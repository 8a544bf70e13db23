#include "kernels/dense/int8_dense.h"

#include <random>
#include <string>

#include "gtest/gtest.h"
#include "kernels/testing/two_threads.h"
#include "kernels/reference/dense.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::dense {
namespace {

using tensor::DType;
using tensor::Tensor;

Tensor RandomBytes(DType dtype, const tensor::Shape& shape, std::mt19937& rng, int extreme) {
  Tensor t = *Tensor::Create(dtype, shape);
  auto* p = static_cast<uint8_t*>(t.raw_data());
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    // extreme: every value at the magnitude limit (255 / -128), the worst
    // case for the accumulator.
    p[i] = extreme ? (dtype == DType::kU8 ? 255 : 0x80) : static_cast<uint8_t>(rng());
  }
  return t;
}

TEST(Int8DenseTest, MatchesReference) {
  testing::TwoThreads pool;
  std::mt19937 rng(9);
  struct Case {
    tensor::Shape data;
    int64_t n;
  };
  // MobileNetV2's classifier, K not a multiple of a vector, batches, a 3-D
  // input, one feature.
  const Case cases[] = {{{1, 1280}, 1000}, {{1, 37}, 5}, {{3, 100}, 70}, {{2, 2, 19}, 33},
                        {{1, 8}, 1}};
  for (DType dtype : {DType::kU8, DType::kI8}) {
    for (const Case& c : cases) {
      for (int extreme : {0, 1}) {
        const int64_t k = c.data.back();
        SCOPED_TRACE(std::string(tensor::DTypeName(dtype)) + " " +
                     tensor::ShapeToString(c.data) + " N=" + std::to_string(c.n) +
                     (extreme ? " extreme" : ""));
        const Tensor x = RandomBytes(dtype, c.data, rng, extreme);
        const Tensor w = RandomBytes(DType::kI8, {c.n, k}, rng, extreme);
        auto want = reference::QnnDense(x, w, Tensor::Scalar<int32_t>(0),
                                        Tensor::Scalar<int32_t>(0));
        ASSERT_TRUE(want.ok()) << want.status();
        auto dense = Int8Dense::Create(w, dtype);
        ASSERT_TRUE(dense.ok()) << dense.status();
        Tensor got;
        ASSERT_TRUE((*dense)->Run(x, &got, extreme ? nullptr : pool.get()).ok());
        EXPECT_TRUE(got.BitwiseEquals(*want));
      }
    }
  }
}

TEST(Int8DenseTest, RejectsBadArguments) {
  std::mt19937 rng(2);
  EXPECT_FALSE(Int8Dense::Create(RandomBytes(DType::kU8, {4, 4}, rng, 0), DType::kU8).ok());
  EXPECT_FALSE(Int8Dense::Create(RandomBytes(DType::kI8, {4, 4}, rng, 0), DType::kI32).ok());
  auto dense = Int8Dense::Create(RandomBytes(DType::kI8, {4, 4}, rng, 0), DType::kU8);
  ASSERT_TRUE(dense.ok());
  Tensor out;
  const auto status = (*dense)->Run(RandomBytes(DType::kU8, {1, 5}, rng, 0), &out, nullptr);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(std::string(status.message()).find("[..., 4]"), std::string::npos) << status;
}

}  // namespace
}  // namespace qnnc::kernels::dense
