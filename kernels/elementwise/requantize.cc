#include "kernels/elementwise/requantize.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "kernels/cpu_clones.h"
#include "kernels/elementwise/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::elementwise {
namespace {

using tensor::DType;
using tensor::Tensor;

template <typename O>
struct RequantizeTask {
  const int32_t* x;
  O* out;
  size_t n;
  float m, lo, hi;  // lo/hi: the clamp minus the output zero point
  int32_t zp;

  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const RequantizeTask& t = *static_cast<const RequantizeTask*>(ctx);
    // Locals: stores through the 8-bit `out` may alias anything.
    const int32_t* __restrict x = t.x;
    O* __restrict out = t.out;
    const float m = t.m, lo = t.lo, hi = t.hi;
    const int32_t zp = t.zp;
    const size_t end = std::min(t.n, start + count);
    for (size_t i = start; i < end; ++i) {
      // Finite: an int32 times a finite m (RequantizeSupported), so no NaN.
      float v = static_cast<float>(x[i]) * m;
      // Clamping to the integers [lo, hi] before rounding equals saturating
      // after it; |v| then fits RoundSmallHalfEven.
      v = std::min(std::max(v, lo), hi);
      out[i] = static_cast<O>(static_cast<int32_t>(RoundSmallHalfEven(v)) + zp);
    }
  }
};

template <typename O>
void Launch(const Tensor& x, const RequantizeParams& p, Tensor* out, pthreadpool_t pool) {
  RequantizeTask<O> t;
  t.x = x.data<int32_t>();
  t.out = out->data<O>();
  t.n = static_cast<size_t>(x.num_elements());
  t.m = p.multiplier;
  t.lo = static_cast<float>(p.lo - p.output_zero_point);
  t.hi = static_cast<float>(p.hi - p.output_zero_point);
  t.zp = p.output_zero_point;
  ParallelRows(pool, CpuClones<&RequantizeTask<O>::RunBody>::Pick(), &t, x.shape());
}

}  // namespace

bool RequantizeSupported(int64_t input_zero_point, const RequantizeParams& p, DType out_dtype) {
  if (out_dtype != DType::kU8 && out_dtype != DType::kI8) return false;
  const int64_t dmin = tensor::DTypeMin(out_dtype), dmax = tensor::DTypeMax(out_dtype);
  auto inside = [&](int64_t v) { return v >= dmin && v <= dmax; };
  return input_zero_point == 0 && std::isfinite(p.multiplier) && inside(p.output_zero_point) &&
         inside(p.lo) && inside(p.hi) && p.lo <= p.hi;
}

absl::Status RequantizePerTensor(const Tensor& x, const RequantizeParams& p, DType out_dtype,
                                 Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || x.dtype() != DType::kI32 || !RequantizeSupported(0, p, out_dtype)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RequantizePerTensor: needs i32 data, a finite multiplier and a u8/i8 result with its "
        "zero point and clamp in range; got ",
        x.defined() ? tensor::DTypeName(x.dtype()) : "undefined", " multiplier ", p.multiplier,
        " zero point ", p.output_zero_point, " clamp [", p.lo, ", ", p.hi, "] -> ",
        tensor::DTypeName(out_dtype)));
  }
  if (out == nullptr) return absl::InvalidArgumentError("RequantizePerTensor: out is null");
  if (!out->defined() || out->dtype() != out_dtype || out->shape() != x.shape()) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(out_dtype, x.shape()));
  }
  if (out_dtype == DType::kU8) {
    Launch<uint8_t>(x, p, out, pool);
  } else {
    Launch<int8_t>(x, p, out, pool);
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
