#include "kernels/xnnpack/dense.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "kernels/xnnpack/conv2d.h"
#include "util/status_macros.h"

namespace qnnc::kernels::xnnpack {

using tensor::DType;
using tensor::Tensor;

absl::Status CheckSupported(Variant variant, const DenseParams& p) {
  if (variant == Variant::kQc8) {
    return absl::UnimplementedError(
        "this XNNPACK (Debian's 0.0~git20220216) has no qc8 fully connected operator; use qs8 or qu8");
  }
  if (!RoundsHalfToEven(variant)) {
    return absl::UnimplementedError(absl::StrCat(
        "XNNPACK's ", VariantName(variant), " fully connected operator on this architecture "
        "rounds ties upward (rndnu), not to even as the reference does"));
  }
  // A fully connected layer is a 1x1 convolution: share the checks.
  ConvParams c;
  c.group_input_channels = p.input_channels;
  c.group_output_channels = p.output_channels;
  c.input_zero_point = p.input_zero_point;
  c.input_scale = p.input_scale;
  c.kernel_zero_point = p.kernel_zero_point;
  c.kernel_scale = {p.kernel_scale};
  c.output_zero_point = p.output_zero_point;
  c.output_scale = p.output_scale;
  c.output_min = p.output_min;
  c.output_max = p.output_max;
  return CheckSupported(variant, c);
}

absl::StatusOr<std::unique_ptr<Dense>> Dense::Create(Variant variant, const DenseParams& p,
                                                     const Tensor& weight, const Tensor& bias_i32) {
  RETURN_IF_ERROR(InitializeXnnpack());
  RETURN_IF_ERROR(CheckSupported(variant, p));
  const DType dtype = DataType(variant);
  const tensor::Shape want{p.output_channels, p.input_channels};
  if (!weight.defined() || weight.dtype() != dtype || weight.shape() != want) {
    return absl::InvalidArgumentError(absl::StrCat(VariantName(variant),
                                                   " dense weight must be ",
                                                   tensor::DTypeName(dtype), " ",
                                                   tensor::ShapeToString(want), " ([N, K])"));
  }
  const int32_t* bias = nullptr;
  if (bias_i32.defined()) {
    if (bias_i32.dtype() != DType::kI32 || bias_i32.num_elements() != p.output_channels) {
      return absl::InvalidArgumentError(
          absl::StrCat("dense bias must be i32 with ", p.output_channels, " elements"));
    }
    bias = bias_i32.data<int32_t>();
  }
  const int64_t lo = tensor::DTypeMin(dtype), hi = tensor::DTypeMax(dtype);
  const int32_t out_min = static_cast<int32_t>(std::max<int64_t>(p.output_min, lo));
  const int32_t out_max = static_cast<int32_t>(std::min<int64_t>(p.output_max, hi));
  const size_t k = p.input_channels, n = p.output_channels;

  std::unique_ptr<Dense> dense(new Dense(variant, p));
  xnn_operator_t op = nullptr;
  xnn_status status;
  const char* name;
  if (variant == Variant::kQu8) {
    name = "xnn_create_fully_connected_nc_qu8";
    status = xnn_create_fully_connected_nc_qu8(
        k, n, k, n, static_cast<uint8_t>(p.input_zero_point), p.input_scale,
        static_cast<uint8_t>(p.kernel_zero_point), p.kernel_scale, weight.data<uint8_t>(), bias,
        static_cast<uint8_t>(p.output_zero_point), p.output_scale, static_cast<uint8_t>(out_min),
        static_cast<uint8_t>(out_max), /*flags=*/0, &op);
  } else {
    name = "xnn_create_fully_connected_nc_qs8";
    status = xnn_create_fully_connected_nc_qs8(
        k, n, k, n, static_cast<int8_t>(p.input_zero_point), p.input_scale, p.kernel_scale,
        weight.data<int8_t>(), bias, static_cast<int8_t>(p.output_zero_point), p.output_scale,
        static_cast<int8_t>(out_min), static_cast<int8_t>(out_max), /*flags=*/0, &op);
  }
  RETURN_IF_ERROR(FromXnnStatus(status, name));
  dense->op_.reset(op);
  return dense;
}

absl::Status Dense::Run(const Tensor& input, Tensor* output, pthreadpool_t pool) const {
  const DType dtype = DataType(variant_);
  if (!input.defined() || input.dtype() != dtype || input.rank() < 1 ||
      input.shape().back() != params_.input_channels) {
    return absl::InvalidArgumentError(absl::StrCat(
        VariantName(variant_), " dense input must be ", tensor::DTypeName(dtype), " [..., ",
        params_.input_channels, "], got ",
        input.defined() ? absl::StrCat(tensor::DTypeName(input.dtype()), " ",
                                       tensor::ShapeToString(input.shape()))
                        : "undefined"));
  }
  tensor::Shape out_shape = input.shape();
  out_shape.back() = params_.output_channels;
  if (output == nullptr) return absl::InvalidArgumentError("dense output is null");
  if (!output->defined()) {
    ASSIGN_OR_RETURN(*output, Tensor::CreateForOverwrite(dtype, out_shape));
  } else if (output->dtype() != dtype || output->shape() != out_shape) {
    return absl::InvalidArgumentError(absl::StrCat("dense output must be ",
                                                   tensor::DTypeName(dtype), " ",
                                                   tensor::ShapeToString(out_shape)));
  }
  const size_t batch = input.num_elements() / params_.input_channels;
  if (batch == 0) return absl::OkStatus();

  std::lock_guard<std::mutex> lock(mu_);
  xnn_status status;
  const char* name;
  if (variant_ == Variant::kQu8) {
    name = "xnn_setup_fully_connected_nc_qu8";
    status = xnn_setup_fully_connected_nc_qu8(op_.get(), batch, input.data<uint8_t>(),
                                              output->data<uint8_t>(), pool);
  } else {
    name = "xnn_setup_fully_connected_nc_qs8";
    status = xnn_setup_fully_connected_nc_qs8(op_.get(), batch, input.data<int8_t>(),
                                              output->data<int8_t>(), pool);
  }
  RETURN_IF_ERROR(FromXnnStatus(status, name));
  return FromXnnStatus(xnn_run_operator(op_.get(), pool), "xnn_run_operator (fully connected)");
}

}  // namespace qnnc::kernels::xnnpack
