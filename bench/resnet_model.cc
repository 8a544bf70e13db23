// Writes a QDQ-quantized ResNet (bench/qdq_model_builder.h) of torchvision's
// layout, with pseudo-random weights from --seed: --depth=50 (bottleneck
// blocks 3-4-6-3, 25.5 M weights), or 18 / 34 (basic blocks), on a
// 1 x 3 x --size x --size input, 1000 classes. For deployment and tuning
// benchmarks on the model families users quantize (bench/deploy_cost.sh,
// bench/tuned.sh) without a model download.
//
//   resnet_model [--depth=50] [--size=224] [--seed=1] --out=PATH
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "bench/qdq_model_builder.h"

ABSL_FLAG(int, depth, 50, "18, 34 or 50");
ABSL_FLAG(int, size, 224, "input height and width");
ABSL_FLAG(int, seed, 1, "seed of the weights");
ABSL_FLAG(std::string, out, "", "the .onnx file to write");

namespace {

using qnnc::bench::QdqModelBuilder;

// torchvision's BasicBlock: two 3x3 convolutions beside the shortcut.
std::string Basic(QdqModelBuilder& b, const std::string& x, int64_t cin, int64_t width,
                  int64_t stride) {
  std::string y = b.Conv(x, cin, width, 3, stride, true);
  y = b.Conv(y, width, width, 3, 1, false);
  const std::string shortcut =
      (stride != 1 || cin != width) ? b.Conv(x, cin, width, 1, stride, false) : x;
  return b.Add(y, shortcut, true);
}

// torchvision's Bottleneck (v1.5: the stride on the 3x3): 1x1 down to
// `width`, 3x3, 1x1 up to 4 x width.
std::string Bottleneck(QdqModelBuilder& b, const std::string& x, int64_t cin, int64_t width,
                       int64_t stride) {
  const int64_t cout = 4 * width;
  std::string y = b.Conv(x, cin, width, 1, 1, true);
  y = b.Conv(y, width, width, 3, stride, true);
  y = b.Conv(y, width, cout, 1, 1, false);
  const std::string shortcut =
      (stride != 1 || cin != cout) ? b.Conv(x, cin, cout, 1, stride, false) : x;
  return b.Add(y, shortcut, true);
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const int depth = absl::GetFlag(FLAGS_depth);
  const int64_t size = absl::GetFlag(FLAGS_size);
  const std::string out = absl::GetFlag(FLAGS_out);
  if ((depth != 18 && depth != 34 && depth != 50) || size < 32 || size > 4096 || out.empty()) {
    std::cerr << "resnet_model: need --depth of 18, 34 or 50, --size in 32..4096 and --out=PATH\n";
    return 2;
  }
  const std::vector<int> blocks =
      depth == 18 ? std::vector<int>{2, 2, 2, 2} : std::vector<int>{3, 4, 6, 3};
  const bool bottleneck = depth == 50;
  QdqModelBuilder b(absl::StrCat("resnet", depth),
                    static_cast<uint32_t>(absl::GetFlag(FLAGS_seed)));
  std::string x = b.Input("input", {1, 3, size, size});
  x = b.Conv(x, 3, 64, 7, 2, true);
  x = b.MaxPool(x, 3, 2, 1);
  int64_t channels = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t width = int64_t{64} << stage;
    for (int i = 0; i < blocks[stage]; ++i) {
      const int64_t stride = (stage > 0 && i == 0) ? 2 : 1;
      x = bottleneck ? Bottleneck(b, x, channels, width, stride)
                     : Basic(b, x, channels, width, stride);
      channels = bottleneck ? 4 * width : width;
    }
  }
  x = b.GlobalAveragePool(x);
  b.Dense(x, channels, 1000);
  b.Output("output", {1, 1000});
  std::cerr << "resnet_model: ResNet-" << depth << ", " << b.weight_bytes() << " bytes of weights\n";
  return qnnc::bench::WriteModel(b.model(), out, "resnet_model") ? 0 : 2;
}
