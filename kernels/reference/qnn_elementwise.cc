#include "kernels/reference/qnn_elementwise.h"

#include <cmath>
#include <vector>

#include "kernels/reference/internal/common.h"
#include "kernels/reference/layout.h"
#include "kernels/reference/requantize.h"
#include "util/status_macros.h"

namespace qnnc::kernels::reference {
namespace {

using internal::Error;
using internal::Name;
using tensor::DType;
using tensor::Shape;
using tensor::Tensor;

struct QParams {
  float a_scale, b_scale, out_scale;
  int64_t a_zp, b_zp, out_zp;
};

absl::StatusOr<QParams> ReadParams(absl::string_view kernel, const Tensor& a, const Tensor& a_scale,
                                   const Tensor& a_zp, const Tensor& b, const Tensor& b_scale,
                                   const Tensor& b_zp, const Tensor& out_scale,
                                   const Tensor& out_zp, DType out_dtype) {
  RETURN_IF_ERROR(internal::CheckDefined(kernel, {&a, &b}));
  if (!tensor::IsInteger(a.dtype()) || !tensor::IsInteger(b.dtype()) ||
      !tensor::IsInteger(out_dtype) || a.dtype() == DType::kI64 || b.dtype() == DType::kI64) {
    return Error(kernel,
                 "operands must be integers of at most 32 bits and out_dtype an integer type, got ",
                 Name(a.dtype()), ", ", Name(b.dtype()), " -> ", Name(out_dtype));
  }
  QParams p;
  ASSIGN_OR_RETURN(auto as, internal::ReadScales(kernel, "a_scale", a_scale, 1));
  ASSIGN_OR_RETURN(auto bs, internal::ReadScales(kernel, "b_scale", b_scale, 1));
  ASSIGN_OR_RETURN(auto os, internal::ReadScales(kernel, "out_scale", out_scale, 1));
  ASSIGN_OR_RETURN(auto az, internal::ReadZeroPoints(kernel, "a_zero_point", a_zp, 1));
  ASSIGN_OR_RETURN(auto bz, internal::ReadZeroPoints(kernel, "b_zero_point", b_zp, 1));
  ASSIGN_OR_RETURN(auto oz, internal::ReadZeroPoints(kernel, "out_zero_point", out_zp, 1));
  if (os[0] == 0) return Error(kernel, "out_scale must be nonzero");
  p.a_scale = as[0], p.b_scale = bs[0], p.out_scale = os[0];
  p.a_zp = az[0], p.b_zp = bz[0], p.out_zp = oz[0];
  return p;
}

// out[i] = saturate(nearbyint(f(a - a_zp, b - b_zp)) + out_zp) over the
// broadcast shape; f returns float32 (NaN maps to the zero point).
template <typename F>
absl::StatusOr<Tensor> Run(absl::string_view kernel, const Tensor& a, const Tensor& b,
                           const QParams& p, DType out_dtype, F&& f) {
  ASSIGN_OR_RETURN(Shape shape, internal::BroadcastShapes(kernel, a.shape(), b.shape()));
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kernel, out_dtype, shape));
  const std::vector<int64_t> av = internal::IntValues(a), bv = internal::IntValues(b);
  const int64_t lo = tensor::DTypeMin(out_dtype), hi = tensor::DTypeMax(out_dtype);
  internal::VisitInteger(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* q = out.data<T>();
    internal::ForEachBroadcast(
        shape, internal::BroadcastStrides(a.shape(), shape),
        internal::BroadcastStrides(b.shape(), shape), [&](int64_t o, int64_t ia, int64_t ib) {
          const float v = f(av[ia] - p.a_zp, bv[ib] - p.b_zp);
          const double r = std::isnan(v) ? 0.0 : internal::RoundHalfEven(v);
          q[o] = static_cast<T>(internal::SaturateToInt(r + p.out_zp, lo, hi));
        });
  });
  return out;
}

}  // namespace

absl::StatusOr<Tensor> QnnAdd(const Tensor& a, const Tensor& a_scale, const Tensor& a_zero_point,
                              const Tensor& b, const Tensor& b_scale, const Tensor& b_zero_point,
                              const Tensor& out_scale, const Tensor& out_zero_point,
                              DType out_dtype) {
  constexpr absl::string_view kKernel = "QnnAdd";
  ASSIGN_OR_RETURN(QParams p, ReadParams(kKernel, a, a_scale, a_zero_point, b, b_scale,
                                         b_zero_point, out_scale, out_zero_point, out_dtype));
  const float ra = p.a_scale / p.out_scale, rb = p.b_scale / p.out_scale;
  return Run(kKernel, a, b, p, out_dtype, [ra, rb](int64_t da, int64_t db) {
    return ra * static_cast<float>(da) + rb * static_cast<float>(db);
  });
}

absl::StatusOr<Tensor> QnnMul(const Tensor& a, const Tensor& a_scale, const Tensor& a_zero_point,
                              const Tensor& b, const Tensor& b_scale, const Tensor& b_zero_point,
                              const Tensor& out_scale, const Tensor& out_zero_point,
                              DType out_dtype) {
  constexpr absl::string_view kKernel = "QnnMul";
  ASSIGN_OR_RETURN(QParams p, ReadParams(kKernel, a, a_scale, a_zero_point, b, b_scale,
                                         b_zero_point, out_scale, out_zero_point, out_dtype));
  const float m = p.a_scale * p.b_scale / p.out_scale;
  return Run(kKernel, a, b, p, out_dtype, [m](int64_t da, int64_t db) {
    // Operands are at most 32-bit wide, so |da|, |db| < 2^33 and the product
    // fits __int128 exactly.
    return m * static_cast<float>(static_cast<__int128>(da) * db);
  });
}

absl::StatusOr<Tensor> QnnConcat(const std::vector<Tensor>& inputs,
                                 const std::vector<Tensor>& scales,
                                 const std::vector<Tensor>& zero_points, const Tensor& out_scale,
                                 const Tensor& out_zero_point, int64_t axis) {
  constexpr absl::string_view kKernel = "QnnConcat";
  if (inputs.empty() || scales.size() != inputs.size() || zero_points.size() != inputs.size()) {
    return Error(kKernel, "need one scale and zero point per input, got ", inputs.size(),
                 " inputs, ", scales.size(), " scales, ", zero_points.size(), " zero points");
  }
  const DType dtype = inputs[0].dtype();
  std::vector<Tensor> requantized;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].dtype() != dtype) {
      return Error(kKernel, "input ", i, " is ", Name(inputs[i].dtype()), ", input 0 is ",
                   Name(dtype));
    }
    ASSIGN_OR_RETURN(Tensor r, Requantize(inputs[i], scales[i], zero_points[i], out_scale,
                                          out_zero_point, axis, dtype));
    requantized.push_back(std::move(r));
  }
  return Concat(requantized, axis);
}

absl::StatusOr<Tensor> Lookup(const Tensor& x, const Tensor& table) {
  constexpr absl::string_view kKernel = "Lookup";
  RETURN_IF_ERROR(internal::CheckDefined(kKernel, {&x, &table}));
  auto byte = [](DType d) { return d == DType::kU8 || d == DType::kI8; };
  if (!byte(x.dtype()) || !byte(table.dtype()) || table.num_elements() != 256) {
    return Error(kKernel, "needs 8-bit data and 256 8-bit table entries, got ", Name(x.dtype()), " and ",
                 table.num_elements(), " ", Name(table.dtype()));
  }
  ASSIGN_OR_RETURN(Tensor out, internal::NewTensor(kKernel, table.dtype(), x.shape()));
  const auto* in = static_cast<const uint8_t*>(x.raw_data());
  const auto* t = static_cast<const uint8_t*>(table.raw_data());
  auto* o = static_cast<uint8_t*>(out.raw_data());
  for (int64_t i = 0; i < x.num_elements(); ++i) o[i] = t[in[i]];
  return out;
}

}  // namespace qnnc::kernels::reference
