// Round trip: parse(print(g)) is structurally equal to g and prints the same,
// for every graph in testdata/ir/*.qnnir and for hand-built edge cases.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "gtest/gtest.h"
#include "ir/builder.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"

namespace qnnc::ir {
namespace {

std::vector<std::string> TestdataFiles() {
  std::vector<std::string> files;
  // Every graph of the project's testdata: the IR cases and the golden
  // pass tests (inputs and expected outputs).
  for (const char* dir : {"testdata/ir", "testdata/passes"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (entry.path().extension() == ".qnnir") files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Checks print -> parse -> print and returns the parsed copy.
std::unique_ptr<Graph> ExpectRoundTrip(const Graph& g, const PrintOptions& options = {}) {
  const std::string text = PrintGraph(g, options);
  auto parsed = ParseGraph(text, "printed");
  EXPECT_TRUE(parsed.ok()) << parsed.status() << "\n" << text;
  if (!parsed.ok()) return nullptr;
  EXPECT_EQ(PrintGraph(**parsed, options), text);
  return *std::move(parsed);
}

TEST(TextRoundTrip, TestdataFiles) {
  std::vector<std::string> files = TestdataFiles();
  ASSERT_GE(files.size(), 30u) << "testdata/ir and testdata/passes have too few .qnnir files";
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    auto g = ParseGraph(ReadFile(file), file);
    ASSERT_TRUE(g.ok()) << g.status();
    for (int64_t max_inline : {int64_t{16}, int64_t{0}, int64_t{1} << 20}) {
      std::unique_ptr<Graph> copy = ExpectRoundTrip(**g, {max_inline});
      ASSERT_NE(copy, nullptr);
      EXPECT_EQ(StructuralDiff(**g, *copy), "");
    }
  }
}

// Hex data is printed when a constant has more than max_inline_elements.
TEST(TextRoundTrip, LargeConstantFileUsesHex) {
  auto g = ParseGraph(ReadFile("testdata/ir/large_constant.qnnir"));
  ASSERT_TRUE(g.ok()) << g.status();
  std::string text = PrintGraph(**g);
  EXPECT_NE(text.find("%w = const f32[16,8] hex\""), std::string::npos) << text;
  EXPECT_EQ(PrintGraph(**g, {1000}).find("hex\""), std::string::npos);
}

TEST(TextRoundTrip, SpecialFloatConstants) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {8}});
  Value* c = b.Constant(tensor::Tensor::FromVector<float>(
      {8}, {inf, -inf, nan, -nan, -0.0f, 0.0f, 1e-45f, std::numeric_limits<float>::max()}));
  b.Output(b.Op("add", {x, c}));
  b.Output(c);
  auto g = b.Finish();
  ASSERT_TRUE(g.ok()) << g.status();
  auto copy = ExpectRoundTrip(**g);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(StructuralDiff(**g, *copy), "");
  EXPECT_NE(PrintGraph(**g).find("[inf, -inf, nan, -nan, -0, 0, 1e-45, 3.4028235e+38]"),
            std::string::npos)
      << PrintGraph(**g);
}

TEST(TextRoundTrip, NonCanonicalNanFallsBackToHex) {
  tensor::Tensor t = tensor::Tensor::Zeros(DType::kF32, {2});
  uint32_t payload_nan = 0x7fc00123;
  std::memcpy(t.data<float>(), &payload_nan, 4);
  Builder b;
  b.Output(b.Constant(t, "c"));
  auto g = b.Finish();
  ASSERT_TRUE(g.ok());
  EXPECT_NE(PrintGraph(**g).find("hex\"2301c07f00000000\""), std::string::npos) << PrintGraph(**g);
  auto copy = ExpectRoundTrip(**g);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(StructuralDiff(**g, *copy), "");
}

TEST(TextRoundTrip, F16AndEveryDType) {
  Builder b;
  std::vector<uint16_t> halves;
  for (uint32_t bits = 0; bits < 0x10000; bits += 251) halves.push_back(static_cast<uint16_t>(bits));
  halves.push_back(0x7e00);  // nan
  halves.push_back(0x8000);  // -0
  halves.push_back(0x7c00);  // inf
  tensor::Tensor h = tensor::Tensor::Zeros(DType::kF16, {static_cast<int64_t>(halves.size())});
  std::copy(halves.begin(), halves.end(), h.data<uint16_t>());
  b.Output(b.Constant(h, "h"));
  b.Output(b.Vector<uint8_t>({0, 255}));
  b.Output(b.Vector<int8_t>({-128, 127}));
  b.Output(b.Constant(tensor::Tensor::FromVector<uint16_t>({2}, {0, 65535})));
  b.Output(b.Vector<int16_t>({-32768, 32767}));
  b.Output(b.Vector<int32_t>({std::numeric_limits<int32_t>::min(), 7}));
  b.Output(b.Vector<int64_t>({std::numeric_limits<int64_t>::min(),
                              std::numeric_limits<int64_t>::max()}));
  b.Output(b.Constant(tensor::Tensor::FromVector<bool>({2, 1}, {true, false})));
  b.Output(b.Constant(tensor::Tensor::Zeros(DType::kF32, {0, 3})));
  auto g = b.Finish();
  ASSERT_TRUE(g.ok()) << g.status();
  for (int64_t max_inline : {int64_t{16}, int64_t{1000}, int64_t{0}}) {
    auto copy = ExpectRoundTrip(**g, {max_inline});
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(StructuralDiff(**g, *copy), "");
  }
}

TEST(TextRoundTrip, NamesAndAttributes) {
  Builder b;
  b.graph().set_name("");
  const std::string long_name = std::string(300, 'n') + "\"quoted\" \\ back\nslash\t\x01\x7f é";
  Value* x = b.Input(long_name, {DType::kF32, {2, 3}});
  Value* y = b.Input("input:0", {DType::kF32, {2, 3}});
  Value* z = b.Input("1", {DType::kF32, {2, 3}});
  Attrs a;
  a.Set("int", int64_t{-5});
  a.Set("min", -std::numeric_limits<double>::infinity());
  a.Set("max", 0.1);
  a.Set("big", 1e300);
  a.Set("tiny", 5e-324);
  a.Set("negzero", -0.0);
  a.Set("whole", 3.0);
  a.Set("str", std::string("a \"b\" \\ c\n"));
  a.Set("ints", std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 0, 1});
  a.Set("no ints", std::vector<int64_t>{});
  a.Set("floats", std::vector<double>{1.0, -2.5, 1e-7, std::numeric_limits<double>::infinity()});
  a.Set("no floats", std::vector<double>{});
  a.Set("inf", int64_t{1});  // a key that reads like a number
  Value* sum = b.Op("add", {x, y}, {}, long_name + " node");
  Value* c = b.Op("clip", {sum}, a, "");
  Node* dq = b.graph().AddNode("qnn.dynamic_quantize", {z}, {}, 3, "dq",
                               {"q:0", "scale with space", "zp"});
  b.Output(c);
  b.Output(dq->output(2));
  b.Output(dq->output(0));
  b.Output(x);
  auto g = b.Finish();
  ASSERT_TRUE(g.ok()) << g.status();
  auto copy = ExpectRoundTrip(**g);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(StructuralDiff(**g, *copy), "");
  EXPECT_EQ(copy->inputs()[0]->name(), long_name);
  EXPECT_EQ(copy->nodes()[0]->name(), long_name + " node");
  EXPECT_EQ(copy->nodes()[1]->attrs(), (*g)->nodes()[1]->attrs());
}

// NaN attributes never compare equal (NaN != NaN), so they are checked by
// value here rather than by StructuralEqual.
TEST(TextRoundTrip, NanAttributes) {
  Builder b;
  Value* x = b.Input("x", {DType::kF32, {2}});
  Attrs a;
  a.Set("nan", std::numeric_limits<double>::quiet_NaN());
  a.Set("negnan", -std::numeric_limits<double>::quiet_NaN());
  a.Set("list", std::vector<double>{std::numeric_limits<double>::quiet_NaN(), 1.0});
  b.Output(b.Op("relu", {x}, a));
  auto g = b.Finish();
  ASSERT_TRUE(g.ok());
  auto copy = ExpectRoundTrip(**g);
  ASSERT_NE(copy, nullptr);
  const Attrs& attrs = copy->nodes()[0]->attrs();
  EXPECT_TRUE(std::isnan(*attrs.GetFloat("nan")));
  EXPECT_FALSE(std::signbit(*attrs.GetFloat("nan")));
  EXPECT_TRUE(std::signbit(*attrs.GetFloat("negnan")));
  EXPECT_TRUE(std::isnan((*attrs.GetFloats("list"))[0]));
  // Attributes compare by bits, so a graph with NaN attributes equals itself.
  EXPECT_TRUE(StructuralEqual(**g, *copy));
}

// Mutated inputs must never crash the parser; whatever parses round-trips.
TEST(TextRoundTrip, MutatedInputsNeverCrash) {
  std::mt19937 rng(1234);
  const std::string alphabet = "%@#\"\\[](){},=:.-+0123456789abefinx \n";
  int parsed = 0;
  for (const std::string& file : TestdataFiles()) {
    const std::string text = ReadFile(file);
    for (int iter = 0; iter < 300; ++iter) {
      std::string m = text;
      int edits = 1 + rng() % 3;
      for (int e = 0; e < edits && !m.empty(); ++e) {
        size_t pos = rng() % m.size();
        switch (rng() % 4) {
          case 0: m.erase(pos, 1 + rng() % 8); break;
          case 1: m.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
          case 2: m[pos] = static_cast<char>(rng() % 256); break;
          default: m.resize(pos); break;
        }
      }
      auto g = ParseGraph(m, file);
      if (!g.ok()) {
        EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument) << g.status();
        continue;
      }
      ++parsed;
      auto copy = ExpectRoundTrip(**g);
      if (copy != nullptr) {
        EXPECT_EQ(StructuralDiff(**g, *copy), "") << m;
      }
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace qnnc::ir
