// qnn.lookup's fast kernel: out[i] = table[byte of x[i]] over 8-bit data,
// split over threads; bit-exact with reference::Lookup (the same table read).
#ifndef QNNC_KERNELS_ELEMENTWISE_LOOKUP_H_
#define QNNC_KERNELS_ELEMENTWISE_LOOKUP_H_

#include <cstdint>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

// `table` holds 256 bytes; the result has `out_dtype` (u8 or i8) and x's
// shape, written in place when `out` already has them.
absl::Status Lookup(const tensor::Tensor& x, const uint8_t* table, tensor::DType out_dtype, tensor::Tensor* out,
                    pthreadpool_t pool);

// The loop itself, for kernels that map bytes on the way (a blocked
// concat): out[i] = table[in[i]] for n bytes on the calling thread, in the
// widest code the instruction-set cap allows (picked once by the caller).
using LookupBytesFn = void (*)(const uint8_t* in, uint8_t* out, const uint8_t* table, int64_t n);
LookupBytesFn PickLookupBytes();

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_LOOKUP_H_
