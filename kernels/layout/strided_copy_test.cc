#include "kernels/layout/strided_copy.h"

#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "kernels/reference/layout.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::layout {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

Tensor Random(DType dtype, const Shape& shape, std::mt19937& rng) {
  Tensor t = *Tensor::Create(dtype, shape);
  auto* b = static_cast<uint8_t*>(t.raw_data());
  for (size_t i = 0; i < t.byte_size(); ++i) b[i] = static_cast<uint8_t>(rng());
  return t;
}

// Each kernel, on the calling thread and on two, into a fresh output and
// into a planned (already allocated) one, against the reference's bytes.
template <typename F>
void ExpectReferenceBytes(const Tensor& want, F&& run, const std::string& what) {
  testing::TwoThreads two;
  for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
    Tensor fresh;
    ASSERT_TRUE(run(&fresh, pool).ok()) << what;
    EXPECT_TRUE(fresh.BitwiseEquals(want)) << what;
    Tensor planned = *Tensor::Create(want.dtype(), want.shape());
    const void* at = planned.raw_data();
    ASSERT_TRUE(run(&planned, pool).ok()) << what;
    EXPECT_EQ(planned.raw_data(), at) << what << ": wrote elsewhere";
    EXPECT_TRUE(planned.BitwiseEquals(want)) << what;
  }
}

TEST(StridedCopy, TransposeEveryPermutationOfRank4) {
  std::mt19937 rng(7);
  for (DType dt : {DType::kU8, DType::kF32, DType::kI64}) {
    const Tensor x = Random(dt, {3, 1, 5, 7}, rng);
    std::vector<int64_t> perm = {0, 1, 2, 3};
    do {
      auto want = reference::Transpose(x, perm);
      ASSERT_TRUE(want.ok());
      ExpectReferenceBytes(
          *want, [&](Tensor* out, pthreadpool_t pool) { return Transpose(x, perm, out, pool); },
          absl::StrJoin(perm, ","));
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  // ShuffleNet's channel shuffle.
  const Tensor s = Random(DType::kU8, {1, 2, 24, 14, 14}, rng);
  ExpectReferenceBytes(
      *reference::Transpose(s, {0, 2, 1, 3, 4}),
      [&](Tensor* out, pthreadpool_t pool) { return Transpose(s, {0, 2, 1, 3, 4}, out, pool); }, "shuffle");
  Tensor out;
  EXPECT_FALSE(Transpose(s, {0, 1, 1, 3, 4}, &out).ok());
}

TEST(StridedCopy, SlicesBothWaysAndEmpty) {
  std::mt19937 rng(8);
  const Tensor x = Random(DType::kU8, {2, 48, 7, 9}, rng);
  struct Case {
    std::vector<int64_t> begin, end, strides;
  };
  for (const Case& c : {Case{{0, 24, 0, 0}, {2, 48, 7, 9}, {1, 1, 1, 1}},   // ShuffleNet's split
                        Case{{1, 0, 6, 8}, {-1, 48, -1, 0}, {-1, 3, -2, -3}},  // backwards
                        Case{{0, 5, 0, 0}, {2, 5, 7, 9}, {1, 1, 1, 1}}}) {     // empty
    auto want = reference::StridedSlice(x, c.begin, c.end, c.strides);
    ASSERT_TRUE(want.ok()) << want.status();
    ExpectReferenceBytes(
        *want,
        [&](Tensor* out, pthreadpool_t pool) { return StridedSlice(x, c.begin, c.end, c.strides, out, pool); },
        absl::StrJoin(c.strides, ","));
  }
  Tensor out;
  EXPECT_FALSE(StridedSlice(x, {0, 0, 0, 0}, {2, 49, 7, 9}, {1, 1, 1, 1}, &out).ok());
}

TEST(StridedCopy, BroadcastsAndPads) {
  std::mt19937 rng(9);
  const Tensor x = Random(DType::kF32, {3, 1, 5}, rng);
  const Shape to = {2, 3, 4, 5};
  ExpectReferenceBytes(
      *reference::BroadcastTo(x, to), [&](Tensor* out, pthreadpool_t pool) { return BroadcastTo(x, to, out, pool); },
      "broadcast");
  for (DType dt : {DType::kU8, DType::kF32, DType::kI32}) {
    const Tensor p = Random(dt, {1, 3, 6, 5}, rng);
    const std::vector<int64_t> pads = {0, 1, 2, 0, 0, 0, 1, 3};
    auto want = reference::Pad(p, pads, "constant", 7.0);
    ASSERT_TRUE(want.ok());
    // The fill as the reference converts the value: one padded element.
    auto fill = reference::Pad(Tensor::Zeros(dt, {0}), {1, 0}, "constant", 7.0);
    ASSERT_TRUE(fill.ok());
    ExpectReferenceBytes(
        *want, [&](Tensor* out, pthreadpool_t pool) { return PadConstant(p, pads, *fill, out, pool); },
        "pad");
  }
  Tensor out;
  EXPECT_FALSE(PadConstant(x, {0, 0, -1, 0, 0, 0}, Tensor::Zeros(DType::kF32, {1}), &out).ok());
  EXPECT_FALSE(BroadcastTo(x, {2, 2, 5}, &out).ok());
}

}  // namespace
}  // namespace qnnc::kernels::layout
