// The graph IR: values (graph inputs, constants holding their data, op
// results) and ops (nodes) kept in topological order.
#ifndef QNNC_IR_GRAPH_H_
#define QNNC_IR_GRAPH_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/attributes.h"
#include "ir/types.h"
#include "tensor/tensor.h"

namespace qnnc::ir {

class Node;

enum class ValueKind { kInput, kConstant, kResult };

class Value {
 public:
  ValueKind kind() const { return kind_; }
  bool is_constant() const { return kind_ == ValueKind::kConstant; }
  // Unique within its graph; printed as %name.
  const std::string& name() const { return name_; }
  // Set for inputs and constants; for results once InferTypes ran (or the
  // builder/parser gave it).
  const std::optional<TensorType>& type() const { return type_; }
  void set_type(TensorType t) { type_ = std::move(t); }
  // The producing node and output index of a result; nullptr otherwise.
  Node* producer() const { return producer_; }
  int output_index() const { return output_index_; }
  // The data of a constant (its type matches the tensor's dtype and shape).
  const tensor::Tensor& data() const { return data_; }

 private:
  friend class Graph;
  ValueKind kind_ = ValueKind::kResult;
  std::string name_;
  std::optional<TensorType> type_;
  Node* producer_ = nullptr;
  int output_index_ = 0;
  tensor::Tensor data_;
};

// A decision, extra bookkeeping etc. live in attributes; a node is an op
// application: op name, inputs, attributes, one or more outputs.
class Node {
 public:
  const std::string& op() const { return op_; }
  // The model's node name (e.g. the ONNX node name); may be empty.
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  const std::vector<Value*>& inputs() const { return inputs_; }
  Value* input(size_t i) const { return inputs_[i]; }
  void set_input(size_t i, Value* v) { inputs_[i] = v; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  Value* output(size_t i = 0) const { return outputs_[i]; }
  const Attrs& attrs() const { return attrs_; }
  Attrs& mutable_attrs() { return attrs_; }
  // "op 'qnn.conv2d' (node '/features/0/Conv')" for error messages.
  std::string Describe() const;

 private:
  friend class Graph;
  std::string op_;
  std::string name_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  Attrs attrs_;
};

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  // Deep copy (constant data is shared: constants are immutable).
  std::unique_ptr<Graph> Clone() const;

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  // Adders. An empty name gets a fresh one; a taken name is made unique by a
  // suffix. Nodes are appended at the end (keep inputs defined before use).
  Value* AddInput(const std::string& name, TensorType type);
  Value* AddConstant(const std::string& name, tensor::Tensor data);
  Node* AddNode(const std::string& op, std::vector<Value*> inputs, Attrs attrs = {},
                int num_outputs = 1, const std::string& name = "",
                const std::vector<std::string>& output_names = {});
  // Like AddNode, but placed just before `position` in the node order.
  Node* InsertNodeBefore(const Node* position, const std::string& op, std::vector<Value*> inputs,
                         Attrs attrs = {}, int num_outputs = 1, const std::string& name = "");

  void SetOutputs(std::vector<Value*> outputs) { outputs_ = std::move(outputs); }

  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  // Nodes in topological order.
  std::vector<Node*> nodes() const;
  size_t num_nodes() const { return nodes_.size(); }
  // Every constant, in creation order.
  std::vector<Value*> constants() const;
  Value* FindValue(const std::string& name) const;

  // Redirects every use of `from` (node inputs and graph outputs) to `to`.
  void ReplaceAllUsesWith(Value* from, Value* to);
  // Number of node inputs and graph outputs that refer to `v`.
  int CountUses(const Value* v) const;
  // Drops a constant's data (its type stays) once nothing live reads it,
  // so a pass that replaced all its uses need not hold it until
  // RemoveDeadCode (FoldConstant: the intermediate results of a chain).
  void ReleaseConstantData(Value* constant);
  // Removes nodes whose outputs are unused and constants nobody uses.
  // Returns the number of nodes removed.
  int RemoveDeadCode();
  // Re-sorts nodes topologically (after inserting out of order); an error
  // names a value used before any node defines it, or a cycle.
  absl::Status TopologicalSort();
  // Checks the graph is well formed: inputs defined before use, outputs
  // defined, unique names.
  absl::Status Verify() const;

 private:
  std::string UniqueName(const std::string& wanted);
  Value* NewValue(ValueKind kind, const std::string& name);

  std::string name_ = "main";
  std::vector<std::unique_ptr<Value>> values_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  std::vector<Value*> constants_;
  absl::flat_hash_map<std::string, Value*> by_name_;
  int next_id_ = 0;
};

}  // namespace qnnc::ir

#endif  // QNNC_IR_GRAPH_H_
