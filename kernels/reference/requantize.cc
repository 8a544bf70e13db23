#include "kernels/reference/requantize.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {

using internal::Error;
using internal::Name;
using internal::PerChannel;
using tensor::DType;
using tensor::Tensor;

absl::StatusOr<Tensor> Requantize(const Tensor& input, const Tensor& input_scale,
                                  const Tensor& input_zero_point, const Tensor& output_scale,
                                  const Tensor& output_zero_point, int64_t axis, DType out_dtype,
                                  std::optional<int64_t> clamp_min,
                                  std::optional<int64_t> clamp_max) {
  constexpr absl::string_view kKernel = "Requantize";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&input}));
  if (!tensor::IsInteger(input.dtype()) || !tensor::IsInteger(out_dtype)) {
    return Error(kKernel, "input and out_dtype must be integer types, got ", Name(input.dtype()),
                 " -> ", Name(out_dtype));
  }
  // Channel count along `axis`, needed only when a parameter is per-channel.
  int64_t channels = 1, inner = 1;
  const bool per_channel = input_scale.num_elements() != 1 || output_scale.num_elements() != 1 ||
                           input_zero_point.num_elements() != 1 ||
                           output_zero_point.num_elements() != 1;
  if (per_channel) {
    ASSIGN_OR_RETURN(int64_t a, internal::NormalizeAxis(kKernel, axis, input.rank()));
    channels = input.dim(a);
    for (int64_t d = a + 1; d < input.rank(); ++d) inner *= input.dim(d);
  }
  ASSIGN_OR_RETURN(std::vector<float> in_scale,
                   internal::ReadScales(kKernel, "input_scale", input_scale, channels));
  ASSIGN_OR_RETURN(std::vector<float> out_scale,
                   internal::ReadScales(kKernel, "output_scale", output_scale, channels));
  ASSIGN_OR_RETURN(
      std::vector<int64_t> in_zp,
      internal::ReadZeroPoints(kKernel, "input_zero_point", input_zero_point, channels));
  ASSIGN_OR_RETURN(
      std::vector<int64_t> out_zp,
      internal::ReadZeroPoints(kKernel, "output_zero_point", output_zero_point, channels));
  for (float s : out_scale) {
    if (s == 0) return Error(kKernel, "output_scale must be nonzero");
  }
  const int64_t lo =
      std::max(clamp_min.value_or(tensor::DTypeMin(out_dtype)), tensor::DTypeMin(out_dtype));
  const int64_t hi =
      std::min(clamp_max.value_or(tensor::DTypeMax(out_dtype)), tensor::DTypeMax(out_dtype));
  if (lo > hi)
    return Error(kKernel, "empty clamp range [", lo, ", ", hi, "] for ", Name(out_dtype));

  std::vector<float> multiplier(std::max(in_scale.size(), out_scale.size()));
  for (size_t c = 0; c < multiplier.size(); ++c) {
    multiplier[c] = PerChannel(in_scale, c) / PerChannel(out_scale, c);
  }
  const std::vector<int64_t> x = internal::IntValues(input);
  std::vector<int64_t> q(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t c = per_channel ? (static_cast<int64_t>(i) / inner) % channels : 0;
    const float v = internal::DiffToFloat(x[i], PerChannel(in_zp, c)) * PerChannel(multiplier, c);
    // NaN (0 * inf with an extreme multiplier) maps to the output zero point.
    const double r = (std::isnan(v) ? 0.0 : static_cast<double>(internal::RoundHalfEven(v))) +
                     static_cast<double>(PerChannel(out_zp, c));
    q[i] = internal::SaturateToInt(r, lo, hi);
  }
  return internal::IntTensor(out_dtype, input.shape(), q);
}

}  // namespace qnnc::kernels::reference
