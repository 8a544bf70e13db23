#include "kernels/elementwise/qnn_mul.h"

#include <algorithm>
#include <cmath>

#include "kernels/cpu_clones.h"
#include "kernels/elementwise/common.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

bool Is8Bit(DType d) { return d == DType::kU8 || d == DType::kI8; }

// big as [outer, span, lanes] with small [outer, 1, lanes]: small is 1
// exactly on one run of big's dimensions (span), equal elsewhere. Same
// shapes: span 1.
struct Layout {
  int64_t outer = 1, span = 1, lanes = 1;
};

bool Decompose(const Shape& big, const Shape& small, Layout* l) {
  if (big.size() != small.size()) return false;
  int state = 0;  // 0 before the run, 1 in it, 2 after
  for (size_t d = 0; d < big.size(); ++d) {
    if (small[d] == big[d]) {
      if (state == 1) state = 2;
      (state == 0 ? l->outer : l->lanes) *= big[d];
    } else if (small[d] == 1) {
      if (state == 2) return false;
      state = 1;
      l->span *= big[d];
    } else {
      return false;
    }
  }
  return true;
}

int64_t Count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

template <typename B, typename S, typename O>
struct MulTask {
  const B* big;
  const S* small;
  O* out;
  Layout l;
  float m, lo, hi;
  int32_t big_zp, small_zp, out_zp;
  int64_t total;  // same shapes: the element count, split in pieces

  QNNC_CLONE_BODY O One(int32_t x, int32_t g) const {
    float v = m * static_cast<float>((x - big_zp) * (g - small_zp));
    // Clamping to the integers [lo, hi] before rounding equals saturating
    // after it (v is never NaN: m is finite).
    v = std::min(std::max(v, lo), hi);
    return static_cast<O>(static_cast<int32_t>(RoundSmallHalfEven(v)) + out_zp);
  }
  // n elements from `at` against the same n gate elements.
  QNNC_CLONE_BODY void Same(int64_t at, const S* gate, int64_t n) const {
    const B* __restrict x = big + at;
    const S* __restrict g = gate;
    O* __restrict y = out + at;
    for (int64_t i = 0; i < n; ++i) y[i] = One(x[i], g[i]);
  }
  // Broadcast: outer indices [first, first + count), each its gate (one
  // value, or `lanes` repeated) over every span position. Compiled per
  // x86-64 level (CpuClones).
  QNNC_CLONE_BODY static void Outer(void* ctx, size_t first, size_t count) {
    const MulTask& t = *static_cast<const MulTask*>(ctx);
    const int64_t lanes = t.l.lanes, span = t.l.span;
    for (size_t o = first; o < first + count; ++o) {
      const int64_t base = static_cast<int64_t>(o) * span * lanes;
      const S* __restrict gate = t.small + static_cast<int64_t>(o) * lanes;
      const B* __restrict x = t.big + base;
      O* __restrict y = t.out + base;
      if (lanes == 1) {
        const int32_t g = gate[0];
        for (int64_t i = 0; i < span; ++i) y[i] = t.One(x[i], g);
        continue;
      }
      if (lanes == 16) {
        // Blocked NCHW16c: the gate's lanes and the parameters in locals
        // (8-bit stores may alias any field), the lane count known: the
        // lane loop vectorizes.
        int32_t g[16];
        for (int l = 0; l < 16; ++l) g[l] = static_cast<int32_t>(gate[l]) - t.small_zp;
        const float m = t.m, lo = t.lo, hi = t.hi;
        const int32_t bz = t.big_zp, oz = t.out_zp;
        for (int64_t s = 0; s < span; ++s) {
          for (int l = 0; l < 16; ++l) {
            float v = m * static_cast<float>((static_cast<int32_t>(x[s * 16 + l]) - bz) * g[l]);
            v = std::min(std::max(v, lo), hi);
            y[s * 16 + l] = static_cast<O>(static_cast<int32_t>(RoundSmallHalfEven(v)) + oz);
          }
        }
        continue;
      }
      for (int64_t s = 0; s < span; ++s) {
        for (int64_t l = 0; l < lanes; ++l) y[s * lanes + l] = t.One(x[s * lanes + l], gate[l]);
      }
    }
  }
  // Same shapes: elements [first, first + count).
  QNNC_CLONE_BODY static void Piece(void* ctx, size_t first, size_t count) {
    const MulTask& t = *static_cast<const MulTask*>(ctx);
    const int64_t at = static_cast<int64_t>(first);
    t.Same(at, t.small + at, std::min<int64_t>(static_cast<int64_t>(count), t.total - at));
  }
};

template <typename B, typename S, typename O>
void Launch(const Tensor& big, const Tensor& small, const Layout& l, float m, int32_t big_zp, int32_t small_zp,
            int32_t out_zp, DType out_dtype, Tensor* out, pthreadpool_t pool) {
  using Task = MulTask<B, S, O>;
  Task t{big.data<B>(), small.data<S>(), out->data<O>(), l, m,
         static_cast<float>(tensor::DTypeMin(out_dtype) - out_zp),
         static_cast<float>(tensor::DTypeMax(out_dtype) - out_zp), big_zp, small_zp, out_zp,
         big.num_elements()};
  if (l.span == 1) {
    pthreadpool_parallelize_1d_tile_1d(pool, CpuClones<&Task::Piece>::Pick(), &t, static_cast<size_t>(t.total),
                                       16 << 10, 0);
  } else {
    pthreadpool_parallelize_1d_tile_1d(pool, CpuClones<&Task::Outer>::Pick(), &t, static_cast<size_t>(l.outer), 1, 0);
  }
}

template <typename B, typename S>
void DispatchOut(const Tensor& big, const Tensor& small, const Layout& l, float m, int32_t bz, int32_t sz,
                 int32_t oz, DType out_dtype, Tensor* out, pthreadpool_t pool) {
  if (out_dtype == DType::kU8) {
    Launch<B, S, uint8_t>(big, small, l, m, bz, sz, oz, out_dtype, out, pool);
  } else {
    Launch<B, S, int8_t>(big, small, l, m, bz, sz, oz, out_dtype, out, pool);
  }
}

}  // namespace

bool QnnMulSupported(DType a_dtype, const Shape& a_shape, DType b_dtype, const Shape& b_shape,
                     const QnnBinaryParams& p, DType out_dtype) {
  if (!Is8Bit(a_dtype) || !Is8Bit(b_dtype) || !Is8Bit(out_dtype)) return false;
  auto inside = [](int32_t v, DType d) { return v >= tensor::DTypeMin(d) && v <= tensor::DTypeMax(d); };
  if (!inside(p.a_zero_point, a_dtype) || !inside(p.b_zero_point, b_dtype) ||
      !inside(p.out_zero_point, out_dtype)) {
    return false;
  }
  const float m = p.a_scale * p.b_scale / p.out_scale;
  if (!std::isfinite(m)) return false;
  const bool a_big = Count(a_shape) >= Count(b_shape);
  Layout l;
  return Decompose(a_big ? a_shape : b_shape, a_big ? b_shape : a_shape, &l);
}

absl::Status QnnMul(const Tensor& a, const Tensor& b, const QnnBinaryParams& p, DType out_dtype, Tensor* out,
                    pthreadpool_t pool) {
  if (!a.defined() || !b.defined() || out == nullptr ||
      !QnnMulSupported(a.dtype(), a.shape(), b.dtype(), b.shape(), p, out_dtype)) {
    return absl::InvalidArgumentError("QnnMul: needs 8-bit operands of one shape or a gate broadcast, finite scales");
  }
  const bool a_big = a.num_elements() >= b.num_elements();
  const Tensor& big = a_big ? a : b;
  const Tensor& small = a_big ? b : a;
  Layout l;
  Decompose(big.shape(), small.shape(), &l);
  if (!out->defined() || out->dtype() != out_dtype || out->shape() != big.shape()) {
    auto t = Tensor::CreateForOverwrite(out_dtype, big.shape());
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  const float m = p.a_scale * p.b_scale / p.out_scale;
  const int32_t bz = a_big ? p.a_zero_point : p.b_zero_point, sz = a_big ? p.b_zero_point : p.a_zero_point;
  const bool bu = big.dtype() == DType::kU8, su = small.dtype() == DType::kU8;
  if (bu && su) DispatchOut<uint8_t, uint8_t>(big, small, l, m, bz, sz, p.out_zero_point, out_dtype, out, pool);
  if (bu && !su) DispatchOut<uint8_t, int8_t>(big, small, l, m, bz, sz, p.out_zero_point, out_dtype, out, pool);
  if (!bu && su) DispatchOut<int8_t, uint8_t>(big, small, l, m, bz, sz, p.out_zero_point, out_dtype, out, pool);
  if (!bu && !su) DispatchOut<int8_t, int8_t>(big, small, l, m, bz, sz, p.out_zero_point, out_dtype, out, pool);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
