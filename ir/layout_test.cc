#include "ir/layout.h"

#include "gtest/gtest.h"

namespace qnnc::ir {
namespace {

Layout L(const char* text) { return *Layout::Parse(text); }

TEST(Layout, Transforms) {
  EXPECT_EQ(*TransformLayoutShape({1, 3, 5, 7}, L("NCHW"), L("NHWC")), (Shape{1, 5, 7, 3}));
  EXPECT_EQ(*TransformLayoutShape({1, 5, 7, 3}, L("NHWC"), L("NCHW")), (Shape{1, 3, 5, 7}));
  EXPECT_EQ(*TransformLayoutShape({1, 20, 5, 7}, L("NCHW"), L("NCHW8c")), (Shape{1, 3, 5, 7, 8}));
  EXPECT_EQ(*TransformLayoutShape({8, 4, 3, 3}, L("OIHW"), L("HWIO")), (Shape{3, 3, 4, 8}));
}

// The text is the one spelling: parsed, a layout gives its text back; the
// named layouts are the parsed ones; the channel block is read once.
TEST(Layout, RoundTripsAndNamesItsKinds) {
  for (const char* text : {"NCHW", "NHWC", "OIHW", "HWIO", "NCHW16c", "NCHW4c", "OIHW4o", "NCHW1c"}) {
    const absl::StatusOr<Layout> l = Layout::Parse(text);
    ASSERT_TRUE(l.ok()) << text << ": " << l.status();
    EXPECT_EQ(l->str(), text);
    EXPECT_EQ(*Layout::Parse(l->str()), *l);
  }
  EXPECT_EQ(L("NCHW"), Layout::Nchw());
  EXPECT_EQ(L("NCHW"), Layout());
  EXPECT_EQ(L("NHWC"), Layout::Nhwc());
  EXPECT_EQ(L("OIHW"), Layout::Oihw());
  EXPECT_EQ(L("NC"), Layout::Nc());
  EXPECT_EQ(L("NCHW16c"), Layout::ChannelBlocked(16));
  EXPECT_EQ(L("NCHW16c").axes().size(), Layout::ChannelBlocked(16).axes().size());
  EXPECT_EQ(L("NCHW16c").channel_block(), 16);
  EXPECT_EQ(L("NCHW4c").channel_block(), 4);
  EXPECT_EQ(L("NCHW").channel_block(), 0);
  EXPECT_EQ(L("OIHW4o").channel_block(), 0);
  EXPECT_EQ(L("NHWC8c").channel_block(), 0);
  EXPECT_TRUE(L("NCHW16c").blocked() && L("NCHW16c").altered());
  EXPECT_TRUE(L("NHWC").altered() && !L("NHWC").blocked());
  EXPECT_FALSE(L("NCHW").altered());
  EXPECT_NE(L("NCHW16c"), L("NCHW4c"));
}

// An attribute's layout: the fallback when absent; a bad one names the
// attribute and the text.
TEST(Layout, FromAnAttribute) {
  Attrs a;
  a.Set("data_layout", std::string("NCHW16c"));
  a.Set("kernel_layout", std::string("OI4"));
  EXPECT_EQ(*LayoutAttr(a, "data_layout", Layout::Nchw()), Layout::ChannelBlocked(16));
  EXPECT_EQ(*LayoutAttr(a, "out_layout", Layout::Nhwc()), Layout::Nhwc());
  const absl::Status bad = LayoutAttr(a, "kernel_layout", Layout::Oihw()).status();
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.message()).find("kernel_layout: bad layout 'OI4'"), std::string::npos) << bad;
  EXPECT_FALSE(LayoutAttr(a, "src_layout").ok());
  EXPECT_FALSE(Layout::Parse("").ok());
}

TEST(Layout, Errors) {
  EXPECT_FALSE(ParseLayout("NC1c").ok() && false);
  EXPECT_FALSE(ParseLayout("NCHW0c").ok());
  EXPECT_FALSE(ParseLayout("NCHWc").ok());
  EXPECT_FALSE(ParseLayout("NNHW").ok());
  EXPECT_FALSE(ParseLayout("NHW4c").ok());
  EXPECT_FALSE(TransformLayoutShape({1, 3, 5}, L("NCHW"), L("NHWC")).ok());
  EXPECT_FALSE(TransformLayoutShape({1, 3, 5, 7}, L("NCHW"), L("OIHW")).ok());
}

}  // namespace
}  // namespace qnnc::ir
