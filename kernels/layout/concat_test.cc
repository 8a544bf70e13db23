#include "kernels/layout/concat.h"

#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "kernels/reference/layout.h"
#include "kernels/testing/random_tensor.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::layout {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;
using testing::RandomBytes;

// Every axis of rank-4 tensors (the U-Net's channel concat among them, big
// enough for several 64 KB pieces), three dtypes, an empty input, and a
// planned output written in place.
TEST(Concat, GivesTheReferencesBytes) {
  testing::TwoThreads pool;
  std::mt19937 rng(43);
  for (DType dt : {DType::kF32, DType::kU8, DType::kI32}) {
    for (int64_t axis = 0; axis < 4; ++axis) {
      Shape a = {2, 48, 40, 33}, b = a, c = a;
      b[axis] = 3;
      c[axis] = 0;
      const std::vector<Tensor> in = {RandomBytes(dt, a, rng), RandomBytes(dt, b, rng), RandomBytes(dt, c, rng)};
      auto want = reference::Concat(in, axis);
      ASSERT_TRUE(want.ok()) << want.status();
      for (pthreadpool_t threads : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
        SCOPED_TRACE(std::string(tensor::DTypeName(dt)) + " axis " + std::to_string(axis));
        Tensor got;
        ASSERT_TRUE(Concat(in, axis, &got, threads).ok());
        EXPECT_TRUE(got.BitwiseEquals(*want));
        Tensor planned = *Tensor::Create(dt, want->shape());
        const void* where = planned.raw_data();
        ASSERT_TRUE(Concat(in, axis, &planned, threads).ok());
        EXPECT_EQ(planned.raw_data(), where);
        EXPECT_TRUE(planned.BitwiseEquals(*want));
      }
    }
  }
  Tensor out;
  EXPECT_FALSE(Concat({Tensor::Zeros(DType::kF32, {1, 2}), Tensor::Zeros(DType::kF32, {2, 2})}, 1, &out, nullptr).ok());
  EXPECT_FALSE(Concat({Tensor::Zeros(DType::kF32, {1, 2}), Tensor::Zeros(DType::kU8, {1, 2})}, 1, &out, nullptr).ok());
}

// Tables map each input's bytes (a requantization); nullptr copies.
TEST(Concat, MapsThroughTables) {
  testing::TwoThreads pool;
  std::mt19937 rng(44);
  std::vector<uint8_t> negate(256);
  for (int b = 0; b < 256; ++b) negate[b] = static_cast<uint8_t>(255 - b);
  const std::vector<Tensor> in = {RandomBytes(DType::kU8, {1, 5, 3, 3}, rng), RandomBytes(DType::kU8, {1, 2, 3, 3}, rng)};
  for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), pool.get()}) {
    Tensor out;
    ASSERT_TRUE(ConcatWithTables(in, {nullptr, negate.data()}, 1, &out, p).ok());
    ASSERT_EQ(out.shape(), (Shape{1, 7, 3, 3}));
    const uint8_t* o = out.data<uint8_t>();
    for (int i = 0; i < 45; ++i) EXPECT_EQ(o[i], in[0].data<uint8_t>()[i]) << i;
    for (int i = 0; i < 18; ++i) EXPECT_EQ(o[45 + i], 255 - in[1].data<uint8_t>()[i]) << i;
  }
  Tensor out;
  const std::vector<Tensor> wide = {RandomBytes(DType::kF32, {2}, rng)};
  EXPECT_FALSE(ConcatWithTables(wide, {negate.data()}, 0, &out, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::layout
