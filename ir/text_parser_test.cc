#include "ir/text_parser.h"

#include <cmath>
#include <cstring>

#include "gtest/gtest.h"

namespace qnnc::ir {
namespace {

constexpr char kEveryKind[] = R"(# A leading comment.
graph @"my graph"(%x: f32[1,3,4,4], %"in:0": f32[2,3]) {  # trailing comment
  %s = const f32[] 0.5
  %zp = const u8[] 128
  %flags = const bool[2] [true, 0]
  %h = const f16[2] [1.5, -inf]
  %w = const i16[2] hex"0100ff7F"
  %q = qnn.quantize(%x, %s, %zp) {axis = 1, out_dtype = "u8"} name="quant"
  %c = clip(%x) {
    min = -1, max = 6.5, note = "a \"b\"\n\x41", ints = [1, -2], floats = [1.5, 2],
    empty = [], fempty = float[], forced = float[3], "key with space" = -nan
  } : f32[1,3,4,4]
  %a, %b, %c2 = qnn.dynamic_quantize(%"in:0") : (u8[2,3], f32[], u8[])
  return %q, %c2, %c
}
)";

TEST(TextParser, EveryAttributeKindAndMultiOutput) {
  auto parsed = ParseGraph(kEveryKind);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const Graph& g = **parsed;
  EXPECT_EQ(g.name(), "my graph");
  ASSERT_EQ(g.inputs().size(), 2u);
  EXPECT_EQ(g.inputs()[1]->name(), "in:0");
  EXPECT_EQ(g.inputs()[1]->type()->ToString(), "f32[2,3]");
  ASSERT_EQ(g.constants().size(), 5u);
  EXPECT_EQ(g.FindValue("flags")->data().data<uint8_t>()[0], 1);
  EXPECT_EQ(g.FindValue("flags")->data().data<uint8_t>()[1], 0);
  EXPECT_EQ(g.FindValue("h")->data().data<uint16_t>()[0], 0x3e00);
  EXPECT_EQ(g.FindValue("h")->data().data<uint16_t>()[1], 0xfc00);
  EXPECT_EQ(g.FindValue("w")->data().data<int16_t>()[0], 1);
  EXPECT_EQ(g.FindValue("w")->data().data<int16_t>()[1], 32767);

  std::vector<Node*> nodes = g.nodes();
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0]->name(), "quant");
  EXPECT_EQ(nodes[0]->output()->type()->ToString(), "u8[1,3,4,4]");  // inferred
  const Attrs& a = nodes[1]->attrs();
  EXPECT_EQ(*a.GetInt("min"), -1);
  EXPECT_EQ(*a.GetFloat("max"), 6.5);
  EXPECT_EQ(*a.GetString("note"), "a \"b\"\nA");
  EXPECT_EQ(*a.GetInts("ints"), (std::vector<int64_t>{1, -2}));
  EXPECT_EQ(*a.GetFloats("floats"), (std::vector<double>{1.5, 2.0}));
  EXPECT_TRUE(std::holds_alternative<std::vector<double>>(a.map().at("floats")));
  EXPECT_EQ(*a.GetInts("empty"), std::vector<int64_t>{});
  EXPECT_TRUE(std::holds_alternative<std::vector<double>>(a.map().at("fempty")));
  EXPECT_EQ(*a.GetFloats("forced"), std::vector<double>{3.0});
  double nan = *a.GetFloat("key with space");
  EXPECT_TRUE(std::isnan(nan) && std::signbit(nan));

  ASSERT_EQ(nodes[2]->outputs().size(), 3u);
  EXPECT_EQ(nodes[2]->output(2)->name(), "c2");
  EXPECT_EQ(nodes[2]->output(1)->type()->ToString(), "f32[]");
  ASSERT_EQ(g.outputs().size(), 3u);
  EXPECT_EQ(g.outputs()[1], nodes[2]->output(2));
}

TEST(TextParser, EmptyGraphAndNoOutputs) {
  auto g = ParseGraph("graph @empty() { return }");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_TRUE((*g)->inputs().empty());
  EXPECT_TRUE((*g)->outputs().empty());
}

TEST(TextParser, ScalarMayBeABareNumberOrAList) {
  auto g = ParseGraph(
      "graph @g() {\n %a = const i32[] [7]\n %b = const i32[1] 8\n %e = const f32[0,2] []\n"
      " return %a, %b, %e\n}");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->FindValue("a")->data().data<int32_t>()[0], 7);
  EXPECT_EQ((*g)->FindValue("b")->data().data<int32_t>()[0], 8);
}

// The message of parsing `body` as the statements of a graph with inputs
// %x: f32[2] and %i: i32[2] (so line 2 is the first line of `body`).
std::string ErrorOf(const std::string& text) {
  auto g = ParseGraph(text, "t.qnnir");
  if (g.ok()) return "OK";
  EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(g.status().message());
}

std::string BodyError(const std::string& body) {
  return ErrorOf("graph @g(%x: f32[2], %i: i32[2]) {\n" + body + "\n  return %x\n}\n");
}

TEST(TextParser, Errors) {
  EXPECT_EQ(BodyError("  %y = foo.bar(%x)"), "t.qnnir:2:8: unknown op 'foo.bar'");
  EXPECT_EQ(BodyError("  %y = relu(%foo)"),
            "t.qnnir:2:13: use of undefined value %foo (values must be defined before they "
            "are used)");
  EXPECT_EQ(BodyError("  %y = relu(%y)"),
            "t.qnnir:2:13: use of undefined value %y (values must be defined before they are "
            "used)");
  EXPECT_EQ(BodyError("  %x = relu(%i)"),
            "t.qnnir:2:3: redefinition of %x (first defined at 1:10)");
  EXPECT_EQ(BodyError("  %a, %a = qnn.dynamic_quantize(%x)"), "t.qnnir:2:7: redefinition of %a");
  EXPECT_EQ(ErrorOf("graph @g(%x: f33[2]) {\n  return %x\n}"),
            "t.qnnir:1:14: expected a dtype (u8, i8, u16, i16, i32, i64, f16, f32 or bool), got "
            "'f33'");
  EXPECT_EQ(BodyError("  %c = const i8[2,2] [1, 2, 3]"),
            "t.qnnir:2:22: const i8[2,2] has 4 elements, got 3");
  EXPECT_EQ(BodyError("  %c = const i16[2] hex\"0102\""),
            "t.qnnir:2:21: hex data of const i16[2] must have 4 bytes (8 hex digits), got 4 hex "
            "digits");
  EXPECT_EQ(BodyError("  %c = const i16[2] hex\"01020g\""),
            "t.qnnir:2:30: expected a hex digit or '\"' in hex data, got 'g'");
  EXPECT_EQ(BodyError("  %y = relu(%x) name=\"abc\n"), "t.qnnir:2:22: unterminated string");
  EXPECT_EQ(BodyError("  %\"abc = relu(%x)"), "t.qnnir:2:3: unterminated string");
  EXPECT_EQ(BodyError("  %y = relu(%x) $"), "t.qnnir:2:17: unexpected character '$'");
  EXPECT_EQ(BodyError("  %y = relu(%x) \x01"), "t.qnnir:2:17: unexpected character '\\x01'");
  EXPECT_EQ(ErrorOf("graph @g(%x: f32[2]) {\n  %y = relu(%x)\n}\n"),
            "t.qnnir:3:1: expected a statement ('%name = ...') or 'return', got '}'");
  EXPECT_EQ(ErrorOf("graph @g(%x: f32[2]) {\n  return %x\n} extra"),
            "t.qnnir:3:3: expected end of input, got 'extra'");
  EXPECT_EQ(ErrorOf(""), "t.qnnir:1:1: expected 'graph', got end of input");
  EXPECT_EQ(ErrorOf("graph @g(%x: f32[2]) {\n  return %x"),
            "t.qnnir:2:12: expected '}', got end of input");
  EXPECT_EQ(BodyError("  %y = relu(%x {"), "t.qnnir:2:16: expected ',' or ')', got '{'");
  EXPECT_EQ(BodyError("  %c = const u8[] 300"), "t.qnnir:2:19: value 300 does not fit in u8");
  EXPECT_EQ(BodyError("  %c = const i32[] 1.5"),
            "t.qnnir:2:20: expected an integer for i32, got '1.5'");
  EXPECT_EQ(BodyError("  %c = const bool[] 2"),
            "t.qnnir:2:21: expected true, false, 0 or 1 for bool, got '2'");
  EXPECT_EQ(BodyError("  %c = const f32[] 12abc"), "t.qnnir:2:20: malformed number '12abc'");
  EXPECT_EQ(BodyError("  %y = relu(%x) name=\"a\\qb\""),
            R"(t.qnnir:2:24: invalid escape sequence '\q' (use \" \\ \n \t \r or \xHH))");
  EXPECT_EQ(BodyError("  %y = relu(%x) {a = 1, a = 2}"), "t.qnnir:2:25: duplicate attribute 'a'");
  EXPECT_EQ(BodyError("  %y = relu(%x) {a = 99999999999999999999}"),
            "t.qnnir:2:22: integer 99999999999999999999 is out of range");
  EXPECT_EQ(BodyError("  %y = relu(%x) {a = foo}"),
            "t.qnnir:2:22: expected an attribute value (integer, float, string or list), got "
            "'foo'");
  EXPECT_EQ(BodyError("  %y = relu(%x) : (f32[2], f32[2])"),
            "t.qnnir:2:17: 1 results but 2 result types");
  EXPECT_EQ(BodyError("  %a, %b = const f32[] 1"),
            "t.qnnir:2:12: a constant defines exactly one value");
}

TEST(TextParser, TypeErrorsPointAtTheOp) {
  EXPECT_EQ(BodyError("  %y = relu(%x) : f32[3]"),
            "t.qnnir:2:19: op 'relu' (result %y): result %y is declared f32[3] but the op gives "
            "f32[2]");
  EXPECT_EQ(BodyError("  %y = relu(%x)\n  %z = add(%y, %i) name=\"bad\""),
            "t.qnnir:3:8: op 'add' (node 'bad'): operands differ in dtype: f32[2] and i32[2]");
  EXPECT_EQ(BodyError("  %q, %s = qnn.dynamic_quantize(%x)"),
            "t.qnnir:2:12: op 'qnn.dynamic_quantize' (result %q): has 3 outputs, got 2");
  EXPECT_EQ(BodyError("  %y = relu(%x, %x)"),
            "t.qnnir:2:8: op 'relu' (result %y): takes 1 inputs, got 2");
}

TEST(TextParser, SizeLimits) {
  EXPECT_EQ(BodyError("  %c = const f32[65536,65536] hex\"\""),
            "t.qnnir:2:14: const f32[65536,65536] is too large (17179869184 bytes, the limit is "
            "2147483648)");
  EXPECT_EQ(ErrorOf("graph @g(%x: f32[9223372036854775807,4]) {\n  return %x\n}"),
            "t.qnnir:1:14: bad type: shape [9223372036854775807,4] has too many elements "
            "(overflow)");
  EXPECT_EQ(ErrorOf("graph @g(%x: f32[99999999999999999999]) {\n  return %x\n}"),
            "t.qnnir:1:18: invalid dimension 99999999999999999999");
  EXPECT_EQ(ErrorOf("graph @g(%x: f32[-1]) {\n  return %x\n}"),
            "t.qnnir:1:18: invalid dimension -1");
}

TEST(TextParser, FileNameDefaultsToInput) {
  auto g = ParseGraph("graph");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().message(), "<input>:1:6: expected a graph name ('@main'), got end of input");
}

}  // namespace
}  // namespace qnnc::ir
