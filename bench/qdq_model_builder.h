// Builds QDQ-quantized ONNX models the way ONNX Runtime's quantize_static
// and torch's QDQ export write them: u8 activations behind QuantizeLinear/DequantizeLinear pairs,
// per-channel int8 weights and int32 biases behind DequantizeLinear, every
// float op (Conv, Relu, Add, pools, Gemm) between a DQ and a Q. Weights are
// pseudo-random from a seed, normal per output channel and quantized as
// trained weights are, scaled by their fan-in so that activations stay in
// range through deep networks. For the bench generators
// (//bench:scaled_conv_model, //bench:resnet_model).
#ifndef QNNC_BENCH_QDQ_MODEL_BUILDER_H_
#define QNNC_BENCH_QDQ_MODEL_BUILDER_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace qnnc::bench {

class QdqModelBuilder {
 public:
  QdqModelBuilder(const std::string& graph_name, uint32_t seed);

  // The float input `name` of `dims`, quantized (zero point 128) and
  // dequantized; returns the DequantizeLinear's output.
  std::string Input(const std::string& name, const std::vector<int64_t>& dims);
  // A k x k convolution of `x` (cin channels) to cout channels, quantized;
  // with `relu` through Relu before the QuantizeLinear (zero point 0), as
  // torch's QDQ export writes a fused Conv+ReLU.
  std::string Conv(const std::string& x, int64_t cin, int64_t cout, int64_t k, int64_t stride,
                   bool relu);
  // a + b, quantized; with `relu` then through Relu as Conv does.
  std::string Add(const std::string& a, const std::string& b, bool relu);
  std::string MaxPool(const std::string& x, int64_t k, int64_t stride, int64_t pad);
  std::string GlobalAveragePool(const std::string& x);
  // Flatten (of a Relu's range), then a fully connected layer (Gemm,
  // weights [cout, cin]).
  std::string Dense(const std::string& x, int64_t cin, int64_t cout);
  // Renames the last node's output to `name` and declares it a float output.
  void Output(const std::string& name, const std::vector<int64_t>& dims);

  const onnx::ModelProto& model() const { return model_; }
  // Bytes of int8 weights added so far.
  int64_t weight_bytes() const { return weight_bytes_; }

 private:
  std::string Name(const std::string& kind);
  onnx::TensorProto* Initializer(const std::string& name, int type,
                                 const std::vector<int64_t>& dims);
  onnx::NodeProto* Node(const std::string& op, const std::vector<std::string>& ins,
                        const std::string& out);
  // QuantizeLinear then DequantizeLinear of `x` at the activation scale;
  // `relu_range` picks zero point 0 (a Relu's output) over 128.
  std::string Requantize(const std::string& x, bool relu_range);
  // `x` quantized and dequantized, through Relu first if `relu`.
  std::string MaybeReluQdq(const std::string& x, bool relu);
  // Per-output-channel int8 weights of `dims` (dims[0] channels) and an
  // int32 bias, each behind DequantizeLinear; returns their DQ outputs.
  std::pair<std::string, std::string> Weights(const std::string& p, const std::vector<int64_t>& dims);

  onnx::ModelProto model_;
  onnx::GraphProto* graph_;
  std::mt19937 rng_;
  int nodes_ = 0;
  int64_t weight_bytes_ = 0;
};

// Writes `model` to `path`; false (with a message on stderr naming `tool`)
// when it cannot.
bool WriteModel(const onnx::ModelProto& model, const std::string& path, const std::string& tool);

}  // namespace qnnc::bench

#endif  // QNNC_BENCH_QDQ_MODEL_BUILDER_H_
