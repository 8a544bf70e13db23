#include "kernels/pool/max_pool.h"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"
#include "kernels/cpu_clones.h"
#include "util/status_macros.h"

namespace qnnc::kernels::pool {
namespace {

using tensor::DType;
using tensor::Tensor;

// One spatial axis: for each output position, the first window tap inside the
// input and how many taps are inside (they are dilation apart).
struct Axis {
  int64_t size = 0, out = 0, dilation = 1;
  std::vector<int64_t> first, count;
};

absl::StatusOr<Axis> MakeAxis(int64_t size, int64_t k, int64_t stride, int64_t dilation,
                              int64_t pad_begin, int64_t pad_end, bool ceil_mode) {
  auto out = reference::PoolOutputSize(size, k, stride, dilation, pad_begin, pad_end, ceil_mode);
  if (!out.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("MaxPool2D: ", out.status().message()));
  }
  Axis a;
  a.size = size;
  a.dilation = dilation;
  a.out = *out;
  for (int64_t o = 0; o < a.out; ++o) {
    int64_t first = -1, count = 0;
    for (int64_t t = 0; t < k; ++t) {
      const int64_t pos = o * stride - pad_begin + t * dilation;
      if (pos < 0 || pos >= size) continue;
      if (first < 0) first = pos;
      ++count;
    }
    a.first.push_back(first < 0 ? 0 : first);
    a.count.push_back(count);
  }
  return a;
}

// The window's maximum so far and the start: for floats NaN wins and stays
// (as the reference: `if (v > m || v != v) m = v`), from -infinity.
template <typename T>
inline T MaxOf(T acc, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    // `|`, not `||`: no branch, so the lane loops if-convert and vectorize
    // (with `||` GCC kept a compare and jump per lane).
    const bool take = (v > acc) | (v != v);
    return take ? v : acc;
  } else {
    return std::max(acc, v);
  }
}
template <typename T>
constexpr T Lowest() {
  if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}

// Lanes: the layout's block when known at compile time (16, 4; 1 = NCHW),
// else 0 (read from `lanes`).
template <typename T, int Lanes>
struct PoolTask {
  const T* x;
  T* y;
  const Axis* h;
  const Axis* w;
  int64_t lanes;

  // One output row of one plane (all lanes).
  QNNC_CLONE_BODY static void RunBody(void* ctx, size_t plane, size_t oy) {
    const PoolTask& t = *static_cast<const PoolTask*>(ctx);
    const Axis &h = *t.h, &w = *t.w;
    const int64_t L = Lanes > 0 ? Lanes : t.lanes;
    const T* in = t.x + static_cast<int64_t>(plane) * h.size * w.size * L;
    T* out = t.y + (static_cast<int64_t>(plane) * h.out + static_cast<int64_t>(oy)) * w.out * L;
    const int64_t y0 = h.first[oy], ny = h.count[oy];
    for (int64_t ox = 0; ox < w.out; ++ox) {
      const int64_t x0 = w.first[ox], nx = w.count[ox];
      if constexpr (Lanes > 0) {
        // A local accumulator: no aliasing with the input, so the lanes
        // vectorize.
        T acc[Lanes];
        for (int l = 0; l < Lanes; ++l) acc[l] = Lowest<T>();
        for (int64_t i = 0; i < ny; ++i) {
          const T* row = in + (y0 + i * h.dilation) * w.size * Lanes;
          for (int64_t j = 0; j < nx; ++j) {
            const T* p = row + (x0 + j * w.dilation) * Lanes;
            for (int l = 0; l < Lanes; ++l) acc[l] = MaxOf(acc[l], p[l]);
          }
        }
        for (int l = 0; l < Lanes; ++l) out[ox * Lanes + l] = acc[l];
      } else {
        T* o = out + ox * L;
        for (int64_t l = 0; l < L; ++l) o[l] = Lowest<T>();
        for (int64_t i = 0; i < ny; ++i) {
          const T* row = in + (y0 + i * h.dilation) * w.size * L;
          for (int64_t j = 0; j < nx; ++j) {
            const T* p = row + (x0 + j * w.dilation) * L;
            for (int64_t l = 0; l < L; ++l) o[l] = MaxOf(o[l], p[l]);
          }
        }
      }
    }
  }

  // Rows outermost (pthreadpool's first index): each thread takes a band of
  // rows of every plane, the band the convolution before it wrote on that
  // core (splitting planes first made each thread read half its input from
  // the other core: ResNet-18's pool after its stem scaled 1.1x at two
  // threads).
  QNNC_CLONE_BODY static void RunRowsFirst(void* ctx, size_t oy, size_t plane) { RunBody(ctx, plane, oy); }
};

// f32 blocked by 16, the reference's `if (v > m || v != v) m = v` per lane
// with explicit vectors (GCC would not if-convert it, on x86-64 or AArch64):
// max_ps(v, m) is exactly `v > m ? v : m`, and a NaN v is then blended in.
using F32RowFn = void (*)(const float* in, float* out, const Axis& h, const Axis& w, int64_t oy);

#if QNNC_HAS_CPU_CLONES
QNNC_AVX512_BODIES_BEGIN
QNNC_TARGET_X86_64_V4 void MaxRowF32x16Avx512(const float* in, float* out, const Axis& h,
                                              const Axis& w, int64_t oy) {
  const int64_t y0 = h.first[oy], ny = h.count[oy];
  for (int64_t ox = 0; ox < w.out; ++ox) {
    const int64_t x0 = w.first[ox], nx = w.count[ox];
    __m512 m = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
    for (int64_t i = 0; i < ny; ++i) {
      const float* row = in + (y0 + i * h.dilation) * w.size * 16;
      for (int64_t j = 0; j < nx; ++j) {
        const __m512 v = _mm512_loadu_ps(row + (x0 + j * w.dilation) * 16);
        m = _mm512_mask_mov_ps(_mm512_max_ps(v, m), _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), v);
      }
    }
    _mm512_storeu_ps(out + ox * 16, m);
  }
}

QNNC_AVX512_BODIES_END

QNNC_TARGET_X86_64_V3 void MaxRowF32x16Avx2(const float* in, float* out, const Axis& h,
                                            const Axis& w, int64_t oy) {
  const int64_t y0 = h.first[oy], ny = h.count[oy];
  for (int64_t ox = 0; ox < w.out; ++ox) {
    const int64_t x0 = w.first[ox], nx = w.count[ox];
    __m256 m0 = _mm256_set1_ps(-std::numeric_limits<float>::infinity()), m1 = m0;
    for (int64_t i = 0; i < ny; ++i) {
      const float* row = in + (y0 + i * h.dilation) * w.size * 16;
      for (int64_t j = 0; j < nx; ++j) {
        const float* p = row + (x0 + j * w.dilation) * 16;
        const __m256 v0 = _mm256_loadu_ps(p), v1 = _mm256_loadu_ps(p + 8);
        m0 = _mm256_blendv_ps(_mm256_max_ps(v0, m0), v0, _mm256_cmp_ps(v0, v0, _CMP_UNORD_Q));
        m1 = _mm256_blendv_ps(_mm256_max_ps(v1, m1), v1, _mm256_cmp_ps(v1, v1, _CMP_UNORD_Q));
      }
    }
    _mm256_storeu_ps(out + ox * 16, m0);
    _mm256_storeu_ps(out + ox * 16 + 8, m1);
  }
}
#endif

#if defined(__aarch64__)
// NEON, four vectors a pixel: `v > m || v != v` as compares and a select
// (fmax would quiet a signalling NaN the reference copies as it is).
void MaxRowF32x16Neon(const float* in, float* out, const Axis& h, const Axis& w, int64_t oy) {
  const int64_t y0 = h.first[oy], ny = h.count[oy];
  for (int64_t ox = 0; ox < w.out; ++ox) {
    const int64_t x0 = w.first[ox], nx = w.count[ox];
    float32x4_t m[4];
    for (float32x4_t& v : m) v = vdupq_n_f32(-std::numeric_limits<float>::infinity());
    for (int64_t i = 0; i < ny; ++i) {
      const float* row = in + (y0 + i * h.dilation) * w.size * 16;
      for (int64_t j = 0; j < nx; ++j) {
        const float* p = row + (x0 + j * w.dilation) * 16;
        for (int q = 0; q < 4; ++q) {
          const float32x4_t v = vld1q_f32(p + 4 * q);
          const uint32x4_t take = vorrq_u32(vcgtq_f32(v, m[q]), vmvnq_u32(vceqq_f32(v, v)));
          m[q] = vbslq_f32(take, v, m[q]);
        }
      }
    }
    for (int q = 0; q < 4; ++q) vst1q_f32(out + ox * 16 + 4 * q, m[q]);
  }
}
#endif

F32RowFn PickF32x16Row() {
  return PickForHost<F32RowFn>({QNNC_X86_BODY(MaxRowF32x16Avx512), QNNC_X86_BODY(MaxRowF32x16Avx2),
                                QNNC_NEON_BODY(MaxRowF32x16Neon)},
                               nullptr);
}

struct F32x16Task {
  const float* x;
  float* y;
  const Axis* h;
  const Axis* w;
  F32RowFn row;
  static void Run(void* ctx, size_t plane, size_t oy) {
    const F32x16Task& t = *static_cast<const F32x16Task*>(ctx);
    const Axis &h = *t.h, &w = *t.w;
    const float* in = t.x + static_cast<int64_t>(plane) * h.size * w.size * 16;
    float* out = t.y + (static_cast<int64_t>(plane) * h.out + static_cast<int64_t>(oy)) * w.out * 16;
    t.row(in, out, h, w, static_cast<int64_t>(oy));
  }
  static void RunRowsFirst(void* ctx, size_t oy, size_t plane) { Run(ctx, plane, oy); }
};

}  // namespace

absl::Status MaxPool2D(const Tensor& x, const reference::Pool2DParams& p, Tensor* out,
                           pthreadpool_t pool) {
  if (!x.defined() || (x.dtype() != DType::kU8 && x.dtype() != DType::kI8 && x.dtype() != DType::kF32) ||
      (x.rank() != 4 && x.rank() != 5)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MaxPool2D: needs u8, i8 or f32 data of rank 4 (NCHW) or 5 (NCHW{k}c), got ",
        x.defined() ? tensor::DTypeName(x.dtype()) : "undefined", " ",
        tensor::ShapeToString(x.shape())));
  }
  if (out == nullptr) return absl::InvalidArgumentError("MaxPool2D: out is null");
  ASSIGN_OR_RETURN(Axis h, MakeAxis(x.dim(2), p.kernel[0], p.strides[0], p.dilation[0], p.pads[0],
                                    p.pads[2], p.ceil_mode));
  ASSIGN_OR_RETURN(Axis w, MakeAxis(x.dim(3), p.kernel[1], p.strides[1], p.dilation[1], p.pads[1],
                                    p.pads[3], p.ceil_mode));
  tensor::Shape shape = x.shape();
  shape[2] = h.out;
  shape[3] = w.out;
  if (!out->defined() || out->dtype() != x.dtype() || out->shape() != shape) {
    ASSIGN_OR_RETURN(*out, Tensor::CreateForOverwrite(x.dtype(), shape));
  }
  const int64_t lanes = x.rank() == 5 ? x.dim(4) : 1;
  const size_t planes = static_cast<size_t>(x.dim(0) * x.dim(1));
  auto launch = [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    auto run = [&](auto task) {
      task.x = x.data<T>();
      task.y = out->data<T>();
      task.h = &h;
      task.w = &w;
      task.lanes = lanes;
      pthreadpool_parallelize_2d(pool, CpuClones<&decltype(task)::RunRowsFirst>::Pick(), &task,
                                 static_cast<size_t>(h.out), planes, 0);
    };
    if constexpr (std::is_same_v<T, float>) {
      if (lanes == 16) {
        if (const F32RowFn row = PickF32x16Row()) {
          F32x16Task task{x.data<float>(), out->data<float>(), &h, &w, row};
          pthreadpool_parallelize_2d(pool, &F32x16Task::RunRowsFirst, &task, static_cast<size_t>(h.out),
                                     planes, 0);
          return;
        }
      }
    }
    if (lanes == 16) {
      run(PoolTask<T, 16>{});
    } else if (lanes == 4) {
      run(PoolTask<T, 4>{});
    } else if (lanes == 1) {
      run(PoolTask<T, 1>{});
    } else {
      run(PoolTask<T, 0>{});
    }
  };
  if (x.dtype() == DType::kU8) {
    launch(static_cast<uint8_t*>(nullptr));
  } else if (x.dtype() == DType::kF32) {
    launch(static_cast<float*>(nullptr));
  } else {
    launch(static_cast<int8_t*>(nullptr));
  }
  return absl::OkStatus();
}

}  // namespace qnnc::kernels::pool
