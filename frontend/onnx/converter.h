// What an op converter sees (the ONNX node, its inputs as IR values with
// their types, the opset) and how it emits IR ops (typed as they are added).
#ifndef QNNC_FRONTEND_ONNX_CONVERTER_H_
#define QNNC_FRONTEND_ONNX_CONVERTER_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "onnx/onnx_pb.h"  // defines ONNX_API, includes onnx-ml.pb.h
#include "tensor/tensor.h"

namespace qnnc::frontend::onnx {

class NodeContext {
 public:
  // `inputs` has one entry per ONNX input; nullptr for an absent optional one.
  NodeContext(const ::onnx::NodeProto& node, std::vector<ir::Value*> inputs, int opset,
              ir::Graph& graph)
      : node_(node), inputs_(std::move(inputs)), opset_(opset), graph_(graph) {}

  const ::onnx::NodeProto& node() const { return node_; }
  int opset() const { return opset_; }
  ir::Graph& graph() { return graph_; }
  // ImportOptions::max_bytes: converters that make constants respect it.
  int64_t max_bytes() const { return max_bytes_; }
  void set_max_bytes(int64_t max_bytes) { max_bytes_ = max_bytes; }

  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  bool has_input(int i) const { return i >= 0 && i < num_inputs() && inputs_[i] != nullptr; }
  // The input, or nullptr when absent.
  ir::Value* input(int i) const { return has_input(i) ? inputs_[i] : nullptr; }
  // The input, or an error naming it when a required input is absent.
  absl::StatusOr<ir::Value*> Required(int i) const;
  // Type of a present input (every value is typed as it is created).
  const ir::TensorType& type(int i) const { return *inputs_[i]->type(); }
  // The data of a constant input; nullptr when absent or not constant.
  const tensor::Tensor* constant(int i) const;

  // Adds an op named after the ONNX node and infers its output types.
  absl::StatusOr<ir::Node*> EmitNode(const std::string& op, std::vector<ir::Value*> inputs,
                                     ir::Attrs attrs = {}, int num_outputs = 1);
  absl::StatusOr<ir::Value*> Emit(const std::string& op, std::vector<ir::Value*> inputs,
                                  ir::Attrs attrs = {});
  ir::Value* Constant(tensor::Tensor data);
  template <typename T>
  ir::Value* Scalar(T v) { return Constant(tensor::Tensor::Scalar<T>(v)); }

  // Attributes; a present attribute of another type is an error.
  const ::onnx::AttributeProto* attr(const std::string& name) const;
  absl::StatusOr<int64_t> AttrInt(const std::string& name, int64_t dflt) const;
  absl::StatusOr<float> AttrFloat(const std::string& name, float dflt) const;
  absl::StatusOr<std::string> AttrString(const std::string& name, const std::string& dflt) const;
  absl::StatusOr<std::vector<int64_t>> AttrInts(const std::string& name,
                                                std::vector<int64_t> dflt = {}) const;
  absl::StatusOr<std::vector<float>> AttrFloats(const std::string& name) const;
  absl::StatusOr<tensor::Tensor> AttrTensor(const std::string& name) const;

 private:
  absl::Status CheckAttrType(const ::onnx::AttributeProto& a, int type) const;

  const ::onnx::NodeProto& node_;
  std::vector<ir::Value*> inputs_;
  int opset_;
  ir::Graph& graph_;
  int64_t max_bytes_ = tensor::kDefaultMaxBytes;
};

// A converter returns one value per ONNX output (nullptr for an optional
// output it does not produce). Errors are InvalidArgumentError for a bad
// model and UnimplementedError for a valid but unsupported op or attribute
// value; the importer prefixes the node's name and op_type.
using Converter = absl::StatusOr<std::vector<ir::Value*>> (*)(NodeContext&);
using ConverterTable = absl::flat_hash_map<std::string, Converter>;

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_CONVERTER_H_
