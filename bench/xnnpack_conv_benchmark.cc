// The layer suite (bench/layer_suite.h) through the XNNPACK convolution
// operators (qs8 and qu8, 1 and 2 threads). Reports the median wall time of
// one run (counter ms, bench/iteration_times.h),
// GOPS = 2 * N * K * (C / groups) * R * S * OH * OW / that time, and
// pct_peak, its percent of the VNNI limit of the threads used.
// Run: bazel run -c opt //bench:xnnpack_conv_benchmark
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "bench/iteration_times.h"
#include "bench/layer_suite.h"
#include "kernels/xnnpack/conv2d.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc {
namespace {

using kernels::xnnpack::Conv2D;
using kernels::xnnpack::ConvParams;
using kernels::xnnpack::Variant;
using tensor::DType;
using tensor::Tensor;

using qnnc::bench::Layer;

Tensor Random(DType dtype, tensor::Shape shape, std::mt19937& rng) {
  Tensor t = Tensor::Zeros(dtype, std::move(shape));
  std::uniform_int_distribution<int> dist(0, 255);
  uint8_t* p = static_cast<uint8_t*>(t.raw_data());
  for (size_t i = 0; i < t.byte_size(); ++i) p[i] = static_cast<uint8_t>(dist(rng));
  return t;
}

void BM_Conv(benchmark::State& state, Layer l, Variant variant, int threads) {
  const bool u8 = variant == Variant::kQu8;
  const DType dtype = u8 ? DType::kU8 : DType::kI8;
  ConvParams p;
  p.kernel_h = p.kernel_w = l.kernel;
  p.strides = {l.stride, l.stride};
  p.pads = {l.pad, l.pad, l.pad, l.pad};
  p.groups = l.groups;
  p.group_input_channels = l.c / l.groups;
  p.group_output_channels = l.k / l.groups;
  p.input_zero_point = u8 ? 128 : 0;
  p.kernel_zero_point = u8 ? 128 : 0;
  p.output_zero_point = u8 ? 128 : 0;
  p.input_scale = 0.02f;
  p.kernel_scale = {0.005f};
  p.output_scale = 0.5f;
  std::mt19937 rng(7);
  Tensor weight = Random(dtype, {l.k, l.c / l.groups, l.kernel, l.kernel}, rng);
  Tensor bias = Tensor::Zeros(DType::kI32, {l.k});
  Tensor input = Random(dtype, {1, l.h, l.w, l.c}, rng);
  auto conv = Conv2D::Create(variant, p, weight, bias);
  if (!conv.ok()) {
    state.SkipWithError(conv.status().ToString().c_str());
    return;
  }
  pthreadpool_t pool = threads > 1 ? pthreadpool_create(threads) : nullptr;
  Tensor out;
  if (absl::Status s = (*conv)->Run(input, &out, pool); !s.ok()) {
    state.SkipWithError(s.ToString().c_str());
  } else {
    const double median = qnnc::bench::TimeIterations(state, [&] {
      (void)(*conv)->Run(input, &out, pool);
      benchmark::ClobberMemory();
    });
    const double ops = 2.0 * l.k * (l.c / l.groups) * l.kernel * l.kernel * out.dim(1) * out.dim(2);
    state.counters["GOPS"] = ops / median / 1e9;
    state.counters["pct_peak"] =
        100.0 * ops / median / 1e9 / (qnnc::bench::kPeakGopsPerCore * threads);
  }
  if (pool != nullptr) pthreadpool_destroy(pool);
}

void RegisterAll() {
  for (const Layer& l : qnnc::bench::kLayerSuite) {
    for (Variant v : {Variant::kQs8, Variant::kQu8}) {
      for (int threads : {1, 2}) {
        const std::string name = std::string(l.name) + "/" +
                                 (v == Variant::kQs8 ? "qs8" : "qu8") + "/threads:" +
                                 std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(), BM_Conv, l, v, threads)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
}

}  // namespace
}  // namespace qnnc

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  qnnc::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
