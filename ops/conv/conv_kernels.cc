// The conv family's kernel factories: qnn.conv2d_requantize here, the
// dynamically quantized convolutions in dynamic_conv_kernels.cc.
//
// Kernels of qnn.conv2d_requantize (built by FuseOps) for the implementations
// that have one: the native spatial-pack kernels and XNNPACK. The
// spatial-pack kernels hand their packed weights to a binary plan, whose
// load restores them without packing; XNNPACK's pack inside its operators
// when the plan is loaded. The activations arrive and leave in the
// layouts the graph gives the op (data_layout, out_layout: AlterOpLayout sets
// the decision's); a kernel given NCHW converts around its run.
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "ir/decision_view.h"
#include "ir/layout.h"
#include "ir/op_views.h"
#include "kernels/layout/nhwc.h"
#include "kernels/requantize/requantize.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "kernels/spatial_pack/conv2d.h"
#include "kernels/xnnpack/conv2d.h"
#include "ops/conv/dynamic_conv_kernels.h"
#include "ops/conv/conv_kernel_util.h"
#include "runtime/kernel_registry.h"
#include "util/config_json.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

namespace sp = ::qnnc::kernels::spatial_pack;
namespace xnn = ::qnnc::kernels::xnnpack;
using tensor::DType;
using tensor::Tensor;

constexpr char kOp[] = "qnn.conv2d_requantize";

// Input indices of qnn.conv2d_requantize.
enum Input { kData, kWeight, kBias, kInZp, kKernelZp, kInScale, kKernelScale, kRequantScale, kOutScale, kOutZp };

absl::Status NeedConstant(const ir::Node& n, int i, const char* what) {
  if (!n.input(i)->is_constant()) {
    return absl::FailedPreconditionError(absl::StrCat(n.Describe(), ": ", what, " must be a constant"));
  }
  return absl::OkStatus();
}

// The value padding stands for, an attribute (a compiled plan is user
// input): an integer in int32's range, so that converting it is defined.
absl::Status CheckPadValue(const ir::Node& n, double v) {
  if (!(v >= -2147483648.0 && v <= 2147483647.0) || v != std::floor(v)) {
    return absl::InvalidArgumentError(
        absl::StrCat(n.Describe(), ": pad_value ", v, " is not an integer in int32's range"));
  }
  return absl::OkStatus();
}

struct CommonParams {
  ir::Conv2DView conv;
  ir::FusedConvView fused;
  DType out_dtype;
  int32_t clamp_min, clamp_max;
};

absl::StatusOr<CommonParams> Common(const ir::Node& n) {
  CommonParams p;
  absl::StatusOr<ir::Conv2DView> view = ir::Conv2DView::Of(n);
  if (!view.ok()) return absl::InvalidArgumentError(absl::StrCat(n.Describe(), ": ", view.status().message()));
  p.conv = *view;
  ASSIGN_OR_RETURN(p.fused, ir::FusedConvView::Of(n));
  p.out_dtype = p.fused.out_dtype;
  const int64_t lo = p.fused.clamp_min.value_or(tensor::DTypeMin(p.out_dtype));
  const int64_t hi = p.fused.clamp_max.value_or(tensor::DTypeMax(p.out_dtype));
  p.clamp_min = static_cast<int32_t>(std::max<int64_t>(lo, INT32_MIN));
  p.clamp_max = static_cast<int32_t>(std::min<int64_t>(hi, INT32_MAX));
  return p;
}

}  // namespace

absl::StatusOr<sp::KnobMap> Knobs(const ir::Node& n) {
  const std::optional<ir::DecisionView> d = ir::DecisionView::Of(n);
  absl::StatusOr<util::Config> config = util::ConfigFromJson(d ? d->config : "{}");
  if (!config.ok()) return absl::InvalidArgumentError(absl::StrCat(n.Describe(), ": ", config.status().message()));
  return *config;
}

namespace {

class SpatialPackKernel : public PreparedKernel {
 public:
  // `blocked_io`: the graph already hands over and takes back the kernel's
  // layouts (AlterOpLayout); otherwise this converts from and to NCHW.
  SpatialPackKernel(std::unique_ptr<sp::Conv2DKernel> kernel, int64_t out_channels,
                    int32_t pad_value, bool blocked_io)
      : kernel_(std::move(kernel)),
        out_channels_(out_channels),
        pad_value_(pad_value),
        blocked_io_(blocked_io) {
    // The kernel's layouts, which the kernel library (below the IR) spells
    // out: the block it reads (0: NCHW), whether it writes NCHW.
    const absl::StatusOr<ir::Layout> in_layout = ir::Layout::Parse(kernel_->input_layout());
    input_block_ = in_layout.ok() ? in_layout->channel_block() : 0;
    nchw_out_ = kernel_->output_layout() == ir::Layout::Nchw().str();
  }

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    Tensor input = in[kData];
    if (!blocked_io_ && input_block_ > 0) {
      ASSIGN_OR_RETURN(input, sp::ToBlocked(in[kData], input_block_, pad_value_));
    }
    if (blocked_io_ || nchw_out_) return kernel_->Run(input, &out[0], pool);
    Tensor blocked;
    RETURN_IF_ERROR(kernel_->Run(input, &blocked, pool));
    ASSIGN_OR_RETURN(out[0], sp::FromBlocked(blocked, out_channels_));
    return absl::OkStatus();
  }
  std::string description() const override { return "spatial_pack " + kernel_->description(); }
  // Everything but the data was packed or copied when the kernel was made.
  bool ReadsConstantsWhenRun() const override { return false; }
  std::optional<PackedState> packed_state() const override { return StateOf(*kernel_); }

  // The packed weights and bias as a plan saves them, standing for the
  // weight (the bias, scales and zero points stay: they are small, and the
  // parameters are read from them).
  static std::optional<PackedState> StateOf(const sp::Conv2DKernel& kernel) {
    std::optional<sp::PackedConvWeights> w = kernel.packed();
    if (!w) return std::nullopt;
    PackedState state{w->packing, {kWeight}, {w->weights}};
    if (w->bias.defined()) state.blobs.push_back(w->bias);
    state.blobs.insert(state.blobs.end(), w->pairing.begin(), w->pairing.end());
    return state;
  }

 private:
  std::unique_ptr<sp::Conv2DKernel> kernel_;
  int64_t out_channels_;
  int32_t pad_value_;
  bool blocked_io_;
  int64_t input_block_ = 0;
  bool nchw_out_ = false;
};

// A kernel checked and described for a plan, not created: its instruction
// set is one this host may not use.
class DescribedKernel : public PreparedKernel {
 public:
  // `state`: the weights packed for the host that runs it.
  DescribedKernel(std::string description, std::string isa, std::optional<PackedState> state = std::nullopt)
      : description_(std::move(description)), isa_(std::move(isa)), state_(std::move(state)) {}
  absl::Status Run(const std::vector<Tensor>&, std::vector<Tensor>&, pthreadpool_t) const override {
    return absl::FailedPreconditionError(absl::StrCat(
        description_, " needs the instruction set ", isa_, ", which this host may not use"));
  }
  std::string description() const override { return description_; }
  std::string missing_isa() const override { return isa_; }
  std::optional<PackedState> packed_state() const override { return state_; }

 private:
  std::string description_, isa_;
  std::optional<PackedState> state_;
};

}  // namespace

std::unique_ptr<PreparedKernel> MakeDescribedKernel(std::string description, std::string isa) {
  return std::unique_ptr<PreparedKernel>(new DescribedKernel(std::move(description), std::move(isa)));
}

namespace {

// A spatial-pack kernel's parameters and config, from the node (the
// weight's shape from its type: a plan may hold it packed, not as data).
struct SpatialPackSetup {
  sp::QuantizedConvParams params;
  sp::KnobMap knobs;
  tensor::Shape weight_shape;
  ir::Layout data_layout, out_layout;
};

absl::StatusOr<SpatialPackSetup> SetUpSpatialPack(const ir::Node& n) {
  for (int i : {kWeight, kBias, kRequantScale, kOutScale, kOutZp}) {
    RETURN_IF_ERROR(NeedConstant(n, i, "weight, bias and requantization"));
  }
  ASSIGN_OR_RETURN(CommonParams c, Common(n));
  SpatialPackSetup s;
  s.weight_shape = n.input(kWeight)->type()->shape;
  if (s.weight_shape.size() != 4) {
    return absl::InvalidArgumentError(absl::StrCat(n.Describe(), ": the weight is not OIHW"));
  }
  sp::QuantizedConvParams& p = s.params;
  p.geometry() = c.conv.geometry();
  p.out_channels = s.weight_shape[0];
  p.in_channels = s.weight_shape[1] * c.conv.groups;
  p.kernel_h = s.weight_shape[2];
  p.kernel_w = s.weight_shape[3];
  if (const ir::Shape& in = n.input(kData)->type()->shape; in.size() >= 4) {
    p.in_height = in[2], p.in_width = in[3];  // NCHW and the blocked NCHWxc alike
  }
  const double pad_value = c.fused.pad_value.value_or(0.0);
  RETURN_IF_ERROR(CheckPadValue(n, pad_value));
  p.input_zero_point = static_cast<int32_t>(pad_value);
  const Tensor& bias = n.input(kBias)->data();
  for (int64_t i = 0; i < bias.num_elements(); ++i) p.bias.push_back(bias.data<int32_t>()[i]);
  ASSIGN_OR_RETURN(p.requant_multiplier,
                   kernels::requantize::ComputeFloatMultipliers(
                       n.input(kRequantScale)->data(), n.input(kOutScale)->data(), p.out_channels));
  p.output_zero_point = static_cast<int32_t>(n.input(kOutZp)->data().GetAsInt(0));
  p.clamp_min = c.clamp_min;
  p.clamp_max = c.clamp_max;
  p.out_dtype = c.out_dtype;
  ASSIGN_OR_RETURN(s.knobs, Knobs(n));
  s.data_layout = c.conv.data_layout;
  s.out_layout = c.conv.out_layout;
  return s;
}

absl::Status Prefixed(const ir::Node& n, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(n.Describe(), ": ", s.message()));
}

// The kernel as the op runs it, converting from and to NCHW unless the
// graph already gives the kernel's layouts.
absl::StatusOr<std::unique_ptr<PreparedKernel>> Wrapped(const ir::Node& n, const SpatialPackSetup& s,
                                                        std::unique_ptr<sp::Conv2DKernel> kernel) {
  // (The kernel library, below the IR, names its layouts by their text.)
  const bool blocked_io = !s.data_layout.is_nchw();
  if (blocked_io &&
      (s.data_layout.str() != kernel->input_layout() || s.out_layout.str() != kernel->output_layout())) {
    return absl::FailedPreconditionError(absl::StrCat(
        n.Describe(), ": the graph gives ", s.data_layout.str(), " but the kernel reads ",
        kernel->input_layout(), " and writes ", kernel->output_layout()));
  }
  const int64_t out_channels = s.params.out_channels;
  const int32_t pad_value = s.params.input_zero_point;
  return std::unique_ptr<PreparedKernel>(
      new SpatialPackKernel(std::move(kernel), out_channels, pad_value, blocked_io));
}

// A u8s8 kernel this host may not run (compiled for another): checked,
// described and, where the kernel can take them, its weights packed for
// the plan; created where the plan runs.
absl::StatusOr<std::unique_ptr<PreparedKernel>> DescribeSpatialPack(const ir::Node& n, const SpatialPackSetup& s,
                                                                    sp::Isa isa, sp::Arithmetic arith) {
  const Tensor& w = n.input(kWeight)->data();
  auto packed = sp::Conv2DKernel::PackU8S8(w, s.params, s.knobs, isa, arith);
  if (packed.ok()) {
    return std::unique_ptr<PreparedKernel>(new DescribedKernel(
        "spatial_pack " + (*packed)->description(), sp::IsaName(isa), SpatialPackKernel::StateOf(**packed)));
  }
  if (packed.status().code() != absl::StatusCode::kUnimplemented) return Prefixed(n, packed.status());
  auto description = sp::Conv2DKernel::DescribeU8S8(w, s.params, s.knobs, isa, arith);
  if (!description.ok()) return Prefixed(n, description.status());
  return std::unique_ptr<PreparedKernel>(new DescribedKernel("spatial_pack " + *description, sp::IsaName(isa)));
}

absl::StatusOr<std::unique_ptr<PreparedKernel>> CreateSpatialPack(
    const ir::Node& n, bool int16, sp::Isa isa, sp::Arithmetic arith = sp::Arithmetic::kMaddubs) {
  ASSIGN_OR_RETURN(SpatialPackSetup s, SetUpSpatialPack(n));
  if (!int16 && !sp::IsaSupported(isa)) return DescribeSpatialPack(n, s, isa, arith);
  const Tensor& w = n.input(kWeight)->data();
  auto kernel = int16 ? sp::Conv2DKernel::CreateInt16(w, s.params, s.knobs)
                      : sp::Conv2DKernel::CreateU8S8(w, s.params, s.knobs, isa, arith);
  if (!kernel.ok()) return Prefixed(n, kernel.status());
  return Wrapped(n, s, *std::move(kernel));
}

// The kernel CreateSpatialPack made, from the packed state it saved: u8s8
// weights, with the dense kernels' bias and pairing, or int16 weights.
absl::StatusOr<std::unique_ptr<PreparedKernel>> RestoreSpatialPack(const ir::Node& n, bool int16, sp::Isa isa,
                                                                   sp::Arithmetic arith, const PackedState& state) {
  const size_t blobs = state.blobs.size();
  if ((int16 ? blobs != 1 : blobs < 1) || state.inputs != std::vector<int>{kWeight}) {
    return absl::InvalidArgumentError(absl::StrCat(
        n.Describe(), ": a spatial-pack kernel's state is its packed weights",
        int16 ? "" : " (and a dense kernel's bias and pairing)", ", for input ", kWeight));
  }
  ASSIGN_OR_RETURN(SpatialPackSetup s, SetUpSpatialPack(n));
  sp::PackedConvWeights w{state.packing, state.blobs[0], Tensor(), {}};
  if (int16) {
    auto kernel = sp::Conv2DKernel::RestoreInt16(s.weight_shape, s.params, s.knobs, w);
    if (!kernel.ok()) return Prefixed(n, kernel.status());
    return Wrapped(n, s, *std::move(kernel));
  }
  if (blobs > 1) w.bias = state.blobs[1];
  if (blobs > 2) w.pairing.assign(state.blobs.begin() + 2, state.blobs.end());
  const bool runnable = sp::IsaSupported(isa);
  auto kernel = sp::Conv2DKernel::RestoreU8S8(s.weight_shape, s.params, s.knobs, isa, arith, w, runnable);
  if (!kernel.ok()) return Prefixed(n, kernel.status());
  if (!runnable) {
    return std::unique_ptr<PreparedKernel>(
        new DescribedKernel("spatial_pack " + (*kernel)->description(), sp::IsaName(isa), state));
  }
  return Wrapped(n, s, *std::move(kernel));
}

class XnnpackKernel : public PreparedKernel {
 public:
  // `nhwc_io`: the graph hands over and takes back NHWC (AlterOpLayout);
  // otherwise this converts from and to NCHW.
  XnnpackKernel(std::unique_ptr<xnn::Conv2D> conv, std::string name, bool nhwc_io)
      : conv_(std::move(conv)), name_(std::move(name)), nhwc_io_(nhwc_io) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (nhwc_io_) return conv_->Run(in[kData], &out[0], pool);
    ASSIGN_OR_RETURN(Tensor nhwc, kernels::layout::NchwToNhwc(in[kData], pool));
    Tensor result;
    RETURN_IF_ERROR(conv_->Run(nhwc, &result, pool));
    ASSIGN_OR_RETURN(out[0], kernels::layout::NhwcToNchw(result, pool));
    return absl::OkStatus();
  }
  std::string description() const override { return name_; }

 private:
  std::unique_ptr<xnn::Conv2D> conv_;
  std::string name_;
  bool nhwc_io_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> CreateXnnpack(const ir::Node& n, xnn::Variant variant) {
  for (int i = kWeight; i <= kOutZp; ++i) RETURN_IF_ERROR(NeedConstant(n, i, "weights and quantization parameters"));
  ASSIGN_OR_RETURN(CommonParams c, Common(n));
  const Tensor& w = n.input(kWeight)->data();
  xnn::ConvParams p;
  p.geometry() = c.conv.geometry();
  p.kernel_h = w.dim(2);
  p.kernel_w = w.dim(3);
  p.group_input_channels = w.dim(1);
  p.group_output_channels = w.dim(0) / c.conv.groups;
  p.input_zero_point = static_cast<int32_t>(n.input(kInZp)->data().GetAsInt(0));
  p.input_scale = static_cast<float>(n.input(kInScale)->data().GetAsDouble(0));
  p.kernel_zero_point = static_cast<int32_t>(n.input(kKernelZp)->data().GetAsInt(0));
  const Tensor& ks = n.input(kKernelScale)->data();
  p.kernel_scale.clear();
  for (int64_t i = 0; i < ks.num_elements(); ++i) p.kernel_scale.push_back(ks.data<float>()[i]);
  // XNNPACK derives the requantization from the three scales: it must be the
  // one the graph asks for.
  const Tensor& rs = n.input(kRequantScale)->data();
  for (int64_t i = 0; i < rs.num_elements(); ++i) {
    float k = p.kernel_scale[p.kernel_scale.size() == 1 ? 0 : i];
    if (rs.data<float>()[i] != p.input_scale * k) {
      return absl::FailedPreconditionError(absl::StrCat(
          n.Describe(), ": XNNPACK requantizes by input_scale * kernel_scale, the graph by ",
          rs.data<float>()[i]));
    }
  }
  p.output_zero_point = static_cast<int32_t>(n.input(kOutZp)->data().GetAsInt(0));
  p.output_scale = static_cast<float>(n.input(kOutScale)->data().GetAsDouble(0));
  p.output_min = c.clamp_min;
  p.output_max = c.clamp_max;
  const double pad_value = c.fused.pad_value.value_or(p.input_zero_point);
  RETURN_IF_ERROR(CheckPadValue(n, pad_value));
  if (static_cast<int32_t>(pad_value) != p.input_zero_point) {
    return absl::FailedPreconditionError(absl::StrCat(n.Describe(), ": XNNPACK pads with the input zero point"));
  }
  const ir::Layout& data_layout = c.conv.data_layout;
  const ir::Layout& out_layout = c.conv.out_layout;
  if ((!data_layout.is_nchw() && !data_layout.is_nhwc()) || out_layout != data_layout) {
    return absl::FailedPreconditionError(absl::StrCat(
        n.Describe(), ": the graph gives ", data_layout.str(), " and takes ", out_layout.str(),
        " but the XNNPACK kernel reads and writes NHWC (or converts from and to NCHW)"));
  }
  if (!xnn::RoundsHalfToEven(xnn::OperatorVariant(variant))) {
    // An x86-64 plan's qu8 convolution read on AArch64, where XNNPACK's qu8
    // rounds otherwise (kernels/xnnpack/variant.h): checked and described,
    // not created, as a kernel of an instruction set this host lacks.
    return MakeDescribedKernel(absl::StrCat("xnnpack ", xnn::VariantName(variant)),
                               "x86_64 (where XNNPACK's qu8 rounds ties to even)");
  }
  auto conv = xnn::Conv2D::Create(variant, p, w, n.input(kBias)->data());
  if (!conv.ok()) {
    return absl::Status(conv.status().code(), absl::StrCat(n.Describe(), ": ", conv.status().message()));
  }
  return std::unique_ptr<PreparedKernel>(new XnnpackKernel(
      *std::move(conv), absl::StrCat("xnnpack ", xnn::VariantName(variant)), data_layout.is_nhwc()));
}

}  // namespace

void RegisterConvKernels(KernelRegistry& r) {
  for (const sp::U8S8Variant& v : sp::kU8S8Variants) {
    if (v.implementation == nullptr) continue;
    r.Register(kOp, v.implementation, [isa = v.isa, arith = v.arith](const ir::Node& n) {
      return CreateSpatialPack(n, false, isa, arith);
    });
    r.RegisterRestorer(kOp, v.implementation,
                       [isa = v.isa, arith = v.arith](const ir::Node& n, const PackedState& state) {
                         return RestoreSpatialPack(n, false, isa, arith, state);
                       });
  }
  for (const char* impl : sp::kInt16Implementations) {
    r.Register(kOp, impl, [](const ir::Node& n) { return CreateSpatialPack(n, true, sp::Isa::kScalar); });
    r.RegisterRestorer(kOp, impl, [](const ir::Node& n, const PackedState& state) {
      return RestoreSpatialPack(n, true, sp::Isa::kScalar, sp::Arithmetic::kMaddubs, state);
    });
  }
  r.Register(kOp, "xnnpack.qu8", [](const ir::Node& n) { return CreateXnnpack(n, xnn::Variant::kQu8); });
  r.Register(kOp, "xnnpack.qs8", [](const ir::Node& n) { return CreateXnnpack(n, xnn::Variant::kQs8); });
  r.Register(kOp, "xnnpack.qc8", [](const ir::Node& n) { return CreateXnnpack(n, xnn::Variant::kQc8); });
  RegisterDynamicConvKernels(r);
}

}  // namespace qnnc::runtime
