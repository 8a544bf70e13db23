// Global average pooling of 8-bit data with per-tensor quantization: the
// fast path of qnn.global_avg_pool2d, which is the QDQ head
//   QuantizeLinear(GlobalAveragePool(DequantizeLinear(x)))
// computed as those three ops compute it in float32, bit-exact with them:
// each value dequantized (float(q - zp) * scale), each channel summed over
// its pixels in row-major order, divided by H * W, then quantized. It reads
// the 8-bit data once; the three ops wrote and read it again as float
// (MobileNetV2's 1280 x 7 x 7 head: 245 KB of f32).
#ifndef QNNC_KERNELS_POOL_QUANTIZED_GLOBAL_AVG_POOL_H_
#define QNNC_KERNELS_POOL_QUANTIZED_GLOBAL_AVG_POOL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::pool {

struct GlobalPoolQuantization {
  float input_scale = 1;
  int32_t input_zero_point = 0;
  float output_scale = 1;
  int32_t output_zero_point = 0;
  tensor::DType output_dtype = tensor::DType::kU8;
};

// Whether QuantizedGlobalAvgPool2D takes `q` (finite nonzero scales, zero
// points inside their 8-bit types).
bool QuantizedGlobalAvgPoolSupported(tensor::DType input_dtype, const GlobalPoolQuantization& q);

// The float means: GlobalAveragePool(DequantizeLinear(x)) as the two ops
// compute it, bit for bit; x and the layouts as below, `means` f32.
absl::Status DequantizedGlobalAvgPool2D(const tensor::Tensor& x, float scale, int32_t zero_point,
                                        tensor::Tensor* means, pthreadpool_t pool);

// x: u8 or i8 [N, C, H, W] with H * W > 0 -> out [N, C, 1, 1], or blocked
// [N, C/k, H, W, k] -> [N, C/k, 1, 1, k] (each lane as its channel). Writes
// `out` in place when it already has that dtype and shape, else replaces it.
// Split over `pool` by channels (nullptr: this thread).
absl::Status QuantizedGlobalAvgPool2D(const tensor::Tensor& x, const GlobalPoolQuantization& q,
                                      tensor::Tensor* out, pthreadpool_t pool);

}  // namespace qnnc::kernels::pool

#endif  // QNNC_KERNELS_POOL_QUANTIZED_GLOBAL_AVG_POOL_H_
