#include "kernels/elementwise/int16_ops.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/elementwise.h"
#include "kernels/testing/every_isa_level.h"
#include "kernels/testing/two_threads.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

Tensor Random(DType dtype, const Shape& shape, std::mt19937& rng) {
  Tensor t = *Tensor::Create(dtype, shape);
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    const uint32_t r = rng();
    if (dtype == DType::kU8) t.data<uint8_t>()[i] = static_cast<uint8_t>(r);
    if (dtype == DType::kI8) t.data<int8_t>()[i] = static_cast<int8_t>(r);
    if (dtype == DType::kI16) t.data<int16_t>()[i] = static_cast<int16_t>(r);
  }
  return t;
}

const std::vector<Shape> kShapes = {{1, 32, 56, 56}, {2, 3, 7, 9, 16}, {1, 1000}, {5}, {1, 0, 4}};

TEST(WidenToI16, MatchesTheReferenceCast) {
  testing::TwoThreads pool;
  std::mt19937 rng(7);
  testing::AtEveryIsaLevel([&] {
    for (DType dtype : {DType::kU8, DType::kI8}) {
      for (const Shape& shape : kShapes) {
        const Tensor x = Random(dtype, shape, rng);
        const Tensor want = *reference::Cast(x, DType::kI16);
        for (pthreadpool_t threads : {pool.get(), static_cast<pthreadpool_t>(nullptr)}) {
          Tensor got;
          ASSERT_TRUE(WidenToI16(x, &got, threads).ok());
          EXPECT_TRUE(got.BitwiseEquals(want));
          // Planned memory: a second run writes the same buffer.
          const void* buffer = got.data<int16_t>();
          ASSERT_TRUE(WidenToI16(x, &got, threads).ok());
          EXPECT_EQ(got.data<int16_t>(), buffer);
          EXPECT_TRUE(got.BitwiseEquals(want));
        }
      }
    }
  });
}

// Any int16 values, wrapping as the reference does (-32768 - 1 = 32767).
TEST(SubtractScalarI16, MatchesTheReferenceSubtract) {
  testing::TwoThreads pool;
  std::mt19937 rng(11);
  testing::AtEveryIsaLevel([&] {
    for (const Shape& shape : kShapes) {
      Tensor x = Random(DType::kI16, shape, rng);
      if (x.num_elements() > 1) x.data<int16_t>()[0] = -32768, x.data<int16_t>()[1] = 32767;
      for (int16_t s : {int16_t{0}, int16_t{113}, int16_t{-128}, int16_t{1}, int16_t{-1}, int16_t{-32768}}) {
        for (const Shape& s_shape : {Shape{}, Shape{1}, Shape{1, 1, 1, 1}}) {
          const Tensor scalar = Tensor::FromVector<int16_t>(s_shape, {s});
          auto want = reference::Subtract(x, scalar);
          ASSERT_TRUE(want.ok()) << want.status();
          if (want->shape() != x.shape()) continue;  // a broadcast the kernel does not take
          for (pthreadpool_t threads : {pool.get(), static_cast<pthreadpool_t>(nullptr)}) {
            Tensor got;
            ASSERT_TRUE(SubtractScalarI16(x, scalar, &got, threads).ok());
            EXPECT_TRUE(got.BitwiseEquals(*want)) << "s=" << s;
          }
        }
      }
    }
  });
}

TEST(Int16Ops, RefuseOtherDtypes) {
  Tensor out;
  const Tensor f = *Tensor::Create(DType::kF32, {4});
  const Tensor i16 = *Tensor::Create(DType::kI16, {4});
  EXPECT_FALSE(WidenToI16(f, &out, nullptr).ok());
  EXPECT_FALSE(WidenToI16(i16, &out, nullptr).ok());
  EXPECT_FALSE(SubtractScalarI16(f, i16, &out, nullptr).ok());
  EXPECT_FALSE(SubtractScalarI16(i16, i16, &out, nullptr).ok()) << "four elements are not a scalar";
  EXPECT_FALSE(WidenToI16(*Tensor::Create(DType::kU8, {4}), nullptr, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
