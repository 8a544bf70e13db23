#include "ir/text_printer.h"

#include <limits>

#include "gtest/gtest.h"
#include "ir/builder.h"

namespace qnnc::ir {
namespace {

// A quantized conv block built by hand, with a multi-output op, quoted names
// and every attribute kind.
std::unique_ptr<Graph> HandBuiltGraph() {
  Builder b;
  b.graph().set_name("block");
  Value* x = b.Input("x", {DType::kF32, {1, 2, 4, 4}});
  Value* f = b.Input("input:0", {DType::kF32, {2, 3}});
  Value* s = b.Scalar<float>(0.5f, "s");
  Value* zp = b.Scalar<uint8_t>(128, "zp");
  Value* w = b.Constant(tensor::Tensor::FromVector<int8_t>({2, 2, 1, 1}, {1, -2, 3, 127}), "w");
  Value* wzp = b.Scalar<int8_t>(0, "wzp");
  Value* ws = b.Vector<float>({0.25f, 0.1f}, "ws");
  std::vector<int32_t> ramp(20);
  for (int i = 0; i < 20; ++i) ramp[i] = i - 1;
  b.Vector<int32_t>(ramp, "ramp");  // 20 elements: printed as hex

  Attrs qa;
  qa.Set("out_dtype", std::string("u8"));
  Value* q = b.Op("qnn.quantize", {x, s, zp}, qa, "/quant \"q\"");
  Attrs ca;
  ca.Set("padding", std::vector<int64_t>{0, 0, 0, 0});
  ca.Set("strides", std::vector<int64_t>{1, 1});
  Value* conv = b.Op("qnn.conv2d", {q, w, zp, wzp, s, ws}, ca);
  Attrs clip;
  clip.Set("min", -std::numeric_limits<double>::infinity());
  clip.Set("max", 6.0);
  clip.Set("scales", std::vector<double>{0.5, 1e20, 0.1});
  clip.Set("note", std::string("tab\there"));
  clip.Set("none", std::vector<double>{});
  Value* c = b.Op("clip", {x}, clip);
  Node* dq = b.graph().AddNode("qnn.dynamic_quantize", {f}, {}, 3, "", {"q8", "qs", "qz"});
  b.Output(conv);
  b.Output(c);
  b.Output(dq->output(0));
  return *b.Finish();
}

TEST(TextPrinter, Golden) {
  std::unique_ptr<Graph> g = HandBuiltGraph();
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(PrintGraph(*g),
            R"(graph @block(%x: f32[1,2,4,4], %"input:0": f32[2,3]) {
  %s = const f32[] 0.5
  %zp = const u8[] 128
  %w = const i8[2,2,1,1] [1, -2, 3, 127]
  %wzp = const i8[] 0
  %ws = const f32[2] [0.25, 0.1]
  %ramp = const i32[20] hex"ffffffff000000000100000002000000030000000400000005000000060000000700000008000000090000000a0000000b0000000c0000000d0000000e0000000f000000100000001100000012000000"
  %0 = qnn.quantize(%x, %s, %zp) {out_dtype = "u8"} name="/quant \"q\"" : u8[1,2,4,4]
  %1 = qnn.conv2d(%0, %w, %zp, %wzp, %s, %ws) {padding = [0, 0, 0, 0], strides = [1, 1]} : i32[1,2,4,4]
  %2 = clip(%x) {max = 6.0, min = -inf, none = float[], note = "tab\there", scales = [0.5, 1e+20, 0.1]} : f32[1,2,4,4]
  %q8, %qs, %qz = qnn.dynamic_quantize(%"input:0") : (u8[2,3], f32[], u8[])
  return %1, %2, %q8
}
)");
}

TEST(TextPrinter, InlineLimitIsAnOption) {
  std::unique_ptr<Graph> g = HandBuiltGraph();
  ASSERT_NE(g, nullptr);
  std::string all_hex = PrintGraph(*g, {0});
  EXPECT_NE(all_hex.find("%s = const f32[] hex\"0000003f\""), std::string::npos) << all_hex;
  std::string inline_all = PrintGraph(*g, {100});
  EXPECT_NE(inline_all.find("%ramp = const i32[20] [-1, 0, 1, 2,"), std::string::npos);
  EXPECT_EQ(inline_all.find("hex\""), std::string::npos);
}

TEST(TextPrinter, UntypedResultsHaveNoAnnotation) {
  Graph g;
  Value* x = g.AddInput("x", {DType::kF32, {2}});
  Node* n = g.AddNode("relu", {x}, {}, 1, "", {"y"});
  g.SetOutputs({n->output()});
  EXPECT_EQ(PrintGraph(g), "graph @main(%x: f32[2]) {\n  %y = relu(%x)\n  return %y\n}\n");
}

TEST(TextPrinter, Deterministic) {
  std::unique_ptr<Graph> a = HandBuiltGraph();
  std::unique_ptr<Graph> b = HandBuiltGraph();
  EXPECT_EQ(PrintGraph(*a), PrintGraph(*b));
  EXPECT_EQ(PrintGraph(*a), PrintGraph(*a->Clone()));
}

}  // namespace
}  // namespace qnnc::ir
