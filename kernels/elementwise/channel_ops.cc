#include "kernels/elementwise/channel_ops.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "kernels/elementwise/common.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;

// x as [outer, channels, inner] around `axis`.
struct Split {
  int64_t outer = 1, channels = 1, inner = 1;
};

Split SplitAt(const Tensor& x, int64_t axis) {
  Split s;
  for (int64_t d = 0; d < axis; ++d) s.outer *= x.dim(d);
  s.channels = x.dim(axis);
  for (int64_t d = axis + 1; d < x.rank(); ++d) s.inner *= x.dim(d);
  return s;
}

absl::Status Prepare(const Tensor& x, DType dtype, Tensor* out) {
  if (out == nullptr) return absl::InvalidArgumentError("no output");
  if (!out->defined() || out->dtype() != dtype || out->shape() != x.shape()) {
    auto t = Tensor::CreateForOverwrite(dtype, x.shape());
    if (!t.ok()) return t.status();
    *out = *std::move(t);
  }
  return absl::OkStatus();
}

// Rows of `inner` elements, each its channel's; split over threads by row.
template <typename F>
void ForRows(const Split& s, pthreadpool_t pool, F&& row) {
  struct Ctx {
    const Split* s;
    F* row;
    static void Run(void* c, size_t r) {
      const Ctx& ctx = *static_cast<const Ctx*>(c);
      (*ctx.row)(static_cast<int64_t>(r), static_cast<int64_t>(r) % ctx.s->channels);
    }
  } ctx{&s, &row};
  const size_t rows = static_cast<size_t>(s.outer * s.channels);
  if (s.inner * static_cast<int64_t>(rows) < (64 << 10)) pool = nullptr;  // small: this thread
  pthreadpool_parallelize_1d(pool, &Ctx::Run, &ctx, rows, 0);
}

}  // namespace

absl::Status BiasAdd(const Tensor& x, const Tensor& bias, int64_t axis, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || !bias.defined() || axis < 0 || axis >= x.rank() || bias.rank() != 1 ||
      bias.dim(0) != x.dim(axis) || bias.dtype() != x.dtype() ||
      (x.dtype() != DType::kI32 && x.dtype() != DType::kF32)) {
    return absl::InvalidArgumentError("BiasAdd: needs i32 or f32 data and a 1-D bias of its channels");
  }
  if (absl::Status st = Prepare(x, x.dtype(), out); !st.ok()) return st;
  const Split s = SplitAt(x, axis);
  if (x.dtype() == DType::kI32) {
    const uint32_t* in = reinterpret_cast<const uint32_t*>(x.data<int32_t>());
    const uint32_t* b = reinterpret_cast<const uint32_t*>(bias.data<int32_t>());
    uint32_t* o = reinterpret_cast<uint32_t*>(out->data<int32_t>());
    ForRows(s, pool, [&](int64_t r, int64_t c) {
      for (int64_t i = 0; i < s.inner; ++i) o[r * s.inner + i] = in[r * s.inner + i] + b[c];
    });
  } else {
    const float* in = x.data<float>();
    const float* b = bias.data<float>();
    float* o = out->data<float>();
    ForRows(s, pool, [&](int64_t r, int64_t c) {
      for (int64_t i = 0; i < s.inner; ++i) o[r * s.inner + i] = in[r * s.inner + i] + b[c];
    });
  }
  return absl::OkStatus();
}

absl::Status RequantizePerChannel(const Tensor& x, const std::vector<float>& multipliers, int64_t axis,
                                  const RequantizeParams& p, DType out_dtype, Tensor* out, pthreadpool_t pool) {
  bool ok = x.defined() && x.dtype() == DType::kI32 && axis >= 0 && axis < x.rank() &&
            static_cast<int64_t>(multipliers.size()) == x.dim(axis);
  for (float m : multipliers) {
    RequantizeParams one = p;
    one.multiplier = m;
    ok = ok && RequantizeSupported(0, one, out_dtype);
  }
  if (!ok) {
    return absl::InvalidArgumentError(
        "RequantizePerChannel: needs i32 data, one finite multiplier per channel and a u8/i8 result "
        "with its zero point and clamp in range");
  }
  if (absl::Status st = Prepare(x, out_dtype, out); !st.ok()) return st;
  const Split s = SplitAt(x, axis);
  const int32_t* in = x.data<int32_t>();
  // As RequantizePerTensor: clamp to [lo, hi] - zp before rounding (the same
  // as saturating after it), then add the zero point.
  const float lo = static_cast<float>(p.lo - p.output_zero_point);
  const float hi = static_cast<float>(p.hi - p.output_zero_point);
  auto run = [&](auto* o) {
    using O = std::remove_pointer_t<decltype(o)>;
    ForRows(s, pool, [&](int64_t r, int64_t c) {
      const float m = multipliers[c];
      for (int64_t i = 0; i < s.inner; ++i) {
        float v = static_cast<float>(in[r * s.inner + i]) * m;
        v = std::min(std::max(v, lo), hi);
        o[r * s.inner + i] = static_cast<O>(static_cast<int32_t>(RoundSmallHalfEven(v)) + p.output_zero_point);
      }
    });
  };
  if (out_dtype == DType::kU8) {
    run(out->data<uint8_t>());
  } else {
    run(out->data<int8_t>());
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
