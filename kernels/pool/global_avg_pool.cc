#include "kernels/pool/global_avg_pool.h"

#include <algorithm>
#include <vector>

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "util/status_macros.h"

namespace qnnc::kernels::pool {
namespace {

using tensor::DType;
using tensor::Tensor;

constexpr int64_t kLanes = 8;  // planes summed side by side

struct Task {
  const float* x;
  float* out;
  int64_t planes, plane;

  // Planes [first, first + count): a sequential float sum each, as the
  // reference adds them; kLanes independent sums per step keep the adder busy.
  static void Run(void* ctx, size_t first, size_t count) {
    const Task& t = *static_cast<const Task*>(ctx);
    const int64_t end = std::min<int64_t>(t.planes, static_cast<int64_t>(first + count));
    const float n = static_cast<float>(t.plane);
    int64_t p = static_cast<int64_t>(first);
    for (; p + kLanes <= end; p += kLanes) {
      float sum[kLanes] = {};
      const float* base = t.x + p * t.plane;
      for (int64_t i = 0; i < t.plane; ++i) {
        for (int64_t l = 0; l < kLanes; ++l) sum[l] += base[l * t.plane + i];
      }
      for (int64_t l = 0; l < kLanes; ++l) t.out[p + l] = sum[l] / n;
    }
    for (; p < end; ++p) {
      float sum = 0;
      for (int64_t i = 0; i < t.plane; ++i) sum += t.x[p * t.plane + i];
      t.out[p] = sum / n;
    }
  }
};

}  // namespace

namespace {

// NCHW{k}c: each lane of each block summed over the pixels in order, as the
// reference sums its channel's plane.
absl::Status BlockedGlobalAvgPool(const Tensor& x, Tensor* out) {
  const int64_t n = x.dim(0), cb = x.dim(1), pixels = x.dim(2) * x.dim(3), k = x.dim(4);
  const tensor::Shape shape = {n, cb, 1, 1, k};
  if (!out->defined() || out->dtype() != DType::kF32 || out->shape() != shape) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(DType::kF32, shape));
  }
  const float count = static_cast<float>(pixels);
  std::vector<float> sum(k);
  for (int64_t b = 0; b < n * cb; ++b) {
    const float* in = x.data<float>() + b * pixels * k;
    std::fill(sum.begin(), sum.end(), 0.0f);
    for (int64_t p = 0; p < pixels; ++p) {
      for (int64_t l = 0; l < k; ++l) sum[l] += in[p * k + l];
    }
    for (int64_t l = 0; l < k; ++l) out->data<float>()[b * k + l] = sum[l] / count;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status GlobalAvgPool2DF32(const Tensor& x, Tensor* out, pthreadpool_t pool) {
  if (x.defined() && x.dtype() == DType::kF32 && x.rank() == 5 && x.dim(2) * x.dim(3) > 0 && out != nullptr) {
    return BlockedGlobalAvgPool(x, out);
  }
  if (!x.defined() || x.dtype() != DType::kF32 || x.rank() != 4 || x.dim(2) * x.dim(3) == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "GlobalAvgPool2DF32: needs f32 [N, C, H, W] with H * W > 0, got ",
        x.defined() ? tensor::DTypeName(x.dtype()) : "undefined", "[",
        x.defined() ? absl::StrJoin(x.shape(), ",") : "", "]"));
  }
  if (out == nullptr) return absl::InvalidArgumentError("GlobalAvgPool2DF32: out is null");
  const tensor::Shape shape = {x.dim(0), x.dim(1), 1, 1};
  if (!out->defined() || out->dtype() != DType::kF32 || out->shape() != shape) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(DType::kF32, shape));
  }
  Task t{x.data<float>(), out->data<float>(), x.dim(0) * x.dim(1), x.dim(2) * x.dim(3)};
  // Items of whole lane groups; small inputs (MobileNetV2's 1280 x 7 x 7:
  // about 10 us) on the calling thread.
  const int64_t elements = t.planes * t.plane;
  if (pool == nullptr || elements <= (64 << 10)) {
    Task::Run(&t, 0, static_cast<size_t>(t.planes));
  } else {
    pthreadpool_parallelize_1d_tile_1d(pool, &Task::Run, &t, static_cast<size_t>(t.planes),
                                       static_cast<size_t>(4 * kLanes), 0);
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::pool
