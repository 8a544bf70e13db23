// Times every convolution of MobileNetV2 (224x224, about 300M MACs), f32 and
// quantized u8 x i8, serial. Run: bazel run -c opt //kernels/reference:conv2d_benchmark
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "kernels/reference/conv2d.h"

namespace qnnc::kernels::reference {
namespace {

using tensor::DType;
using tensor::Tensor;

struct Layer {
  int64_t in_c, out_c, size, kernel, stride, groups;
};

std::vector<Layer> MobileNetV2Layers() {
  std::vector<Layer> layers = {{3, 32, 224, 3, 2, 1}};
  int64_t c = 32, size = 112;
  const int64_t blocks[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  for (const auto& b : blocks) {
    for (int64_t i = 0; i < b[2]; ++i) {
      const int64_t stride = i == 0 ? b[3] : 1, hidden = c * b[0];
      if (b[0] != 1) layers.push_back({c, hidden, size, 1, 1, 1});
      layers.push_back({hidden, hidden, size, 3, stride, hidden});
      size /= stride;
      layers.push_back({hidden, b[1], size, 1, 1, 1});
      c = b[1];
    }
  }
  layers.push_back({c, 1280, size, 1, 1, 1});
  return layers;
}

void BM_MobileNetV2(benchmark::State& state, bool quantized) {
  struct Case {
    Tensor data, weight;
    Conv2DParams params;
  };
  std::vector<Case> cases;
  int64_t macs = 0;
  for (const Layer& l : MobileNetV2Layers()) {
    Case c;
    const DType dt = quantized ? DType::kU8 : DType::kF32;
    c.data = Tensor::Zeros(dt, {1, l.in_c, l.size, l.size});
    c.weight = Tensor::Zeros(quantized ? DType::kI8 : DType::kF32,
                             {l.out_c, l.in_c / l.groups, l.kernel, l.kernel});
    const int64_t pad = l.kernel / 2;
    c.params.strides = {l.stride, l.stride};
    c.params.pads = {pad, pad, pad, pad};
    c.params.groups = l.groups;
    c.params.out_dtype = quantized ? DType::kI32 : DType::kF32;
    const int64_t out = (l.size + 2 * pad - l.kernel) / l.stride + 1;
    macs += out * out * l.out_c * (l.in_c / l.groups) * l.kernel * l.kernel;
    cases.push_back(std::move(c));
  }
  const Tensor zx = Tensor::Scalar<uint8_t>(128), zw = Tensor::Scalar<int8_t>(0);
  for (auto _ : state) {
    for (const Case& c : cases) {
      auto out = quantized ? QnnConv2D(c.data, c.weight, zx, zw, c.params)
                           : Conv2D(c.data, c.weight, c.params);
      benchmark::DoNotOptimize(out);
    }
  }
  state.counters["MACs"] = static_cast<double>(macs);
}

BENCHMARK_CAPTURE(BM_MobileNetV2, f32, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MobileNetV2, u8_i8, true)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace qnnc::kernels::reference
