#include "target/workload.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ir/conv_epilogue.h"
#include "ir/op_views.h"
#include "kernels/spatial_pack/weight_pairs.h"
#include "nlohmann/json.hpp"
#include "target/weight_offsets.h"
#include "util/status_macros.h"

namespace qnnc::target {
namespace {

bool PerChannel(const ir::Value* v) {
  return v->type()->rank() == 1 && v->type()->shape[0] > 1;
}

std::vector<double> Values(const ir::Value* v) {
  std::vector<double> out;
  for (int64_t i = 0; i < v->data().num_elements(); ++i) out.push_back(v->data().GetAsDouble(i));
  return out;
}

}  // namespace

// The weight pairs of one convolution, analysed once, when first asked.
class LazyWeightPairs {
 public:
  LazyWeightPairs(tensor::Tensor weight, tensor::Tensor zero_points, int64_t groups, int64_t in_height,
                  int64_t in_width)
      : weight_(std::move(weight)), zero_points_(std::move(zero_points)), groups_(groups),
        in_height_(in_height), in_width_(in_width) {}
  explicit LazyWeightPairs(const WeightPairs& pairs) : pairs_(pairs) { std::call_once(once_, [] {}); }

  const WeightPairs& Get() {
    std::call_once(once_, [this] { Analyse(); });
    return pairs_;
  }

 private:
  // w - zw as s8 (what the u8 x s8 legalization gives the kernels), then
  // the pairs in the kernel's own orders for this input plane (NCHW).
  void Analyse() {
    tensor::Tensor offsets = tensor::Tensor::Zeros(tensor::DType::kI8, weight_.shape());
    int8_t* out = offsets.data<int8_t>();
    ForEachWeightOffset(weight_, zero_points_,
                        [out](int64_t, int64_t i, int64_t v) { out[i] = static_cast<int8_t>(v); });
    pairs_.max_pair_sum = kernels::spatial_pack::MaxWeightPairSum(offsets, groups_);
    const int64_t orders =
        kernels::spatial_pack::PairingOrderGroups(offsets.shape(), groups_, in_height_, in_width_);
    const kernels::spatial_pack::PairingPlan plan = kernels::spatial_pack::PlanPairing(offsets, groups_, orders);
    pairs_.corrected = plan.CorrectedFraction();
    pairs_.copied = plan.Copies();
    weight_ = zero_points_ = tensor::Tensor();
  }

  tensor::Tensor weight_, zero_points_;
  int64_t groups_ = 1, in_height_ = 0, in_width_ = 0;
  std::once_flag once_;
  WeightPairs pairs_;
};

namespace {

// With a constant weight and kernel zero point: the range of w - zw, and
// for an OIHW qnn.conv2d whose w - zw fits s8 how to analyse the weight
// pairs the u8s8 kernels would form (Workload::weight_pairs).
void AddWeightOffsetStats(const ir::Node& node, const ir::Value* kernel_zp, Workload* w) {
  const tensor::Tensor& wt = node.input(1)->data();
  const tensor::Tensor& zt = kernel_zp->data();
  int64_t lo = 0, hi = 0;
  bool any = false;
  ForEachWeightOffset(wt, zt, [&](int64_t, int64_t, int64_t v) {
    lo = any ? std::min(lo, v) : v;
    hi = any ? std::max(hi, v) : v;
    any = true;
  });
  if (!any) return;
  w->min_weight_offset = lo;
  w->max_weight_offset = hi;
  const bool pairs = w->op == "qnn.conv2d" && w->kernel_layout == ir::Layout::Oihw() && wt.rank() == 4;
  if (pairs && lo >= -128 && hi <= 127) {
    w->lazy_weight_pairs = std::make_shared<LazyWeightPairs>(
        wt, zt, w->groups, w->data.rank() == 4 ? w->data.shape[2] : 0,
        w->data.rank() == 4 ? w->data.shape[3] : 0);
  }
}

// The requantize consuming the accumulator, maybe through bias additions,
// when its scales are constants: its output type, whether a kernel may
// fuse it, and the range of its scale ratios (input / output).
void AddRequantizeEpilogue(const ir::Graph& graph, const ir::Node& node, Workload* w) {
  std::optional<ir::ConvEpilogue> epilogue = ir::MatchConvEpilogueFrom(graph, node);
  if (!epilogue || !epilogue->requantize->input(1)->is_constant() ||
      !epilogue->requantize->input(3)->is_constant()) {
    return;
  }
  const ir::Node* user = epilogue->requantize;
  w->requant_out_dtype = user->output()->type()->dtype;
  w->requant_fusable = epilogue->fusable();
  w->requant_not_fusable = epilogue->not_fusable;
  std::vector<double> in = Values(user->input(1)), out = Values(user->input(3));
  for (size_t i = 0; i < std::max(in.size(), out.size()); ++i) {
    double o = out[out.size() == 1 ? 0 : i];
    if (o <= 0) continue;
    double s = in[in.size() == 1 ? 0 : i] / o;
    w->min_requant_scale = w->min_requant_scale ? std::min(*w->min_requant_scale, s) : s;
    w->max_requant_scale = w->max_requant_scale ? std::max(*w->max_requant_scale, s) : s;
  }
}

}  // namespace

const WeightPairs* Workload::weight_pairs() const {
  return lazy_weight_pairs ? &lazy_weight_pairs->Get() : nullptr;
}

void Workload::set_weight_pairs(const WeightPairs& pairs) {
  lazy_weight_pairs = std::make_shared<LazyWeightPairs>(pairs);
}

bool Workload::depthwise() const {
  if (op != "qnn.conv2d" || groups == 1) return false;
  int64_t channels = data_layout.is_nhwc() ? data.shape[3] : data.shape[1];
  return groups == channels;
}

std::string Workload::Key() const {
  nlohmann::json j;
  j["op"] = op;
  j["data"] = data.ToString();
  j["weight"] = weight.ToString();
  j["output"] = output.ToString();
  if (op == "qnn.conv2d") {
    j["strides"] = strides;
    j["padding"] = padding;
    j["dilation"] = dilation;
    j["groups"] = groups;
    j["layout"] = data_layout.str() + "/" + kernel_layout.str();
  }
  j["per_channel"] = per_channel_scale || per_channel_kernel_zero_point;
  j["constant_zero_points"] = constant_zero_points;
  return j.dump();
}

int64_t Workload::Macs() const {
  int64_t out = 1;
  for (int64_t d : output.shape) out *= d;
  if (op == "qnn.dense") return out * weight.shape[1];
  int64_t per_output = 1;  // weight elements per output channel
  for (size_t i = 1; i < weight.shape.size(); ++i) per_output *= weight.shape[i];
  return out * per_output;
}

absl::StatusOr<Workload> ExtractWorkload(const ir::Graph& graph, const ir::Node& node) {
  if (node.op() != "qnn.conv2d" && node.op() != "qnn.dense") {
    return absl::InvalidArgumentError(absl::StrCat(node.Describe(), ": not a tunable op"));
  }
  for (const ir::Value* v : node.inputs()) {
    if (!v->type()) return absl::FailedPreconditionError(absl::StrCat(node.Describe(), ": untyped input"));
  }
  Workload w;
  w.op = node.op();
  w.data = *node.input(0)->type();
  w.weight = *node.input(1)->type();
  w.output = *node.output()->type();
  if (w.op == "qnn.conv2d") {
    ASSIGN_OR_RETURN(ir::Conv2DView conv, ir::Conv2DView::Of(node));
    w.strides = {conv.strides.begin(), conv.strides.end()};
    w.padding = conv.padding_vector();
    w.dilation = {conv.dilation.begin(), conv.dilation.end()};
    w.groups = conv.groups;
    w.data_layout = conv.data_layout;
    w.kernel_layout = conv.kernel_layout;
  }
  const ir::Value* data_zp = node.input(2);
  const ir::Value* kernel_zp = node.input(3);
  const ir::Value* kernel_scale = node.input(5);
  w.per_channel_scale = PerChannel(kernel_scale);
  w.per_channel_kernel_zero_point = PerChannel(kernel_zp);
  w.constant_zero_points = data_zp->is_constant() && kernel_zp->is_constant();
  w.constant_weight = node.input(1)->is_constant();
  if (kernel_zp->is_constant()) {
    for (double z : Values(kernel_zp)) w.kernel_zero_points.push_back(static_cast<int64_t>(z));
  }
  if (data_zp->is_constant() && data_zp->data().num_elements() == 1) {
    w.data_zero_point = data_zp->data().GetAsInt(0);
  }
  if (w.constant_weight && kernel_zp->is_constant()) AddWeightOffsetStats(node, kernel_zp, &w);
  AddRequantizeEpilogue(graph, node, &w);
  return w;
}

}  // namespace qnnc::target
