#include "kernels/reference/resize.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernels/reference/internal/common.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using internal::ShapeStr;
using tensor::DType;
using tensor::Tensor;

constexpr absl::string_view kKernel = "Resize2D";

enum class Coord { kHalfPixel, kPytorchHalfPixel, kAlignCorners, kAsymmetric };
enum class Nearest { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

float InputCoordinate(Coord mode, int64_t i, int64_t in, int64_t out, float scale) {
  const float x = static_cast<float>(i);
  switch (mode) {
    case Coord::kHalfPixel:
      return (x + 0.5f) / scale - 0.5f;
    case Coord::kPytorchHalfPixel:
      return out > 1 ? (x + 0.5f) / scale - 0.5f : 0.0f;
    case Coord::kAlignCorners:
      return out == 1 ? 0.0f : x * static_cast<float>(in - 1) / static_cast<float>(out - 1);
    case Coord::kAsymmetric:
      return x / scale;
  }
  return 0.0f;
}

int64_t NearestIndex(Nearest mode, float x, int64_t in) {
  float r = 0;
  switch (mode) {
    case Nearest::kRoundPreferFloor:
      r = x == std::floor(x) + 0.5f ? std::floor(x) : std::round(x);
      break;
    case Nearest::kRoundPreferCeil:
      r = x == std::floor(x) + 0.5f ? std::ceil(x) : std::round(x);
      break;
    case Nearest::kFloor:
      r = std::floor(x);
      break;
    case Nearest::kCeil:
      r = std::ceil(x);
      break;
  }
  return internal::SaturateToInt(r, 0, in - 1);
}

using Taps = ResizeTaps;

Taps AxisTaps(bool linear, Coord coord, Nearest nearest, int64_t in, int64_t out, float scale) {
  Taps t;
  for (int64_t i = 0; i < out; ++i) {
    const float x = InputCoordinate(coord, i, in, out, scale);
    if (!linear) {
      const int64_t n = NearestIndex(nearest, x, in);
      t.lo.push_back(n);
      t.hi.push_back(n);
      t.weight.push_back(0.0f);
      continue;
    }
    const float c = std::clamp(x, 0.0f, static_cast<float>(in - 1));
    const int64_t lo = static_cast<int64_t>(c);  // c >= 0: floor
    t.lo.push_back(lo);
    t.hi.push_back(std::min(lo + 1, in - 1));
    t.weight.push_back(c - static_cast<float>(lo));
  }
  return t;
}

template <typename T>
void Interpolate(const Tensor& x, const Taps& ty, const Taps& tx, Tensor& out) {
  const int64_t planes = x.dim(0) * x.dim(1), h = x.dim(2), w = x.dim(3);
  const T* in = x.data<T>();
  T* y = out.data<T>();
  for (int64_t p = 0; p < planes; ++p) {
    const T* plane = in + p * h * w;
    for (size_t oy = 0; oy < ty.lo.size(); ++oy) {
      const T* r0 = plane + ty.lo[oy] * w;
      const T* r1 = plane + ty.hi[oy] * w;
      const float wy = ty.weight[oy];
      for (size_t ox = 0; ox < tx.lo.size(); ++ox) {
        const int64_t x0 = tx.lo[ox], x1 = tx.hi[ox];
        const float wx = tx.weight[ox];
        const float top = static_cast<float>(r0[x0]) * (1 - wx) + static_cast<float>(r0[x1]) * wx;
        const float bottom =
            static_cast<float>(r1[x0]) * (1 - wx) + static_cast<float>(r1[x1]) * wx;
        const float v = top * (1 - wy) + bottom * wy;
        if constexpr (std::is_floating_point_v<T>) {
          *y++ = v;
        } else {
          *y++ = static_cast<T>(internal::SaturateToInt(internal::RoundHalfEven(v),
                                                        std::numeric_limits<T>::min(),
                                                        std::numeric_limits<T>::max()));
        }
      }
    }
  }
}

template <typename T>
void PickNearest(const Tensor& x, const Taps& ty, const Taps& tx, Tensor& out) {
  const int64_t planes = x.dim(0) * x.dim(1), h = x.dim(2), w = x.dim(3);
  const T* in = x.data<T>();
  T* y = out.data<T>();
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t iy : ty.lo) {
      const T* row = in + (p * h + iy) * w;
      for (int64_t ix : tx.lo) *y++ = row[ix];
    }
  }
}

}  // namespace

absl::StatusOr<ResizePlan> PlanResize2D(const tensor::Shape& shape, int64_t out_h, int64_t out_w,
                                        const ResizeParams& p) {
  if (shape.size() != 4) return Error(kKernel, "expected NCHW input, got ", ShapeStr(shape));
  if (out_h < 0 || out_w < 0 || ((out_h > 0 || out_w > 0) && (shape[2] == 0 || shape[3] == 0))) {
    return Error(kKernel, "cannot resize ", ShapeStr(shape), " to ", out_h, "x", out_w);
  }
  // The output must be a tensor that can exist before its taps are built.
  if (auto n = tensor::NumElements({shape[0], shape[1], out_h, out_w}); !n.ok()) {
    return Error(kKernel, "cannot resize ", ShapeStr(shape), " to ", out_h, "x", out_w, ": ",
                 n.status().message());
  }
  ResizePlan plan;
  if (p.mode == "nearest" || p.mode == "linear") {
    plan.linear = p.mode == "linear";
  } else {
    return Error(kKernel, "unsupported mode \"", p.mode, "\"");
  }
  Coord coord;
  const std::string& cm = p.coordinate_transformation_mode;
  if (cm == "half_pixel") {
    coord = Coord::kHalfPixel;
  } else if (cm == "pytorch_half_pixel") {
    coord = Coord::kPytorchHalfPixel;
  } else if (cm == "align_corners") {
    coord = Coord::kAlignCorners;
  } else if (cm == "asymmetric") {
    coord = Coord::kAsymmetric;
  } else {
    return Error(kKernel, "unsupported coordinate_transformation_mode \"", cm, "\"");
  }
  Nearest nearest;
  const std::string& nm = p.nearest_mode;
  if (nm == "round_prefer_floor") {
    nearest = Nearest::kRoundPreferFloor;
  } else if (nm == "round_prefer_ceil") {
    nearest = Nearest::kRoundPreferCeil;
  } else if (nm == "floor") {
    nearest = Nearest::kFloor;
  } else if (nm == "ceil") {
    nearest = Nearest::kCeil;
  } else {
    return Error(kKernel, "unsupported nearest_mode \"", nm, "\"");
  }
  const float sh =
      p.scale_h != 0 ? p.scale_h : static_cast<float>(out_h) / static_cast<float>(shape[2]);
  const float sw =
      p.scale_w != 0 ? p.scale_w : static_cast<float>(out_w) / static_cast<float>(shape[3]);
  if (!(sh > 0 && sw > 0) || !std::isfinite(sh) || !std::isfinite(sw)) {
    if (out_h > 0 && out_w > 0) return Error(kKernel, "invalid scales ", sh, ", ", sw);
  }
  if (out_h > 0 && out_w > 0 && shape[0] * shape[1] > 0) {
    plan.y = AxisTaps(plan.linear, coord, nearest, shape[2], out_h, sh);
    plan.x = AxisTaps(plan.linear, coord, nearest, shape[3], out_w, sw);
  }
  return plan;
}

absl::StatusOr<Tensor> Resize2D(const Tensor& x, int64_t out_h, int64_t out_w,
                                const ResizeParams& p) {
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x}));
  if (x.rank() == 4 && (!internal::IsIntOrF32(x.dtype()) || x.dtype() == DType::kI64)) {
    return Error(kKernel, "unsupported dtype ", Name(x.dtype()));
  }
  if (x.rank() != 4) return Error(kKernel, "expected NCHW input, got ", ShapeStr(x.shape()));
  // The output first: an impossible size fails here, before its taps exist.
  ASSIGN_OR_RETURN(Tensor out,
                   internal::NewTensor(kKernel, x.dtype(), {x.dim(0), x.dim(1), out_h, out_w}));
  ASSIGN_OR_RETURN(ResizePlan plan, PlanResize2D(x.shape(), out_h, out_w, p));
  if (out.num_elements() == 0) return out;
  internal::VisitNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (plan.linear) {
      Interpolate<T>(x, plan.y, plan.x, out);
    } else {
      PickNearest<T>(x, plan.y, plan.x, out);
    }
  });
  return out;
}

}  // namespace qnnc::kernels::reference
