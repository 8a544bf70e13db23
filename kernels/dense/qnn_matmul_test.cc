#include "kernels/dense/qnn_matmul.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/reference/dense.h"
#include "kernels/testing/two_threads.h"

namespace qnnc::kernels::dense {
namespace {

using tensor::DType;
using tensor::Tensor;

template <typename T>
Tensor Random(tensor::Shape shape, std::mt19937& rng) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(static_cast<int>(rng() % 256) + (std::is_signed_v<T> ? -128 : 0));
  return Tensor::FromVector<T>(shape, v);
}

TEST(QnnMatMulConstBTest, MatchesTheReference) {
  testing::TwoThreads two;
  std::mt19937 rng(5);
  struct Case {
    tensor::Shape a;
    int64_t n;
    bool signed_a, signed_b, per_column;
  };
  for (const Case& c : std::vector<Case>{{{1, 1280}, 1000, false, false, false},
                                         {{3, 70}, 300, false, true, true},
                                         {{2, 4, 33}, 5, true, false, false},
                                         {{1, 129}, 129, true, true, true}}) {
    const int64_t k = c.a.back();
    const Tensor a = c.signed_a ? Random<int8_t>(c.a, rng) : Random<uint8_t>(c.a, rng);
    const Tensor b = c.signed_b ? Random<int8_t>({k, c.n}, rng) : Random<uint8_t>({k, c.n}, rng);
    Tensor zb = c.per_column
                    ? (c.signed_b ? Random<int8_t>({c.n}, rng) : Random<uint8_t>({c.n}, rng))
                    : (c.signed_b ? Tensor::FromVector<int8_t>({}, {-3}) : Tensor::FromVector<uint8_t>({}, {131}));
    const int32_t za = c.signed_a ? -17 : 200;
    const Tensor za_t = c.signed_a ? Tensor::FromVector<int8_t>({}, {static_cast<int8_t>(za)})
                                   : Tensor::FromVector<uint8_t>({}, {static_cast<uint8_t>(za)});
    const Tensor expected = reference::QnnMatMul(a, b, za_t, zb).value();
    auto mm = QnnMatMulConstB::Create(b, zb, a.dtype());
    ASSERT_TRUE(mm.ok()) << mm.status();
    for (pthreadpool_t pool : {static_cast<pthreadpool_t>(nullptr), two.get()}) {
      Tensor out;
      ASSERT_TRUE((*mm)->Run(a, za, &out, pool).ok());
      EXPECT_TRUE(out.BitwiseEquals(expected)) << tensor::ShapeToString(c.a) << " x " << c.n;
    }
  }
}

TEST(QnnMatMulConstBTest, BadInputsAreErrors) {
  std::mt19937 rng(1);
  const Tensor b = Random<uint8_t>({8, 4}, rng);
  EXPECT_FALSE(QnnMatMulConstB::Create(b, Tensor::FromVector<uint8_t>({3}, {1, 2, 3}), DType::kU8).ok());
  EXPECT_FALSE(QnnMatMulConstB::Create(Random<uint8_t>({8}, rng), Tensor::FromVector<uint8_t>({}, {1}), DType::kU8).ok());
  auto mm = QnnMatMulConstB::Create(b, Tensor::FromVector<uint8_t>({}, {1}), DType::kU8);
  ASSERT_TRUE(mm.ok());
  Tensor out;
  EXPECT_FALSE((*mm)->Run(Random<uint8_t>({1, 7}, rng), 0, &out, nullptr).ok());
  EXPECT_FALSE((*mm)->Run(Random<uint8_t>({1, 8}, rng), 256, &out, nullptr).ok());
  EXPECT_FALSE((*mm)->Run(Random<int8_t>({1, 8}, rng), 0, &out, nullptr).ok());
}

}  // namespace
}  // namespace qnnc::kernels::dense
