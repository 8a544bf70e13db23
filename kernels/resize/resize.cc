#include "kernels/resize/resize.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace qnnc::kernels::resize {
namespace {

using tensor::DType;
using tensor::Tensor;

struct Task {
  const float* in;
  float* out;
  int64_t h, w, out_h, out_w;
  int64_t lanes;  // 1 (NCHW) or the block k of NCHW{k}c: a pixel's lanes
  const reference::ResizePlan* plan;

  // Output rows [row, row + count) of all planes, rows numbered plane-major.
  static void Run(void* ctx, size_t first, size_t count) {
    const Task& t = *static_cast<const Task*>(ctx);
    const reference::ResizeTaps& ty = t.plan->y;
    const reference::ResizeTaps& tx = t.plan->x;
    const int64_t* __restrict x0s = tx.lo.data();
    const int64_t* __restrict x1s = tx.hi.data();
    const float* __restrict wxs = tx.weight.data();
    const int64_t L = t.lanes;
    for (size_t r = first; r < first + count; ++r) {
      const int64_t plane = static_cast<int64_t>(r) / t.out_h, oy = static_cast<int64_t>(r) % t.out_h;
      const float* p = t.in + plane * t.h * t.w * L;
      const float* __restrict r0 = p + ty.lo[oy] * t.w * L;
      const float* __restrict r1 = p + ty.hi[oy] * t.w * L;
      float* __restrict y = t.out + static_cast<int64_t>(r) * t.out_w * L;
      if (L > 1) {
        // Blocked: the same expression per lane (the lanes vectorize).
        const float wy = t.plan->linear ? ty.weight[oy] : 0.0f;
        for (int64_t ox = 0; ox < t.out_w; ++ox) {
          const float* a0 = r0 + x0s[ox] * L;
          float* o = y + ox * L;
          if (!t.plan->linear) {
            for (int64_t l = 0; l < L; ++l) o[l] = a0[l];
            continue;
          }
          const float* a1 = r0 + x1s[ox] * L;
          const float* b0 = r1 + x0s[ox] * L;
          const float* b1 = r1 + x1s[ox] * L;
          const float wx = wxs[ox];
          for (int64_t l = 0; l < L; ++l) {
            const float top = a0[l] * (1 - wx) + a1[l] * wx;
            const float bottom = b0[l] * (1 - wx) + b1[l] * wx;
            o[l] = top * (1 - wy) + bottom * wy;
          }
        }
        continue;
      }
      if (!t.plan->linear) {
        for (int64_t ox = 0; ox < t.out_w; ++ox) y[ox] = r0[x0s[ox]];
        continue;
      }
      const float wy = ty.weight[oy];
      // The reference's expression, term for term (no FMA: -ffp-contract=off).
      for (int64_t ox = 0; ox < t.out_w; ++ox) {
        const float wx = wxs[ox];
        const float top = r0[x0s[ox]] * (1 - wx) + r0[x1s[ox]] * wx;
        const float bottom = r1[x0s[ox]] * (1 - wx) + r1[x1s[ox]] * wx;
        y[ox] = top * (1 - wy) + bottom * wy;
      }
    }
  }
};

}  // namespace

absl::Status ResizeF32(const Tensor& x, int64_t out_h, int64_t out_w,
                       const reference::ResizeParams& params, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || x.dtype() != DType::kF32 || (x.rank() != 4 && x.rank() != 5) ||
      out == nullptr) {
    return absl::InvalidArgumentError(
        "ResizeF32: needs f32 [N, C, H, W] or [N, C/k, H, W, k] and an output");
  }
  const int64_t lanes = x.rank() == 5 ? x.dim(4) : 1;
  tensor::Shape shape = {x.dim(0), x.dim(1), out_h, out_w};
  if (lanes > 1 || x.rank() == 5) shape.push_back(lanes);
  if (!out->defined() || out->dtype() != DType::kF32 || out->shape() != shape) {
    auto t = Tensor::CreateForOverwrite(DType::kF32, shape);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  auto plan = reference::PlanResize2D({x.dim(0), x.dim(1), x.dim(2), x.dim(3)}, out_h, out_w, params);
  if (!plan.ok()) return plan.status();
  if (out->num_elements() == 0) return absl::OkStatus();
  Task t{x.data<float>(), out->data<float>(), x.dim(2), x.dim(3), out_h, out_w, lanes, &*plan};
  const size_t rows = static_cast<size_t>(x.dim(0) * x.dim(1) * out_h);
  // Rows of at least ~16K outputs per item; small outputs on this thread.
  const size_t tile =
      static_cast<size_t>(std::max<int64_t>(1, 16384 / std::max<int64_t>(1, out_w * lanes)));
  if (pool == nullptr || out->num_elements() <= 65536) {
    Task::Run(&t, 0, rows);
  } else {
    pthreadpool_parallelize_1d_tile_1d(pool, &Task::Run, &t, rows, tile, 0);
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::resize
