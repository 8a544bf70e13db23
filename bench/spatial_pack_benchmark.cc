// The layer suite (bench/layer_suite.h) on the spatial-pack kernels.
// Counters per benchmark: ms (median time of one run; best_ms the fastest
// run, robust to other load on the machine), GOPS
// (2 * N * K * C/groups * R * S * OH * OW / time) and pct_peak: percent of
// the peak of the threads used at the kernel's instruction set
// (bench::kPeakGopsPerCore, kAvx2PeakGopsPerCore for the AVX2 kernels).
//
// Names: <layer>/<impl>[/<config>][/weights:trained]/threads:<t>.
// `--benchmark_filter` selects.
//
// The AVX2 vpmaddubsw kernel (u8s8.avx2) runs on weights whose pairs all
// fit (in [-64, 64]: the suite's own terms, docs/benchmarks.md), and again, on
// dense layers, with weights shaped like trained ones ("weights:trained":
// per output channel Gaussian, scaled to reach 127, and the input plane
// known, as in a model): there it reorders, flips and corrects as on
// ResNet-18 (r50_c2_3x3: about 6.5% of half steps corrected, as ResNet-18's
// 64 -> 64 layers), and the label says how much.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "bench/iteration_times.h"
#include "bench/layer_suite.h"
#include "kernels/spatial_pack/conv2d.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::spatial_pack {
namespace {

using tensor::DType;
using tensor::Tensor;

using qnnc::bench::kPeakGopsPerCore;
using qnnc::bench::Layer;

// The suite, plus r50_c2_3x3 on an input the producer already padded (not
// in the suite: it shows what the kernel's own padding copy costs) and
// ResNet-18's first stride-2 3x3 (64 -> 128 at 56x56: with trained weights
// u8s8.avx2 copies its input per order for a quarter of the products of a
// stride-1 layer, the costliest case of its copies).
std::vector<Layer> Layers() {
  std::vector<Layer> layers(std::begin(qnnc::bench::kLayerSuite),
                            std::end(qnnc::bench::kLayerSuite));
  layers.push_back({"r50_c2_3x3_prepadded", 64, 58, 58, 64, 3, 1, 0, 1});
  layers.push_back({"r18_l2_3x3_s2", 64, 56, 56, 128, 3, 2, 1, 1});
  return layers;
}

QuantizedConvParams Params(const Layer& l, bool int16) {
  QuantizedConvParams p;
  p.in_channels = l.c;
  p.out_channels = l.k;
  p.groups = l.groups;
  p.kernel_h = p.kernel_w = l.kernel;
  p.strides = {l.stride, l.stride};
  p.pads = {l.pad, l.pad, l.pad, l.pad};
  p.input_zero_point = int16 ? 0 : 128;
  p.bias.assign(l.k, 1000);
  p.requant_multiplier.assign(l.k, 0.0007f);
  p.output_zero_point = 120;
  p.out_dtype = DType::kU8;
  return p;
}

pthreadpool_t Pool(int threads) {
  static pthreadpool_t pool2 = pthreadpool_create(2);
  return threads == 1 ? nullptr : pool2;
}

void Run(benchmark::State& state, const Layer& l, bool int16, Isa isa, KnobMap config,
         int threads, Arithmetic arith = Arithmetic::kMaddubs, bool trained = false) {
  QuantizedConvParams p = Params(l, int16);
  if (trained) p.in_height = l.h, p.in_width = l.w;  // the kernel's orders as in a model
  std::mt19937 rng(7);
  const int64_t wn = l.k * (l.c / l.groups) * l.kernel * l.kernel;
  Tensor w = Tensor::Zeros(int16 ? DType::kI16 : DType::kI8, {l.k, l.c / l.groups, l.kernel, l.kernel});
  // vpmaddubsw (AVX2 kMaddubs) takes only weights whose pairs fit: there,
  // weights in [-64, 64]; elsewhere the full range.
  const bool small = isa == Isa::kAvx2 && arith == Arithmetic::kMaddubs && !int16;
  for (int64_t i = 0; i < wn; ++i) {
    const int v = small ? static_cast<int>(rng() % 129) - 64 : static_cast<int>(rng() % 255) - 127;
    if (int16) w.data<int16_t>()[i] = v; else w.data<int8_t>()[i] = v;
  }
  if (trained) {
    std::normal_distribution<double> normal;
    const int64_t per_oc = wn / l.k;
    std::vector<double> v(per_oc);
    for (int64_t o = 0; o < l.k; ++o) {
      double largest = 0;
      for (double& x : v) x = normal(rng), largest = std::max(largest, std::abs(x));
      for (int64_t i = 0; i < per_oc; ++i) {
        w.data<int8_t>()[o * per_oc + i] = static_cast<int8_t>(std::lround(v[i] / largest * 127));
      }
    }
  }
  auto kernel = int16 ? Conv2DKernel::CreateInt16(w, p, config)
                      : Conv2DKernel::CreateU8S8(w, p, config, isa, arith);
  if (!kernel.ok()) {
    state.SkipWithError(std::string(kernel.status().message()).c_str());
    return;
  }
  Tensor x;
  if (int16) {
    x = Tensor::Zeros(DType::kI16, {1, l.c, l.h, l.w});
    for (int64_t i = 0; i < x.num_elements(); ++i) x.data<int16_t>()[i] = (rng() & 255) - 128;
  } else {
    const int64_t block = (*kernel)->input_layout() == "NCHW4c" ? 4 : 16;
    x = Tensor::Zeros(DType::kU8, {1, (l.c + block - 1) / block, l.h, l.w, block});
    for (int64_t i = 0; i < x.num_elements(); ++i) x.data<uint8_t>()[i] = rng() & 255;
  }
  Tensor y;
  pthreadpool_t pool = Pool(threads);
  if (!(*kernel)->Run(x, &y, pool).ok()) {
    state.SkipWithError("run failed");
    return;
  }
  const int64_t oh = (l.h + 2 * l.pad - l.kernel) / l.stride + 1;
  const int64_t ow = (l.w + 2 * l.pad - l.kernel) / l.stride + 1;
  const double ops = 2.0 * l.k * (l.c / l.groups) * l.kernel * l.kernel * oh * ow;
  const double median = qnnc::bench::TimeIterations(state, [&] {
    auto s = (*kernel)->Run(x, &y, pool);
    benchmark::DoNotOptimize(s);
  });
  state.counters["GOPS"] = ops / median / 1e9;
  const double peak = isa == Isa::kAvx2      ? qnnc::bench::kAvx2PeakGopsPerCore
                      : isa == Isa::kAvxvnni ? qnnc::bench::kAvxVnniPeakGopsPerCore
                                             : kPeakGopsPerCore;
  state.counters["pct_peak"] = 100.0 * ops / median / 1e9 / (peak * threads);
  state.counters["best_GOPS"] = ops / (state.counters["best_ms"] / 1e3) / 1e9;
  state.SetLabel((*kernel)->description());
}

bool RegisterAll() {
  for (const Layer& l : Layers()) {
    for (int threads : {1, 2}) {
      auto add = [&](const std::string& impl, bool int16, Isa isa, KnobMap config,
                     Arithmetic arith = Arithmetic::kMaddubs, bool trained = false) {
        std::string name = std::string(l.name) + "/" + impl;
        for (const auto& [k, v] : config) name += "/" + k + ":" + std::to_string(v);
        if (trained) name += "/weights:trained";
        name += "/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
          Run(st, l, int16, isa, config, threads, arith, trained);
        })->UseRealTime()->Unit(benchmark::kMillisecond);
      };
      // Every u8s8 variant this host runs (kU8S8Variants; madd16 on dense
      // layers), default config; at one thread the whole tile space of each
      // on dense layers (the tuning view).
      for (const U8S8Variant& v : kU8S8Variants) {
        if (!IsaSupported(v.isa) || v.isa == Isa::kScalar) continue;
        if (v.arith == Arithmetic::kMadd16 && l.groups != 1) continue;
        if (!VariantApplies(v, l.groups > 1 && l.groups == l.c)) continue;
        add(v.name, false, v.isa, {}, v.arith);
        if (v.isa == Isa::kAvx2 && v.arith == Arithmetic::kMaddubs && l.groups == 1 && l.c > 4) {
          add(v.name, false, v.isa, {}, v.arith, /*trained=*/true);
        }
        if (threads != 1 || l.groups != 1) continue;
        const KnobSpace space = ConfigSpaceU8S8(v.isa, v.arith);
        for (int64_t co : space.at("tile_co")) {
          for (int64_t ow : space.at("tile_ow")) {
            add(v.name, false, v.isa, {{"tile_co", co}, {"tile_ow", ow}}, v.arith);
          }
        }
      }
      add("int16", true, Isa::kScalar, {});
    }
  }
  return true;
}

const bool registered = RegisterAll();

}  // namespace
}  // namespace qnnc::kernels::spatial_pack
