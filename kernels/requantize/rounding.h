// The requantize kernels' rounding modes are tensor::Rounding (one enum, one
// to/from-string, shared with the IR).
#ifndef QNNC_KERNELS_REQUANTIZE_ROUNDING_H_
#define QNNC_KERNELS_REQUANTIZE_ROUNDING_H_

#include "tensor/rounding.h"

namespace qnnc::kernels::requantize {

using tensor::ParseRounding;
using tensor::Rounding;
using tensor::RoundingName;

}  // namespace qnnc::kernels::requantize

#endif  // QNNC_KERNELS_REQUANTIZE_ROUNDING_H_
