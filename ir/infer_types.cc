#include "ir/infer_types.h"

#include "absl/strings/str_cat.h"
#include "ir/op_registry.h"
#include "util/status_macros.h"

namespace qnnc::ir {

absl::Status InferTypes(Graph& graph) {
  RETURN_IF_ERROR(graph.Verify());
  const OpRegistry& registry = OpRegistry::Global();
  for (Node* node : graph.nodes()) {
    std::vector<TensorType> in_types;
    for (size_t i = 0; i < node->inputs().size(); ++i) {
      const Value* v = node->input(i);
      if (!v->type()) {
        return absl::InvalidArgumentError(
            absl::StrCat(node->Describe(), ": input ", i, " %", v->name(), " has no type"));
      }
      in_types.push_back(*v->type());
    }
    ASSIGN_OR_RETURN(std::vector<TensorType> out_types, registry.InferNode(*node, in_types));
    for (size_t i = 0; i < out_types.size(); ++i) {
      Value* out = node->output(i);
      if (out->type() && *out->type() != out_types[i]) {
        return absl::InvalidArgumentError(absl::StrCat(
            node->Describe(), ": result %", out->name(), " is declared ", out->type()->ToString(),
            " but the op gives ", out_types[i].ToString()));
      }
      out->set_type(out_types[i]);
    }
  }
  return absl::OkStatus();
}

}  // namespace qnnc::ir
