#include "runtime/output_compare.h"

#include "gtest/gtest.h"
#include "ir/builder.h"

namespace qnnc::runtime {
namespace {

using tensor::DType;
using tensor::Tensor;

TEST(OutputCompare, IntegersAreExact) {
  Tensor a = Tensor::FromVector<uint8_t>({3}, {1, 2, 3});
  Tensor b = Tensor::FromVector<uint8_t>({3}, {1, 2, 4});
  EXPECT_TRUE(CompareTensors(a, a, {}).match);
  Comparison c = CompareTensors(a, b, {1.0, 1.0, "huge"});  // tolerance ignored for ints
  EXPECT_FALSE(c.match);
  EXPECT_EQ(c.worst_index, 2);
  EXPECT_NE(c.message.find("[2]"), std::string::npos) << c.message;
}

TEST(OutputCompare, FloatsWithinToleranceAndTopK) {
  std::vector<float> e = {0.1f, 0.9f, 0.3f, 0.2f, 0.5f, 0.05f, 0.7f};
  std::vector<float> a = e;
  a[0] += 0.01f;
  Tensor te = Tensor::FromVector<float>({1, 7}, e), ta = Tensor::FromVector<float>({1, 7}, a);
  Comparison ok = CompareTensors(ta, te, {0.02, 0, "test"});
  EXPECT_TRUE(ok.match) << ok.message;
  EXPECT_TRUE(ok.top1_equal && ok.top5_equal);
  EXPECT_FALSE(CompareTensors(ta, te, {0.001, 0, "test"}).match);
  // Swap the top-1 within tolerance: values match but top-1 differs.
  a = e;
  a[1] = 0.69f;
  a[6] = 0.71f;
  Comparison swapped = CompareTensors(Tensor::FromVector<float>({1, 7}, a), te, {0.5, 0, "big"});
  EXPECT_FALSE(swapped.top1_equal);
  EXPECT_FALSE(swapped.match);
}

TEST(OutputCompare, ShapeMismatch) {
  EXPECT_FALSE(CompareTensors(Tensor::Zeros(DType::kF32, {2}), Tensor::Zeros(DType::kF32, {3}), {}).match);
}

TEST(OutputCompare, ToleranceFromDequantize) {
  ir::Builder b;
  ir::Value* x = b.Input("x", {DType::kU8, {4}});
  ir::Value* d = b.Op("qnn.dequantize", {x, b.Scalar<float>(0.25f), b.Scalar<uint8_t>(0)});
  b.Output(d);
  auto g = *b.Finish();
  Tolerance t = ToleranceFor(*g->outputs()[0], {});
  EXPECT_NEAR(t.atol, 0.5, 1e-5);
  EXPECT_NE(t.why.find("quantization steps"), std::string::npos);
}

}  // namespace
}  // namespace qnnc::runtime
