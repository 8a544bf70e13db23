#include "ir/op_registry.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace qnnc::ir {

absl::Status OpRegistry::Register(OpDef def) {
  if (ops_.count(def.name)) {
    return absl::AlreadyExistsError(absl::StrCat("op '", def.name, "' is registered twice"));
  }
  std::string name = def.name;
  ops_.emplace(std::move(name), std::move(def));
  return absl::OkStatus();
}

const OpDef* OpRegistry::Find(absl::string_view name) const {
  auto it = ops_.find(std::string(name));
  return it == ops_.end() ? nullptr : &it->second;
}

absl::StatusOr<std::vector<TensorType>> OpRegistry::InferNode(
    const Node& node, const std::vector<TensorType>& inputs) const {
  const OpDef* def = Find(node.op());
  if (def == nullptr) return absl::NotFoundError(absl::StrCat(node.Describe(), ": unknown op"));
  int n = static_cast<int>(inputs.size());
  if (n < def->min_inputs || (def->max_inputs >= 0 && n > def->max_inputs)) {
    return absl::InvalidArgumentError(absl::StrCat(
        node.Describe(), ": takes ", def->min_inputs,
        def->max_inputs == def->min_inputs
            ? std::string()
            : (def->max_inputs < 0 ? std::string(" or more")
                                   : absl::StrCat(" to ", def->max_inputs)),
        " inputs, got ", n));
  }
  if (static_cast<int>(node.outputs().size()) != def->num_outputs) {
    return absl::InvalidArgumentError(absl::StrCat(node.Describe(), ": has ", def->num_outputs,
                                                   " outputs, got ", node.outputs().size()));
  }
  auto result = def->relation(TypeRelationInput{node, inputs});
  if (!result.ok()) {
    return absl::Status(result.status().code(),
                        absl::StrCat(node.Describe(), ": ", result.status().message()));
  }
  // Relations compute shapes from attributes: a result whose size
  // overflows (a window with huge padding) is an error, not a type.
  for (size_t i = 0; i < result->size(); ++i) {
    const TensorType& t = (*result)[i];
    if (auto count = tensor::NumElements(t.shape, t.dtype); !count.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(node.Describe(), ": result ", i, ": ", count.status().message()));
    }
  }
  return result;
}


}  // namespace qnnc::ir
