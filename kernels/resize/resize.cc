#include "kernels/resize/resize.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"

namespace qnnc::kernels::resize {
namespace {

using tensor::DType;
using tensor::Tensor;

// T: float (nearest and linear) or uint8_t (8-bit data, nearest only: each
// output a copy of one input element).
template <typename T>
struct Task {
  const T* in;
  T* out;
  int64_t h, w, out_h, out_w;
  int64_t lanes;  // 1 (NCHW) or the block k of NCHW{k}c: a pixel's lanes
  const reference::ResizePlan* plan;

  // Output rows [row, row + count) of all planes, rows numbered plane-major.
  static void Run(void* ctx, size_t first, size_t count) {
    const Task& t = *static_cast<const Task*>(ctx);
    if constexpr (std::is_same_v<T, uint8_t>) {
      RunNearest(t, first, count);
      return;
    }
    const reference::ResizeTaps& ty = t.plan->y;
    const reference::ResizeTaps& tx = t.plan->x;
    const int64_t* __restrict x0s = tx.lo.data();
    const int64_t* __restrict x1s = tx.hi.data();
    const float* __restrict wxs = tx.weight.data();
    const int64_t L = t.lanes;
    for (size_t r = first; r < first + count; ++r) {
      const int64_t plane = static_cast<int64_t>(r) / t.out_h, oy = static_cast<int64_t>(r) % t.out_h;
      const T* p = t.in + plane * t.h * t.w * L;
      const T* __restrict r0 = p + ty.lo[oy] * t.w * L;
      const T* __restrict r1 = p + ty.hi[oy] * t.w * L;
      T* __restrict y = t.out + static_cast<int64_t>(r) * t.out_w * L;
      if (L > 1) {
        // Blocked: the same expression per lane (the lanes vectorize).
        const float wy = t.plan->linear ? ty.weight[oy] : 0.0f;
        for (int64_t ox = 0; ox < t.out_w; ++ox) {
          const T* a0 = r0 + x0s[ox] * L;
          T* o = y + ox * L;
          if (!t.plan->linear) {
            for (int64_t l = 0; l < L; ++l) o[l] = a0[l];
            continue;
          }
          const T* a1 = r0 + x1s[ox] * L;
          const T* b0 = r1 + x0s[ox] * L;
          const T* b1 = r1 + x1s[ox] * L;
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

  // Nearest neighbour of any element size: rows of copied pixels (a
  // blocked pixel's lanes in one memcpy).
  static void RunNearest(const Task& t, size_t first, size_t count) {
    const int64_t L = t.lanes;
    const int64_t* xs = t.plan->x.lo.data();
    for (size_t r = first; r < first + count; ++r) {
      const int64_t plane = static_cast<int64_t>(r) / t.out_h, oy = static_cast<int64_t>(r) % t.out_h;
      const T* row = t.in + (plane * t.h + t.plan->y.lo[oy]) * t.w * L;
      T* y = t.out + static_cast<int64_t>(r) * t.out_w * L;
      if (L == 1) {
        for (int64_t ox = 0; ox < t.out_w; ++ox) y[ox] = row[xs[ox]];
      } else {
        for (int64_t ox = 0; ox < t.out_w; ++ox) std::memcpy(y + ox * L, row + xs[ox] * L, L * sizeof(T));
      }
    }
  }
};

template <typename T>
absl::Status Run(const Tensor& x, int64_t out_h, int64_t out_w, const reference::ResizeParams& params,
                 Tensor* out, pthreadpool_t pool) {
  const int64_t lanes = x.rank() == 5 ? x.dim(4) : 1;
  tensor::Shape shape = {x.dim(0), x.dim(1), out_h, out_w};
  if (x.rank() == 5) shape.push_back(lanes);
  if (!out->defined() || out->dtype() != x.dtype() || out->shape() != shape) {
    auto t = Tensor::CreateForOverwrite(x.dtype(), shape);
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  auto plan = reference::PlanResize2D({x.dim(0), x.dim(1), x.dim(2), x.dim(3)}, out_h, out_w, params);
  if (!plan.ok()) return plan.status();
  if (plan->linear && !std::is_same_v<T, float>) {
    return absl::InvalidArgumentError("Resize: linear interpolation needs f32 data");
  }
  if (out->num_elements() == 0) return absl::OkStatus();
  Task<T> t{static_cast<const T*>(x.raw_data()), static_cast<T*>(out->raw_data()), x.dim(2), x.dim(3), out_h, out_w,
            lanes, &*plan};
  const size_t rows = static_cast<size_t>(x.dim(0) * x.dim(1) * out_h);
  // Rows of at least ~16K outputs per item; small outputs on this thread.
  const size_t tile =
      static_cast<size_t>(std::max<int64_t>(1, 16384 / std::max<int64_t>(1, out_w * lanes)));
  if (pool == nullptr || out->num_elements() <= 65536) {
    Task<T>::Run(&t, 0, rows);
  } else {
    pthreadpool_parallelize_1d_tile_1d(pool, &Task<T>::Run, &t, rows, tile, 0);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status Resize(const Tensor& x, int64_t out_h, int64_t out_w, const reference::ResizeParams& params,
                    Tensor* out, pthreadpool_t pool) {
  const bool bytes = x.defined() && (x.dtype() == DType::kU8 || x.dtype() == DType::kI8);
  if (!x.defined() || (x.dtype() != DType::kF32 && !bytes) || (x.rank() != 4 && x.rank() != 5) ||
      out == nullptr) {
    return absl::InvalidArgumentError(
        "Resize: needs f32 or 8-bit [N, C, H, W] or [N, C/k, H, W, k] and an output");
  }
  return bytes ? Run<uint8_t>(x, out_h, out_w, params, out, pool) : Run<float>(x, out_h, out_w, params, out, pool);
}

}  // namespace qnnc::kernels::resize
