// A tensor of random bytes for kernel tests (any dtype: every byte drawn,
// so float tensors may hold any bit pattern the kernel must move intact).
#ifndef QNNC_KERNELS_TESTING_RANDOM_TENSOR_H_
#define QNNC_KERNELS_TESTING_RANDOM_TENSOR_H_

#include <cstdint>
#include <random>

#include "tensor/tensor.h"

namespace qnnc::kernels::testing {

inline tensor::Tensor RandomBytes(tensor::DType dtype, const tensor::Shape& shape, std::mt19937& rng) {
  tensor::Tensor t = *tensor::Tensor::Create(dtype, shape);
  auto* b = static_cast<uint8_t*>(t.raw_data());
  for (size_t i = 0; i < t.byte_size(); ++i) b[i] = static_cast<uint8_t>(rng());
  return t;
}

}  // namespace qnnc::kernels::testing

#endif  // QNNC_KERNELS_TESTING_RANDOM_TENSOR_H_
