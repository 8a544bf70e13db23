// A small builder for graphs in tests, the frontend and passes:
//   Builder b;
//   Value* x = b.Input("x", {DType::kU8, {1, 3, 8, 8}});
//   Value* s = b.Scalar<float>(0.5f);
//   Value* y = b.Op("qnn.dequantize", {x, s, b.Scalar<uint8_t>(128)});
//   b.Output(y);
//   std::unique_ptr<Graph> g = b.Finish();  // types inferred
#ifndef QNNC_IR_BUILDER_H_
#define QNNC_IR_BUILDER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"

namespace qnnc::ir {

class Builder {
 public:
  Builder() : graph_(std::make_unique<Graph>()) {}
  // Appends to an existing graph instead (Finish() is not used then).
  explicit Builder(Graph* graph) : external_(graph) {}

  Graph& graph() { return external_ ? *external_ : *graph_; }

  Value* Input(const std::string& name, TensorType type) { return graph().AddInput(name, std::move(type)); }
  Value* Constant(tensor::Tensor data, const std::string& name = "") {
    return graph().AddConstant(name, std::move(data));
  }
  template <typename T>
  Value* Scalar(T value, const std::string& name = "") {
    return Constant(tensor::Tensor::Scalar<T>(value), name);
  }
  template <typename T>
  Value* Vector(const std::vector<T>& values, const std::string& name = "") {
    return Constant(tensor::Tensor::FromVector<T>({static_cast<int64_t>(values.size())}, values), name);
  }
  // Adds an op with one result and returns it.
  Value* Op(const std::string& op, std::vector<Value*> inputs, Attrs attrs = {},
            const std::string& node_name = "") {
    return graph().AddNode(op, std::move(inputs), std::move(attrs), 1, node_name)->output();
  }
  void Output(Value* v) { outputs_.push_back(v); }

  // Sets the outputs, infers types and returns the graph.
  absl::StatusOr<std::unique_ptr<Graph>> Finish();

 private:
  std::unique_ptr<Graph> graph_;
  Graph* external_ = nullptr;
  std::vector<Value*> outputs_;
};

}  // namespace qnnc::ir

#endif  // QNNC_IR_BUILDER_H_
