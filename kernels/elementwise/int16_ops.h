// The int16 legalization's input steps (a convolution's 8-bit data widened
// and its zero point subtracted before the int16 kernel), each the fast path
// of its reference kernel, bit-exact with it:
//  - cast of u8 or i8 to i16 (reference::Cast);
//  - subtraction of a one-element i16 tensor from an i16 tensor, wrapping
//    modulo 2^16 (reference::Subtract).
// Each writes `out` in place when it already has the result's dtype and
// shape (planned memory), else replaces it; `pool` splits the elements.
#ifndef QNNC_KERNELS_ELEMENTWISE_INT16_OPS_H_
#define QNNC_KERNELS_ELEMENTWISE_INT16_OPS_H_

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

absl::Status WidenToI16(const tensor::Tensor& x, tensor::Tensor* out, pthreadpool_t pool);
absl::Status SubtractScalarI16(const tensor::Tensor& x, const tensor::Tensor& scalar, tensor::Tensor* out,
                               pthreadpool_t pool);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_INT16_OPS_H_
