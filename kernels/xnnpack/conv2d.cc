#include "kernels/xnnpack/conv2d.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "util/status_macros.h"

namespace qnnc::kernels::xnnpack {
namespace {

using tensor::DType;
using tensor::Tensor;

constexpr int64_t kMaxDim = std::numeric_limits<uint32_t>::max();

absl::Status CheckRange(absl::string_view what, int64_t value, int64_t lo, int64_t hi) {
  if (value >= lo && value <= hi) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " = ", value, " is outside [", lo, ", ", hi, "]"));
}

// OIHW -> OHWI (XNNPACK's [groups, group_output_channels, KH, KW,
// group_input_channels] when O = groups * group_output_channels).
template <typename T>
std::vector<T> ToOhwi(const Tensor& w) {
  const int64_t o_n = w.dim(0), i_n = w.dim(1), h_n = w.dim(2), w_n = w.dim(3);
  const T* src = w.data<T>();
  std::vector<T> dst(w.num_elements());
  for (int64_t o = 0; o < o_n; ++o)
    for (int64_t i = 0; i < i_n; ++i)
      for (int64_t y = 0; y < h_n; ++y)
        for (int64_t x = 0; x < w_n; ++x)
          dst[((o * h_n + y) * w_n + x) * i_n + i] = src[((o * i_n + i) * h_n + y) * w_n + x];
  return dst;
}

}  // namespace

absl::Status CheckSupported(Variant variant, const ConvParams& p) {
  const std::string v = VariantName(variant);
  RETURN_IF_ERROR(CheckRange("kernel_h", p.kernel_h, 1, kMaxDim));
  RETURN_IF_ERROR(CheckRange("kernel_w", p.kernel_w, 1, kMaxDim));
  for (int i = 0; i < 2; ++i) {
    RETURN_IF_ERROR(CheckRange(absl::StrCat("strides[", i, "]"), p.strides[i], 1, kMaxDim));
    RETURN_IF_ERROR(CheckRange(absl::StrCat("dilation[", i, "]"), p.dilation[i], 1, kMaxDim));
  }
  for (int i = 0; i < 4; ++i) {
    RETURN_IF_ERROR(CheckRange(absl::StrCat("pads[", i, "]"), p.pads[i], 0, kMaxDim));
  }
  constexpr int64_t kMaxChannels = int64_t{1} << 31;
  RETURN_IF_ERROR(CheckRange("groups", p.groups, 1, kMaxChannels));
  RETURN_IF_ERROR(CheckRange("group_input_channels", p.group_input_channels, 1, kMaxChannels));
  RETURN_IF_ERROR(CheckRange("group_output_channels", p.group_output_channels, 1, kMaxChannels));
  RETURN_IF_ERROR(CheckRange("input channels", p.input_channels(), 1, kMaxChannels));
  RETURN_IF_ERROR(CheckRange("output channels", p.output_channels(), 1, kMaxChannels));

  const DType dtype = DataType(variant);
  const int64_t lo = tensor::DTypeMin(dtype), hi = tensor::DTypeMax(dtype);
  RETURN_IF_ERROR(CheckRange(v + " input_zero_point", p.input_zero_point, lo, hi));
  RETURN_IF_ERROR(CheckRange(v + " output_zero_point", p.output_zero_point, lo, hi));
  if (!RoundsHalfToEven(OperatorVariant(variant))) {
    return absl::UnimplementedError(absl::StrCat(
        "XNNPACK's ", v, " convolution on this architecture rounds ties upward (rndnu), not to "
        "even as the reference does; use qs8 or qc8"));
  }
  if (variant == Variant::kQu8) {
    RETURN_IF_ERROR(CheckRange("qu8 kernel_zero_point", p.kernel_zero_point, 0, 255));
  } else if (p.kernel_zero_point != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        v, " needs kernel_zero_point 0, got ", p.kernel_zero_point, " (use qu8 or legalize)"));
  }

  const size_t n_scales = p.kernel_scale.size();
  const bool per_channel_ok = variant == Variant::kQc8 && n_scales == static_cast<size_t>(p.output_channels());
  if (n_scales != 1 && !per_channel_ok) {
    return absl::InvalidArgumentError(
        absl::StrCat(v, " takes ", variant == Variant::kQc8 ? "1 or output_channels = " : "1",
                     variant == Variant::kQc8 ? absl::StrCat(p.output_channels()) : "",
                     " kernel scales, got ", n_scales));
  }
  RETURN_IF_ERROR(CheckScale("input_scale", p.input_scale));
  RETURN_IF_ERROR(CheckScale("output_scale", p.output_scale));
  for (size_t c = 0; c < n_scales; ++c) {
    const std::string what = absl::StrCat("kernel_scale[", c, "]");
    RETURN_IF_ERROR(CheckScale(what, p.kernel_scale[c]));
    const float s = RequantizationScale(p.input_scale, p.kernel_scale[c], p.output_scale);
    if (!(s < kMaxRequantizationScale)) {
      return absl::UnimplementedError(absl::StrCat(
          v, " requantization scale input_scale * ", what, " / output_scale = ", p.input_scale,
          " * ", p.kernel_scale[c], " / ", p.output_scale, " = ", s,
          " is not below 256 (XNNPACK limit)"));
    }
    if (variant != Variant::kQc8 && !(s >= kMinRequantizationScale)) {
      return absl::UnimplementedError(absl::StrCat(
          v, " requantization scale input_scale * ", what, " / output_scale = ", s,
          " is below 2^-32 (XNNPACK limit)"));
    }
  }

  const int64_t out_lo = std::max<int64_t>(p.output_min, lo);
  const int64_t out_hi = std::min<int64_t>(p.output_max, hi);
  if (out_lo >= out_hi) {
    return absl::InvalidArgumentError(
        absl::StrCat(v, " clamp [output_min, output_max] = [", p.output_min, ", ", p.output_max,
                     "] within [", lo, ", ", hi, "] must have output_min < output_max"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Conv2D>> Conv2D::Create(Variant variant, const ConvParams& params,
                                                       const Tensor& weight,
                                                       const Tensor& bias_i32) {
  RETURN_IF_ERROR(InitializeXnnpack());
  RETURN_IF_ERROR(CheckSupported(variant, params));
  const DType dtype = DataType(variant);
  const int64_t oc = params.output_channels();
  const tensor::Shape want{oc, params.group_input_channels, params.kernel_h, params.kernel_w};
  if (!weight.defined() || weight.dtype() != dtype || weight.shape() != want) {
    return absl::InvalidArgumentError(absl::StrCat(
        VariantName(variant), " convolution weight must be ", tensor::DTypeName(dtype), " ",
        tensor::ShapeToString(want), " (OIHW), got ",
        weight.defined() ? absl::StrCat(tensor::DTypeName(weight.dtype()), " ",
                                        tensor::ShapeToString(weight.shape()))
                         : "undefined"));
  }
  const int32_t* bias = nullptr;
  if (bias_i32.defined()) {
    if (bias_i32.dtype() != DType::kI32 || bias_i32.num_elements() != oc) {
      return absl::InvalidArgumentError(absl::StrCat(
          "convolution bias must be i32 with ", oc, " elements, got ",
          tensor::DTypeName(bias_i32.dtype()), " ", tensor::ShapeToString(bias_i32.shape())));
    }
    bias = bias_i32.data<int32_t>();
  }

  const ConvParams& p = params;
  const int64_t lo = tensor::DTypeMin(dtype), hi = tensor::DTypeMax(dtype);
  const int32_t out_min = static_cast<int32_t>(std::max<int64_t>(p.output_min, lo));
  const int32_t out_max = static_cast<int32_t>(std::min<int64_t>(p.output_max, hi));
  auto u32 = [](int64_t x) { return static_cast<uint32_t>(x); };
  const size_t gic = p.group_input_channels, goc = p.group_output_channels;
  const size_t in_stride = p.input_channels(), out_stride = oc;

  std::unique_ptr<Conv2D> conv(new Conv2D(variant, params));
  xnn_operator_t op = nullptr;
  xnn_status status;
  const char* name;
  const Variant op_variant = OperatorVariant(variant);
  if (op_variant == Variant::kQu8) {
    name = "xnn_create_convolution2d_nhwc_qu8";
    std::vector<uint8_t> w = ToOhwi<uint8_t>(weight);
    status = xnn_create_convolution2d_nhwc_qu8(
        u32(p.pads[0]), u32(p.pads[3]), u32(p.pads[2]), u32(p.pads[1]), u32(p.kernel_h),
        u32(p.kernel_w), u32(p.strides[0]), u32(p.strides[1]), u32(p.dilation[0]),
        u32(p.dilation[1]), u32(p.groups), gic, goc, in_stride, out_stride,
        static_cast<uint8_t>(p.input_zero_point), p.input_scale,
        static_cast<uint8_t>(p.kernel_zero_point), p.kernel_scale[0], w.data(), bias,
        static_cast<uint8_t>(p.output_zero_point), p.output_scale, static_cast<uint8_t>(out_min),
        static_cast<uint8_t>(out_max), /*flags=*/0, &op);
  } else if (op_variant == Variant::kQs8) {
    name = "xnn_create_convolution2d_nhwc_qs8";
    std::vector<int8_t> w = ToOhwi<int8_t>(weight);
    status = xnn_create_convolution2d_nhwc_qs8(
        u32(p.pads[0]), u32(p.pads[3]), u32(p.pads[2]), u32(p.pads[1]), u32(p.kernel_h),
        u32(p.kernel_w), u32(p.strides[0]), u32(p.strides[1]), u32(p.dilation[0]),
        u32(p.dilation[1]), u32(p.groups), gic, goc, in_stride, out_stride,
        static_cast<int8_t>(p.input_zero_point), p.input_scale, p.kernel_scale[0], w.data(),
        bias, static_cast<int8_t>(p.output_zero_point), p.output_scale,
        static_cast<int8_t>(out_min), static_cast<int8_t>(out_max), /*flags=*/0, &op);
  } else {
    name = "xnn_create_convolution2d_nhwc_qc8";
    std::vector<int8_t> w = ToOhwi<int8_t>(weight);
    std::vector<float> scales(oc, p.kernel_scale[0]);
    if (p.kernel_scale.size() == static_cast<size_t>(oc)) scales = p.kernel_scale;
    status = xnn_create_convolution2d_nhwc_qc8(
        u32(p.pads[0]), u32(p.pads[3]), u32(p.pads[2]), u32(p.pads[1]), u32(p.kernel_h),
        u32(p.kernel_w), u32(p.strides[0]), u32(p.strides[1]), u32(p.dilation[0]),
        u32(p.dilation[1]), u32(p.groups), gic, goc, in_stride, out_stride,
        static_cast<int8_t>(p.input_zero_point), p.input_scale, scales.data(), w.data(), bias,
        static_cast<int8_t>(p.output_zero_point), p.output_scale, static_cast<int8_t>(out_min),
        static_cast<int8_t>(out_max), /*flags=*/0, &op);
  }
  RETURN_IF_ERROR(FromXnnStatus(status, name));
  conv->op_.reset(op);
  return conv;
}

absl::StatusOr<tensor::Shape> Conv2D::OutputShape(const tensor::Shape& in) const {
  const ConvParams& p = params_;
  if (in.size() != 4 || in[3] != p.input_channels() || in[0] < 0 || in[1] < 1 || in[2] < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("convolution input must be NHWC [N, H, W, ", p.input_channels(),
                     "] with H, W >= 1, got ", tensor::ShapeToString(in)));
  }
  const int64_t kernel[2] = {p.kernel_h, p.kernel_w};
  const int64_t pad[2] = {p.pads[0] + p.pads[2], p.pads[1] + p.pads[3]};
  int64_t out[2];
  for (int i = 0; i < 2; ++i) {
    const int64_t span = p.dilation[i] * (kernel[i] - 1) + 1;
    const int64_t padded = in[1 + i] + pad[i];
    if (padded < span) {
      return absl::InvalidArgumentError(absl::StrCat(
          "convolution input ", tensor::ShapeToString(in), " padded to ", padded,
          " is smaller than the dilated kernel ", span, " in dimension ", i == 0 ? "H" : "W"));
    }
    out[i] = (padded - span) / p.strides[i] + 1;
  }
  return tensor::Shape{in[0], out[0], out[1], p.output_channels()};
}

absl::Status Conv2D::Run(const Tensor& input, Tensor* output, pthreadpool_t pool) const {
  const DType dtype = DataType(variant_);
  if (!input.defined() || input.dtype() != dtype) {
    return absl::InvalidArgumentError(absl::StrCat(VariantName(variant_),
                                                   " convolution input must be ",
                                                   tensor::DTypeName(dtype)));
  }
  ASSIGN_OR_RETURN(tensor::Shape out_shape, OutputShape(input.shape()));
  if (output == nullptr) return absl::InvalidArgumentError("convolution output is null");
  if (!output->defined()) {
    ASSIGN_OR_RETURN(*output, Tensor::CreateForOverwrite(dtype, out_shape));
  } else if (output->dtype() != dtype || output->shape() != out_shape) {
    return absl::InvalidArgumentError(absl::StrCat(
        "convolution output must be ", tensor::DTypeName(dtype), " ",
        tensor::ShapeToString(out_shape), ", got ", tensor::DTypeName(output->dtype()), " ",
        tensor::ShapeToString(output->shape())));
  }
  if (input.shape()[0] == 0) return absl::OkStatus();
  const size_t n = input.dim(0), h = input.dim(1), w = input.dim(2);

  std::lock_guard<std::mutex> lock(mu_);
  xnn_status status;
  const char* name;
  switch (OperatorVariant(variant_)) {
    case Variant::kQu8:
      name = "xnn_setup_convolution2d_nhwc_qu8";
      status = xnn_setup_convolution2d_nhwc_qu8(op_.get(), n, h, w, input.data<uint8_t>(),
                                                output->data<uint8_t>(), pool);
      break;
    case Variant::kQs8:
      name = "xnn_setup_convolution2d_nhwc_qs8";
      status = xnn_setup_convolution2d_nhwc_qs8(op_.get(), n, h, w, input.data<int8_t>(),
                                                output->data<int8_t>(), pool);
      break;
    default:
      name = "xnn_setup_convolution2d_nhwc_qc8";
      status = xnn_setup_convolution2d_nhwc_qc8(op_.get(), n, h, w, input.data<int8_t>(),
                                                output->data<int8_t>(), pool);
      break;
  }
  RETURN_IF_ERROR(FromXnnStatus(status, name));
  return FromXnnStatus(xnn_run_operator(op_.get(), pool), "xnn_run_operator (convolution)");
}

}  // namespace qnnc::kernels::xnnpack
