#include "ir/layout_views.h"

#include <array>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace qnnc::ir {
namespace {

using tensor::DType;

// A node of `op` on `inputs` copies of one f32 input, with `attrs`.
Node* Add(Graph& g, const std::string& op, Attrs attrs, size_t inputs = 1) {
  Value* x = g.AddInput("x" + std::to_string(g.nodes().size()), {DType::kF32, {1, 4, 2, 2}});
  return g.AddNode(op, std::vector<Value*>(inputs, x), std::move(attrs));
}

// `status` is an error whose message holds `text`.
void ExpectError(const absl::Status& status, const std::string& text) {
  ASSERT_FALSE(status.ok()) << text;
  EXPECT_NE(status.message().find(text), std::string::npos) << status;
}

Attrs One(const std::string& name, AttrValue value) {
  Attrs a;
  a.Set(name, std::move(value));
  return a;
}

TEST(LayoutTransformView, BothLayoutsRequiredChannelsOptional) {
  Graph g;
  Attrs a;
  a.Set("src_layout", std::string("NCHW16c"));
  a.Set("dst_layout", std::string("NCHW"));
  auto v = LayoutTransformView::Of(*Add(g, "layout_transform", a));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->src_layout, Layout::ChannelBlocked(16));
  EXPECT_EQ(v->dst_layout, Layout::Nchw());
  EXPECT_FALSE(v->channels.has_value());
  a.Set("channels", int64_t{12});
  EXPECT_EQ(LayoutTransformView::Of(*Add(g, "layout_transform", a))->channels, 12);

  a.Set("channels", std::string("12"));
  ExpectError(LayoutTransformView::Of(*Add(g, "layout_transform", a)).status(),
              "attribute 'channels' must be an int");
  ExpectError(LayoutTransformView::Of(*Add(g, "layout_transform", One("src_layout", std::string("NCHW"))))
                  .status(),
              "missing attribute 'dst_layout'");
}

TEST(TransposeView, ReversesWhenNotGiven) {
  Graph g;
  auto v = TransposeView::Of(*Add(g, "transpose", {}));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->AxesFor(4), (std::vector<int64_t>{3, 2, 1, 0}));
  auto given = TransposeView::Of(*Add(g, "transpose", One("axes", std::vector<int64_t>{0, 2, 3, 1})));
  ASSERT_TRUE(given.ok()) << given.status();
  EXPECT_EQ(given->AxesFor(4), (std::vector<int64_t>{0, 2, 3, 1}));
  ExpectError(TransposeView::Of(*Add(g, "transpose", One("axes", int64_t{1}))).status(),
              "attribute 'axes' must be a list of ints");
}

TEST(ShapeViews, RequiredLists) {
  Graph g;
  auto reshape = ReshapeView::Of(*Add(g, "reshape", One("newshape", std::vector<int64_t>{1, 16})));
  ASSERT_TRUE(reshape.ok()) << reshape.status();
  EXPECT_EQ(reshape->newshape, (std::vector<int64_t>{1, 16}));
  ExpectError(ReshapeView::Of(*Add(g, "reshape", {})).status(), "missing attribute 'newshape'");

  auto broadcast = BroadcastToView::Of(*Add(g, "broadcast_to", One("shape", std::vector<int64_t>{2, 4, 2, 2})));
  ASSERT_TRUE(broadcast.ok()) << broadcast.status();
  EXPECT_EQ(broadcast->shape, (std::vector<int64_t>{2, 4, 2, 2}));
  ExpectError(BroadcastToView::Of(*Add(g, "broadcast_to", {})).status(), "missing attribute 'shape'");

  Attrs slice;
  slice.Set("begin", std::vector<int64_t>{0, 1, 0, 0});
  slice.Set("end", std::vector<int64_t>{1, 3, 2, 2});
  slice.Set("strides", std::vector<int64_t>{1, 1, 1, 1});
  auto s = StridedSliceView::Of(*Add(g, "strided_slice", slice));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->begin, (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(s->end, (std::vector<int64_t>{1, 3, 2, 2}));
  EXPECT_EQ(s->strides, (std::vector<int64_t>{1, 1, 1, 1}));
  slice.Erase("strides");
  ExpectError(StridedSliceView::Of(*Add(g, "strided_slice", slice)).status(), "missing attribute 'strides'");
}

TEST(PadView, DefaultsAndSpatialPads) {
  Graph g;
  auto v = PadView::Of(*Add(g, "nn.pad", One("pad_width", std::vector<int64_t>{0, 0, 1, 2, 0, 0, 3, 4})));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_TRUE(v->constant());
  EXPECT_EQ(v->pad_value, 0.0);
  EXPECT_EQ(v->SpatialPads(), (std::array<int64_t, 4>{1, 2, 3, 4}));

  Attrs a;
  a.Set("pad_width", std::vector<int64_t>{0, 1, 0, 0, 0, 0, 0, 0});  // pads C
  a.Set("pad_mode", std::string("edge"));
  a.Set("pad_value", int64_t{5});
  auto edge = PadView::Of(*Add(g, "nn.pad", a));
  ASSERT_TRUE(edge.ok()) << edge.status();
  EXPECT_FALSE(edge->constant());
  EXPECT_EQ(edge->pad_value, 5.0);
  EXPECT_FALSE(edge->SpatialPads().has_value());
  a.Set("pad_width", std::vector<int64_t>{1, 1});
  EXPECT_FALSE(PadView::Of(*Add(g, "nn.pad", a))->SpatialPads().has_value()) << "not rank 4";

  ExpectError(PadView::Of(*Add(g, "nn.pad", {})).status(), "missing attribute 'pad_width'");
  a.Set("pad_value", std::string("0"));
  ExpectError(PadView::Of(*Add(g, "nn.pad", a)).status(), "attribute 'pad_value' must be a float");
}

TEST(ResizeView, DefaultsGivenValuesAndSize) {
  Graph g;
  auto v = ResizeView::Of(*Add(g, "resize", One("size", std::vector<int64_t>{8, 6})));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->size, (std::array<int64_t, 2>{8, 6}));
  EXPECT_EQ(v->method, "nearest");
  EXPECT_EQ(v->coordinate_transformation_mode, "half_pixel");
  EXPECT_EQ(v->nearest_mode, "round_prefer_floor");
  EXPECT_EQ(v->layout, Layout::Nchw());

  Attrs a;
  a.Set("size", std::vector<int64_t>{8, 6});
  a.Set("method", std::string("linear"));
  a.Set("coordinate_transformation_mode", std::string("align_corners"));
  a.Set("nearest_mode", std::string("floor"));
  a.Set("layout", std::string("NCHW16c"));
  auto given = ResizeView::Of(*Add(g, "resize", a));
  ASSERT_TRUE(given.ok()) << given.status();
  EXPECT_EQ(given->method, "linear");
  EXPECT_EQ(given->coordinate_transformation_mode, "align_corners");
  EXPECT_EQ(given->nearest_mode, "floor");
  EXPECT_EQ(given->layout, Layout::ChannelBlocked(16));

  ExpectError(ResizeView::Of(*Add(g, "resize", One("size", std::vector<int64_t>{8}))).status(),
              "size needs 2 values");
  a.Set("method", int64_t{0});
  ExpectError(ResizeView::Of(*Add(g, "resize", a)).status(), "attribute 'method' must be a string");
}

TEST(TakeView, ChannelsOnlyWhenBlocked) {
  Graph g;
  auto v = TakeView::Of(*Add(g, "take", {}, 2));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->axis, 0);
  EXPECT_FALSE(v->blocked());
  EXPECT_EQ(*v->AxisFor(4), 0);

  Attrs a;
  a.Set("axis", int64_t{-3});
  a.Set("layout", std::string("NCHW16c"));
  ExpectError(TakeView::Of(*Add(g, "take", a, 2)).status(), "missing attribute 'channels'");
  a.Set("channels", int64_t{20});
  auto blocked = TakeView::Of(*Add(g, "take", a, 2));
  ASSERT_TRUE(blocked.ok()) << blocked.status();
  EXPECT_TRUE(blocked->blocked());
  EXPECT_EQ(blocked->channels, 20);
  EXPECT_EQ(*blocked->AxisFor(4), 1);
  EXPECT_FALSE(blocked->AxisFor(2).ok());
}

TEST(QnnConcatView, OneChannelCountPerInputWhenBlocked) {
  Graph g;
  const size_t two = 3 * 2 + 2;  // two data inputs, their parameters, the output's
  auto v = QnnConcatView::Of(*Add(g, "qnn.concat", {}, two));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->axis, 1);
  EXPECT_FALSE(v->blocked());
  EXPECT_TRUE(v->channels.empty());

  Attrs a;
  a.Set("layout", std::string("NCHW16c"));
  a.Set("channels", std::vector<int64_t>{8, 8});
  auto blocked = QnnConcatView::Of(*Add(g, "qnn.concat", a, two));
  ASSERT_TRUE(blocked.ok()) << blocked.status();
  EXPECT_TRUE(blocked->blocked());
  EXPECT_EQ(blocked->channels, (std::vector<int64_t>{8, 8}));
  a.Set("channels", std::vector<int64_t>{8});
  ExpectError(QnnConcatView::Of(*Add(g, "qnn.concat", a, two)).status(), "channels needs one count per input");
}

TEST(GlobalPoolView, LayoutDefaultsToNchw) {
  Graph g;
  EXPECT_EQ(GlobalPoolView::Of(*Add(g, "nn.global_avg_pool2d", {}))->layout, Layout::Nchw());
  EXPECT_EQ(GlobalPoolView::Of(*Add(g, "nn.global_avg_pool2d", One("layout", std::string("NHWC"))))->layout,
            Layout::Nhwc());
  // A layout that is not one is refused, naming the attribute.
  const absl::StatusOr<GlobalPoolView> bad =
      GlobalPoolView::Of(*Add(g, "nn.global_avg_pool2d", One("layout", std::string("NCHW0c"))));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("layout: bad layout 'NCHW0c'"), std::string::npos)
      << bad.status();
  ExpectError(GlobalPoolView::Of(*Add(g, "nn.global_avg_pool2d", One("layout", int64_t{4}))).status(),
              "attribute 'layout' must be a string");
}

}  // namespace
}  // namespace qnnc::ir
