#include "kernels/elementwise/quantize.h"

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
struct QuantizeTask {
  const float* x;
  O* out;
  size_t n;
  float scale, lo, hi;  // lo/hi: the dtype's range minus the zero point
  int32_t zp;

  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const QuantizeTask& t = *static_cast<const QuantizeTask*>(ctx);
    // Locals: stores through the 8-bit `out` may alias anything, which
    // would make the compiler reload every field and give up vectorizing.
    const float* __restrict x = t.x;
    O* __restrict out = t.out;
    const float scale = t.scale, lo = t.lo, hi = t.hi;
    const int32_t zp = t.zp;
    const size_t end = std::min(t.n, start + count);
    for (size_t i = start; i < end; ++i) {
      float v = x[i] / scale;
      v = v != v ? 0.0f : v;  // NaN quantizes to the zero point
      // Clamping to the integers [lo, hi] before rounding equals saturating
      // after it (infinities included).
      v = std::min(std::max(v, lo), hi);
      out[i] = static_cast<O>(static_cast<int32_t>(RoundSmallHalfEven(v)) + zp);
    }
  }
};

template <typename O>
void Launch(const Tensor& x, float scale, int32_t zp, DType out_dtype, Tensor* out,
            pthreadpool_t pool) {
  QuantizeTask<O> t;
  t.x = x.data<float>();
  t.out = out->data<O>();
  t.n = static_cast<size_t>(x.num_elements());
  t.scale = scale;
  t.lo = static_cast<float>(tensor::DTypeMin(out_dtype) - zp);
  t.hi = static_cast<float>(tensor::DTypeMax(out_dtype) - zp);
  t.zp = zp;
  ParallelRows(pool, CpuClones<&QuantizeTask<O>::RunBody>::Pick(), &t, x.shape());
}

}  // namespace

bool QuantizeSupported(DType out_dtype, float scale, int32_t zero_point) {
  return (out_dtype == DType::kU8 || out_dtype == DType::kI8) && std::isfinite(scale) &&
         scale != 0 && zero_point >= tensor::DTypeMin(out_dtype) &&
         zero_point <= tensor::DTypeMax(out_dtype);
}

absl::Status QuantizePerTensor(const Tensor& x, float scale, int32_t zero_point, DType out_dtype,
                               Tensor* out, pthreadpool_t pool) {
  if (!x.defined() || x.dtype() != DType::kF32 || !QuantizeSupported(out_dtype, scale, zero_point)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "QuantizePerTensor: needs f32 data, a finite nonzero scale and a u8/i8 result with its "
        "zero point in range; got ",
        x.defined() ? tensor::DTypeName(x.dtype()) : "undefined", " scale ", scale,
        " zero point ", zero_point, " -> ", tensor::DTypeName(out_dtype)));
  }
  if (out == nullptr) return absl::InvalidArgumentError("QuantizePerTensor: out is null");
  if (!out->defined() || out->dtype() != out_dtype || out->shape() != x.shape()) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(out_dtype, x.shape()));
  }
  if (out_dtype == DType::kU8) {
    Launch<uint8_t>(x, scale, zero_point, out_dtype, out, pool);
  } else {
    Launch<int8_t>(x, scale, zero_point, out_dtype, out, pool);
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
