#include "kernels/elementwise/qnn_mul.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/qnn_elementwise.h"
#include "kernels/testing/two_threads.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

Tensor Random(DType dt, const Shape& s, std::mt19937& rng) {
  Tensor t = *Tensor::Create(dt, s);
  for (size_t i = 0; i < t.byte_size(); ++i) static_cast<uint8_t*>(t.raw_data())[i] = static_cast<uint8_t>(rng());
  return t;
}

// Same shapes (several pieces), a squeeze-excite gate in NCHW and blocked,
// either operand the gate, u8 and i8, against the reference's bits.
TEST(QnnMulTest, TheReferencesBits) {
  testing::TwoThreads two;
  std::mt19937 rng(8);
  struct Case {
    Shape a, b;
  };
  for (const Case& c : {Case{{1, 3, 70, 100}, {1, 3, 70, 100}}, Case{{2, 40, 14, 14}, {2, 40, 1, 1}},
                        Case{{1, 40, 1, 1}, {1, 40, 7, 9}}, Case{{1, 3, 14, 14, 16}, {1, 3, 1, 1, 16}}}) {
    for (DType a_dt : {DType::kU8, DType::kI8}) {
      for (DType out_dt : {DType::kU8, DType::kI8}) {
        const Tensor a = Random(a_dt, c.a, rng), b = Random(DType::kU8, c.b, rng);
        QnnBinaryParams p{0.02f, 0.0039f, 0.011f, a_dt == DType::kU8 ? 120 : -7, 3, out_dt == DType::kU8 ? 100 : 5};
        ASSERT_TRUE(QnnMulSupported(a.dtype(), a.shape(), b.dtype(), b.shape(), p, out_dt));
        auto want = reference::QnnMul(a, Tensor::Scalar<float>(p.a_scale), Tensor::Scalar<int32_t>(p.a_zero_point), b,
                                      Tensor::Scalar<float>(p.b_scale), Tensor::Scalar<int32_t>(p.b_zero_point),
                                      Tensor::Scalar<float>(p.out_scale), Tensor::Scalar<int32_t>(p.out_zero_point),
                                      out_dt);
        ASSERT_TRUE(want.ok()) << want.status();
        for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
          Tensor got;
          ASSERT_TRUE(QnnMul(a, b, p, out_dt, &got, pool).ok());
          EXPECT_TRUE(got.BitwiseEquals(*want));
        }
      }
    }
  }
  QnnBinaryParams p;
  EXPECT_FALSE(QnnMulSupported(DType::kU8, {1, 4, 2, 2}, DType::kU8, {1, 2, 2, 2}, p, DType::kU8));
  EXPECT_FALSE(QnnMulSupported(DType::kI32, {2}, DType::kU8, {2}, p, DType::kU8));
}

}  // namespace
}  // namespace qnnc::kernels::elementwise
