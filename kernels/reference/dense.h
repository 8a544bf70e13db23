// Fully connected layers and numpy-style matrix products.
#ifndef QNNC_KERNELS_REFERENCE_DENSE_H_
#define QNNC_KERNELS_REFERENCE_DENSE_H_

#include "absl/status/statusor.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::reference {

// nn.dense: data [..., K] f32 x weight [N, K] f32 -> [..., N]; each output sums
// data[m, k] * weight[n, k] from 0.0f in increasing k.
absl::StatusOr<tensor::Tensor> DenseF32(const tensor::Tensor& data, const tensor::Tensor& weight,
                                        pthreadpool_t pool = nullptr);

// Quantized dense: data [..., K] x weight [N, K] (integers) -> i32 [..., N],
//   out[m, n] = sum_k (data[m, k] - zx) * (weight[n, k] - zw[n])
// with zx one element and zw one or N elements; wraps modulo 2^32.
absl::StatusOr<tensor::Tensor> QnnDense(const tensor::Tensor& data, const tensor::Tensor& weight,
                                        const tensor::Tensor& input_zero_point,
                                        const tensor::Tensor& kernel_zero_point,
                                        pthreadpool_t pool = nullptr);

// numpy.matmul: a [..., M, K] x b [..., K, N] -> [..., M, N] with the leading
// dimensions broadcast; a rank-1 a is [1, K] and a rank-1 b is [K, 1], the
// added dimension being removed from the result. f32 x f32 -> f32 (sum from
// 0.0f in increasing k); integer x integer -> i32 (wrapping).
absl::StatusOr<tensor::Tensor> MatMul(const tensor::Tensor& a, const tensor::Tensor& b,
                                      pthreadpool_t pool = nullptr);

// MatMul of integers with zero points -> i32: sum_k (a - za) * (b[k, n] - zb[n]),
// za one element, zb one element or one per column of b (its last dimension).
absl::StatusOr<tensor::Tensor> QnnMatMul(const tensor::Tensor& a, const tensor::Tensor& b,
                                         const tensor::Tensor& a_zero_point,
                                         const tensor::Tensor& b_zero_point,
                                         pthreadpool_t pool = nullptr);

}  // namespace qnnc::kernels::reference

#endif  // QNNC_KERNELS_REFERENCE_DENSE_H_
