// A tuning workload: a quantized op as the model states it, before any
// legalization (invariant 2 of docs/DESIGN.md). All implementations of one
// workload are compared with each other, whatever legalization each needs.
#ifndef QNNC_TARGET_WORKLOAD_H_
#define QNNC_TARGET_WORKLOAD_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/layout.h"
#include "ir/types.h"

namespace qnnc::target {

// The weight pairs of the AVX2 vpmaddubsw kernel for a convolution's w - zw.
struct WeightPairs {
  // The largest magnitude a pair of input channels (2m, 2m+1) adds in
  // vpmaddubsw's int16 sum (kernels/spatial_pack MaxWeightPairSum).
  int64_t max_pair_sum = 0;
  // The share of its half steps (8 output channels x 4 input channels x one
  // tap) that hold a pair that could saturate, in the channel order it
  // would choose (kernels/spatial_pack PlanPairing: it corrects those).
  double corrected = 0;
  // Whether it reads its input through a copy in another channel order (or
  // with channels flipped) for these weights.
  bool copied = false;
};
class LazyWeightPairs;

struct Workload {
  std::string op;  // qnn.conv2d or qnn.dense
  ir::TensorType data;
  ir::TensorType weight;
  ir::TensorType output;  // the accumulator type (i32)
  // Conv attributes (dense leaves the defaults).
  std::vector<int64_t> strides{1, 1};
  std::vector<int64_t> padding{0, 0, 0, 0};
  std::vector<int64_t> dilation{1, 1};
  int64_t groups = 1;
  ir::Layout data_layout = ir::Layout::Nchw();
  ir::Layout kernel_layout = ir::Layout::Oihw();
  // Quantization parameters: per-channel kernel scale/zero point, and whether
  // the zero points are known at compile time.
  bool per_channel_scale = false;
  bool per_channel_kernel_zero_point = false;
  bool constant_zero_points = true;
  bool constant_weight = true;
  // The kernel zero point(s) when constant; the data zero point when constant.
  std::vector<int64_t> kernel_zero_points;
  std::optional<int64_t> data_zero_point;
  // Range of weight - kernel zero point over the constant weight (facts for
  // predicates; not part of the key).
  std::optional<int64_t> min_weight_offset, max_weight_offset;
  // OIHW convolutions whose constant weight offsets fit s8: the weight pairs
  // the AVX2 vpmaddubsw kernel would form (WeightPairs), null otherwise; not
  // part of the key. Analysed on first use: only that kernel's predicates
  // ask, so a compile for another target never pays for it.
  const WeightPairs* weight_pairs() const;
  // Sets them (tests: a layer's facts without its weights).
  void set_weight_pairs(const WeightPairs& pairs);
  // Range of the requantization multipliers (input_scale * kernel_scale /
  // output_scale) of the requantize that consumes the op, when constant.
  std::optional<double> min_requant_scale, max_requant_scale;
  // That requantize's output dtype and whether a kernel's epilogue can take
  // it (ir::ConvEpilogue::fusable); if not, why (not part of the key).
  std::optional<tensor::DType> requant_out_dtype;
  bool requant_fusable = false;
  std::string requant_not_fusable = "no qnn.requantize consumes the op alone";

  bool depthwise() const;

  // Set by ExtractWorkload: how to analyse the weight pairs when asked.
  std::shared_ptr<LazyWeightPairs> lazy_weight_pairs;
  // Canonical key: JSON with sorted fields, the same for equal workloads.
  std::string Key() const;
  // Multiply-accumulate count, for reports and GOPS.
  int64_t Macs() const;
};

// Extracts the workload of a qnn.conv2d or qnn.dense node (types inferred).
// Looks through the bias additions to the consuming qnn.requantize
// (ir::MatchConvEpilogueFrom) for the requantization scales and whether a
// fused epilogue can take it.
absl::StatusOr<Workload> ExtractWorkload(const ir::Graph& graph, const ir::Node& node);

}  // namespace qnnc::target

#endif  // QNNC_TARGET_WORKLOAD_H_
