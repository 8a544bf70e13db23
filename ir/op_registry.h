// The op registry: every op the IR knows, with its arity and its type
// relation (input types + attributes -> output types).
#ifndef QNNC_IR_OP_REGISTRY_H_
#define QNNC_IR_OP_REGISTRY_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/graph.h"
#include "ir/types.h"

namespace qnnc::ir {

// What a type relation sees: the node (attributes, name) and its input types.
struct TypeRelationInput {
  const Node& node;
  std::vector<TensorType> inputs;
};

using TypeRelation =
    std::function<absl::StatusOr<std::vector<TensorType>>(const TypeRelationInput&)>;

struct OpDef {
  std::string name;
  int min_inputs = 0;
  int max_inputs = 0;  // -1: variadic
  int num_outputs = 1;
  TypeRelation relation;
  std::string summary;  // one line: inputs and attributes
  // Element-wise ops: each output element is a function of the same element
  // of the first `elementwise_inputs` inputs alone (numpy broadcasting), the
  // other inputs being parameters (scales, zero points, a table). 0: not
  // element-wise. FuseLookup folds runs of such ops into one table.
  int elementwise_inputs = 0;
};

class OpRegistry {
 public:
  // The registry with every built-in op registered.
  static const OpRegistry& Global();

  // Adds an op; registering a name twice is an error.
  absl::Status Register(OpDef def);
  const OpDef* Find(absl::string_view name) const;
  const std::map<std::string, OpDef>& ops() const { return ops_; }

  // Runs the op's relation after checking arity; errors name the op and node.
  absl::StatusOr<std::vector<TensorType>> InferNode(const Node& node,
                                                    const std::vector<TensorType>& inputs) const;

 private:
  std::map<std::string, OpDef> ops_;
};

// Each op family registers its ops with a function of its own,
// Register<Family>Ops(OpRegistry&) in ops/<family>/<family>_def.cc; the
// generated builtin_ops.cc (op_family_registry in ops/op_family.bzl) declares
// them and Global() calls them all.

}  // namespace qnnc::ir

#endif  // QNNC_IR_OP_REGISTRY_H_
