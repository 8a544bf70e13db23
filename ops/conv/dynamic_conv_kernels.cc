// Kernels of dynamically quantized convolutions (kernels/spatial_pack/
// dynamic_conv.h): a qnn.conv2d whose data zero point is a run-time input
// (i32 NCHW accumulators) and the fused qnn.conv2d_dynamic (f32 NCHW), for
// the implementations x86.spatial_pack.dynamic.* and the portable
// generic.spatial_pack.dynamic.int16. Weights are packed when
// the plan is loaded; the zero point, the scale (x_scale * w_scale) and so
// the compensation are read per run.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/op_views.h"
#include "kernels/spatial_pack/dynamic_conv.h"
#include "ops/conv/dynamic_conv_kernels.h"
#include "ops/conv/conv_kernel_util.h"
#include "runtime/kernel_registry.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

namespace sp = ::qnnc::kernels::spatial_pack;
using tensor::Tensor;

// Inputs of qnn.conv2d and qnn.conv2d_dynamic (the first four agree).
enum Input { kData, kWeight, kInZp, kKernelZp, kScale, kBias };

class DynamicConvKernel : public PreparedKernel {
 public:
  DynamicConvKernel(std::unique_ptr<sp::DynamicConv2D> conv, bool fused, sp::DynamicEpilogue ep,
                    sp::DynamicConv2D::Layouts layouts)
      : conv_(std::move(conv)), fused_(fused), ep_(ep), layouts_(layouts) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    const Tensor& zp = in[kInZp];
    if (zp.num_elements() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dynamic conv2d: the input zero point has ", zp.num_elements(), " values, want 1"));
    }
    const int64_t zx = zp.GetAsInt(0);
    if (zx < 0 || zx > 255) {
      return absl::InvalidArgumentError(
          absl::StrCat("dynamic conv2d: the input zero point ", zx, " is outside [0, 255]"));
    }
    if (!fused_) return conv_->Run(in[kData], static_cast<int32_t>(zx), nullptr, &out[0], pool, layouts_);
    sp::DynamicEpilogue ep = ep_;
    const Tensor& scale = in[kScale];
    ep.scale = scale.data<float>();
    ep.scale_count = scale.num_elements();
    if (in.size() > kBias) {
      ep.bias = in[kBias].data<float>();
      ep.bias_count = in[kBias].num_elements();
    }
    // The second result: the output's range for the DynamicQuantizeLinear after it.
    if (out.size() < 2) return absl::InternalError("qnn.conv2d_dynamic has two results");
    if (!out[1].defined() || out[1].dtype() != tensor::DType::kF32 || out[1].num_elements() != 2) {
      ASSIGN_OR_RETURN(out[1], Tensor::CreateForOverwrite(tensor::DType::kF32, {2}));
    }
    return conv_->Run(in[kData], static_cast<int32_t>(zx), &ep, &out[0], pool, layouts_,
                      out[1].data<float>());
  }
  std::string description() const override { return "spatial_pack " + conv_->description(); }

 private:
  std::unique_ptr<sp::DynamicConv2D> conv_;
  bool fused_;
  sp::DynamicEpilogue ep_;  // clip bounds; scale and bias are set per run
  sp::DynamicConv2D::Layouts layouts_;  // NCHW, or the kernel's blocked layouts (out: or NCHW)
};

// `s` with the node named first.
absl::Status NodeError(const ir::Node& n, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(n.Describe(), ": ", s.message()));
}

// The convolution's geometry, with the channels of the OIHW weight `w`.
sp::QuantizedConvParams ParamsOf(const Tensor& w, const ir::Conv2DView& conv) {
  sp::QuantizedConvParams p;
  p.geometry() = conv.geometry();
  p.out_channels = w.dim(0);
  p.in_channels = w.dim(1) * conv.groups;
  p.kernel_h = w.dim(2);
  p.kernel_w = w.dim(3);
  return p;
}

// Whether every w - zw (zw: one value, or one per output channel) fits s8.
bool FitsS8(const Tensor& w, const std::vector<int32_t>& zw) {
  bool fits_s8 = true;
  for (int64_t o = 0, k = w.num_elements() / std::max<int64_t>(1, w.dim(0)); o < w.dim(0); ++o) {
    const int64_t z = zw.empty() ? 0 : zw[zw.size() == 1 ? 0 : std::min<int64_t>(o, zw.size() - 1)];
    for (int64_t i = 0; i < k && fits_s8; ++i) {
      const int64_t v = w.GetAsInt(o * k + i) - z;
      fits_s8 = v >= -128 && v <= 127;
    }
  }
  return fits_s8;
}

// The layouts the kernel runs in: NCHW in and out (converted inside the
// kernel), or the kernel's blocked input layout with its blocked output
// layout or NCHW; an error when the graph gives or takes another.
absl::StatusOr<sp::DynamicConv2D::Layouts> LayoutsOf(const ir::Node& n,
                                                    const ir::Conv2DView& geometry,
                                                    const sp::DynamicConv2D& conv) {
  // (The kernel library, below the IR, names its layouts by their text.)
  const std::string& data_layout = geometry.data_layout.str();
  const std::string& out_layout = geometry.out_layout.str();
  const bool blocked = !geometry.data_layout.is_nchw();
  if ((blocked && (data_layout != conv.input_layout() ||
                   (out_layout != conv.output_layout() && !geometry.out_layout.is_nchw()))) ||
      (!blocked && !geometry.out_layout.is_nchw())) {
    return NodeError(n, absl::FailedPreconditionError(absl::StrCat(
        "the graph gives ", data_layout, " and takes ", out_layout, " but the kernel reads ",
        conv.input_layout(), " and writes ", conv.output_layout(),
        " or NCHW (or NCHW and NCHW)")));
  }
  using Layouts = sp::DynamicConv2D::Layouts;
  return !blocked ? Layouts::kNchw
         : geometry.out_layout.is_nchw() ? Layouts::kBlockedInNchwOut
                                : Layouts::kBlocked;
}

// The fused op's clip bounds (clip_min, clip_max), when it has either.
absl::StatusOr<sp::DynamicEpilogue> ClipEpilogue(const ir::Node& n, const ir::FusedConvView& fused) {
  sp::DynamicEpilogue ep;
  const bool has_clip = fused.clip;
  const double lo = fused.clip_min, hi = fused.clip_max;
  if (has_clip && (std::isnan(lo) || std::isnan(hi) || lo > hi)) {
    return NodeError(
        n, absl::InvalidArgumentError(absl::StrCat("invalid clip bounds [", lo, ", ", hi, "]")));
  }
  ep.clip = has_clip;
  ep.clip_min = static_cast<float>(lo);
  ep.clip_max = static_cast<float>(hi);
  return ep;
}

// `isa`: the u8s8 kernels of that instruction set; none: the portable int16
// kernel (NCHW in and out).
absl::StatusOr<std::unique_ptr<PreparedKernel>> Create(const ir::Node& n, std::optional<sp::Isa> isa) {
  const bool fused = n.op() == "qnn.conv2d_dynamic";
  if (!n.input(kWeight)->is_constant() || !n.input(kKernelZp)->is_constant()) {
    return NodeError(n, absl::FailedPreconditionError("weight and kernel zero point must be constants"));
  }
  absl::StatusOr<ir::FusedConvView> outputs = ir::FusedConvView::Of(n);
  if (!outputs.ok()) return NodeError(n, outputs.status());
  if (!fused && outputs->out_dtype != tensor::DType::kI32) {
    return NodeError(n, absl::FailedPreconditionError("needs an i32 output"));
  }
  const Tensor& w = n.input(kWeight)->data();
  if (w.rank() != 4) return NodeError(n, absl::InvalidArgumentError("weight must be OIHW"));
  absl::StatusOr<ir::Conv2DView> view = ir::Conv2DView::Of(n);
  if (!view.ok()) return NodeError(n, view.status());
  const ir::Conv2DView& geometry = *view;
  if (geometry.kernel_layout != ir::Layout::Oihw()) {
    return NodeError(n, absl::FailedPreconditionError(
                            "the kernel reads OIHW weights, the graph gives " + geometry.kernel_layout.str()));
  }
  const sp::QuantizedConvParams p = ParamsOf(w, geometry);
  const Tensor& kzp = n.input(kKernelZp)->data();
  std::vector<int32_t> zw;
  for (int64_t i = 0; i < kzp.num_elements(); ++i) zw.push_back(static_cast<int32_t>(kzp.GetAsInt(i)));
  ASSIGN_OR_RETURN(sp::KnobMap knobs, Knobs(n));
  absl::StatusOr<std::unique_ptr<sp::DynamicConv2D>> conv;
  if (isa) {
    const bool depthwise =
        p.groups > 1 && p.groups == p.in_channels && p.out_channels % p.groups == 0;
    const sp::Arithmetic arith = sp::DynamicArithmetic(*isa, depthwise, FitsS8(w, zw));
    if (!sp::IsaSupported(*isa)) {
      auto description = sp::DynamicConv2D::Describe(w, zw, p, knobs, *isa, arith);
      if (!description.ok()) return NodeError(n, description.status());
      return MakeDescribedKernel("spatial_pack " + *description, sp::IsaName(*isa));
    }
    conv = sp::DynamicConv2D::Create(w, zw, p, knobs, *isa, arith);
  } else {
    conv = sp::DynamicConv2D::CreateInt16(w, zw, p, knobs);
  }
  if (!conv.ok()) return NodeError(n, conv.status());
  ASSIGN_OR_RETURN(const sp::DynamicConv2D::Layouts layouts, LayoutsOf(n, geometry, **conv));
  sp::DynamicEpilogue ep;
  if (fused) {
    ASSIGN_OR_RETURN(ep, ClipEpilogue(n, *outputs));
  }
  return std::unique_ptr<PreparedKernel>(new DynamicConvKernel(*std::move(conv), fused, ep, layouts));
}

}  // namespace

void RegisterDynamicConvKernels(KernelRegistry& r) {
  for (const sp::DynamicVariant& v : sp::kDynamicVariants) {
    for (const char* op : {"qnn.conv2d", "qnn.conv2d_dynamic"}) {
      r.Register(op, v.implementation, [isa = v.isa](const ir::Node& n) { return Create(n, isa); });
    }
  }
}

}  // namespace qnnc::runtime
