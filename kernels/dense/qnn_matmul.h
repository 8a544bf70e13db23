// ONNX MatMulInteger with a constant right operand (a dynamically quantized
// MatMul): the fast path of reference::QnnMatMul for a [..., K] x b [K, N],
//   out[..., n] = sum_k (a[..., k] - za) * (b[k, n] - zb[n])
// with the zero point za read per run (DynamicQuantizeLinear's) and zb one
// or N constants. Exact: b' = b - zb (int16) and its column sums are made at
// creation, then out = sum_k a * b' - za * sum_k b'[k, n] in int32 (refused
// when K products could overflow it). Run is const and thread-safe, split
// over rows and blocks of output columns.
#ifndef QNNC_KERNELS_DENSE_QNN_MATMUL_H_
#define QNNC_KERNELS_DENSE_QNN_MATMUL_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::dense {

class QnnMatMulConstB {
 public:
  // b: u8 or i8 [K, N]; b_zero_point: 1 or N values in b's range; a_dtype:
  // u8 or i8.
  // With `b_is_nk`, b is given as [N, K] (a dense layer's weight).
  static absl::StatusOr<std::unique_ptr<QnnMatMulConstB>> Create(const tensor::Tensor& b,
                                                                 const tensor::Tensor& b_zero_point,
                                                                 tensor::DType a_dtype,
                                                                 bool b_is_nk = false);

  // a: a_dtype [..., K] -> i32 [..., N]; a_zero_point in a_dtype's range.
  // Writes `out` in place when it already has that dtype and shape.
  absl::Status Run(const tensor::Tensor& a, int32_t a_zero_point, tensor::Tensor* out,
                   pthreadpool_t pool) const;

 private:
  QnnMatMulConstB() = default;
  int64_t k_ = 0, n_ = 0;
  tensor::DType a_dtype_ = tensor::DType::kU8;
  std::vector<int16_t> b_;        // [K][N] b - zb
  std::vector<int32_t> col_sum_;  // [N]
};

}  // namespace qnnc::kernels::dense

#endif  // QNNC_KERNELS_DENSE_QNN_MATMUL_H_
