#include "kernels/reference/pool.h"

#include <limits>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernels/reference/internal/common.h"
#include "tensor/window.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using internal::ShapeStr;
using tensor::DType;
using tensor::Tensor;

// One spatial axis of a pooling window.
struct Axis {
  int64_t size, kernel, stride, dilation, pad_begin, pad_end, out;
};

absl::StatusOr<Axis> MakeAxis(absl::string_view kernel, int64_t size, int64_t k, int64_t stride,
                              int64_t dilation, int64_t pad_begin, int64_t pad_end,
                              bool ceil_mode) {
  auto out = PoolOutputSize(size, k, stride, dilation, pad_begin, pad_end, ceil_mode);
  if (!out.ok()) return Error(kernel, out.status().message());
  return Axis{size, k, stride, dilation, pad_begin, pad_end, *out};
}

struct Window {
  std::vector<int64_t> inside;  // input positions of the window inside the input
  int64_t padded_count;         // window positions inside the padded input
};

Window WindowAt(const Axis& a, int64_t o) {
  Window w{{}, 0};
  for (int64_t k = 0; k < a.kernel; ++k) {
    const int64_t pos = o * a.stride - a.pad_begin + k * a.dilation;
    if (pos >= -a.pad_begin && pos < a.size + a.pad_end) ++w.padded_count;
    if (pos >= 0 && pos < a.size) w.inside.push_back(pos);
  }
  return w;
}

// sum / count rounded half to even (count > 0).
int64_t DivideRoundHalfEven(int64_t sum, int64_t count) {
  int64_t q = sum / count, r = sum % count;
  if (r < 0) {  // floor division
    r += count;
    --q;
  }
  if (2 * r > count || (2 * r == count && (q & 1) != 0)) ++q;
  return q;
}

enum class Kind { kMax, kAvg };

template <typename T>
void Pool(Kind kind, const Tensor& x, const Axis& h, const Axis& w, bool include_pad, Tensor& out) {
  std::vector<Window> rows, cols;
  for (int64_t o = 0; o < h.out; ++o) rows.push_back(WindowAt(h, o));
  for (int64_t o = 0; o < w.out; ++o) cols.push_back(WindowAt(w, o));
  const int64_t planes = x.dim(0) * x.dim(1);
  const T* in = x.data<T>();
  T* y = out.data<T>();
  for (int64_t p = 0; p < planes; ++p) {
    const T* plane = in + p * h.size * w.size;
    for (const Window& row : rows) {
      for (const Window& col : cols) {
        if (kind == Kind::kMax) {
          T m = std::numeric_limits<T>::lowest();
          if constexpr (std::is_floating_point_v<T>) m = -std::numeric_limits<T>::infinity();
          for (int64_t iy : row.inside) {
            for (int64_t ix : col.inside) {
              const T v = plane[iy * w.size + ix];
              if (v > m || v != v) m = v;  // NaN propagates
            }
          }
          *y++ = m;
          continue;
        }
        const int64_t count = include_pad
                                  ? row.padded_count * col.padded_count
                                  : static_cast<int64_t>(row.inside.size() * col.inside.size());
        if constexpr (std::is_floating_point_v<T>) {
          T sum = 0;
          for (int64_t iy : row.inside) {
            for (int64_t ix : col.inside) sum += plane[iy * w.size + ix];
          }
          *y++ = count == 0 ? T{0} : sum / static_cast<T>(count);
        } else {
          int64_t sum = 0;
          for (int64_t iy : row.inside) {
            for (int64_t ix : col.inside) sum += plane[iy * w.size + ix];
          }
          *y++ = count == 0 ? T{0} : static_cast<T>(DivideRoundHalfEven(sum, count));
        }
      }
    }
  }
}

absl::StatusOr<Tensor> RunPool(absl::string_view kernel, Kind kind, const Tensor& x,
                               const Pool2DParams& p) {
  RETURN_IF_ERROR(internal::CheckDefined(kernel, {&x}));
  if (x.rank() != 4) return Error(kernel, "expected NCHW input, got ", ShapeStr(x.shape()));
  if (!internal::IsIntOrF32(x.dtype()) || (x.dtype() == DType::kI64 && kind == Kind::kAvg)) {
    return Error(kernel, "unsupported dtype ", Name(x.dtype()));
  }
  ASSIGN_OR_RETURN(Axis h, MakeAxis(kernel, x.dim(2), p.kernel[0], p.strides[0], p.dilation[0],
                                    p.pads[0], p.pads[2], p.ceil_mode));
  ASSIGN_OR_RETURN(Axis w, MakeAxis(kernel, x.dim(3), p.kernel[1], p.strides[1], p.dilation[1],
                                    p.pads[1], p.pads[3], p.ceil_mode));
  ASSIGN_OR_RETURN(Tensor out,
                   internal::NewTensor(kernel, x.dtype(), {x.dim(0), x.dim(1), h.out, w.out}));
  internal::VisitNumeric(x.dtype(), [&](auto tag) {
    Pool<typename decltype(tag)::type>(kind, x, h, w, p.count_include_pad, out);
  });
  return out;
}

}  // namespace

absl::StatusOr<int64_t> PoolOutputSize(int64_t size, int64_t k, int64_t stride, int64_t dilation,
                                       int64_t pad_begin, int64_t pad_end, bool ceil_mode) {
  constexpr int64_t kMax = int64_t{1} << 31;
  if (k < 1 || stride < 1 || dilation < 1 || pad_begin < 0 || pad_end < 0 || k > kMax ||
      stride > kMax || dilation > kMax || pad_begin > kMax || pad_end > kMax) {
    return absl::InvalidArgumentError(absl::StrCat("invalid window: kernel ", k, " stride ",
                                                   stride, " dilation ", dilation, " pads ",
                                                   pad_begin, ",", pad_end));
  }
  return tensor::WindowOutputSize(size, k, stride, pad_begin, pad_end, dilation, ceil_mode);
}

absl::StatusOr<Tensor> MaxPool2D(const Tensor& x, const Pool2DParams& params) {
  return RunPool("MaxPool2D", Kind::kMax, x, params);
}

absl::StatusOr<Tensor> AvgPool2D(const Tensor& x, const Pool2DParams& params) {
  return RunPool("AvgPool2D", Kind::kAvg, x, params);
}

absl::StatusOr<Tensor> GlobalAvgPool2D(const Tensor& x) {
  RETURN_IF_ERROR(internal::CheckDefined("GlobalAvgPool2D", {&x}));
  if (x.rank() != 4)
    return Error("GlobalAvgPool2D", "expected NCHW input, got ", ShapeStr(x.shape()));
  if (x.dim(2) == 0 || x.dim(3) == 0) {
    return Error("GlobalAvgPool2D", "empty spatial extent in ", ShapeStr(x.shape()));
  }
  Pool2DParams p;
  p.kernel = {x.dim(2), x.dim(3)};
  return RunPool("GlobalAvgPool2D", Kind::kAvg, x, p);
}

}  // namespace qnnc::kernels::reference
