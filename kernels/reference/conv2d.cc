#include "kernels/reference/conv2d.h"

#include <algorithm>
#include <vector>

#include "kernels/reference/internal/common.h"
#include "kernels/reference/internal/parallel.h"
#include "tensor/window.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using internal::ShapeStr;
using tensor::DType;
using tensor::Tensor;

struct Geometry {
  int64_t n, c, h, w;  // input
  int64_t o, kh, kw;   // weight
  int64_t oh, ow;      // output
  int64_t cin_per_group, out_per_group;
  int64_t sh, sw, dh, dw, pad_top, pad_left;
};

absl::StatusOr<Geometry> MakeGeometry(absl::string_view kernel, const Tensor& data,
                                      const Tensor& weight, const Conv2DParams& p) {
  RETURN_IF_ERROR(internal::CheckDefined(kernel, {&data, &weight}));
  if (data.rank() != 4 || weight.rank() != 4) {
    return Error(kernel, "expected data NCHW and weight OIHW of rank 4, got ",
                 ShapeStr(data.shape()), " and ", ShapeStr(weight.shape()));
  }
  constexpr int64_t kMax = int64_t{1} << 31;
  for (int64_t v : {p.strides[0], p.strides[1], p.dilation[0], p.dilation[1], p.groups}) {
    if (v < 1 || v > kMax) {
      return Error(kernel, "strides, dilation and groups must be in [1, 2^31], got strides [",
                   p.strides[0], ",", p.strides[1], "] dilation [", p.dilation[0], ",",
                   p.dilation[1], "] groups ", p.groups);
    }
  }
  for (int64_t v : p.pads) {
    if (v < 0 || v > kMax) {
      return Error(kernel, "pads must be in [0, 2^31], got [", p.pads[0], ",", p.pads[1], ",",
                   p.pads[2], ",", p.pads[3], "]");
    }
  }
  Geometry g;
  g.n = data.dim(0), g.c = data.dim(1), g.h = data.dim(2), g.w = data.dim(3);
  g.o = weight.dim(0), g.kh = weight.dim(2), g.kw = weight.dim(3);
  if (g.c % p.groups != 0 || g.o % p.groups != 0) {
    return Error(kernel, "channels ", g.c, " and output channels ", g.o,
                 " must be divisible by groups ", p.groups);
  }
  g.cin_per_group = g.c / p.groups;
  g.out_per_group = g.o / p.groups;
  if (weight.dim(1) != g.cin_per_group) {
    return Error(kernel, "weight ", ShapeStr(weight.shape()), " must have ", g.cin_per_group,
                 " input channels (data ", ShapeStr(data.shape()), ", groups ", p.groups, ")");
  }
  if (g.kh < 1 || g.kw < 1) return Error(kernel, "empty kernel ", ShapeStr(weight.shape()));
  if (g.kh > kMax / p.dilation[0] || g.kw > kMax / p.dilation[1]) {
    return Error(kernel, "dilated kernel of ", ShapeStr(weight.shape()), " is too large");
  }
  const int64_t eff_h = (g.kh - 1) * p.dilation[0] + 1, eff_w = (g.kw - 1) * p.dilation[1] + 1;
  const int64_t padded_h = g.h + p.pads[0] + p.pads[2], padded_w = g.w + p.pads[1] + p.pads[3];
  if (padded_h < eff_h || padded_w < eff_w) {
    return Error(kernel, "dilated kernel ", eff_h, "x", eff_w, " is larger than the padded input ",
                 padded_h, "x", padded_w);
  }
  ASSIGN_OR_RETURN(const auto out, p.OutputSize(g.h, g.w, g.kh, g.kw));
  g.oh = out[0];
  g.ow = out[1];
  g.sh = p.strides[0], g.sw = p.strides[1], g.dh = p.dilation[0], g.dw = p.dilation[1];
  g.pad_top = p.pads[0], g.pad_left = p.pads[1];
  return g;
}

// [begin, end) of the output positions whose input position
// out * stride + k * dilation - pad lies inside [0, size), for each k.
void ValidRanges(int64_t out, int64_t size, int64_t k_count, int64_t stride, int64_t dilation,
                 int64_t pad, std::vector<int64_t>& begin, std::vector<int64_t>& end) {
  begin.assign(k_count, 0);
  end.assign(k_count, 0);
  for (int64_t k = 0; k < k_count; ++k) {
    int64_t b = out, e = 0;
    for (int64_t i = 0; i < out; ++i) {
      const int64_t pos = i * stride + k * dilation - pad;
      if (pos >= 0 && pos < size) {
        b = std::min(b, i);
        e = i + 1;
      }
    }
    begin[k] = b;
    end[k] = std::max(b, e);
  }
}

// Computes one (batch, output channel) plane per task. Acc is float, or
// uint32_t / uint64_t for integers (wrapping arithmetic, no UB).
template <typename Acc>
struct ConvTask {
  const Acc* x;  // [N, C, H, W]
  const Acc* w;  // [O, C / groups, KH, KW]
  Acc* y;        // [N, O, OH, OW]
  Geometry g;
  std::vector<int64_t> row_begin, row_end, col_begin, col_end;

  void operator()(int64_t task) const {
    const int64_t n = task / g.o, o = task % g.o, group = o / g.out_per_group;
    Acc* __restrict out = y + task * g.oh * g.ow;
    std::fill(out, out + g.oh * g.ow, Acc{0});
    for (int64_t ci = 0; ci < g.cin_per_group; ++ci) {
      const Acc* __restrict in = x + (n * g.c + group * g.cin_per_group + ci) * g.h * g.w;
      const Acc* wk = w + (o * g.cin_per_group + ci) * g.kh * g.kw;
      for (int64_t kh = 0; kh < g.kh; ++kh) {
        for (int64_t kw = 0; kw < g.kw; ++kw) {
          const Acc wv = wk[kh * g.kw + kw];
          const int64_t cb = col_begin[kw], ce = col_end[kw];
          const int64_t col_offset = kw * g.dw - g.pad_left;
          for (int64_t oy = row_begin[kh]; oy < row_end[kh]; ++oy) {
            const int64_t iy = oy * g.sh + kh * g.dh - g.pad_top;
            const Acc* __restrict in_row = in + iy * g.w;
            Acc* __restrict out_row = out + oy * g.ow;
            if (g.sw == 1) {
              for (int64_t ox = cb; ox < ce; ++ox) out_row[ox] += wv * in_row[ox + col_offset];
            } else {
              for (int64_t ox = cb; ox < ce; ++ox) {
                out_row[ox] += wv * in_row[ox * g.sw + col_offset];
              }
            }
          }
        }
      }
    }
  }
};

template <typename Acc>
void RunConv(const Geometry& g, const Acc* x, const Acc* w, Acc* y, pthreadpool_t pool) {
  ConvTask<Acc> task{x, w, y, g, {}, {}, {}, {}};
  ValidRanges(g.oh, g.h, g.kh, g.sh, g.dh, g.pad_top, task.row_begin, task.row_end);
  ValidRanges(g.ow, g.w, g.kw, g.sw, g.dw, g.pad_left, task.col_begin, task.col_end);
  internal::ParallelFor(pool, g.n * g.o, task);
}

// Values of an integer tensor minus a zero point (per outer index of
// `inner`-sized blocks), as wrapping unsigned Acc.
template <typename Acc>
std::vector<Acc> Shifted(const Tensor& t, const std::vector<int64_t>& zero_points, int64_t inner) {
  std::vector<Acc> out(t.num_elements());
  internal::VisitInteger(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.data<T>();
    for (int64_t i = 0; i < t.num_elements(); ++i) {
      const int64_t zp = internal::PerChannel(zero_points, inner == 0 ? 0 : i / inner);
      out[i] =
          static_cast<Acc>(static_cast<Acc>(static_cast<int64_t>(p[i])) - static_cast<Acc>(zp));
    }
  });
  return out;
}

template <typename Acc>
absl::StatusOr<Tensor> IntegerConv(absl::string_view kernel, const Geometry& g, const Tensor& data,
                                   const Tensor& weight, int64_t zx, const std::vector<int64_t>& zw,
                                   DType out_dtype, pthreadpool_t pool) {
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kernel, out_dtype, {g.n, g.o, g.oh, g.ow}));
  std::vector<Acc> x = Shifted<Acc>(data, {zx}, 0);
  std::vector<Acc> w = Shifted<Acc>(weight, zw, g.cin_per_group * g.kh * g.kw);
  // int32_t/int64_t storage may be accessed through its unsigned counterpart.
  RunConv<Acc>(g, x.data(), w.data(), static_cast<Acc*>(out.raw_data()), pool);
  return out;
}

absl::StatusOr<Tensor> IntegerConvChecked(absl::string_view kernel, const Geometry& g,
                                          const Tensor& data, const Tensor& weight, int64_t zx,
                                          const std::vector<int64_t>& zw, DType out_dtype,
                                          pthreadpool_t pool) {
  if (out_dtype == DType::kI32)
    return IntegerConv<uint32_t>(kernel, g, data, weight, zx, zw, out_dtype, pool);
  if (out_dtype == DType::kI64)
    return IntegerConv<uint64_t>(kernel, g, data, weight, zx, zw, out_dtype, pool);
  return Error(kernel, "integer inputs need out_dtype i32 or i64, got ", Name(out_dtype));
}

}  // namespace

absl::StatusOr<Tensor> Conv2D(const Tensor& data, const Tensor& weight, const Conv2DParams& params,
                              pthreadpool_t pool) {
  constexpr absl::string_view kKernel = "Conv2D";
  ASSIGN_OR_RETURN(Geometry g, MakeGeometry(kKernel, data, weight, params));
  if (data.dtype() == DType::kF32 && weight.dtype() == DType::kF32) {
    if (params.out_dtype != DType::kF32) {
      return Error(kKernel, "f32 inputs need out_dtype f32, got ", Name(params.out_dtype));
    }
    ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, DType::kF32, {g.n, g.o, g.oh, g.ow}));
    RunConv<float>(g, data.data<float>(), weight.data<float>(), out.data<float>(), pool);
    return out;
  }
  if (tensor::IsInteger(data.dtype()) && tensor::IsInteger(weight.dtype())) {
    return IntegerConvChecked(kKernel, g, data, weight, 0, {0}, params.out_dtype, pool);
  }
  return Error(kKernel, "unsupported dtypes data ", Name(data.dtype()), " x weight ",
               Name(weight.dtype()), " (need f32 x f32 or integer x integer)");
}

absl::StatusOr<Tensor> QnnConv2D(const Tensor& data, const Tensor& weight,
                                 const Tensor& input_zero_point, const Tensor& kernel_zero_point,
                                 const Conv2DParams& params, pthreadpool_t pool) {
  constexpr absl::string_view kKernel = "QnnConv2D";
  ASSIGN_OR_RETURN(Geometry g, MakeGeometry(kKernel, data, weight, params));
  if (!tensor::IsInteger(data.dtype()) || !tensor::IsInteger(weight.dtype())) {
    return Error(kKernel, "data and weight must be integer tensors, got ", Name(data.dtype()),
                 " and ", Name(weight.dtype()));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> zx,
                   internal::ReadZeroPoints(kKernel, "input_zero_point", input_zero_point, 1));
  ASSIGN_OR_RETURN(std::vector<int64_t> zw,
                   internal::ReadZeroPoints(kKernel, "kernel_zero_point", kernel_zero_point, g.o));
  return IntegerConvChecked(kKernel, g, data, weight, zx[0], zw, params.out_dtype, pool);
}

}  // namespace qnnc::kernels::reference
