#include "bench/qdq_model_builder.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <utility>

#include "absl/strings/str_cat.h"

namespace qnnc::bench {
namespace {

// One activation scale for the whole model: [-2.56, 2.54] at zero point 128,
// [0, 5.1] at zero point 0.
constexpr float kActScale = 0.02f;

void Ints(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& values) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}

void Int(onnx::NodeProto* n, const std::string& name, int64_t value) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

void ValueInfo(onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims) {
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

}  // namespace

QdqModelBuilder::QdqModelBuilder(const std::string& graph_name, uint32_t seed) : rng_(seed) {
  model_.set_ir_version(7);
  model_.add_opset_import()->set_version(13);
  model_.set_producer_name("qnnc bench");
  graph_ = model_.mutable_graph();
  graph_->set_name(graph_name);
  Initializer("act_scale", onnx::TensorProto::FLOAT, {})->add_float_data(kActScale);
  Initializer("act_zp", onnx::TensorProto::UINT8, {})->set_raw_data(std::string(1, '\x80'));
  Initializer("relu_zp", onnx::TensorProto::UINT8, {})->set_raw_data(std::string(1, '\0'));
}

std::string QdqModelBuilder::Name(const std::string& kind) {
  return absl::StrCat(kind, "_", nodes_++);
}

onnx::TensorProto* QdqModelBuilder::Initializer(const std::string& name, int type,
                                                const std::vector<int64_t>& dims) {
  onnx::TensorProto* t = graph_->add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  for (int64_t d : dims) t->add_dims(d);
  return t;
}

onnx::NodeProto* QdqModelBuilder::Node(const std::string& op, const std::vector<std::string>& ins,
                                       const std::string& out) {
  onnx::NodeProto* n = graph_->add_node();
  n->set_op_type(op);
  n->set_name(out);
  for (const std::string& in : ins) n->add_input(in);
  n->add_output(out);
  return n;
}

std::string QdqModelBuilder::Requantize(const std::string& x, bool relu_range) {
  const std::string zp = relu_range ? "relu_zp" : "act_zp";
  const std::string q = Name("q"), dq = Name("dq");
  Node("QuantizeLinear", {x, "act_scale", zp}, q);
  Node("DequantizeLinear", {q, "act_scale", zp}, dq);
  return dq;
}

std::string QdqModelBuilder::MaybeReluQdq(const std::string& x, bool relu) {
  if (!relu) return Requantize(x, false);
  const std::string r = Name("relu");
  Node("Relu", {x}, r);
  return Requantize(r, true);
}

std::string QdqModelBuilder::Input(const std::string& name, const std::vector<int64_t>& dims) {
  ValueInfo(graph_->add_input(), name, dims);
  return Requantize(name, false);
}

std::pair<std::string, std::string> QdqModelBuilder::Weights(const std::string& p,
                                                             const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  const int64_t cout = dims[0], fan_in = count / cout;
  // Trained weights are bell-shaped: each output channel's are normal,
  // quantized symmetrically as quantize_static does per channel (its
  // largest magnitude to 127), which leaves most of them small.
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int> bias(-127, 127);
  std::string bytes(static_cast<size_t>(count), '\0');
  std::vector<float> channel(static_cast<size_t>(fan_in));
  std::vector<float> w_scales(static_cast<size_t>(cout));
  for (int64_t o = 0; o < cout; ++o) {
    float max_abs = 1e-6f;
    for (float& v : channel) max_abs = std::max(max_abs, std::abs(v = normal(rng_)));
    for (int64_t i = 0; i < fan_in; ++i) {
      bytes[static_cast<size_t>(o * fan_in + i)] = static_cast<char>(std::lround(127.0f * channel[i] / max_abs));
    }
    // A scale that keeps an output's spread near its inputs' (He-style).
    w_scales[o] = max_abs / 127.0f * std::sqrt(2.0f / static_cast<float>(fan_in));
  }
  weight_bytes_ += count;
  Initializer(p + "w", onnx::TensorProto::INT8, dims)->set_raw_data(std::move(bytes));
  onnx::TensorProto* ws = Initializer(p + "w_scale", onnx::TensorProto::FLOAT, {cout});
  Initializer(p + "w_zp", onnx::TensorProto::INT8, {cout})
      ->set_raw_data(std::string(static_cast<size_t>(cout), '\0'));
  onnx::TensorProto* b = Initializer(p + "b", onnx::TensorProto::INT32, {cout});
  onnx::TensorProto* bs = Initializer(p + "b_scale", onnx::TensorProto::FLOAT, {cout});
  onnx::TensorProto* bz = Initializer(p + "b_zp", onnx::TensorProto::INT32, {cout});
  for (int64_t o = 0; o < cout; ++o) {
    ws->add_float_data(w_scales[o]);
    bs->add_float_data(w_scales[o] * kActScale);
    b->add_int32_data(bias(rng_) * 8);
    bz->add_int32_data(0);
  }
  Node("DequantizeLinear", {p + "w", p + "w_scale", p + "w_zp"}, p + "w_dq");
  Int(graph_->mutable_node(graph_->node_size() - 1), "axis", 0);
  Node("DequantizeLinear", {p + "b", p + "b_scale", p + "b_zp"}, p + "b_dq");
  Int(graph_->mutable_node(graph_->node_size() - 1), "axis", 0);
  return {p + "w_dq", p + "b_dq"};
}

std::string QdqModelBuilder::Conv(const std::string& x, int64_t cin, int64_t cout, int64_t k,
                                  int64_t stride, bool relu) {
  const std::string conv = Name("conv");
  const auto [w, b] = Weights(conv + "_", {cout, cin, k, k});
  onnx::NodeProto* n = Node("Conv", {x, w, b}, conv);
  Ints(n, "kernel_shape", {k, k});
  Ints(n, "pads", {k / 2, k / 2, k / 2, k / 2});
  Ints(n, "strides", {stride, stride});
  return MaybeReluQdq(conv, relu);
}

std::string QdqModelBuilder::Add(const std::string& a, const std::string& b, bool relu) {
  const std::string sum = Name("add");
  Node("Add", {a, b}, sum);
  return MaybeReluQdq(sum, relu);
}

std::string QdqModelBuilder::MaxPool(const std::string& x, int64_t k, int64_t stride,
                                     int64_t pad) {
  const std::string pool = Name("maxpool");
  onnx::NodeProto* n = Node("MaxPool", {x}, pool);
  Ints(n, "kernel_shape", {k, k});
  Ints(n, "pads", {pad, pad, pad, pad});
  Ints(n, "strides", {stride, stride});
  return Requantize(pool, true);
}

std::string QdqModelBuilder::GlobalAveragePool(const std::string& x) {
  const std::string pool = Name("gap");
  Node("GlobalAveragePool", {x}, pool);
  return Requantize(pool, true);
}

std::string QdqModelBuilder::Dense(const std::string& x, int64_t cin, int64_t cout) {
  const std::string flat = Name("flatten"), fc = Name("fc");
  Int(Node("Flatten", {x}, flat), "axis", 1);
  const std::string flat_dq = Requantize(flat, true);
  const auto [w, b] = Weights(fc + "_", {cout, cin});
  Int(Node("Gemm", {flat_dq, w, b}, fc), "transB", 1);
  return Requantize(fc, false);
}

void QdqModelBuilder::Output(const std::string& name, const std::vector<int64_t>& dims) {
  graph_->mutable_node(graph_->node_size() - 1)->set_output(0, name);
  ValueInfo(graph_->add_output(), name, dims);
}

bool WriteModel(const onnx::ModelProto& model, const std::string& path, const std::string& tool) {
  std::ofstream file(path, std::ios::binary);
  if (!model.SerializeToOstream(&file) || !file.flush()) {
    std::cerr << tool << ": cannot write '" << path << "'\n";
    return false;
  }
  return true;
}

}  // namespace qnnc::bench
