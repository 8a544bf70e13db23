#include "kernels/elementwise/qnn_add.h"

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

bool Is8Bit(DType d) { return d == DType::kU8 || d == DType::kI8; }

bool InRange(int32_t v, DType d) {
  return v >= tensor::DTypeMin(d) && v <= tensor::DTypeMax(d);
}


template <typename A, typename B, typename O>
struct AddTask {
  const A* a;
  const B* b;
  O* out;
  size_t n;
  float ra, rb, lo, hi;  // lo/hi: the result range minus the output zero point
  int32_t a_zp, b_zp, out_zp;

  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t start, size_t count) {
    const AddTask& t = *static_cast<const AddTask*>(ctx);
    // Locals: stores through the 8-bit `out` may alias anything, which
    // would make the compiler reload every field and give up vectorizing.
    const A* __restrict a = t.a;
    const B* __restrict b = t.b;
    O* __restrict out = t.out;
    const float ra = t.ra, rb = t.rb, lo = t.lo, hi = t.hi;
    const int32_t a_zp = t.a_zp, b_zp = t.b_zp, out_zp = t.out_zp;
    const size_t end = std::min(t.n, start + count);
    for (size_t i = start; i < end; ++i) {
      const float da = static_cast<float>(static_cast<int32_t>(a[i]) - a_zp);
      const float db = static_cast<float>(static_cast<int32_t>(b[i]) - b_zp);
      float v = ra * da + rb * db;
      // Clamping to the integers [lo, hi] before rounding equals saturating
      // after it, and keeps |v| small for RoundSmallHalfEven. v is finite:
      // QnnAddSupported bounds the ratios.
      v = std::min(std::max(v, lo), hi);
      out[i] = static_cast<O>(static_cast<int32_t>(RoundSmallHalfEven(v)) + out_zp);
    }
  }
};

template <typename A, typename B, typename O>
void Launch(const Tensor& a, const Tensor& b, const QnnAddParams& p, DType out_dtype, Tensor* out,
            pthreadpool_t pool) {
  AddTask<A, B, O> t;
  t.a = a.data<A>();
  t.b = b.data<B>();
  t.out = out->data<O>();
  t.n = static_cast<size_t>(a.num_elements());
  t.ra = p.a_scale / p.out_scale;
  t.rb = p.b_scale / p.out_scale;
  t.lo = static_cast<float>(tensor::DTypeMin(out_dtype) - p.out_zero_point);
  t.hi = static_cast<float>(tensor::DTypeMax(out_dtype) - p.out_zero_point);
  t.a_zp = p.a_zero_point;
  t.b_zp = p.b_zero_point;
  t.out_zp = p.out_zero_point;
  ParallelRows(pool, CpuClones<&AddTask<A, B, O>::RunBody>::Pick(), &t, a.shape());
}

template <typename A, typename B>
void DispatchOut(const Tensor& a, const Tensor& b, const QnnAddParams& p, DType out_dtype,
                 Tensor* out, pthreadpool_t pool) {
  if (out_dtype == DType::kU8) {
    Launch<A, B, uint8_t>(a, b, p, out_dtype, out, pool);
  } else {
    Launch<A, B, int8_t>(a, b, p, out_dtype, out, pool);
  }
}

template <typename A>
void DispatchB(const Tensor& a, const Tensor& b, const QnnAddParams& p, DType out_dtype,
               Tensor* out, pthreadpool_t pool) {
  if (b.dtype() == DType::kU8) {
    DispatchOut<A, uint8_t>(a, b, p, out_dtype, out, pool);
  } else {
    DispatchOut<A, int8_t>(a, b, p, out_dtype, out, pool);
  }
}

}  // namespace

bool QnnAddSupported(DType a_dtype, const tensor::Shape& a_shape, DType b_dtype,
                     const tensor::Shape& b_shape, const QnnAddParams& p, DType out_dtype) {
  return Is8Bit(a_dtype) && Is8Bit(b_dtype) && Is8Bit(out_dtype) && a_shape == b_shape &&
         std::isfinite(p.a_scale) &&
         std::isfinite(p.b_scale) && std::isfinite(p.out_scale) && p.out_scale != 0 &&
         // Ratios up to 2^100 keep every product finite, so v is never NaN.
         std::fabs(p.a_scale / p.out_scale) <= 0x1p100f &&
         std::fabs(p.b_scale / p.out_scale) <= 0x1p100f &&
         InRange(p.a_zero_point, a_dtype) && InRange(p.b_zero_point, b_dtype) &&
         InRange(p.out_zero_point, out_dtype);
}

absl::Status QnnAddSameShape(const Tensor& a, const Tensor& b, const QnnAddParams& p,
                             DType out_dtype, Tensor* out, pthreadpool_t pool) {
  if (!a.defined() || !b.defined() ||
      !QnnAddSupported(a.dtype(), a.shape(), b.dtype(), b.shape(), p, out_dtype)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "QnnAddSameShape: needs two u8/i8 tensors of one shape, a u8/i8 result and finite "
        "scales; got ",
        a.defined() ? tensor::DTypeName(a.dtype()) : "undefined", " ",
        tensor::ShapeToString(a.shape()), " + ",
        b.defined() ? tensor::DTypeName(b.dtype()) : "undefined", " ",
        tensor::ShapeToString(b.shape()), " -> ", tensor::DTypeName(out_dtype)));
  }
  if (out == nullptr) return absl::InvalidArgumentError("QnnAddSameShape: out is null");
  if (!out->defined() || out->dtype() != out_dtype || out->shape() != a.shape()) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(out_dtype, a.shape()));
  }
  if (a.dtype() == DType::kU8) {
    DispatchB<uint8_t>(a, b, p, out_dtype, out, pool);
  } else {
    DispatchB<int8_t>(a, b, p, out_dtype, out, pool);
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::elementwise
