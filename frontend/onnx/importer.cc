#include "frontend/onnx/importer.h"

#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_converters.h"
#include "frontend/onnx/tensor_convert.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

std::string DescribeNode(const ::onnx::NodeProto& node, int index) {
  std::string name = node.name().empty() ? absl::StrCat("#", index) : node.name();
  return absl::StrCat("node '", name, "' (", node.op_type(), ")");
}

absl::Status Prefixed(const absl::Status& s, const std::string& prefix) {
  return absl::Status(s.code(), absl::StrCat(prefix, ": ", s.message()));
}

class GraphImporter {
 public:
  // `consumed`: the same model, whose initializers' data the import frees
  // as it converts them (nullptr: left alone).
  GraphImporter(const LoadedModel& model, const ImportOptions& options, LoadedModel* consumed)
      : model_(model), consumed_(consumed), options_(options), graph_(std::make_unique<ir::Graph>()) {}

  absl::StatusOr<std::unique_ptr<ir::Graph>> Run() {
    const ::onnx::GraphProto& g = model_.model.graph();
    if (!g.name().empty()) graph_->set_name(g.name());
    RETURN_IF_ERROR(AddInitializers(g));
    RETURN_IF_ERROR(AddInputs(g));
    for (int i = 0; i < g.node_size(); ++i) RETURN_IF_ERROR(ConvertNode(g.node(i), i));
    if (!unsupported_.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          unsupported_.size(), " unsupported ONNX node(s) (opset ", model_.opset, "):\n  ",
          absl::StrJoin(unsupported_, "\n  ")));
    }
    std::vector<ir::Value*> outputs;
    for (const auto& out : g.output()) {
      auto it = values_.find(out.name());
      if (it == values_.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("graph output '", out.name(), "' is not produced by any node"));
      }
      outputs.push_back(it->second);
    }
    if (outputs.empty()) return absl::InvalidArgumentError("the graph has no outputs");
    graph_->SetOutputs(std::move(outputs));
    RETURN_IF_ERROR(graph_->Verify());
    return std::move(graph_);
  }

 private:
  absl::Status Define(const std::string& name, ir::Value* v) {
    if (!values_.emplace(name, v).second) {
      return absl::InvalidArgumentError(absl::StrCat("value '", name, "' is defined twice"));
    }
    return absl::OkStatus();
  }

  absl::Status AddInitializers(const ::onnx::GraphProto& g) {
    if (g.sparse_initializer_size() > 0) {
      return absl::InvalidArgumentError("sparse initializers are not supported");
    }
    // The declared sizes are checked against the limit before any is read.
    int64_t total = 0;
    for (const auto& init : g.initializer()) {
      auto dtype = DTypeFromOnnx(init.data_type());
      if (!dtype.ok()) continue;  // TensorFromProto reports it
      auto bytes = tensor::ByteSize(tensor::Shape(init.dims().begin(), init.dims().end()), *dtype);
      if (!bytes.ok()) continue;
      total += *bytes;  // each at most 2^46, fewer than 2^17 of them fit before the check
      if (total > options_.max_bytes) {
        return tensor::MemoryLimitError(
            absl::StrCat("initializer '", init.name(), "' of dims [", absl::StrJoin(init.dims(), ","),
                         "] (with the initializers before it)"),
            total, options_.max_bytes);
      }
    }
    for (int i = 0; i < g.initializer_size(); ++i) {
      const ::onnx::TensorProto& init = g.initializer(i);
      auto t = TensorFromProto(init);
      if (!t.ok()) {  // the message starts with "tensor '<name>': "
        return absl::InvalidArgumentError(absl::StrCat("initializer ", t.status().message()));
      }
      RETURN_IF_ERROR(Define(init.name(), graph_->AddConstant(init.name(), *std::move(t))));
      // The graph holds the weights now: the proto's copy leaves memory
      // (swapped into a temporary that frees it), so they are held once.
      if (consumed_ != nullptr) ::onnx::TensorProto().Swap(consumed_->model.mutable_graph()->mutable_initializer(i));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<tensor::Shape> InputShape(const ::onnx::ValueInfoProto& in) {
    const auto& tt = in.type().tensor_type();
    auto over = options_.input_shapes.find(in.name());
    if (over != options_.input_shapes.end()) {
      if (tt.has_shape() && tt.shape().dim_size() != static_cast<int>(over->second.size())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "input '", in.name(), "': the shape override [", absl::StrJoin(over->second, ","),
            "] has rank ", over->second.size(), " but the model gives rank ", tt.shape().dim_size()));
      }
      return over->second;
    }
    if (!tt.has_shape()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input '", in.name(), "' has no shape; give it in ImportOptions::input_shapes"));
    }
    tensor::Shape shape;
    for (int d = 0; d < tt.shape().dim_size(); ++d) {
      const auto& dim = tt.shape().dim(d);
      if (!dim.has_dim_value()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "input '", in.name(), "' dimension ", d, " is ",
            dim.has_dim_param() ? absl::StrCat("symbolic ('", dim.dim_param(), "')") : "unknown",
            "; give a static shape in ImportOptions::input_shapes"));
      }
      shape.push_back(dim.dim_value());
    }
    return shape;
  }

  // A frozen input's value against the model's declaration of the input.
  static absl::Status CheckFrozen(const ::onnx::ValueInfoProto& in, tensor::DType dtype,
                                  const tensor::Tensor& value) {
    const auto& tt = in.type().tensor_type();
    bool match = value.defined() && value.dtype() == dtype;
    if (match && tt.has_shape()) {
      match = tt.shape().dim_size() == value.rank();
      for (int d = 0; match && d < tt.shape().dim_size(); ++d) {
        const auto& dim = tt.shape().dim(d);
        match = !dim.has_dim_value() || dim.dim_value() == value.dim(d);
      }
    }
    if (!match) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input '", in.name(), "': the frozen value (",
          value.defined() ? tensor::DTypeName(value.dtype()) : "undefined", "[",
          value.defined() ? absl::StrJoin(value.shape(), ",") : "", "]) does not match the model's declaration"));
    }
    return absl::OkStatus();
  }

  absl::Status AddInputs(const ::onnx::GraphProto& g) {
    std::set<std::string> names;
    for (const auto& in : g.input()) names.insert(in.name());
    for (const auto& [name, shape] : options_.input_shapes) {
      if (!names.count(name)) {
        return absl::InvalidArgumentError(
            absl::StrCat("ImportOptions::input_shapes names '", name, "', which is not a graph input"));
      }
    }
    for (const auto& [name, value] : options_.constant_inputs) {
      if (!names.count(name)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "ImportOptions::constant_inputs names '", name, "', which is not a graph input"));
      }
    }
    for (const auto& in : g.input()) {
      if (values_.count(in.name())) continue;  // an initializer (older exporters list them)
      if (!in.type().has_tensor_type()) {
        return absl::InvalidArgumentError(absl::StrCat("input '", in.name(), "' is not a tensor"));
      }
      auto dtype = DTypeFromOnnx(in.type().tensor_type().elem_type());
      if (!dtype.ok()) return Prefixed(dtype.status(), absl::StrCat("input '", in.name(), "'"));
      auto frozen = options_.constant_inputs.find(in.name());
      if (frozen != options_.constant_inputs.end()) {
        RETURN_IF_ERROR(CheckFrozen(in, *dtype, frozen->second));
        RETURN_IF_ERROR(Define(in.name(), graph_->AddConstant(in.name(), frozen->second)));
        continue;
      }
      ASSIGN_OR_RETURN(tensor::Shape shape, InputShape(in));
      auto n = tensor::NumElements(shape, *dtype);
      if (!n.ok()) return Prefixed(n.status(), absl::StrCat("input '", in.name(), "'"));
      if (*n == 0) {
        return absl::InvalidArgumentError(absl::StrCat("input '", in.name(), "' has a zero dimension (shape [",
                                                       absl::StrJoin(shape, ","), "]): it holds no data"));
      }
      RETURN_IF_ERROR(Define(in.name(), graph_->AddInput(in.name(), {*dtype, shape})));
    }
    return absl::OkStatus();
  }

  static std::string UnsupportedOp(const std::string& where, const ::onnx::NodeProto& node) {
    if (IsDefaultDomain(node.domain())) {
      return absl::StrCat(where, ": op '", node.op_type(), "' is not supported");
    }
    return absl::StrCat(where, ": op '", node.op_type(), "' of domain '", node.domain(),
                        "' is not supported");
  }

  // Records an unsupported node; its outputs are marked so later nodes
  // that use them are skipped rather than reported as broken.
  void MarkUnsupported(const ::onnx::NodeProto& node, const std::string& message) {
    unsupported_.push_back(message);
    for (const auto& out : node.output()) poisoned_.insert(out);
  }

  absl::Status ConvertNode(const ::onnx::NodeProto& node, int index) {
    const std::string where = DescribeNode(node, index);
    const ConverterTable* domain_table = ConvertersOfDomain(node.domain());
    if (domain_table == nullptr) {
      MarkUnsupported(node, absl::StrCat(where, ": domain '", node.domain(), "' is not supported"));
      return absl::OkStatus();
    }
    const ConverterTable& table = *domain_table;
    auto conv = table.find(node.op_type());
    std::vector<ir::Value*> inputs;
    for (const std::string& name : node.input()) {
      if (name.empty()) {
        inputs.push_back(nullptr);
        continue;
      }
      auto it = values_.find(name);
      if (it != values_.end()) {
        inputs.push_back(it->second);
      } else if (poisoned_.count(name)) {
        for (const auto& out : node.output()) poisoned_.insert(out);
        if (conv == table.end()) {
          MarkUnsupported(node, UnsupportedOp(where, node));
        }
        return absl::OkStatus();
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": input '", name, "' is not defined by a graph input, an initializer or an "
            "earlier node"));
      }
    }
    if (conv == table.end()) {
      MarkUnsupported(node, UnsupportedOp(where, node));
      return absl::OkStatus();
    }
    NodeContext ctx(node, std::move(inputs), model_.opset, *graph_);
    ctx.set_max_bytes(options_.max_bytes);
    auto outputs = conv->second(ctx);
    if (!outputs.ok()) {
      if (absl::IsUnimplemented(outputs.status())) {
        MarkUnsupported(node, absl::StrCat(where, ": ", outputs.status().message()));
        return absl::OkStatus();
      }
      return absl::InvalidArgumentError(absl::StrCat(where, ": ", outputs.status().message()));
    }
    for (int i = 0; i < node.output_size(); ++i) {
      if (node.output(i).empty()) continue;
      if (i >= static_cast<int>(outputs->size()) || (*outputs)[i] == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": output ", i, " ('", node.output(i), "') is not supported"));
      }
      RETURN_IF_ERROR(Prefixed(Define(node.output(i), (*outputs)[i]), where));
    }
    return absl::OkStatus();
  }

  const LoadedModel& model_;
  LoadedModel* consumed_;
  const ImportOptions& options_;
  std::unique_ptr<ir::Graph> graph_;
  absl::flat_hash_map<std::string, ir::Value*> values_;
  absl::flat_hash_set<std::string> poisoned_;
  std::vector<std::string> unsupported_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<ir::Graph>> ImportGraph(const LoadedModel& model,
                                                       const ImportOptions& options) {
  return GraphImporter(model, options, nullptr).Run();
}

absl::StatusOr<std::unique_ptr<ir::Graph>> ImportGraph(LoadedModel&& model,
                                                       const ImportOptions& options) {
  return GraphImporter(model, options, &model).Run();
}

}  // namespace qnnc::frontend::onnx
