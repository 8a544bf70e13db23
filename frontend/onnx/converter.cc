#include "frontend/onnx/converter.h"

#include "absl/strings/str_cat.h"
#include "frontend/onnx/tensor_convert.h"
#include "ir/op_registry.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {

using ::onnx::AttributeProto;

absl::StatusOr<ir::Value*> NodeContext::Required(int i) const {
  if (!has_input(i)) {
    return absl::InvalidArgumentError(absl::StrCat("required input ", i, " is missing"));
  }
  return inputs_[i];
}

const tensor::Tensor* NodeContext::constant(int i) const {
  if (!has_input(i) || !inputs_[i]->is_constant()) return nullptr;
  return &inputs_[i]->data();
}

absl::StatusOr<ir::Node*> NodeContext::EmitNode(const std::string& op,
                                                std::vector<ir::Value*> inputs, ir::Attrs attrs,
                                                int num_outputs) {
  std::vector<std::string> names;
  for (int i = 0; i < num_outputs; ++i) {
    names.push_back(i < node_.output_size() ? node_.output(i) : std::string());
  }
  std::vector<ir::TensorType> in_types;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr || !inputs[i]->type()) {
      return absl::InternalError(absl::StrCat("emitting '", op, "': input ", i, " is untyped"));
    }
    in_types.push_back(*inputs[i]->type());
  }
  ir::Node* n = graph_.AddNode(op, std::move(inputs), std::move(attrs), num_outputs,
                               node_.name(), names);
  ASSIGN_OR_RETURN(std::vector<ir::TensorType> out_types,
                   ir::OpRegistry::Global().InferNode(*n, in_types));
  for (size_t i = 0; i < out_types.size(); ++i) n->output(i)->set_type(out_types[i]);
  return n;
}

absl::StatusOr<ir::Value*> NodeContext::Emit(const std::string& op, std::vector<ir::Value*> inputs,
                                             ir::Attrs attrs) {
  ASSIGN_OR_RETURN(ir::Node * n, EmitNode(op, std::move(inputs), std::move(attrs)));
  return n->output();
}

ir::Value* NodeContext::Constant(tensor::Tensor data) {
  return graph_.AddConstant(node_.output_size() > 0 ? node_.output(0) : node_.name(),
                            std::move(data));
}

const AttributeProto* NodeContext::attr(const std::string& name) const {
  for (const AttributeProto& a : node_.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

absl::Status NodeContext::CheckAttrType(const AttributeProto& a, int type) const {
  if (a.type() != type) {
    return absl::InvalidArgumentError(absl::StrCat(
        "attribute '", a.name(), "' must be ",
        AttributeProto::AttributeType_Name(static_cast<AttributeProto::AttributeType>(type)),
        ", got ",
        AttributeProto::AttributeType_IsValid(a.type())
            ? AttributeProto::AttributeType_Name(static_cast<AttributeProto::AttributeType>(a.type()))
            : absl::StrCat("type ", a.type())));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> NodeContext::AttrInt(const std::string& name, int64_t dflt) const {
  const AttributeProto* a = attr(name);
  if (a == nullptr) return dflt;
  RETURN_IF_ERROR(CheckAttrType(*a, AttributeProto::INT));
  return a->i();
}

absl::StatusOr<float> NodeContext::AttrFloat(const std::string& name, float dflt) const {
  const AttributeProto* a = attr(name);
  if (a == nullptr) return dflt;
  RETURN_IF_ERROR(CheckAttrType(*a, AttributeProto::FLOAT));
  return a->f();
}

absl::StatusOr<std::string> NodeContext::AttrString(const std::string& name,
                                                    const std::string& dflt) const {
  const AttributeProto* a = attr(name);
  if (a == nullptr) return dflt;
  RETURN_IF_ERROR(CheckAttrType(*a, AttributeProto::STRING));
  return a->s();
}

absl::StatusOr<std::vector<int64_t>> NodeContext::AttrInts(const std::string& name,
                                                           std::vector<int64_t> dflt) const {
  const AttributeProto* a = attr(name);
  if (a == nullptr) return dflt;
  RETURN_IF_ERROR(CheckAttrType(*a, AttributeProto::INTS));
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

absl::StatusOr<std::vector<float>> NodeContext::AttrFloats(const std::string& name) const {
  const AttributeProto* a = attr(name);
  if (a == nullptr) return absl::InvalidArgumentError(absl::StrCat("missing attribute '", name, "'"));
  RETURN_IF_ERROR(CheckAttrType(*a, AttributeProto::FLOATS));
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

absl::StatusOr<tensor::Tensor> NodeContext::AttrTensor(const std::string& name) const {
  const AttributeProto* a = attr(name);
  if (a == nullptr) return absl::InvalidArgumentError(absl::StrCat("missing attribute '", name, "'"));
  RETURN_IF_ERROR(CheckAttrType(*a, AttributeProto::TENSOR));
  auto t = TensorFromProto(a->t());
  if (!t.ok()) {
    return absl::Status(t.status().code(),
                        absl::StrCat("attribute '", name, "': ", t.status().message()));
  }
  return t;
}

}  // namespace qnnc::frontend::onnx
