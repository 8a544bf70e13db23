#include "frontend/onnx/test_model_builder.h"

#include "frontend/onnx/tensor_convert.h"

namespace qnnc::frontend::onnx::testing {

using ::onnx::AttributeProto;

ModelBuilder::ModelBuilder(int opset) {
  model_.set_ir_version(8);
  model_.add_opset_import()->set_version(opset);
  model_.mutable_graph()->set_name("test");
}

ModelBuilder& ModelBuilder::Input(const std::string& name, int elem_type,
                                  const std::vector<int64_t>& dims) {
  auto* in = model_.mutable_graph()->add_input();
  in->set_name(name);
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) {
    if (d == -1) {
      shape->add_dim()->set_dim_param("N");
    } else {
      shape->add_dim()->set_dim_value(d);
    }
  }
  return *this;
}

ModelBuilder& ModelBuilder::Output(const std::string& name) {
  model_.mutable_graph()->add_output()->set_name(name);
  return *this;
}

ModelBuilder& ModelBuilder::Initializer(const std::string& name, const tensor::Tensor& value,
                                        bool raw) {
  *model_.mutable_graph()->add_initializer() = TensorToProto(value, raw, name);
  return *this;
}

ModelBuilder& ModelBuilder::Constant(const std::string& name, const tensor::Tensor& value) {
  AttrT(Node("Constant", {}, {name}, name + "_node"), "value", value);
  return *this;
}

::onnx::NodeProto& ModelBuilder::Node(const std::string& op_type,
                                      const std::vector<std::string>& inputs,
                                      const std::vector<std::string>& outputs,
                                      const std::string& name) {
  auto* n = model_.mutable_graph()->add_node();
  n->set_op_type(op_type);
  n->set_name(name.empty() ? op_type + std::to_string(model_.graph().node_size()) : name);
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return *n;
}

namespace {
AttributeProto* Add(::onnx::NodeProto& node, const std::string& name, AttributeProto::AttributeType t) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(t);
  return a;
}
}  // namespace

void AttrI(::onnx::NodeProto& n, const std::string& name, int64_t v) {
  Add(n, name, AttributeProto::INT)->set_i(v);
}
void AttrF(::onnx::NodeProto& n, const std::string& name, float v) {
  Add(n, name, AttributeProto::FLOAT)->set_f(v);
}
void AttrS(::onnx::NodeProto& n, const std::string& name, const std::string& v) {
  Add(n, name, AttributeProto::STRING)->set_s(v);
}
void AttrInts(::onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = Add(n, name, AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}
void AttrFloats(::onnx::NodeProto& n, const std::string& name, const std::vector<float>& v) {
  auto* a = Add(n, name, AttributeProto::FLOATS);
  for (float x : v) a->add_floats(x);
}
void AttrT(::onnx::NodeProto& n, const std::string& name, const tensor::Tensor& v) {
  *Add(n, name, AttributeProto::TENSOR)->mutable_t() = TensorToProto(v);
}

}  // namespace qnnc::frontend::onnx::testing
