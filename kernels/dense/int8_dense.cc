#include "kernels/dense/int8_dense.h"

#include <algorithm>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "kernels/cpu_clones.h"
#include "util/status_macros.h"

namespace qnnc::kernels::dense {
namespace {

using tensor::DType;
using tensor::Tensor;

// Output features per task.
constexpr size_t kFeaturesPerTask = 32;

template <typename X>
struct DenseTask {
  const X* x;  // [M][K]
  const int8_t* w;  // [N][K]
  int32_t* out;  // [M][N]
  int64_t m, n, k;

  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t n0, size_t count) {
    const DenseTask& t = *static_cast<const DenseTask*>(ctx);
    const int64_t n1 = std::min<int64_t>(t.n, static_cast<int64_t>(n0 + count));
    for (int64_t row = 0; row < t.m; ++row) {
      const X* x = t.x + row * t.k;
      for (int64_t j = static_cast<int64_t>(n0); j < n1; ++j) {
        const int8_t* w = t.w + j * t.k;
        // Unsigned accumulation wraps modulo 2^32 as the reference does; each
        // product fits int32 (at most 255 * 128).
        uint32_t acc = 0;
        for (int64_t i = 0; i < t.k; ++i) {
          acc += static_cast<uint32_t>(static_cast<int32_t>(x[i]) * static_cast<int32_t>(w[i]));
        }
        t.out[row * t.n + j] = static_cast<int32_t>(acc);
      }
    }
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Int8Dense>> Int8Dense::Create(const Tensor& weight,
                                                             DType data_dtype) {
  if (!weight.defined() || weight.dtype() != DType::kI8 || weight.rank() != 2 ||
      weight.dim(1) <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Int8Dense: weight must be i8 [N, K], got ",
        weight.defined() ? tensor::DTypeName(weight.dtype()) : "undefined", " ",
        tensor::ShapeToString(weight.shape())));
  }
  if (data_dtype != DType::kU8 && data_dtype != DType::kI8) {
    return absl::InvalidArgumentError(
        absl::StrCat("Int8Dense: data must be u8 or i8, got ", tensor::DTypeName(data_dtype)));
  }
  std::unique_ptr<Int8Dense> d(new Int8Dense());
  d->n_ = weight.dim(0);
  d->k_ = weight.dim(1);
  d->data_dtype_ = data_dtype;
  d->weight_.assign(weight.data<int8_t>(), weight.data<int8_t>() + weight.num_elements());
  return d;
}

absl::Status Int8Dense::Run(const Tensor& data, Tensor* out, pthreadpool_t pool) const {
  if (!data.defined() || data.dtype() != data_dtype_ || data.rank() < 1 ||
      data.dim(data.rank() - 1) != k_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Int8Dense: data must be ", tensor::DTypeName(data_dtype_), " [..., ", k_, "], got ",
        data.defined() ? tensor::DTypeName(data.dtype()) : "undefined", " ",
        tensor::ShapeToString(data.shape())));
  }
  if (out == nullptr) return absl::InvalidArgumentError("Int8Dense: out is null");
  tensor::Shape shape = data.shape();
  shape.back() = n_;
  if (!out->defined() || out->dtype() != DType::kI32 || out->shape() != shape) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(DType::kI32, shape));
  }
  const int64_t m = data.num_elements() / k_;
  auto launch = [&](auto* tag) {
    using X = std::remove_pointer_t<decltype(tag)>;
    DenseTask<X> t{data.data<X>(), weight_.data(), out->data<int32_t>(), m, n_, k_};
    pthreadpool_parallelize_1d_tile_1d(pool, CpuClones<&DenseTask<X>::RunBody>::Pick(), &t,
                                       static_cast<size_t>(n_), kFeaturesPerTask, 0);
  };
  if (data_dtype_ == DType::kU8) {
    launch(static_cast<uint8_t*>(nullptr));
  } else {
    launch(static_cast<int8_t*>(nullptr));
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::dense
