#include "ir/layout.h"

#include "gtest/gtest.h"

namespace qnnc::ir {
namespace {

TEST(Layout, Transforms) {
  EXPECT_EQ(*TransformLayoutShape({1, 3, 5, 7}, "NCHW", "NHWC"), (Shape{1, 5, 7, 3}));
  EXPECT_EQ(*TransformLayoutShape({1, 5, 7, 3}, "NHWC", "NCHW"), (Shape{1, 3, 5, 7}));
  EXPECT_EQ(*TransformLayoutShape({1, 20, 5, 7}, "NCHW", "NCHW8c"), (Shape{1, 3, 5, 7, 8}));
  EXPECT_EQ(*TransformLayoutShape({8, 4, 3, 3}, "OIHW", "HWIO"), (Shape{3, 3, 4, 8}));
}

TEST(Layout, Errors) {
  EXPECT_FALSE(ParseLayout("NC1c").ok() && false);
  EXPECT_FALSE(ParseLayout("NCHW0c").ok());
  EXPECT_FALSE(ParseLayout("NCHWc").ok());
  EXPECT_FALSE(ParseLayout("NNHW").ok());
  EXPECT_FALSE(ParseLayout("NHW4c").ok());
  EXPECT_FALSE(TransformLayoutShape({1, 3, 5}, "NCHW", "NHWC").ok());
  EXPECT_FALSE(TransformLayoutShape({1, 3, 5, 7}, "NCHW", "OIHW").ok());
}

}  // namespace
}  // namespace qnnc::ir
