#include "runtime/binary_plan.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"
#include "runtime/binary_plan_header.h"
#include "runtime/plan.h"

namespace qnnc::runtime {
namespace {

// Constants of several dtypes and sizes (one empty), attributes of every
// kind, a node with two results, and an output that is a graph input.
constexpr char kGraph[] = R"(graph @g(%x: u8[1,4,6,6], %y: f32[3]) {
  %w = const i16[8,4,1,1] hex"9cffa7ffb2ffbdffc8ffd3ffdeffe9fff4ffffff0a00150020002b00360041004c0057006200a5ffb0ffbbffc6ffd1ffdcffe7fff2fffdff080013001e002900"
  %b = const i32[8] [0, 1, 2, 3, 4, 5, 6, 7]
  %one = const i16[] 3
  %none = const f32[0] []
  %zero = const i32[] 0
  %s = const f32[] 1
  %ys = const f32[] 0.05
  %yz = const u8[] 0
  %0 = cast(%x) {dtype = "i16"} : i16[1,4,6,6]
  %1 = subtract(%0, %one) : i16[1,4,6,6]
  %2 = qnn.conv2d_requantize(%1, %w, %b, %zero, %zero, %s, %s, %s, %ys, %yz) {kernel_layout = "OIHW", out_dtype = "u8", pad_value = 0.5, padding = [0, 0, 0, 0], strides = [1, 1]} name = "conv" : u8[1,8,6,6]
  %3 = concat(%y, %none) {axis = 0}
  return %2, %3, %x
}
)";

std::unique_ptr<ir::Graph> Parse(const char* text) {
  auto graph = ir::ParseGraph(text, "test");
  EXPECT_TRUE(graph.ok()) << graph.status();
  return graph.ok() ? *std::move(graph) : nullptr;
}

std::string Write(const std::string& name, const std::string& bytes) {
  const std::string path = std::string(::testing::TempDir()) + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The plan's bytes in 64-byte aligned memory, as ParseBinaryPlan needs.
std::shared_ptr<uint8_t> Aligned(const std::string& bytes) {
  void* p = std::aligned_alloc(64, (bytes.size() + 63) / 64 * 64);
  std::memcpy(p, bytes.data(), bytes.size());
  return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [](uint8_t* q) { std::free(q); });
}

absl::Status ParseStatus(const std::string& bytes, int64_t max_bytes = int64_t{1} << 30) {
  return ParseBinaryPlan(Aligned(bytes), static_cast<int64_t>(bytes.size()), "p.qplan", max_bytes)
      .status();
}

// A damaged plan with its checksum made to match again, so that the checks
// behind the checksum are reached.
std::string Resealed(std::string bytes) {
  PlanHeader h = ReadPlanHeader(reinterpret_cast<const uint8_t*>(bytes.data()));
  h.checksum = PlanChecksum(bytes.data(), bytes.size());
  WritePlanHeader(h, &bytes[0]);
  return bytes;
}

TEST(BinaryPlan, RoundTripsTheGraphAndTheTargetWithConstantsInPlace) {
  auto graph = Parse(kGraph);
  ASSERT_NE(graph, nullptr);
  auto bytes = BinaryPlanBytes(*graph, "x86_64+avx2");
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_TRUE(IsBinaryPlan(*bytes));
  const std::string path = Write("rt.qplan", *bytes);
  auto loaded = LoadBinaryPlan(path, int64_t{1} << 30);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->target, "x86_64+avx2");
  EXPECT_EQ(ir::StructuralDiff(*loaded->graph, *graph), "");
  for (const ir::Value* c : loaded->graph->constants()) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(c->data().raw_data()) % tensor::Tensor::kAlignment, 0u)
        << c->name();
    EXPECT_TRUE(c->data().padded()) << c->name();
  }
  auto target = ReadPlanTarget(path);
  ASSERT_TRUE(target.ok()) << target.status();
  EXPECT_EQ(*target, "x86_64+avx2");
  // Written again, the loaded graph gives the same bytes.
  auto again = BinaryPlanBytes(*loaded->graph, loaded->target);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *bytes);
}

const ir::Node* NodeNamed(const ir::Graph& graph, const std::string& name) {
  for (const ir::Node* n : graph.nodes()) {
    if (n->name() == name) return n;
  }
  return nullptr;
}

// A kernel's packed state is saved beside its node, in place when loaded,
// and stands for the constants it names: one only it reads is left out of
// the plan, one read elsewhere too stays. Written again, the same bytes.
TEST(BinaryPlan, PackedStatesStandForTheirConstants) {
  auto graph = Parse(kGraph);
  ASSERT_NE(graph, nullptr);
  const ir::Node* conv = NodeNamed(*graph, "conv");
  ASSERT_NE(conv, nullptr);
  std::vector<int32_t> words(100);
  for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<int32_t>(i * 7919);
  PackedStates states;
  // %w (input 1) is read by the conv alone; %zero at inputs 3 and 4, and the
  // state stands for 3 only.
  states.by_node[conv] = {"test packing 1", {1, 3},
                          {tensor::Tensor::FromVector<int32_t>({100}, words),
                           tensor::Tensor::FromVector<int8_t>({3}, {1, -2, 3})}};
  auto bytes = BinaryPlanBytes(*graph, "generic", states);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  auto loaded = ParseBinaryPlan(Aligned(*bytes), static_cast<int64_t>(bytes->size()), "p", 1 << 20);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->packed.absent.size(), 1u);
  EXPECT_EQ((*loaded->packed.absent.begin())->name(), "w");
  EXPECT_EQ((*loaded->packed.absent.begin())->type()->ToString(), "i16[8,4,1,1]");
  const ir::Node* loaded_conv = NodeNamed(*loaded->graph, "conv");
  ASSERT_EQ(loaded->packed.by_node.count(loaded_conv), 1u);
  const PackedState& state = loaded->packed.by_node.at(loaded_conv);
  EXPECT_EQ(state.packing, "test packing 1");
  EXPECT_EQ(state.inputs, (std::vector<int>{1, 3}));
  ASSERT_EQ(state.blobs.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(state.blobs[i].BitwiseEquals(states.by_node[conv].blobs[i])) << i;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(state.blobs[i].raw_data()) % tensor::Tensor::kAlignment, 0u);
  }
  EXPECT_TRUE(CheckAbsentConstants(*loaded->graph, loaded->packed).ok());
  auto again = BinaryPlanBytes(*loaded->graph, loaded->target, loaded->packed);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *bytes);
  // A text plan holds every constant's bytes: not this graph's.
  auto text = PlanBytes(*loaded->graph, loaded->target, PlanFormat::kText, loaded->packed);
  EXPECT_NE(text.status().message().find("only packed"), std::string::npos) << text.status();
  // Without the state, the conv would read the absent weight.
  PackedStates stateless = loaded->packed;
  stateless.by_node.clear();
  absl::Status read = CheckAbsentConstants(*loaded->graph, stateless);
  EXPECT_NE(read.message().find("reads constant %w, which is held only packed"), std::string::npos)
      << read;
  EXPECT_FALSE(BinaryPlanBytes(*loaded->graph, loaded->target, stateless).ok());
  // A state standing for an input that is no constant is refused at load.
  states.by_node[conv].inputs = {0};
  auto not_constant = BinaryPlanBytes(*graph, "generic", states);
  ASSERT_TRUE(not_constant.ok());
  EXPECT_NE(ParseStatus(*not_constant).message().find("which is not a constant of the op"), std::string::npos);
}

// A constant whose pages left memory reads back the same from the file;
// over memory that is not a file mapping, releasing leaves the bytes alone.
TEST(BinaryPlan, ReleasedConstantsReadBackFromTheFile) {
  auto graph = Parse(kGraph);
  ASSERT_NE(graph, nullptr);
  // A constant of several pages, so that whole pages are released.
  std::vector<int32_t> big(5000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<int32_t>(i * 2654435761u);
  graph->AddConstant("big", tensor::Tensor::FromVector<int32_t>({5000}, big));
  const std::string bytes = *BinaryPlanBytes(*graph, "generic");
  auto mapped = LoadBinaryPlan(Write("release.qplan", bytes), int64_t{1} << 30);
  auto heap = ParseBinaryPlan(Aligned(bytes), static_cast<int64_t>(bytes.size()), "heap", int64_t{1} << 30);
  ASSERT_TRUE(mapped.ok() && heap.ok()) << mapped.status() << heap.status();
  for (const LoadedPlan* plan : {&*mapped, &*heap}) {
    for (const ir::Value* c : plan->graph->constants()) {
      c->data().ReleasePages();
      const ir::Value* original = graph->FindValue(c->name());
      ASSERT_NE(original, nullptr);
      EXPECT_TRUE(c->data().BitwiseEquals(original->data())) << c->name();
    }
  }
}

TEST(BinaryPlan, TextAndBinaryFormatsHoldTheSameGraph) {
  auto graph = Parse(kGraph);
  ASSERT_NE(graph, nullptr);
  auto text = PlanBytes(*graph, "generic", PlanFormat::kText);
  auto binary = PlanBytes(*graph, "generic", PlanFormat::kBinary);
  ASSERT_TRUE(text.ok() && binary.ok());
  auto from_text = ir::ParseGraph(*text, "t");
  auto from_binary = ParseBinaryPlan(Aligned(*binary), static_cast<int64_t>(binary->size()), "b", 1 << 20);
  ASSERT_TRUE(from_text.ok() && from_binary.ok()) << from_binary.status();
  EXPECT_EQ(ir::StructuralDiff(**from_text, *from_binary->graph), "");
  EXPECT_FALSE(IsBinaryPlanFile(Write("t.plan", *text)));
  EXPECT_TRUE(IsBinaryPlanFile(Write("b.qplan", *binary)));
  EXPECT_FALSE(ParsePlanFormat("json").ok());
}

TEST(BinaryPlan, DamagedPlansAreErrorsNamingTheFile) {
  auto graph = Parse(kGraph);
  ASSERT_NE(graph, nullptr);
  const std::string good = *BinaryPlanBytes(*graph, "generic");
  auto expect_error = [](const absl::Status& s, const std::string& words) {
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find(words), std::string::npos) << s;
    EXPECT_NE(s.message().find("p.qplan"), std::string::npos) << s;
  };
  expect_error(ParseStatus("graph @g() {}"), "is not a qnnc plan");
  expect_error(ParseStatus(good.substr(0, good.size() - 1)), "is truncated");
  expect_error(ParseStatus(good + "x"), "trailing bytes");
  std::string flipped = good;
  flipped[good.size() - 200] ^= 1;
  expect_error(ParseStatus(flipped), "is corrupt: its checksum");
  std::string version = good;
  version[8] = 9;
  expect_error(ParseStatus(version), "format version 9; this build reads versions 1 to 2");
  std::string graph_section = good;
  graph_section[kBinaryPlanHeaderBytes + 4] ^= 0x55;  // the FlatBuffer's identifier
  expect_error(ParseStatus(Resealed(graph_section)), "fails FlatBuffers verification");
  absl::Status limit = ParseStatus(good, /*max_bytes=*/100);
  EXPECT_EQ(limit.code(), absl::StatusCode::kResourceExhausted) << limit;
  auto missing = LoadBinaryPlan(std::string(::testing::TempDir()) + "/missing.qplan", 1 << 20);
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

// Every single-byte change to the graph section, resealed, is an error or
// a well-formed graph: never a crash (the fuzz target goes further).
TEST(BinaryPlan, EveryByteOfTheGraphSectionChangedIsHandled) {
  auto graph = Parse(kGraph);
  ASSERT_NE(graph, nullptr);
  const std::string good = *BinaryPlanBytes(*graph, "generic");
  const PlanHeader h = ReadPlanHeader(reinterpret_cast<const uint8_t*>(good.data()));
  int errors = 0;
  for (uint64_t i = h.graph_offset; i < h.graph_offset + h.graph_size; ++i) {
    for (uint8_t delta : {uint8_t{1}, uint8_t{0x80}, uint8_t{0xff}}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ delta);
      if (!ParseStatus(Resealed(bad)).ok()) ++errors;
    }
  }
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace qnnc::runtime
