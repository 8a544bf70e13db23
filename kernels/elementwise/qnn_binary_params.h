// The per-tensor quantization of a quantized binary op's operands and result
// (qnn.add, qnn.mul): real = scale * (q - zero_point).
#ifndef QNNC_KERNELS_ELEMENTWISE_QNN_BINARY_PARAMS_H_
#define QNNC_KERNELS_ELEMENTWISE_QNN_BINARY_PARAMS_H_

#include <cstdint>

namespace qnnc::kernels::elementwise {

struct QnnBinaryParams {
  float a_scale = 1, b_scale = 1, out_scale = 1;
  int32_t a_zero_point = 0, b_zero_point = 0, out_zero_point = 0;
};

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_QNN_BINARY_PARAMS_H_
