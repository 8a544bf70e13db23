#include "kernels/requantize/fixed_point_multiply.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "kernels/requantize/requantize.h"

namespace qnnc::kernels::requantize {

absl::StatusOr<tensor::Tensor> FixedPointMultiply(const tensor::Tensor& x,
                                                  const tensor::Tensor& multiplier,
                                                  const tensor::Tensor& shift, int64_t axis,
                                                  Rounding rounding) {
  if (x.dtype() != tensor::DType::kI32 || multiplier.dtype() != tensor::DType::kI32 ||
      shift.dtype() != tensor::DType::kI32) {
    return absl::InvalidArgumentError("FixedPointMultiply: x, multiplier and shift must be i32");
  }
  if (rounding == Rounding::kFloatToNearestEven) {
    return absl::InvalidArgumentError("FixedPointMultiply: needs UPWARD or TONEAREST rounding");
  }
  if (multiplier.num_elements() != shift.num_elements() || multiplier.num_elements() == 0) {
    return absl::InvalidArgumentError("FixedPointMultiply: multiplier and shift differ in size");
  }
  int64_t channels = multiplier.num_elements();
  int64_t inner = 1;
  if (channels > 1) {
    int64_t a = axis < 0 ? axis + x.rank() : axis;
    if (a < 0 || a >= x.rank() || x.dim(a) != channels) {
      return absl::InvalidArgumentError(absl::StrCat("FixedPointMultiply: ", channels,
                                                     " multipliers do not match axis ", axis));
    }
    for (int64_t d = a + 1; d < x.rank(); ++d) inner *= x.dim(d);
  }
  auto out = tensor::Tensor::Create(tensor::DType::kI32, x.shape());
  if (!out.ok()) return out.status();
  const int32_t* in = x.data<int32_t>();
  int32_t* y = out->data<int32_t>();
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    int64_t c = channels == 1 ? 0 : (i / inner) % channels;
    FixedPointMultiplier m{multiplier.data<int32_t>()[c], shift.data<int32_t>()[c]};
    int64_t v = RequantizeValue(in[i], m, rounding);
    y[i] = static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                    std::numeric_limits<int32_t>::max()));
  }
  return out;
}

}  // namespace qnnc::kernels::requantize
