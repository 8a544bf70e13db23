#include "kernels/layout/nhwc.h"

#include <cstring>
#include <random>

#include "gtest/gtest.h"
#include "kernels/reference/layout_transform.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::layout {
namespace {

using tensor::DType;
using tensor::Tensor;

Tensor Random(DType dtype, tensor::Shape shape, std::mt19937& rng) {
  Tensor t = Tensor::Zeros(dtype, shape);
  auto* bytes = static_cast<unsigned char*>(t.raw_data());
  for (size_t i = 0; i < t.byte_size(); ++i) bytes[i] = static_cast<unsigned char>(rng());
  return t;
}

void ExpectSame(const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.dtype(), want.dtype());
  ASSERT_EQ(got.shape(), want.shape());
  EXPECT_EQ(0, std::memcmp(got.raw_data(), want.raw_data(), want.byte_size()));
}

// Both directions against the reference, every element size, shapes smaller
// than, equal to and not multiples of a tile, batches, serial and on two
// threads; and the round trip is the identity.
TEST(NhwcTest, MatchesReferenceBothWays) {
  testing::TwoThreads two;
  std::mt19937 rng(7);
  const tensor::Shape shapes[] = {{1, 3, 5, 7},   {2, 16, 8, 8},  {1, 96, 14, 14},
                                  {1, 33, 31, 2}, {3, 1, 1, 1},   {1, 70, 1, 40}};
  for (DType dt : {DType::kU8, DType::kI8, DType::kI16, DType::kI32, DType::kF32, DType::kI64}) {
    for (const tensor::Shape& s : shapes) {
      for (pthreadpool_t pool : {pthreadpool_t{nullptr}, two.get()}) {
        SCOPED_TRACE(::testing::Message() << tensor::DTypeName(dt) << " [" << s[0] << "," << s[1]
                                        << "," << s[2] << "," << s[3] << "] "
                                        << (pool ? "2 threads" : "serial"));
        Tensor nchw = Random(dt, s, rng);
        auto nhwc = NchwToNhwc(nchw, pool);
        ASSERT_TRUE(nhwc.ok()) << nhwc.status();
        ExpectSame(*nhwc, *reference::LayoutTransform(nchw, "NCHW", "NHWC"));
        auto back = NhwcToNchw(*nhwc, pool);
        ASSERT_TRUE(back.ok()) << back.status();
        ExpectSame(*back, nchw);
        Tensor other = Random(dt, {s[0], s[2], s[3], s[1]}, rng);
        ExpectSame(*NhwcToNchw(other, pool), *reference::LayoutTransform(other, "NHWC", "NCHW"));
      }
    }
  }
}

TEST(NhwcTest, EmptyTensors) {
  auto t = NchwToNhwc(Tensor::Zeros(DType::kU8, {1, 0, 4, 4}));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), (tensor::Shape{1, 4, 4, 0}));
}

TEST(NhwcTest, OtherRanksAreErrors) {
  auto t = NchwToNhwc(Tensor::Zeros(DType::kU8, {2, 3, 4}));
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("rank 4, got rank 3"), std::string::npos) << t.status();
  EXPECT_FALSE(NhwcToNchw(Tensor::Zeros(DType::kU8, {2, 3, 4, 5, 6})).ok());
}

}  // namespace
}  // namespace qnnc::kernels::layout
