#include "kernels/elementwise/softmax.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::Tensor;

constexpr int64_t kLanes = 64;  // slices side by side when the axis is not the last

// x as [outer, n, inner]; a task is one outer index and a run of up to
// kLanes inner indices (the slices at those (outer, inner) pairs).
struct SoftmaxTask {
  const float* in;
  float* out;
  int64_t n, inner, runs_per_outer;

  static void Run(void* ctx, size_t item) {
    const SoftmaxTask& t = *static_cast<const SoftmaxTask*>(ctx);
    const int64_t i = static_cast<int64_t>(item) / t.runs_per_outer;
    const int64_t j0 = static_cast<int64_t>(item) % t.runs_per_outer * kLanes;
    const int64_t lanes = std::min(kLanes, t.inner - j0);
    const float* __restrict x = t.in + i * t.n * t.inner + j0;
    float* __restrict y = t.out + i * t.n * t.inner + j0;
    if (t.inner == 1) {
      float max = -INFINITY;
      for (int64_t k = 0; k < t.n; ++k) max = std::fmax(max, x[k]);
      float sum = 0.0f;
      for (int64_t k = 0; k < t.n; ++k) {
        const float e = std::exp(x[k] - max);
        y[k] = e;
        sum += e;
      }
      for (int64_t k = 0; k < t.n; ++k) y[k] /= sum;
      return;
    }
    float max[kLanes], sum[kLanes];
    for (int64_t l = 0; l < lanes; ++l) {
      max[l] = -INFINITY;
      sum[l] = 0.0f;
    }
    for (int64_t k = 0; k < t.n; ++k) {
      const float* xk = x + k * t.inner;
      for (int64_t l = 0; l < lanes; ++l) max[l] = std::fmax(max[l], xk[l]);
    }
    for (int64_t k = 0; k < t.n; ++k) {
      const float* xk = x + k * t.inner;
      float* yk = y + k * t.inner;
      for (int64_t l = 0; l < lanes; ++l) {
        const float e = std::exp(xk[l] - max[l]);
        yk[l] = e;
        sum[l] += e;
      }
    }
    for (int64_t k = 0; k < t.n; ++k) {
      float* yk = y + k * t.inner;
      for (int64_t l = 0; l < lanes; ++l) yk[l] /= sum[l];
    }
  }
};

}  // namespace

absl::Status SoftmaxF32(const Tensor& x, int64_t axis, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || x.dtype() != tensor::DType::kF32 || out == nullptr) {
    return absl::InvalidArgumentError("SoftmaxF32: needs an f32 tensor and an output");
  }
  const int64_t rank = x.rank();
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    return absl::InvalidArgumentError(absl::StrCat("SoftmaxF32: axis ", axis, " outside a rank-", rank, " tensor"));
  }
  if (!out->defined() || out->dtype() != tensor::DType::kF32 || out->shape() != x.shape()) {
    auto t = Tensor::CreateForOverwrite(tensor::DType::kF32, x.shape());
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < a; ++d) outer *= x.dim(d);
  for (int64_t d = a + 1; d < rank; ++d) inner *= x.dim(d);
  if (x.num_elements() == 0) return absl::OkStatus();
  SoftmaxTask task{x.data<float>(), out->data<float>(), x.dim(a), inner, (inner + kLanes - 1) / kLanes};
  pthreadpool_parallelize_1d(pool, &SoftmaxTask::Run, &task, static_cast<size_t>(outer * task.runs_per_outer), 0);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
