#include "target/arm/arm_cost_model.h"

#include <cstdint>

#include "absl/strings/str_cat.h"

namespace qnnc::target {
namespace {

// A row of the table.
struct ArmLoopCost {
  const char* core;
  const char* loop;
  int macs;       // multiply-accumulates per iteration
  double cycles;  // llvm-mca-19 steady-state cycles per iteration
};

constexpr ArmLoopCost kLoopCosts[] = {
#include "target/arm/arm_loop_costs.inc"
};

const ArmLoopCost* Find(const std::string& core, const std::string& loop) {
  for (const ArmLoopCost& c : kLoopCosts) {
    if (core == c.core && loop == c.loop) return &c;
  }
  return nullptr;
}

bool HasCore(const std::string& core) {
  for (const ArmLoopCost& c : kLoopCosts) {
    if (core == c.core) return true;
  }
  return false;
}

int64_t RoundUp(int64_t v, int64_t m) { return m > 0 ? (v + m - 1) / m * m : v; }

int64_t KnobValue(const Config& config, const char* name) {
  auto it = config.find(name);
  return it == config.end() ? 0 : it->second;
}

// A convolution's sizes, from its NCHW data, OIHW weight and NCHW output.
struct ConvSizes {
  int64_t n, in_channels, out_channels, out_h, out_w, kh, kw, groups;
  bool depthwise;
};

std::optional<ConvSizes> SizesOf(const Workload& w) {
  if (w.op != "qnn.conv2d" || !w.data_layout.is_nchw() || w.kernel_layout != ir::Layout::Oihw()) return std::nullopt;
  const auto& d = w.data.shape;
  const auto& k = w.weight.shape;
  const auto& o = w.output.shape;
  if (d.size() != 4 || k.size() != 4 || o.size() != 4 || w.groups < 1) return std::nullopt;
  ConvSizes s{o[0], d[1], o[1], o[2], o[3], k[2], k[3], w.groups, false};
  s.depthwise = w.groups == s.in_channels && k[1] == 1;
  return s;
}

// The input channel block the u8 x s8 kernels read (NCHW4c or NCHW16c).
int64_t U8S8ChannelBlock(const ConvSizes& s) { return s.in_channels / s.groups <= 4 ? 4 : 16; }

}  // namespace

std::string ArmCostCore(const Target& target) {
  if (HasCore(target.model)) return target.model;
  if (target.Has(Feature::kI8mm)) return "neoverse-v1";
  if (target.Has(Feature::kDotprod)) return "neoverse-n1";
  return "cortex-a55";
}

std::string ArmLoop(ArmKernel kernel, const Workload& workload, const Config& config) {
  const std::optional<ConvSizes> s = SizesOf(workload);
  if (!s) return "";
  if (s->depthwise) {
    if (kernel == ArmKernel::kInt16) {
      // 16 pixels a load at stride 1 or 2; other strides have no loop here.
      if (workload.strides.size() != 2 || workload.strides[1] > 2) return "";
      return workload.strides[1] == 1 ? "int16 depthwise" : "int16 depthwise strided";
    }
    if (s->kh == s->kw && (s->kh == 3 || s->kh == 5)) return absl::StrCat("smlal depthwise ", s->kh, "x", s->kw);
    return "";
  }
  const std::string tile = absl::StrCat(KnobValue(config, "tile_co"), "x", KnobValue(config, "tile_ow"));
  if (kernel == ArmKernel::kInt16) {
    // A row's pixels are one load at stride 1, gathered at any other.
    const bool unit_stride = workload.strides.size() == 2 && workload.strides[1] == 1;
    return absl::StrCat("int16 dense ", tile, unit_stride ? "" : " strided");
  }
  const int64_t block = U8S8ChannelBlock(*s);
  const char* instruction = kernel == ArmKernel::kDotprod ? "sdot" : block == 16 ? "usmmla" : "sudot";
  return absl::StrCat(instruction, " ", tile, " c", block);
}

std::optional<double> ArmConvCycles(ArmKernel kernel, const Workload& workload, const Target& target,
                                    const Config& config) {
  const std::string loop = ArmLoop(kernel, workload, config);
  const ArmLoopCost* cost = loop.empty() ? nullptr : Find(ArmCostCore(target), loop);
  if (cost == nullptr) return std::nullopt;
  const ConvSizes s = *SizesOf(workload);
  double macs;
  if (s.depthwise) {
    macs = static_cast<double>(s.n * s.out_h * s.out_w) * s.out_channels * s.kh * s.kw;
  } else {
    // The tiles' padding: output channels (per group) up to tile_co, each
    // row's pixels up to tile_ow, and for the u8 x s8 kernels the input
    // channels up to their block.
    const int64_t co = RoundUp(s.out_channels / s.groups, KnobValue(config, "tile_co"));
    const int64_t ow = RoundUp(s.out_w, KnobValue(config, "tile_ow"));
    const int64_t ci = s.in_channels / s.groups;
    const int64_t ci_padded = kernel == ArmKernel::kInt16 ? ci : RoundUp(ci, U8S8ChannelBlock(s));
    macs = static_cast<double>(s.n * s.out_h * ow) * s.groups * co * ci_padded * s.kh * s.kw;
  }
  return macs * cost->cycles / cost->macs;
}

}  // namespace qnnc::target
