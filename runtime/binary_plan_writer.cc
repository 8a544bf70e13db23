// Writes the binary plan (runtime/binary_plan.h).
#include <algorithm>
#include <cstring>
#include <functional>
#include <sstream>
#include <variant>
#include <vector>

#include "absl/base/config.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "runtime/binary_plan.h"
#include "runtime/binary_plan_header.h"
#include "runtime/plan_generated.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

using Builder = flatbuffers::FlatBufferBuilder;

int64_t RoundUp(int64_t n, int64_t to) { return (n + to - 1) / to * to; }

flatbuffers::Offset<fb::TensorType> TypeOf(Builder& b, tensor::DType dtype, const tensor::Shape& shape) {
  auto name = b.CreateString(tensor::DTypeName(dtype));
  auto dims = b.CreateVector(shape);
  return fb::CreateTensorType(b, name, dims);
}

flatbuffers::Offset<fb::Attr> AttrOf(Builder& b, const std::string& name, const ir::AttrValue& value) {
  auto key = b.CreateString(name);
  if (const auto* i = std::get_if<int64_t>(&value)) return fb::CreateAttr(b, key, fb::AttrKind::Int, *i);
  if (const auto* f = std::get_if<double>(&value)) {
    return fb::CreateAttr(b, key, fb::AttrKind::Float, 0, *f);
  }
  if (const auto* s = std::get_if<std::string>(&value)) {
    auto text = b.CreateString(*s);
    return fb::CreateAttr(b, key, fb::AttrKind::String, 0, 0.0, text);
  }
  if (const auto* ints = std::get_if<std::vector<int64_t>>(&value)) {
    auto v = b.CreateVector(*ints);
    return fb::CreateAttr(b, key, fb::AttrKind::Ints, 0, 0.0, 0, v);
  }
  auto v = b.CreateVector(std::get<std::vector<double>>(value));
  return fb::CreateAttr(b, key, fb::AttrKind::Floats, 0, 0.0, 0, 0, v);
}

using ValueIndex = absl::flat_hash_map<const ir::Value*, uint32_t>;

// The data section as it is laid out: each tensor at a multiple of the
// alignment, then at least the padding every tensor has, zeroed.
struct DataSection {
  std::vector<std::pair<int64_t, const tensor::Tensor*>> placed;
  int64_t size = 0;

  int64_t Place(const tensor::Tensor& t) {
    const int64_t offset = size;
    placed.emplace_back(offset, &t);
    size = offset + tensor::Tensor::StorageBytes(static_cast<int64_t>(t.byte_size()));
    return offset;
  }
};

flatbuffers::Offset<fb::PackedState> StateOf(Builder& b, const PackedState& state, DataSection& data) {
  std::vector<flatbuffers::Offset<fb::Blob>> blobs;
  for (const tensor::Tensor& t : state.blobs) {
    const int64_t offset = data.Place(t);
    blobs.push_back(fb::CreateBlob(b, TypeOf(b, t.dtype(), t.shape()), offset, t.byte_size()));
  }
  std::vector<uint32_t> inputs(state.inputs.begin(), state.inputs.end());
  auto packing = b.CreateString(state.packing);
  auto input_vec = b.CreateVector(inputs);
  auto blob_vec = b.CreateVector(blobs);
  return fb::CreatePackedState(b, packing, input_vec, blob_vec);
}

// The nodes in order, each result numbered after the values before it.
absl::StatusOr<std::vector<flatbuffers::Offset<fb::Node>>> NodesOf(Builder& b, const ir::Graph& graph,
                                                                   const PackedStates& states,
                                                                   DataSection& data, ValueIndex& index) {
  std::vector<flatbuffers::Offset<fb::Node>> nodes;
  for (const ir::Node* node : graph.nodes()) {
    std::vector<uint32_t> args;
    for (size_t i = 0; i < node->inputs().size(); ++i) {
      auto it = index.find(node->input(i));
      if (it == index.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat(node->Describe(), ": input ", i, " is not defined before the op"));
      }
      args.push_back(it->second);
    }
    std::vector<flatbuffers::Offset<fb::Result>> results;
    for (const ir::Value* out : node->outputs()) {
      auto name = b.CreateString(out->name());
      auto type = out->type() ? TypeOf(b, out->type()->dtype, out->type()->shape) : 0;
      results.push_back(fb::CreateResult(b, name, type));
      index.emplace(out, static_cast<uint32_t>(index.size()));
    }
    std::vector<flatbuffers::Offset<fb::Attr>> attrs;
    for (const auto& [name, value] : node->attrs().map()) attrs.push_back(AttrOf(b, name, value));
    auto op = b.CreateString(node->op());
    auto node_name = b.CreateString(node->name());
    auto arg_vec = b.CreateVector(args);
    auto result_vec = b.CreateVector(results);
    auto attr_vec = b.CreateVector(attrs);
    auto state = states.by_node.find(node);
    auto packed = state == states.by_node.end() ? 0 : StateOf(b, state->second, data);
    nodes.push_back(fb::CreateNode(b, op, node_name, arg_vec, result_vec, attr_vec, packed));
  }
  return nodes;
}

// Writes the header, then what follows it in file order: the graph, zeros
// to the data section, and each tensor where it was placed with zeros
// between. Passed over twice, for the checksum the header holds and to
// write, from where the bytes are: the file is never assembled in memory.
absl::Status WriteSections(PlanHeader header, const Builder& b, const DataSection& data, std::ostream& out) {
  static const char kZeros[4096] = {};
  auto for_each_piece = [&](const PlanPieceSink& f) {
    auto zeros = [&](int64_t n) {
      for (; n > 0; n -= static_cast<int64_t>(sizeof(kZeros))) {
        f(kZeros, static_cast<size_t>(std::min<int64_t>(n, sizeof(kZeros))));
      }
    };
    f(reinterpret_cast<const char*>(b.GetBufferPointer()), header.graph_size);
    zeros(static_cast<int64_t>(header.data_offset - header.graph_offset - header.graph_size));
    int64_t at = 0;
    for (const auto& [offset, t] : data.placed) {
      zeros(offset - at);
      f(static_cast<const char*>(t->raw_data()), t->byte_size());
      at = offset + static_cast<int64_t>(t->byte_size());
    }
    zeros(static_cast<int64_t>(header.data_size) - at);
  };
  header.checksum = PlanChecksumOfPieces(for_each_piece);
  char head[kBinaryPlanHeaderBytes] = {};
  WritePlanHeader(header, head);
  out.write(head, sizeof(head));
  for_each_piece([&](const char* p, size_t n) { out.write(p, static_cast<std::streamsize>(n)); });
  if (!out) return absl::DataLossError("the plan could not be written in full");
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteBinaryPlan(const ir::Graph& graph, absl::string_view target, const PackedStates& states,
                             std::ostream& out) {
  static_assert(ABSL_IS_LITTLE_ENDIAN, "the binary plan's header and data are little-endian");
  Builder b(1 << 16);
  // Every field written, even at its default: a float attribute of -0.0
  // equals the default 0.0, and would otherwise come back as +0.0.
  b.ForceDefaults(true);
  ValueIndex index;
  auto define = [&](const ir::Value* v) { index.emplace(v, static_cast<uint32_t>(index.size())); };

  std::vector<flatbuffers::Offset<fb::Input>> inputs;
  for (const ir::Value* v : graph.inputs()) {
    if (!v->type()) return absl::InvalidArgumentError(absl::StrCat("input %", v->name(), " has no type"));
    auto name = b.CreateString(v->name());
    inputs.push_back(fb::CreateInput(b, name, TypeOf(b, v->type()->dtype, v->type()->shape)));
    define(v);
  }
  RETURN_IF_ERROR(CheckAbsentConstants(graph, states));
  const absl::flat_hash_set<const ir::Value*> packed = ConstantsHeldPacked(graph, states);
  DataSection data;
  std::vector<flatbuffers::Offset<fb::Constant>> constants;
  for (const ir::Value* v : graph.constants()) {
    const tensor::Tensor& t = v->data();  // none when held packed only
    auto name = b.CreateString(v->name());
    auto type = TypeOf(b, v->type()->dtype, v->type()->shape);
    if (packed.count(v)) {
      constants.push_back(fb::CreateConstant(b, name, type, 0, 0, /*packed=*/true));
    } else {
      const int64_t offset = data.Place(t);
      constants.push_back(fb::CreateConstant(b, name, type, offset, t.byte_size()));
    }
    define(v);
  }
  ASSIGN_OR_RETURN(std::vector<flatbuffers::Offset<fb::Node>> nodes, NodesOf(b, graph, states, data, index));
  const int64_t data_size = std::max<int64_t>(data.size, tensor::Tensor::kPaddingBytes);
  std::vector<uint32_t> outputs;
  for (const ir::Value* v : graph.outputs()) {
    auto it = index.find(v);
    if (it == index.end()) return absl::InvalidArgumentError("a graph output is not defined");
    outputs.push_back(it->second);
  }
  auto target_name = b.CreateString(std::string(target));
  auto graph_name = b.CreateString(graph.name());
  auto input_vec = b.CreateVector(inputs);
  auto constant_vec = b.CreateVector(constants);
  auto node_vec = b.CreateVector(nodes);
  auto output_vec = b.CreateVector(outputs);
  b.Finish(fb::CreatePlan(b, target_name, graph_name, input_vec, constant_vec, node_vec, output_vec),
           fb::PlanIdentifier());

  PlanHeader header;
  header.graph_offset = kBinaryPlanHeaderBytes;
  header.graph_size = b.GetSize();
  header.data_offset = RoundUp(header.graph_offset + header.graph_size, tensor::Tensor::kAlignment);
  header.data_size = data_size;
  return WriteSections(header, b, data, out);
}

absl::StatusOr<std::string> BinaryPlanBytes(const ir::Graph& graph, absl::string_view target,
                                            const PackedStates& states) {
  std::ostringstream out;
  RETURN_IF_ERROR(WriteBinaryPlan(graph, target, states, out));
  return std::move(out).str();
}

}  // namespace qnnc::runtime
