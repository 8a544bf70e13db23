// Compiles a quantized ONNX model with qnnc's session API, runs it on a raw
// f32 input file and checks the first output against a raw f32 file, bit for
// bit (qnnc's kernels are exact: the same output on every host).
// Usage: run_model MODEL.onnx INPUT.f32 EXPECTED.f32
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "qnnc/session.h"

namespace {

bool ReadInto(const std::string& path, qnnc::tensor::Tensor& t) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return false;
  if (bytes.size() != t.byte_size()) {
    std::cerr << "error: '" << path << "' has " << bytes.size() << " bytes, want " << t.byte_size() << "\n";
    return false;
  }
  std::memcpy(t.raw_data(), bytes.data(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: run_model MODEL.onnx INPUT.f32 EXPECTED.f32\n";
    return 2;
  }
  qnnc::SessionOptions options;
  options.threads = 2;
  auto session = qnnc::Session::Compile(argv[1], options);
  if (!session.ok()) {
    std::cerr << "error: " << session.status().message() << "\n";
    return 2;
  }
  const qnnc::TensorInfo& in = (*session)->inputs()[0];
  const qnnc::TensorInfo& out = (*session)->outputs()[0];
  qnnc::tensor::Tensor input = qnnc::tensor::Tensor::Zeros(in.dtype, in.shape);
  qnnc::tensor::Tensor expected = qnnc::tensor::Tensor::Zeros(out.dtype, out.shape);
  if (!ReadInto(argv[2], input) || !ReadInto(argv[3], expected)) return 2;
  auto outputs = (*session)->Run({{in.name, input}});
  if (!outputs.ok()) {
    std::cerr << "error: " << outputs.status().message() << "\n";
    return 2;
  }
  const bool match = (*outputs)[0].BitwiseEquals(expected);
  std::cout << "compiled for " << (*session)->target() << ", ran '" << in.name << "' -> '"
            << out.name << "': " << (match ? "matches" : "DIFFERS FROM") << " " << argv[3] << "\n";
  return match ? 0 : 1;
}
