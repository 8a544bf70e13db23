// Float elementwise kernels for what dynamically quantized models keep in
// float (each the fast path of its reference kernel, bit-exact with it:
// the same float operation per element, no FMA contraction, no reordering):
//  - add, subtract, multiply of f32 tensors, one of them broadcast as the
//    models do it: a scalar, a per-channel bias [1, C, 1, 1], a trailing
//    vector [K] against [M, K], or the same shape;
//  - relu, clip, sigmoid, leaky_relu, hard_sigmoid, hard_swish and tanh of
//    f32;
//  - cast of i32, u8 or i8 to f32;
//  - DynamicQuantizeLinear: one pass for min/max, one to quantize.
// Each writes `out` in place when it already has the result's dtype and
// shape (planned memory), else replaces it; `pool` splits the elements
// (nullptr: this thread).
#ifndef QNNC_KERNELS_ELEMENTWISE_FLOAT_OPS_H_
#define QNNC_KERNELS_ELEMENTWISE_FLOAT_OPS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::elementwise {

enum class FloatBinaryOp { kAdd, kSubtract, kMultiply };

// Whether FloatBinary takes these shapes: `b` (or, for add and multiply,
// `a`) equal to the result's shape, or, aligned to its trailing dims, ones
// around one run of dims equal to the result's.
bool FloatBinarySupported(FloatBinaryOp op, const tensor::Shape& a, const tensor::Shape& b);
absl::Status FloatBinary(FloatBinaryOp op, const tensor::Tensor& a, const tensor::Tensor& b,
                         tensor::Tensor* out, pthreadpool_t pool);

// x < 0 ? 0 : x (NaN stays NaN, -0 stays -0), as reference::Relu.
absl::Status ReluF32(const tensor::Tensor& x, tensor::Tensor* out, pthreadpool_t pool);
// x < lo ? lo : (x > hi ? hi : x), as reference::Clip for f32 (lo <= hi).
absl::Status ClipF32(const tensor::Tensor& x, float lo, float hi, tensor::Tensor* out,
                     pthreadpool_t pool);
// 1 / (1 + expf(-x)), as reference::Sigmoid: the same libm expf per element
// (not vectorized: a vector exp would round differently), split over threads.
absl::Status SigmoidF32(const tensor::Tensor& x, tensor::Tensor* out, pthreadpool_t pool);

// The activations real exports keep in float when not quantized (MobileNetV3
// dynamically quantized), each reference::<Kind>'s float expression:
//   kLeakyRelu    x < 0 ? alpha * x : x
//   kHardSigmoid  clamp(alpha * x + beta, 0, 1)
//   kHardSwish    x * clamp(x * (1/6) + 0.5, 0, 1)
//   kTanh         libm tanhf per element (not vectorized, like sigmoid)
enum class FloatActivation { kLeakyRelu, kHardSigmoid, kHardSwish, kTanh };
absl::Status ActivationF32(FloatActivation kind, const tensor::Tensor& x, float alpha, float beta,
                           tensor::Tensor* out, pthreadpool_t pool);
// i32, u8 or i8 to f32 (round to nearest even, as the reference's double
// then float).
absl::Status CastToF32(const tensor::Tensor& x, tensor::Tensor* out, pthreadpool_t pool);

// reference::DynamicQuantize: lo = min(0, min(x)), hi = max(0, max(x)) (NaN
// ignored, an infinity an error naming its index), scale = (hi - lo) / 255
// or 1, zp = nearbyint(clamp(-lo / scale, 0, 255)), y = saturate(nearbyint(x
// / scale) + zp). Writes y (u8, x's shape), scale (f32 scalar) and zp (u8
// scalar). `known_range` (lo, hi), when given and finite, is x's range
// computed by its producer (a dynamic convolution's epilogue): the first
// pass is skipped. Not finite (an infinity in x): the pass runs and names it.
absl::Status DynamicQuantizeU8(const tensor::Tensor& x, tensor::Tensor* y, tensor::Tensor* scale,
                               tensor::Tensor* zero_point, pthreadpool_t pool,
                               const float* known_range = nullptr);

}  // namespace qnnc::kernels::elementwise

#endif  // QNNC_KERNELS_ELEMENTWISE_FLOAT_OPS_H_
