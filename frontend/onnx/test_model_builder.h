// Builds small ONNX models in tests:
//   ModelBuilder b(13);
//   b.Input("x", TensorProto::FLOAT, {1, 3, 8, 8});
//   auto& n = b.Node("Relu", {"x"}, {"y"});
//   b.Output("y");
//   std::string bytes = b.Bytes();
#ifndef QNNC_FRONTEND_ONNX_TEST_MODEL_BUILDER_H_
#define QNNC_FRONTEND_ONNX_TEST_MODEL_BUILDER_H_

#include <string>
#include <vector>

#include "onnx/onnx_pb.h"  // defines ONNX_API, includes onnx-ml.pb.h
#include "tensor/tensor.h"

namespace qnnc::frontend::onnx::testing {

class ModelBuilder {
 public:
  explicit ModelBuilder(int opset = 13);

  // A dimension of -1 becomes the symbolic dim "N".
  ModelBuilder& Input(const std::string& name, int elem_type, const std::vector<int64_t>& dims);
  ModelBuilder& Output(const std::string& name);
  ModelBuilder& Initializer(const std::string& name, const tensor::Tensor& value,
                            bool raw = true);
  // A Constant node producing `name`.
  ModelBuilder& Constant(const std::string& name, const tensor::Tensor& value);
  ::onnx::NodeProto& Node(const std::string& op_type, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name = "");

  ::onnx::ModelProto& model() { return model_; }
  std::string Bytes() const { return model_.SerializeAsString(); }

 private:
  ::onnx::ModelProto model_;
};

void AttrI(::onnx::NodeProto& node, const std::string& name, int64_t v);
void AttrF(::onnx::NodeProto& node, const std::string& name, float v);
void AttrS(::onnx::NodeProto& node, const std::string& name, const std::string& v);
void AttrInts(::onnx::NodeProto& node, const std::string& name, const std::vector<int64_t>& v);
void AttrFloats(::onnx::NodeProto& node, const std::string& name, const std::vector<float>& v);
void AttrT(::onnx::NodeProto& node, const std::string& name, const tensor::Tensor& v);

}  // namespace qnnc::frontend::onnx::testing

#endif  // QNNC_FRONTEND_ONNX_TEST_MODEL_BUILDER_H_
