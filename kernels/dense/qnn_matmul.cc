#include "kernels/dense/qnn_matmul.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "kernels/cpu_clones.h"
#include "util/status_macros.h"

namespace qnnc::kernels::dense {
namespace {

using tensor::DType;
using tensor::Tensor;

absl::Status Invalid(const std::string& what) {
  return absl::InvalidArgumentError("QnnMatMulConstB: " + what);
}

constexpr int64_t kColumns = 128;  // output columns per work item

struct Task {
  const void* a;
  bool a_signed;
  const int16_t* b;
  const int32_t* col_sum;
  int32_t za;
  int32_t* out;
  int64_t k, n;

  template <typename T>
  QNNC_CLONE_BODY static void Rows(const Task& t, int64_t m, int64_t n0, int64_t cols) {
    const T* __restrict a = static_cast<const T*>(t.a) + m * t.k;
    int32_t acc[kColumns];
    for (int64_t j = 0; j < cols; ++j) acc[j] = 0;
    for (int64_t k = 0; k < t.k; ++k) {
      const int32_t av = a[k];
      const int16_t* __restrict b = t.b + k * t.n + n0;
      for (int64_t j = 0; j < cols; ++j) acc[j] += av * b[j];
    }
    int32_t* __restrict out = t.out + m * t.n + n0;
    for (int64_t j = 0; j < cols; ++j) out[j] = acc[j] - t.za * t.col_sum[n0 + j];
  }

  QNNC_CLONE_BODY static void Body(void* ctx, size_t m, size_t block) {
    const Task& t = *static_cast<const Task*>(ctx);
    const int64_t n0 = static_cast<int64_t>(block) * kColumns;
    const int64_t cols = std::min(kColumns, t.n - n0);
    if (t.a_signed) {
      Rows<int8_t>(t, static_cast<int64_t>(m), n0, cols);
    } else {
      Rows<uint8_t>(t, static_cast<int64_t>(m), n0, cols);
    }
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<QnnMatMulConstB>> QnnMatMulConstB::Create(const Tensor& b,
                                                                         const Tensor& zb,
                                                                         DType a_dtype,
                                                                         bool b_is_nk) {
  if (!b.defined() || b.rank() != 2 || (b.dtype() != DType::kU8 && b.dtype() != DType::kI8)) {
    return Invalid(b_is_nk ? "the weight must be u8 or i8 [N, K]" : "b must be u8 or i8 [K, N]");
  }
  if (a_dtype != DType::kU8 && a_dtype != DType::kI8) return Invalid("a must be u8 or i8");
  const int64_t k = b_is_nk ? b.dim(1) : b.dim(0), n = b_is_nk ? b.dim(0) : b.dim(1);
  if (!zb.defined() || (zb.num_elements() != 1 && zb.num_elements() != n)) {
    return Invalid(absl::StrCat("b's zero point must hold 1 or ", n, " values"));
  }
  if (k <= 0 || n <= 0 || k > (int64_t{1} << 31) / (255 * 255)) {
    return Invalid(absl::StrCat(k, " products per output: empty, or could overflow int32"));
  }
  std::unique_ptr<QnnMatMulConstB> m(new QnnMatMulConstB());
  m->k_ = k;
  m->n_ = n;
  m->a_dtype_ = a_dtype;
  m->b_.resize(k * n);
  m->col_sum_.assign(n, 0);
  const int64_t lo = tensor::DTypeMin(b.dtype()), hi = tensor::DTypeMax(b.dtype());
  for (int64_t j = 0; j < n; ++j) {
    const int64_t z = zb.GetAsInt(zb.num_elements() == 1 ? 0 : j);
    if (z < lo || z > hi) return Invalid(absl::StrCat("b's zero point ", z, " is outside b's range"));
    for (int64_t i = 0; i < k; ++i) {
      const int32_t v = static_cast<int32_t>(b.GetAsInt(b_is_nk ? j * k + i : i * n + j) - z);
      m->b_[i * n + j] = static_cast<int16_t>(v);
      m->col_sum_[j] += v;
    }
  }
  return m;
}

absl::Status QnnMatMulConstB::Run(const Tensor& a, int32_t za, Tensor* out, pthreadpool_t pool) const {
  if (!a.defined() || a.dtype() != a_dtype_ || a.rank() < 1 || a.dim(a.rank() - 1) != k_) {
    return Invalid(absl::StrCat("a must be ", tensor::DTypeName(a_dtype_), " [..., ", k_, "]"));
  }
  if (za < tensor::DTypeMin(a_dtype_) || za > tensor::DTypeMax(a_dtype_)) {
    return Invalid(absl::StrCat("a's zero point ", za, " is outside a's range"));
  }
  tensor::Shape shape = a.shape();
  shape.back() = n_;
  if (out == nullptr) return Invalid("out is null");
  if (!out->defined() || out->dtype() != DType::kI32 || out->shape() != shape) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(DType::kI32, shape));
  }
  const int64_t rows = a.num_elements() / k_;
  Task t{a.raw_data(), a_dtype_ == DType::kI8, b_.data(), col_sum_.data(), za, out->data<int32_t>(), k_, n_};
  pthreadpool_parallelize_2d(pool, CpuClones<&Task::Body>::Pick(), &t, static_cast<size_t>(rows),
                             static_cast<size_t>((n_ + kColumns - 1) / kColumns), 0);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::dense
