// Writes a QDQ-quantized ONNX model (bench/qdq_model_builder.h) of --layers
// 3x3 convolutions of --channels channels on a 1 x channels x --size x --size
// input, with pseudo-random weights from --seed: models whose weights grow by
// a known factor (channels x sqrt(2) doubles them), for timing compile
// against weight size (bench/compile_scaling.sh).
//
//   scaled_conv_model --channels=C [--layers=8] [--size=28] [--seed=1] --out=PATH
#include <cstdint>
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "bench/qdq_model_builder.h"

ABSL_FLAG(int, channels, 128, "input and output channels of every convolution");
ABSL_FLAG(int, layers, 8, "3x3 convolutions in sequence");
ABSL_FLAG(int, size, 28, "input height and width");
ABSL_FLAG(int, seed, 1, "seed of the weights");
ABSL_FLAG(std::string, out, "", "the .onnx file to write");

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const int64_t c = absl::GetFlag(FLAGS_channels), layers = absl::GetFlag(FLAGS_layers),
                size = absl::GetFlag(FLAGS_size);
  const std::string out = absl::GetFlag(FLAGS_out);
  if (c < 1 || c > 4096 || layers < 1 || layers > 1000 || size < 1 || size > 4096 || out.empty()) {
    std::cerr << "scaled_conv_model: need --channels in 1..4096, --layers in 1..1000, --size in "
                 "1..4096 and --out=PATH\n";
    return 2;
  }
  qnnc::bench::QdqModelBuilder b(absl::StrCat("conv", layers, "x", c),
                                 static_cast<uint32_t>(absl::GetFlag(FLAGS_seed)));
  std::string x = b.Input("input", {1, c, size, size});
  for (int i = 0; i < layers; ++i) x = b.Conv(x, c, c, 3, 1, /*relu=*/false);
  b.Output("output", {1, c, size, size});
  return qnnc::bench::WriteModel(b.model(), out, "scaled_conv_model") ? 0 : 2;
}
