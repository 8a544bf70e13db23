// Integer fully connected layer with constant weights: the fast path of
// reference::QnnDense with zero points 0 (what the u8s8/s8s8 legalizations
// leave: nn.dense of 8-bit data and int8 weights -> i32), bit-exact with it:
//   out[m, n] = sum_k data[m, k] * weight[n, k]   (wrapping modulo 2^32)
// The weights are copied once at creation (plan load); Run is const and
// thread-safe, split over output features.
#ifndef QNNC_KERNELS_DENSE_INT8_DENSE_H_
#define QNNC_KERNELS_DENSE_INT8_DENSE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::kernels::dense {

class Int8Dense {
 public:
  // weight: i8 [N, K]; data_dtype: u8 or i8.
  static absl::StatusOr<std::unique_ptr<Int8Dense>> Create(const tensor::Tensor& weight,
                                                           tensor::DType data_dtype);

  // data: data_dtype [..., K] -> i32 [..., N]. Writes `out` in place when it
  // already has that dtype and shape, else replaces it.
  absl::Status Run(const tensor::Tensor& data, tensor::Tensor* out, pthreadpool_t pool) const;

  int64_t in_features() const { return k_; }
  int64_t out_features() const { return n_; }

 private:
  Int8Dense() = default;
  int64_t n_ = 0, k_ = 0;
  tensor::DType data_dtype_ = tensor::DType::kU8;
  std::vector<int8_t> weight_;  // [N][K]
};

}  // namespace qnnc::kernels::dense

#endif  // QNNC_KERNELS_DENSE_INT8_DENSE_H_
