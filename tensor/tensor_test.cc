#include "tensor/tensor.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "tensor/buffer_cache.h"

namespace qnnc::tensor {
namespace {

TEST(DType, NamesRoundTrip) {
  for (DType d : {DType::kU8, DType::kI8, DType::kU16, DType::kI16, DType::kI32, DType::kI64,
                  DType::kF16, DType::kF32, DType::kBool}) {
    auto parsed = ParseDType(DTypeName(d));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, d);
  }
  EXPECT_FALSE(ParseDType("int8").ok());
}

TEST(DType, Limits) {
  EXPECT_EQ(DTypeMin(DType::kI8), -128);
  EXPECT_EQ(DTypeMax(DType::kU8), 255);
  EXPECT_EQ(DTypeMax(DType::kI16), 32767);
}

TEST(DType, HalfRoundTrip) {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f, 5.9604645e-08f}) {
    EXPECT_EQ(HalfToFloat(FloatToHalf(f)), f) << f;
  }
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_TRUE(std::isinf(HalfToFloat(FloatToHalf(1e6f))));
}

TEST(Tensor, CreateChecksShape) {
  EXPECT_FALSE(Tensor::Create(DType::kF32, {2, -1}).ok());
  EXPECT_FALSE(Tensor::Create(DType::kF32, {int64_t{1} << 40, int64_t{1} << 40}).ok());
  auto t = Tensor::Create(DType::kI32, {2, 3});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->num_elements(), 6);
  EXPECT_EQ(t->byte_size(), 24u);
  EXPECT_EQ(t->data<int32_t>()[5], 0);
}

TEST(Tensor, BorrowedDataIsUsedNotCopiedAndNotPadded) {
  std::vector<int32_t> data = {1, 2, 3, 4, 5, 6};
  auto t = Tensor::Borrow(data.data(), DType::kI32, {2, 3});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->raw_data(), data.data());
  EXPECT_FALSE(t->padded());
  EXPECT_FALSE(t->Reshaped({3, 2})->padded());
  EXPECT_TRUE(t->Clone().padded());
  EXPECT_TRUE(t->Clone().BitwiseEquals(*t));
  EXPECT_FALSE(Tensor::View(*t, 0, DType::kI32, {2}).ok());
  EXPECT_FALSE(Tensor::Borrow(nullptr, DType::kI32, {2}).ok());
  EXPECT_FALSE(Tensor::Borrow(data.data(), DType::kI32, {-1}).ok());
  EXPECT_TRUE(Tensor::Zeros(DType::kI32, {2}).padded());
}

TEST(Tensor, ViewSharesItsBaseAndZeroesThePaddingUnlessASlice) {
  Tensor base = Tensor::Zeros(DType::kU8, {256});
  for (int i = 0; i < 256; ++i) base.data<uint8_t>()[i] = static_cast<uint8_t>(i + 1);
  auto slice = Tensor::View(base, 64, DType::kU8, {64}, /*zero_padding=*/false);
  ASSERT_TRUE(slice.ok()) << slice.status();
  EXPECT_EQ(slice->data<uint8_t>(), base.data<uint8_t>() + 64);
  EXPECT_EQ(base.data<uint8_t>()[128], 129);  // the next slice's bytes are left alone
  auto view = Tensor::View(base, 64, DType::kU8, {64});
  ASSERT_TRUE(view.ok()) << view.status();
  for (int i = 128; i < 192; ++i) EXPECT_EQ(base.data<uint8_t>()[i], 0) << i;
  EXPECT_EQ(base.data<uint8_t>()[192], 193);
  // Misaligned or past the base's bytes (its padding counts): refused.
  EXPECT_FALSE(Tensor::View(base, 1, DType::kU8, {8}).ok());
  EXPECT_FALSE(Tensor::View(base, 256, DType::kU8, {128}).ok());
}

TEST(Tensor, ReshapeAndClone) {
  Tensor t = Tensor::FromVector<int8_t>({2, 2}, {1, -2, 3, -4});
  auto r = t.Reshaped({4});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->GetAsInt(1), -2);
  EXPECT_FALSE(t.Reshaped({3}).ok());
  Tensor c = t.Clone();
  c.data<int8_t>()[0] = 9;
  EXPECT_EQ(t.data<int8_t>()[0], 1);
  EXPECT_FALSE(c.BitwiseEquals(t));
  EXPECT_TRUE(t.BitwiseEquals(*r->Reshaped({2, 2})));
}

TEST(Tensor, ToVectorInvertsFromVector) {
  const std::vector<float> values = {1.5f, -0.0f, 3e38f, -7.25f, 0.125f, 42.0f};
  const Tensor t = Tensor::FromVector<float>({2, 3}, values);
  EXPECT_EQ(t.ToVector<float>(), values);
  EXPECT_EQ(Tensor::Scalar<int64_t>(-5).ToVector<int64_t>(), (std::vector<int64_t>{-5}));
  EXPECT_TRUE(Tensor::Zeros(DType::kU8, {0, 4}).ToVector<uint8_t>().empty());
}

TEST(Tensor, Strides) {
  EXPECT_EQ(Strides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(ShapeToString({1, 3}), "1x3");
  EXPECT_EQ(ShapeToString({}), "scalar");
}

}  // namespace
}  // namespace qnnc::tensor

namespace qnnc::tensor {
namespace {

#if !defined(__SANITIZE_ADDRESS__)
// A large buffer freed by one tensor is the next same-sized tensor's (no
// page faults on the model's next run); small ones are left to malloc; a
// reused buffer still gets its padding zeroed.
TEST(BufferCache, RecyclesLargeBuffersOfTheSameSizeDuringARun) {
  const RecyclingScope run;
  const size_t before = CachedBufferBytes();
  void* first = nullptr;
  {
    Tensor a = *Tensor::CreateForOverwrite(DType::kU8, {1, 96, 112, 112});
    first = a.raw_data();
    std::memset(a.raw_data(), 0xAB, a.byte_size() + Tensor::kPaddingBytes);
  }
  EXPECT_GT(CachedBufferBytes(), before);
  Tensor b = *Tensor::CreateForOverwrite(DType::kU8, {1, 96, 112, 112});
  EXPECT_EQ(b.raw_data(), first);
  EXPECT_EQ(CachedBufferBytes(), before);
  const uint8_t* pad = static_cast<const uint8_t*>(b.raw_data()) + b.byte_size();
  for (size_t i = 0; i < Tensor::kPaddingBytes; ++i) ASSERT_EQ(pad[i], 0) << i;
  Tensor other = *Tensor::CreateForOverwrite(DType::kU8, {1, 95, 112, 112});
  EXPECT_NE(other.raw_data(), first);

  const size_t cached = CachedBufferBytes();
  { Tensor small = *Tensor::CreateForOverwrite(DType::kU8, {16}); }
  EXPECT_EQ(CachedBufferBytes(), cached);
}

// Outside a run nothing is kept: what compiling frees leaves memory.
TEST(BufferCache, KeepsNothingOutsideARun) {
  const size_t before = CachedBufferBytes();
  {  // a size no other test caches
    Tensor a = *Tensor::CreateForOverwrite(DType::kU8, {1, 93, 111, 111});
    std::memset(a.raw_data(), 1, a.byte_size());
  }
  EXPECT_EQ(CachedBufferBytes(), before);
}

// The free lists hold at most kMaxCachedBytes.
TEST(BufferCache, HoldsAtMostItsLimit) {
  const RecyclingScope run;
  std::vector<Tensor> many;
  for (int i = 0; i < 40; ++i) many.push_back(*Tensor::CreateForOverwrite(DType::kU8, {16 << 20}));
  many.clear();
  EXPECT_LE(CachedBufferBytes(), kMaxCachedBytes);
  EXPECT_GT(CachedBufferBytes(), kMaxCachedBytes / 2);
}
#endif

}  // namespace
}  // namespace qnnc::tensor
