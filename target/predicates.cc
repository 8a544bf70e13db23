#include "target/predicates.h"

#include "absl/strings/str_cat.h"

namespace qnnc::target {
namespace {

bool EightBit(tensor::DType d) { return d == tensor::DType::kU8 || d == tensor::DType::kI8; }

}  // namespace

absl::Status NeedsEightBitOperands(const Workload& w) {
  if (!EightBit(w.data.dtype) || !EightBit(w.weight.dtype)) {
    return absl::FailedPreconditionError(absl::StrCat("needs 8-bit data and weights, got ",
                                                      w.data.ToString(), " x ", w.weight.ToString()));
  }
  return absl::OkStatus();
}

absl::Status NeedsConstantZeroPoints(const Workload& w) {
  if (!w.constant_zero_points) {
    return absl::FailedPreconditionError("needs zero points known at compile time (they are computed at run time)");
  }
  return absl::OkStatus();
}

absl::Status NeedsConstantWeights(const Workload& w) {
  if (!w.constant_weight) return absl::FailedPreconditionError("needs constant weights");
  return absl::OkStatus();
}

absl::Status NeedsPerTensorKernel(const Workload& w) {
  if (w.per_channel_scale || w.per_channel_kernel_zero_point) {
    return absl::FailedPreconditionError("needs a per-tensor kernel scale and zero point");
  }
  return absl::OkStatus();
}

absl::Status NeedsPerChannelScale(const Workload& w) {
  if (!w.per_channel_scale) return absl::FailedPreconditionError("needs per-channel kernel scales");
  return absl::OkStatus();
}

absl::Status NeedsZeroKernelZeroPoint(const Workload& w) {
  if (!w.constant_zero_points) return NeedsConstantZeroPoints(w);
  for (int64_t z : w.kernel_zero_points) {
    if (z != 0) {
      return absl::FailedPreconditionError(absl::StrCat("needs a kernel zero point of 0, got ", z));
    }
  }
  return absl::OkStatus();
}

absl::Status NeedsLayout(const Workload& w, const ir::Layout& data, const ir::Layout& kernel) {
  if (w.data_layout != data || w.kernel_layout != kernel) {
    return absl::FailedPreconditionError(absl::StrCat("needs layout ", data.str(), "/", kernel.str(), ", got ",
                                                      w.data_layout.str(), "/", w.kernel_layout.str()));
  }
  return absl::OkStatus();
}

absl::Status NeedsRequantScaleBelow(const Workload& w, double limit) {
  if (!w.max_requant_scale) {
    return absl::FailedPreconditionError("needs a constant requantization after the op");
  }
  if (*w.max_requant_scale >= limit) {
    return absl::FailedPreconditionError(absl::StrCat("needs requantization scales below ", limit,
                                                      ", got ", *w.max_requant_scale));
  }
  return absl::OkStatus();
}

absl::Status NeedsWeightOffsetsIn(const Workload& w, int64_t lo, int64_t hi) {
  if (!w.min_weight_offset) {
    return absl::FailedPreconditionError("needs constant weights and kernel zero points");
  }
  if (*w.min_weight_offset < lo || *w.max_weight_offset > hi) {
    return absl::FailedPreconditionError(absl::StrCat(
        "needs weight - zero point in [", lo, ", ", hi, "], got [", *w.min_weight_offset, ", ",
        *w.max_weight_offset, "]"));
  }
  return absl::OkStatus();
}

absl::Status NeedsFeature(const Target& t, Feature f) {
  if (!t.Has(f)) {
    return absl::FailedPreconditionError(absl::StrCat("needs the ", FeatureName(f), " feature"));
  }
  return absl::OkStatus();
}

absl::Status NeedsArch(const Target& t, Arch a) {
  if (t.arch != a) return absl::FailedPreconditionError(absl::StrCat("needs ", ArchName(a)));
  return absl::OkStatus();
}

absl::Status NeedsRealArch(const Target& t) {
  if (t.arch == Arch::kGeneric) {
    return absl::FailedPreconditionError("needs x86_64 or aarch64 (the target is generic)");
  }
  return absl::OkStatus();
}

absl::Status NeedsFusedRequantize(const Workload& w) {
  if (w.op != "qnn.conv2d" || w.requant_fusable) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "its kernel runs only fused with the requantize after the op, which cannot be fused: ",
      w.requant_not_fusable));
}

}  // namespace qnnc::target
