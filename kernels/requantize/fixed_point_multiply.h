// The integer core of a fixed-point requantize, as its own kernel so the
// canonicalized graph can spell requantize as integer ops:
//   y[i] = saturate_i32(RequantizeValue(x[i], {multiplier[c], shift[c]}, rounding))
// where c is i's index along `axis` (multiplier and shift are scalars or
// 1-D per channel).
#ifndef QNNC_KERNELS_REQUANTIZE_FIXED_POINT_MULTIPLY_H_
#define QNNC_KERNELS_REQUANTIZE_FIXED_POINT_MULTIPLY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "kernels/requantize/rounding.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::requantize {

absl::StatusOr<tensor::Tensor> FixedPointMultiply(const tensor::Tensor& x,
                                                  const tensor::Tensor& multiplier,
                                                  const tensor::Tensor& shift, int64_t axis,
                                                  Rounding rounding);

}  // namespace qnnc::kernels::requantize

#endif  // QNNC_KERNELS_REQUANTIZE_FIXED_POINT_MULTIPLY_H_
