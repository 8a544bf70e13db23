#include "ir/structural_equal.h"

#include "gtest/gtest.h"
#include "ir/builder.h"

namespace qnnc::ir {
namespace {

std::unique_ptr<Graph> Make(float scale, bool swap_order, int64_t axis) {
  Builder b;
  Value* x = b.Input(swap_order ? "in" : "x", {DType::kU8, {1, 4}});
  Value* s = b.Scalar<float>(scale);
  Value* z = b.Scalar<uint8_t>(3);
  Attrs attrs;
  attrs.Set("axis", axis);
  Value* relu_first = nullptr;
  if (swap_order) relu_first = b.Op("relu", {x});
  Value* d = b.Op("qnn.dequantize", {x, s, z}, attrs);
  Value* r = relu_first ? relu_first : b.Op("relu", {x});
  b.Output(d);
  b.Output(r);
  return *b.Finish();
}

TEST(StructuralEqual, IgnoresNamesAndOrder) {
  EXPECT_EQ(StructuralDiff(*Make(0.5f, false, 1), *Make(0.5f, true, 1)), "");
}

TEST(StructuralEqual, SeesConstantsAndAttributes) {
  EXPECT_NE(StructuralDiff(*Make(0.5f, false, 1), *Make(0.25f, false, 1)), "");
  std::string diff = StructuralDiff(*Make(0.5f, false, 1), *Make(0.5f, false, 0));
  EXPECT_NE(diff.find("attributes"), std::string::npos) << diff;
}

}  // namespace
}  // namespace qnnc::ir
