#include "kernels/elementwise/lookup.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/qnn_elementwise.h"
#include "kernels/testing/every_isa_level.h"
#include "kernels/testing/two_threads.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;

// At every instruction-set level the host allows (the AVX-512 and AVX2
// vpshufb paths, NEON's tbl/tbx and the scalar loop), against the reference.
TEST(LookupTest, TheReferencesBytes) {
  testing::TwoThreads two;
  std::mt19937 rng(5);
  testing::AtEveryIsaLevel([&] {
  for (DType in : {DType::kU8, DType::kI8}) {
    for (DType out_dtype : {DType::kU8, DType::kI8}) {
      Tensor x = *Tensor::Create(in, {3, 70001});  // several chunks, a ragged end
      for (int64_t i = 0; i < x.num_elements(); ++i) static_cast<uint8_t*>(x.raw_data())[i] = rng();
      Tensor table = *Tensor::Create(out_dtype, {256});
      for (int b = 0; b < 256; ++b) static_cast<uint8_t*>(table.raw_data())[b] = rng();
      auto want = reference::Lookup(x, table);
      ASSERT_TRUE(want.ok()) << want.status();
      for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
        Tensor got = *Tensor::Create(out_dtype, x.shape());
        const void* at = got.raw_data();
        ASSERT_TRUE(Lookup(x, static_cast<const uint8_t*>(table.raw_data()), out_dtype, &got, pool).ok());
        EXPECT_EQ(got.raw_data(), at);
        EXPECT_TRUE(got.BitwiseEquals(*want));
      }
    }
  }
  });
  Tensor out;
  uint8_t t[256] = {};
  EXPECT_FALSE(Lookup(Tensor::Zeros(DType::kF32, {2}), t, DType::kU8, &out, nullptr).ok());
  EXPECT_FALSE(reference::Lookup(Tensor::Zeros(DType::kU8, {2}), Tensor::Zeros(DType::kU8, {255})).ok());
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
