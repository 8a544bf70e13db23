#include "kernels/elementwise/qnn_add.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"
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

#if QNNC_HAS_CPU_CLONES
// 8 bytes (u8 or i8) -> 8 int32.
template <typename T>
QNNC_TARGET_X86_64_V3 inline __m256i Widen8(const T* p) {
  const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return std::is_same_v<T, uint8_t> ? _mm256_cvtepu8_epi32(v) : _mm256_cvtepi8_epi32(v);
}

// RunBody's arithmetic on 8 elements, in its order (two multiplies, one add,
// the clamp; cvtps2dq rounds half to even as RoundSmallHalfEven does for
// these small values), plus the output zero point.
template <typename A, typename B, typename O>
QNNC_TARGET_X86_64_V3 inline __m256i Add8(const AddTask<A, B, O>& t, size_t i, __m256 ra, __m256 rb,
                                          __m256 lo, __m256 hi, __m256i a_zp, __m256i b_zp,
                                          __m256i out_zp) {
  const __m256 da = _mm256_cvtepi32_ps(_mm256_sub_epi32(Widen8(t.a + i), a_zp));
  const __m256 db = _mm256_cvtepi32_ps(_mm256_sub_epi32(Widen8(t.b + i), b_zp));
  __m256 v = _mm256_add_ps(_mm256_mul_ps(ra, da), _mm256_mul_ps(rb, db));
  v = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
  return _mm256_add_epi32(_mm256_cvtps_epi32(v), out_zp);
}

// The add in explicit AVX2 vectors, 32 elements a step: every value is
// clamped into the dtype's range, so the saturating packs only narrow (the
// loop GCC vectorizes itself widens and narrows through 16 bits twice).
template <typename A, typename B, typename O>
QNNC_TARGET_X86_64_V3 void AddAvx2(void* ctx, size_t start, size_t count) {
  const AddTask<A, B, O>& t = *static_cast<const AddTask<A, B, O>*>(ctx);
  const size_t end = std::min(t.n, start + count);
  const __m256 ra = _mm256_set1_ps(t.ra), rb = _mm256_set1_ps(t.rb);
  const __m256 lo = _mm256_set1_ps(t.lo), hi = _mm256_set1_ps(t.hi);
  const __m256i a_zp = _mm256_set1_epi32(t.a_zp), b_zp = _mm256_set1_epi32(t.b_zp);
  const __m256i out_zp = _mm256_set1_epi32(t.out_zp);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  size_t i = start;
  for (; i + 32 <= end; i += 32) {
    const __m256i w = Add8(t, i, ra, rb, lo, hi, a_zp, b_zp, out_zp);
    const __m256i x = Add8(t, i + 8, ra, rb, lo, hi, a_zp, b_zp, out_zp);
    const __m256i y = Add8(t, i + 16, ra, rb, lo, hi, a_zp, b_zp, out_zp);
    const __m256i z = Add8(t, i + 24, ra, rb, lo, hi, a_zp, b_zp, out_zp);
    // packs interleave 128-bit lanes; vpermd puts the 4-byte groups back.
    const __m256i wx = _mm256_packs_epi32(w, x), yz = _mm256_packs_epi32(y, z);
    const __m256i bytes = std::is_same_v<O, uint8_t> ? _mm256_packus_epi16(wx, yz)
                                                     : _mm256_packs_epi16(wx, yz);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(t.out + i),
                        _mm256_permutevar8x32_epi32(bytes, order));
  }
  AddTask<A, B, O>::RunBody(ctx, i, end - i);
}
#endif

#if defined(__aarch64__)
// 16 bytes (u8 or i8) at p -> 16 int32 minus the zero point, as floats.
template <typename T>
inline void Widen16(const T* p, int32x4_t zp, float32x4_t (&out)[4]) {
  int16x8_t half[2];
  if constexpr (std::is_same_v<T, uint8_t>) {
    const uint8x16_t v = vld1q_u8(p);
    half[0] = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(v)));
    half[1] = vreinterpretq_s16_u16(vmovl_high_u8(v));
  } else {
    const int8x16_t v = vld1q_s8(p);
    half[0] = vmovl_s8(vget_low_s8(v));
    half[1] = vmovl_high_s8(v);
  }
  for (int h = 0; h < 2; ++h) {
    out[2 * h] = vcvtq_f32_s32(vsubq_s32(vmovl_s16(vget_low_s16(half[h])), zp));
    out[2 * h + 1] = vcvtq_f32_s32(vsubq_s32(vmovl_high_s16(half[h]), zp));
  }
}

// The add in NEON, 16 elements a step, in RunBody's order (two multiplies,
// one add, the clamp; fcvtns rounds half to even as RoundSmallHalfEven does
// for these small values): every value is clamped into the dtype's range,
// so the saturating narrows only narrow.
template <typename A, typename B, typename O>
void AddNeon(void* ctx, size_t start, size_t count) {
  const AddTask<A, B, O>& t = *static_cast<const AddTask<A, B, O>*>(ctx);
  const size_t end = std::min(t.n, start + count);
  const float32x4_t ra = vdupq_n_f32(t.ra), rb = vdupq_n_f32(t.rb);
  const float32x4_t lo = vdupq_n_f32(t.lo), hi = vdupq_n_f32(t.hi);
  const int32x4_t a_zp = vdupq_n_s32(t.a_zp), b_zp = vdupq_n_s32(t.b_zp), out_zp = vdupq_n_s32(t.out_zp);
  size_t i = start;
  for (; i + 16 <= end; i += 16) {
    float32x4_t da[4], db[4];
    Widen16(t.a + i, a_zp, da);
    Widen16(t.b + i, b_zp, db);
    int16x4_t r[4];
    for (int q = 0; q < 4; ++q) {
      float32x4_t v = vaddq_f32(vmulq_f32(ra, da[q]), vmulq_f32(rb, db[q]));
      v = vminq_f32(vmaxq_f32(v, lo), hi);
      r[q] = vqmovn_s32(vaddq_s32(vcvtnq_s32_f32(v), out_zp));
    }
    const int16x8_t ab = vcombine_s16(r[0], r[1]), cd = vcombine_s16(r[2], r[3]);
    if constexpr (std::is_same_v<O, uint8_t>) {
      vst1q_u8(t.out + i, vcombine_u8(vqmovun_s16(ab), vqmovun_s16(cd)));
    } else {
      vst1q_s8(t.out + i, vcombine_s8(vqmovn_s16(ab), vqmovn_s16(cd)));
    }
  }
  AddTask<A, B, O>::RunBody(ctx, i, end - i);
}
#endif

template <typename A, typename B, typename O>
CloneTask PickBody() {
  CloneTask body = CpuClones<&AddTask<A, B, O>::RunBody>::Pick();
#if QNNC_HAS_CPU_CLONES
  if (cpu::IsAvx2Class(cpu::HostIsaLevel())) body = &AddAvx2<A, B, O>;
#elif defined(__aarch64__)
  if (cpu::Includes(cpu::HostIsaLevel(), cpu::IsaLevel::kNeon)) body = &AddNeon<A, B, O>;
#endif
  return body;
}

template <typename A, typename B, typename O>
void Launch(const Tensor& a, const Tensor& b, const QnnBinaryParams& p, DType out_dtype, Tensor* out,
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
  ParallelRows(pool, PickBody<A, B, O>(), &t, a.shape());
}

template <typename A, typename B>
void DispatchOut(const Tensor& a, const Tensor& b, const QnnBinaryParams& p, DType out_dtype,
                 Tensor* out, pthreadpool_t pool) {
  if (out_dtype == DType::kU8) {
    Launch<A, B, uint8_t>(a, b, p, out_dtype, out, pool);
  } else {
    Launch<A, B, int8_t>(a, b, p, out_dtype, out, pool);
  }
}

template <typename A>
void DispatchB(const Tensor& a, const Tensor& b, const QnnBinaryParams& p, DType out_dtype,
               Tensor* out, pthreadpool_t pool) {
  if (b.dtype() == DType::kU8) {
    DispatchOut<A, uint8_t>(a, b, p, out_dtype, out, pool);
  } else {
    DispatchOut<A, int8_t>(a, b, p, out_dtype, out, pool);
  }
}

}  // namespace

bool QnnAddSupported(DType a_dtype, const tensor::Shape& a_shape, DType b_dtype,
                     const tensor::Shape& b_shape, const QnnBinaryParams& p, DType out_dtype) {
  return Is8Bit(a_dtype) && Is8Bit(b_dtype) && Is8Bit(out_dtype) && a_shape == b_shape &&
         std::isfinite(p.a_scale) &&
         std::isfinite(p.b_scale) && std::isfinite(p.out_scale) && p.out_scale != 0 &&
         // Ratios up to 2^100 keep every product finite, so v is never NaN.
         std::fabs(p.a_scale / p.out_scale) <= 0x1p100f &&
         std::fabs(p.b_scale / p.out_scale) <= 0x1p100f &&
         InRange(p.a_zero_point, a_dtype) && InRange(p.b_zero_point, b_dtype) &&
         InRange(p.out_zero_point, out_dtype);
}

absl::Status QnnAddSameShape(const Tensor& a, const Tensor& b, const QnnBinaryParams& p,
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
