#include "kernels/elementwise/float_ops.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kernels/cpu_clones.h"
#include "kernels/float_range.h"
#include "kernels/elementwise/common.h"
#include "kernels/elementwise/quantize.h"
#include "util/status_macros.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

absl::Status Prepare(Tensor* out, DType dtype, const Shape& shape, const char* kernel) {
  return PrepareOutput(out, dtype, shape, kernel);
}

int64_t Count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

// How `small` broadcasts into `big` (the result's shape): element i of the
// result reads small[(i / inner) % channels]. False when it does not in
// this way (ones around one run of big's dims).
bool RunBroadcast(const Shape& big, const Shape& small, int64_t* channels, int64_t* inner) {
  if (small.size() > big.size()) return false;
  const size_t lead = big.size() - small.size();
  *channels = 1;
  *inner = 1;
  int state = 0;  // 0: before the run, 1: in it, 2: after it
  for (size_t d = 0; d < big.size(); ++d) {
    const int64_t s = d < lead ? 1 : small[d - lead];
    if (big[d] == 1) {
      if (s != 1) return false;
      continue;
    }
    if (s == big[d]) {
      if (state == 2) return false;
      state = 1;
      *channels *= big[d];
    } else if (s == 1) {
      if (state == 1) state = 2;
      if (state == 2) *inner *= big[d];
      if (state == 0) continue;
    } else {
      return false;
    }
  }
  if (state == 0) *inner = Count(big);  // a scalar
  return true;
}

template <FloatBinaryOp kOp>
inline float Apply(float a, float b) {
  if constexpr (kOp == FloatBinaryOp::kAdd) return a + b;
  if constexpr (kOp == FloatBinaryOp::kSubtract) return a - b;
  return a * b;
}

// out[i] = a[i] op b[i], or with the broadcast operand's value constant over
// runs of `inner` elements. `small_is_a`: the broadcast operand is the left.
template <FloatBinaryOp kOp, bool kSmallIsA>
struct BinaryTask {
  const float* big;
  const float* small;
  float* out;
  int64_t n, channels, inner;
  bool same;

  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const BinaryTask& t = *static_cast<const BinaryTask*>(ctx);
    const float* __restrict big = t.big;
    const float* __restrict small = t.small;
    float* __restrict out = t.out;
    const int64_t end = std::min<int64_t>(t.n, static_cast<int64_t>(start + count));
    int64_t i = static_cast<int64_t>(start);
    if (t.same) {
      for (; i < end; ++i) out[i] = kSmallIsA ? Apply<kOp>(small[i], big[i]) : Apply<kOp>(big[i], small[i]);
      return;
    }
    while (i < end) {
      const int64_t run = i / t.inner;
      const float v = small[run % t.channels];
      const int64_t run_end = std::min(end, (run + 1) * t.inner);
      for (; i < run_end; ++i) out[i] = kSmallIsA ? Apply<kOp>(v, big[i]) : Apply<kOp>(big[i], v);
    }
  }
};

// The same with the result written over one operand (out == big, or out ==
// small when both have the result's size): one pointer reads and writes each
// element, so the loop is well defined and still vectorizes.
template <FloatBinaryOp kOp, bool kSmallIsA, bool kOverBig>
struct InPlaceTask {
  float* io;            // the overwritten operand and the result
  const float* other;   // the other operand
  int64_t n, channels, inner;
  bool same;

  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const InPlaceTask& t = *static_cast<const InPlaceTask*>(ctx);
    // No __restrict: `other` may be `io` itself (x + x over x); GCC then
    // checks the overlap at run time and vectorizes when they differ.
    float* io = t.io;
    const float* other = t.other;
    const int64_t end = std::min<int64_t>(t.n, static_cast<int64_t>(start + count));
    int64_t i = static_cast<int64_t>(start);
    // a op b with a = small when kSmallIsA; `io` holds big (kOverBig) or small.
    auto apply = [](float big, float small) {
      return kSmallIsA ? Apply<kOp>(small, big) : Apply<kOp>(big, small);
    };
    if (t.same) {
      for (; i < end; ++i) io[i] = kOverBig ? apply(io[i], other[i]) : apply(other[i], io[i]);
      return;
    }
    while (i < end) {  // kOverBig: a broadcast operand is never the result
      const int64_t run = i / t.inner;
      const float v = other[run % t.channels];
      const int64_t run_end = std::min(end, (run + 1) * t.inner);
      for (; i < run_end; ++i) io[i] = apply(io[i], v);
    }
  }
};

template <FloatBinaryOp kOp, bool kSmallIsA>
void LaunchBinary(const Tensor& big, const Tensor& small, bool same, int64_t channels,
                  int64_t inner, Tensor* out, pthreadpool_t pool) {
  float* o = out->data<float>();
  if (o == big.data<float>()) {
    InPlaceTask<kOp, kSmallIsA, true> t{o, small.data<float>(), big.num_elements(), channels, inner, same};
    ParallelRows(pool, CpuClones<&InPlaceTask<kOp, kSmallIsA, true>::RunBody>::Pick(), &t, big.shape());
    return;
  }
  if (same && o == small.data<float>()) {
    InPlaceTask<kOp, kSmallIsA, false> t{o, big.data<float>(), big.num_elements(), channels, inner, same};
    ParallelRows(pool, CpuClones<&InPlaceTask<kOp, kSmallIsA, false>::RunBody>::Pick(), &t, big.shape());
    return;
  }
  BinaryTask<kOp, kSmallIsA> t{big.data<float>(), small.data<float>(), o, big.num_elements(),
                               channels, inner, same};
  ParallelRows(pool, CpuClones<&BinaryTask<kOp, kSmallIsA>::RunBody>::Pick(), &t, big.shape());
}

template <FloatBinaryOp kOp>
void DispatchBinary(bool small_is_a, const Tensor& big, const Tensor& small, bool same,
                    int64_t channels, int64_t inner, Tensor* out, pthreadpool_t pool) {
  if (small_is_a) {
    LaunchBinary<kOp, true>(big, small, same, channels, inner, out, pool);
  } else {
    LaunchBinary<kOp, false>(big, small, same, channels, inner, out, pool);
  }
}

// Which operand is the result's shape, and how the other broadcasts.
bool Plan(FloatBinaryOp op, const Shape& a, const Shape& b, bool* small_is_a, bool* same,
          int64_t* channels, int64_t* inner) {
  // The result has the larger operand's shape (at equal sizes, the higher
  // rank's: [1, K] + [K] is [1, K]).
  const bool a_big = Count(a) != Count(b) ? Count(a) > Count(b) : a.size() >= b.size();
  // a - b with `a` broadcast: not here.
  if (!a_big && op == FloatBinaryOp::kSubtract && Count(a) != Count(b)) return false;
  const Shape& big = a_big ? a : b;
  const Shape& small = a_big ? b : a;
  if (!RunBroadcast(big, small, channels, inner)) return false;
  // The broadcast result is `big` only when small adds no leading dims.
  if (small.size() > big.size()) return false;
  *small_is_a = !a_big;
  *same = Count(small) == Count(big);
  return true;
}

struct ClampTask {
  const float* x;
  float* out;
  int64_t n;
  float lo, hi;
  bool relu;
  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const ClampTask& t = *static_cast<const ClampTask*>(ctx);
    const float* __restrict x = t.x;
    float* __restrict out = t.out;
    const float lo = t.lo, hi = t.hi;
    const int64_t end = std::min<int64_t>(t.n, static_cast<int64_t>(start + count));
    if (t.relu) {
      for (int64_t i = static_cast<int64_t>(start); i < end; ++i) out[i] = x[i] < 0 ? 0.0f : x[i];
    } else {
      for (int64_t i = static_cast<int64_t>(start); i < end; ++i) {
        out[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
      }
    }
  }
};

struct SigmoidTask {
  const float* x;
  float* out;
  int64_t n;
  static void Run(void* ctx, size_t start, size_t count) {
    const SigmoidTask& t = *static_cast<const SigmoidTask*>(ctx);
    const int64_t end = std::min<int64_t>(t.n, static_cast<int64_t>(start + count));
    for (int64_t i = static_cast<int64_t>(start); i < end; ++i) {
      t.out[i] = 1.0f / (1.0f + std::exp(-t.x[i]));
    }
  }
};

struct ActivationTask {
  const float* x;
  float* out;
  int64_t n;
  FloatActivation kind;
  float alpha, beta;
  static float Clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }
  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const ActivationTask& t = *static_cast<const ActivationTask*>(ctx);
    const float* __restrict x = t.x;
    float* __restrict out = t.out;
    const float a = t.alpha, b = t.beta;
    const int64_t begin = static_cast<int64_t>(start);
    const int64_t end = std::min<int64_t>(t.n, static_cast<int64_t>(start + count));
    switch (t.kind) {
      case FloatActivation::kLeakyRelu:
        for (int64_t i = begin; i < end; ++i) out[i] = x[i] < 0.0f ? a * x[i] : x[i];
        break;
      case FloatActivation::kHardSigmoid:
        for (int64_t i = begin; i < end; ++i) out[i] = Clamp01(a * x[i] + b);
        break;
      case FloatActivation::kHardSwish:
        for (int64_t i = begin; i < end; ++i) out[i] = x[i] * Clamp01(x[i] * (1.0f / 6.0f) + 0.5f);
        break;
      case FloatActivation::kTanh:
        for (int64_t i = begin; i < end; ++i) out[i] = std::tanh(x[i]);
        break;
    }
  }
};

// DynamicQuantizeU8's first pass over ParallelRows' items (the bands of
// rows the convolutions around it give each thread): each item's min, max
// (NaN ignored) and first infinite element, merged under a lock. The merge
// is exact in any order: partial minima are +0 or strictly negative (a
// value replaces only when strictly below), so min and max commute, and the
// first infinity is the least index.
struct RangeTask {
  const float* x;
  FloatRangeFn range;
  std::mutex mu;
  float lo = 0.0f, hi = 0.0f;
  int64_t first_inf = -1;
  static void Run(void* ctx, size_t start, size_t count) {
    RangeTask& t = *static_cast<RangeTask*>(ctx);
    const int64_t begin = static_cast<int64_t>(start), end = begin + static_cast<int64_t>(count);
    const FloatRange r = t.range(t.x + begin, end - begin);
    int64_t inf = -1;
    for (int64_t i = begin; r.infinities > 0 && i < end; ++i) {
      if (std::isinf(t.x[i])) {
        inf = i;
        break;
      }
    }
    std::lock_guard<std::mutex> lock(t.mu);
    t.lo = r.lo < t.lo ? r.lo : t.lo;
    t.hi = r.hi > t.hi ? r.hi : t.hi;
    if (inf >= 0 && (t.first_inf < 0 || inf < t.first_inf)) t.first_inf = inf;
  }
};

}  // namespace

bool FloatBinarySupported(FloatBinaryOp op, const Shape& a, const Shape& b) {
  bool small_is_a = false, same = false;
  int64_t channels = 0, inner = 0;
  return Plan(op, a, b, &small_is_a, &same, &channels, &inner);
}

absl::Status FloatBinary(FloatBinaryOp op, const Tensor& a, const Tensor& b, Tensor* out,
                         pthreadpool_t pool) {
  bool small_is_a = false, same = false;
  int64_t channels = 0, inner = 0;
  if (!a.defined() || !b.defined() || a.dtype() != DType::kF32 || b.dtype() != DType::kF32 ||
      !Plan(op, a.shape(), b.shape(), &small_is_a, &same, &channels, &inner)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "FloatBinary: needs f32 operands, one the result's shape and the other broadcast as a "
        "scalar, per channel or the same shape; got [",
        a.defined() ? absl::StrJoin(a.shape(), ",") : "undefined", "] and [",
        b.defined() ? absl::StrJoin(b.shape(), ",") : "undefined", "]"));
  }
  const Tensor& big = small_is_a ? b : a;
  const Tensor& small = small_is_a ? a : b;
  RETURN_IF_ERROR(Prepare(out, DType::kF32, big.shape(), "FloatBinary"));
  if (big.num_elements() == 0) return absl::OkStatus();
  switch (op) {
    case FloatBinaryOp::kAdd:
      DispatchBinary<FloatBinaryOp::kAdd>(small_is_a, big, small, same, channels, inner, out, pool);
      break;
    case FloatBinaryOp::kSubtract:
      DispatchBinary<FloatBinaryOp::kSubtract>(small_is_a, big, small, same, channels, inner, out, pool);
      break;
    case FloatBinaryOp::kMultiply:
      DispatchBinary<FloatBinaryOp::kMultiply>(small_is_a, big, small, same, channels, inner, out, pool);
      break;
  }
  return absl::OkStatus();
}

absl::Status ReluF32(const Tensor& x, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || x.dtype() != DType::kF32) return absl::InvalidArgumentError("ReluF32: needs f32");
  RETURN_IF_ERROR(Prepare(out, DType::kF32, x.shape(), "ReluF32"));
  ClampTask t{x.data<float>(), out->data<float>(), x.num_elements(), 0, 0, true};
  ParallelRows(pool, CpuClones<&ClampTask::RunBody>::Pick(), &t, x.shape());
  return absl::OkStatus();
}

absl::Status ClipF32(const Tensor& x, float lo, float hi, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || x.dtype() != DType::kF32 || !(lo <= hi)) {
    return absl::InvalidArgumentError(absl::StrCat("ClipF32: needs f32 and lo <= hi, got [", lo, ", ", hi, "]"));
  }
  RETURN_IF_ERROR(Prepare(out, DType::kF32, x.shape(), "ClipF32"));
  ClampTask t{x.data<float>(), out->data<float>(), x.num_elements(), lo, hi, false};
  ParallelRows(pool, CpuClones<&ClampTask::RunBody>::Pick(), &t, x.shape());
  return absl::OkStatus();
}

absl::Status SigmoidF32(const Tensor& x, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || x.dtype() != DType::kF32) return absl::InvalidArgumentError("SigmoidF32: needs f32");
  RETURN_IF_ERROR(Prepare(out, DType::kF32, x.shape(), "SigmoidF32"));
  SigmoidTask t{x.data<float>(), out->data<float>(), x.num_elements()};
  ParallelRows(pool, &SigmoidTask::Run, &t, x.shape());
  return absl::OkStatus();
}

absl::Status ActivationF32(FloatActivation kind, const Tensor& x, float alpha, float beta, Tensor* out,
                           pthreadpool_t pool) {
  if (!x.defined() || x.dtype() != DType::kF32) return absl::InvalidArgumentError("ActivationF32: needs f32");
  RETURN_IF_ERROR(Prepare(out, DType::kF32, x.shape(), "ActivationF32"));
  ActivationTask t{x.data<float>(), out->data<float>(), x.num_elements(), kind, alpha, beta};
  ParallelRows(pool, CpuClones<&ActivationTask::RunBody>::Pick(), &t, x.shape());
  return absl::OkStatus();
}

absl::Status CastToF32(const Tensor& x, Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || (x.dtype() != DType::kI32 && x.dtype() != DType::kU8 && x.dtype() != DType::kI8)) {
    return absl::InvalidArgumentError("CastToF32: needs i32, u8 or i8");
  }
  RETURN_IF_ERROR(Prepare(out, DType::kF32, x.shape(), "CastToF32"));
  if (x.dtype() == DType::kI32) {
    CastTask<int32_t, float> t{x.data<int32_t>(), out->data<float>(), x.num_elements()};
    ParallelRows(pool, CpuClones<&CastTask<int32_t, float>::RunBody>::Pick(), &t, x.shape());
  } else if (x.dtype() == DType::kU8) {
    CastTask<uint8_t, float> t{x.data<uint8_t>(), out->data<float>(), x.num_elements()};
    ParallelRows(pool, CpuClones<&CastTask<uint8_t, float>::RunBody>::Pick(), &t, x.shape());
  } else {
    CastTask<int8_t, float> t{x.data<int8_t>(), out->data<float>(), x.num_elements()};
    ParallelRows(pool, CpuClones<&CastTask<int8_t, float>::RunBody>::Pick(), &t, x.shape());
  }
  return absl::OkStatus();
}

absl::Status DynamicQuantizeU8(const Tensor& x, Tensor* y, Tensor* scale, Tensor* zero_point,
                               pthreadpool_t pool, const float* known_range) {
  if (!x.defined() || x.dtype() != DType::kF32) {
    return absl::InvalidArgumentError("DynamicQuantize: input must be f32");
  }
  float l = 0.0f, h = 0.0f;
  if (known_range != nullptr && std::isfinite(known_range[0]) && std::isfinite(known_range[1])) {
    l = known_range[0];
    h = known_range[1];
  } else {
    RangeTask t;
    t.x = x.data<float>();
    t.range = PickFloatRange();
    ParallelRows(pool, &RangeTask::Run, &t, x.shape());
    if (t.first_inf >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("DynamicQuantize: input element ", t.first_inf, " is infinite"));
    }
    l = t.lo;
    h = t.hi;
  }
  const float s = h == l ? 1.0f : (h - l) / 255.0f;
  if (!std::isfinite(s)) {
    return absl::InvalidArgumentError(
        absl::StrCat("DynamicQuantize: input range [", l, ", ", h, "] is too wide"));
  }
  const float initial_zp = std::clamp(0.0f - l / s, 0.0f, 255.0f);
  const int32_t zp = static_cast<int32_t>(std::nearbyint(initial_zp));
  RETURN_IF_ERROR(QuantizePerTensor(x, s, zp, DType::kU8, y, pool));
  RETURN_IF_ERROR(Prepare(scale, DType::kF32, {}, "DynamicQuantize"));
  RETURN_IF_ERROR(Prepare(zero_point, DType::kU8, {}, "DynamicQuantize"));
  scale->data<float>()[0] = s;
  zero_point->data<uint8_t>()[0] = static_cast<uint8_t>(zp);
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
