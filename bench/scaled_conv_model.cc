// Writes a QDQ-quantized ONNX model, as ONNX Runtime's quantize_static
// writes them (u8 activations, per-channel int8 weights, int32 biases behind
// DequantizeLinear), of --layers 3x3 convolutions of --channels channels on a
// 1 x channels x --size x --size input, with pseudo-random weights from
// --seed: models whose weights grow by a known factor (channels x sqrt(2)
// doubles them), for timing compile against weight size
// (bench/compile_scaling.sh).
//
//   scaled_conv_model --channels=C [--layers=8] [--size=28] [--seed=1] --out=PATH
#include <cstdint>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "onnx/onnx_pb.h"

ABSL_FLAG(int, channels, 128, "input and output channels of every convolution");
ABSL_FLAG(int, layers, 8, "3x3 convolutions in sequence");
ABSL_FLAG(int, size, 28, "input height and width");
ABSL_FLAG(int, seed, 1, "seed of the weights");
ABSL_FLAG(std::string, out, "", "the .onnx file to write");

namespace {

onnx::TensorProto* Initializer(onnx::GraphProto* g, const std::string& name, int type,
                               const std::vector<int64_t>& dims) {
  onnx::TensorProto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(type);
  for (int64_t d : dims) t->add_dims(d);
  return t;
}

void Node(onnx::GraphProto* g, const std::string& op, const std::vector<std::string>& ins,
          const std::string& out, int axis = -1) {
  onnx::NodeProto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(out);
  for (const std::string& in : ins) n->add_input(in);
  n->add_output(out);
  if (axis >= 0) {
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name("axis");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(axis);
  }
  if (op == "Conv") {
    onnx::AttributeProto* k = n->add_attribute();
    k->set_name("pads");
    k->set_type(onnx::AttributeProto::INTS);
    for (int i = 0; i < 4; ++i) k->add_ints(1);
  }
}

void ValueInfo(onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims) {
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

// One layer: the activation `x` (quantized with `x_scale`) through a 3x3
// convolution to a quantized activation; returns the DequantizeLinear's output.
std::string Layer(onnx::GraphProto* g, const std::string& x, int i, int64_t c, float x_scale,
                  std::mt19937& rng) {
  const std::string p = absl::StrCat("l", i, "_");
  std::uniform_int_distribution<int> weight(-127, 127);
  std::uniform_real_distribution<float> w_scale(0.0005f, 0.002f);
  onnx::TensorProto* w = Initializer(g, p + "w", onnx::TensorProto::INT8, {c, c, 3, 3});
  std::string bytes(static_cast<size_t>(c * c * 9), '\0');
  for (char& b : bytes) b = static_cast<char>(weight(rng));
  w->set_raw_data(bytes);
  onnx::TensorProto* ws = Initializer(g, p + "w_scale", onnx::TensorProto::FLOAT, {c});
  onnx::TensorProto* wz = Initializer(g, p + "w_zp", onnx::TensorProto::INT8, {c});
  onnx::TensorProto* b = Initializer(g, p + "b", onnx::TensorProto::INT32, {c});
  onnx::TensorProto* bs = Initializer(g, p + "b_scale", onnx::TensorProto::FLOAT, {c});
  onnx::TensorProto* bz = Initializer(g, p + "b_zp", onnx::TensorProto::INT32, {c});
  wz->set_raw_data(std::string(static_cast<size_t>(c), '\0'));
  for (int64_t o = 0; o < c; ++o) {
    const float s = w_scale(rng);
    ws->add_float_data(s);
    bs->add_float_data(s * x_scale);
    b->add_int32_data(static_cast<int32_t>(weight(rng)) * 8);
    bz->add_int32_data(0);
  }
  Node(g, "DequantizeLinear", {p + "w", p + "w_scale", p + "w_zp"}, p + "w_dq", 0);
  Node(g, "DequantizeLinear", {p + "b", p + "b_scale", p + "b_zp"}, p + "b_dq", 0);
  Node(g, "Conv", {x, p + "w_dq", p + "b_dq"}, p + "conv");
  Node(g, "QuantizeLinear", {p + "conv", "act_scale", "act_zp"}, p + "q");
  Node(g, "DequantizeLinear", {p + "q", "act_scale", "act_zp"}, p + "dq");
  return p + "dq";
}

int Main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const int64_t c = absl::GetFlag(FLAGS_channels), layers = absl::GetFlag(FLAGS_layers),
                size = absl::GetFlag(FLAGS_size);
  const std::string out = absl::GetFlag(FLAGS_out);
  if (c < 1 || c > 4096 || layers < 1 || layers > 1000 || size < 1 || size > 4096 || out.empty()) {
    std::cerr << "scaled_conv_model: need --channels in 1..4096, --layers in 1..1000, --size in "
                 "1..4096 and --out=PATH\n";
    return 2;
  }
  onnx::ModelProto model;
  model.set_ir_version(7);
  model.add_opset_import()->set_version(13);
  model.set_producer_name("qnnc scaled_conv_model");
  onnx::GraphProto* g = model.mutable_graph();
  g->set_name(absl::StrCat("conv", layers, "x", c));
  ValueInfo(g->add_input(), "input", {1, c, size, size});
  constexpr float kActScale = 0.02f;
  Initializer(g, "act_scale", onnx::TensorProto::FLOAT, {})->add_float_data(kActScale);
  Initializer(g, "act_zp", onnx::TensorProto::UINT8, {})->set_raw_data(std::string(1, '\x80'));
  Node(g, "QuantizeLinear", {"input", "act_scale", "act_zp"}, "input_q");
  Node(g, "DequantizeLinear", {"input_q", "act_scale", "act_zp"}, "input_dq");
  std::mt19937 rng(static_cast<uint32_t>(absl::GetFlag(FLAGS_seed)));
  std::string x = "input_dq";
  for (int i = 0; i < layers; ++i) x = Layer(g, x, i, c, kActScale, rng);
  g->mutable_node(g->node_size() - 1)->set_output(0, "output");
  ValueInfo(g->add_output(), "output", {1, c, size, size});
  std::ofstream file(out, std::ios::binary);
  if (!model.SerializeToOstream(&file) || !file.flush()) {
    std::cerr << "scaled_conv_model: cannot write '" << out << "'\n";
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
