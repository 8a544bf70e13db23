#include "kernels/reference/quantize.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using internal::PerChannel;
using tensor::DType;
using tensor::Tensor;

// Channel count and inner block size along `axis` when any of the parameter
// tensors has more than one element; (1, 1) otherwise.
absl::StatusOr<std::pair<int64_t, int64_t>> ChannelLayout(absl::string_view kernel, const Tensor& x,
                                                          int64_t axis, const Tensor& scale,
                                                          const Tensor& zero_point) {
  if (scale.num_elements() == 1 && zero_point.num_elements() == 1) return std::make_pair(1, 1);
  ASSIGN_OR_RETURN(int64_t a, internal::NormalizeAxis(kernel, axis, x.rank()));
  int64_t inner = 1;
  for (int64_t d = a + 1; d < x.rank(); ++d) inner *= x.dim(d);
  return std::make_pair(x.dim(a), inner);
}

// nearbyint(v) + zp saturated to [lo, hi]; NaN gives the zero point.
int64_t QuantizeValue(float v, int64_t zp, int64_t lo, int64_t hi) {
  if (std::isnan(v)) return std::clamp(zp, lo, hi);
  return internal::SaturateToInt(static_cast<double>(internal::RoundHalfEven(v)) + zp, lo, hi);
}

}  // namespace

absl::StatusOr<Tensor> Quantize(const Tensor& x, const Tensor& scale, const Tensor& zero_point,
                                int64_t axis, DType out_dtype) {
  constexpr absl::string_view kKernel = "Quantize";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  if (x.dtype() != DType::kF32 && x.dtype() != DType::kF16 && x.dtype() != DType::kI32) {
    return Error(kKernel, "input must be f32, f16 or i32, got ", Name(x.dtype()));
  }
  if (!tensor::IsInteger(out_dtype)) {
    return Error(kKernel, "out_dtype must be an integer type, got ", Name(out_dtype));
  }
  ASSIGN_OR_RETURN(auto layout, ChannelLayout(kKernel, x, axis, scale, zero_point));
  const auto [channels, inner] = layout;
  ASSIGN_OR_RETURN(std::vector<float> s, internal::ReadScales(kKernel, "scale", scale, channels));
  ASSIGN_OR_RETURN(std::vector<int64_t> zp,
                   internal::ReadZeroPoints(kKernel, "zero_point", zero_point, channels));
  const int64_t lo = tensor::DTypeMin(out_dtype), hi = tensor::DTypeMax(out_dtype);
  for (float v : s) {
    if (v == 0) return Error(kKernel, "scale must be nonzero");
  }
  for (int64_t z : zp) {
    if (z < lo || z > hi)
      return Error(kKernel, "zero point ", z, " does not fit ", Name(out_dtype));
  }
  std::vector<float> xs;
  if (x.dtype() == DType::kI32) {
    xs.resize(x.num_elements());
    for (int64_t i = 0; i < x.num_elements(); ++i) xs[i] = static_cast<float>(x.data<int32_t>()[i]);
  } else {
    xs = internal::FloatValues(x);
  }
  std::vector<int64_t> q(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    const int64_t c = (static_cast<int64_t>(i) / inner) % channels;
    q[i] = QuantizeValue(xs[i] / PerChannel(s, c), PerChannel(zp, c), lo, hi);
  }
  return internal::IntTensor(out_dtype, x.shape(), q);
}

absl::StatusOr<Tensor> Dequantize(const Tensor& q, const Tensor& scale, const Tensor& zero_point,
                                  int64_t axis) {
  constexpr absl::string_view kKernel = "Dequantize";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&q}));
  if (!tensor::IsInteger(q.dtype())) {
    return Error(kKernel, "input must be an integer tensor, got ", Name(q.dtype()));
  }
  ASSIGN_OR_RETURN(auto layout, ChannelLayout(kKernel, q, axis, scale, zero_point));
  const auto [channels, inner] = layout;
  ASSIGN_OR_RETURN(std::vector<float> s, internal::ReadScales(kKernel, "scale", scale, channels));
  ASSIGN_OR_RETURN(std::vector<int64_t> zp,
                   internal::ReadZeroPoints(kKernel, "zero_point", zero_point, channels));
  const std::vector<int64_t> values = internal::IntValues(q);
  Tensor out = Tensor::Zeros(DType::kF32, q.shape());
  float* y = out.data<float>();
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t c = (static_cast<int64_t>(i) / inner) % channels;
    y[i] = internal::DiffToFloat(values[i], PerChannel(zp, c)) * PerChannel(s, c);
  }
  return out;
}

absl::StatusOr<DynamicQuantizeResult> DynamicQuantize(const Tensor& x) {
  constexpr absl::string_view kKernel = "DynamicQuantize";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  if (x.dtype() != DType::kF32) return Error(kKernel, "input must be f32, got ", Name(x.dtype()));
  const float* xs = x.data<float>();
  float lo = 0.0f, hi = 0.0f;
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    if (std::isinf(xs[i])) return Error(kKernel, "input element ", i, " is infinite");
    if (xs[i] < lo) lo = xs[i];
    if (xs[i] > hi) hi = xs[i];
  }
  const float scale = hi == lo ? 1.0f : (hi - lo) / 255.0f;
  if (!std::isfinite(scale)) return Error(kKernel, "input range [", lo, ", ", hi, "] is too wide");
  const float initial_zp = std::clamp(0.0f - lo / scale, 0.0f, 255.0f);
  const int64_t zp = static_cast<int64_t>(internal::RoundHalfEven(initial_zp));
  std::vector<int64_t> q(x.num_elements());
  for (int64_t i = 0; i < x.num_elements(); ++i) q[i] = QuantizeValue(xs[i] / scale, zp, 0, 255);
  DynamicQuantizeResult result;
  result.y = internal::IntTensor(DType::kU8, x.shape(), q);
  result.y_scale = Tensor::Scalar<float>(scale);
  result.y_zero_point = Tensor::Scalar<uint8_t>(static_cast<uint8_t>(zp));
  return result;
}

}  // namespace qnnc::kernels::reference
