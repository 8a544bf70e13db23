#include "kernels/xnnpack/internal/test_util.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kernels/reference/conv2d.h"
#include "kernels/reference/dense.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/layout.h"
#include "kernels/reference/requantize.h"
#include "util/status_macros.h"

namespace qnnc::kernels::xnnpack::internal {

using tensor::DType;
using tensor::Tensor;

namespace {

Tensor I32(int32_t v) { return Tensor::Scalar<int32_t>(v); }

// float(input_scale * kernel_scale[c]): the requantization input scale.
Tensor InputScales(float input_scale, const std::vector<float>& kernel_scale) {
  std::vector<float> s;
  for (float k : kernel_scale) s.push_back(input_scale * k);
  return Tensor::FromVector<float>({static_cast<int64_t>(s.size())}, s);
}

absl::StatusOr<Tensor> RequantizeAcc(Tensor acc, const Tensor& bias, int64_t axis,
                                     const Tensor& in_scale, Variant variant, int32_t output_zp,
                                     float output_scale, int32_t out_min, int32_t out_max) {
  if (bias.defined()) {
    ASSIGN_OR_RETURN(acc, reference::BiasAdd(acc, bias, axis));
  }
  return reference::Requantize(acc, in_scale, I32(0), Tensor::Scalar<float>(output_scale),
                               I32(output_zp), axis, DataType(variant), out_min, out_max);
}

}  // namespace

Tensor RandomInts(DType dtype, tensor::Shape shape, int64_t lo, int64_t hi, std::mt19937& rng) {
  lo = std::max(lo, tensor::DTypeMin(dtype));
  hi = std::min(hi, tensor::DTypeMax(dtype));
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  Tensor t = Tensor::Zeros(dtype, std::move(shape));
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    const int64_t v = dist(rng);
    switch (dtype) {
      case DType::kU8: t.data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
      case DType::kI8: t.data<int8_t>()[i] = static_cast<int8_t>(v); break;
      default: t.data<int32_t>()[i] = static_cast<int32_t>(v); break;
    }
  }
  return t;
}

absl::StatusOr<Tensor> ReferenceConv(Variant variant, const ConvParams& p, const Tensor& input_nhwc,
                                     const Tensor& weight_oihw, const Tensor& bias) {
  ASSIGN_OR_RETURN(Tensor x, reference::Transpose(input_nhwc, {0, 3, 1, 2}));
  reference::Conv2DParams rp;
  rp.geometry() = p.geometry();
  rp.out_dtype = DType::kI32;
  ASSIGN_OR_RETURN(Tensor acc, reference::QnnConv2D(x, weight_oihw, I32(p.input_zero_point),
                                                    I32(p.kernel_zero_point), rp));
  ASSIGN_OR_RETURN(Tensor y, RequantizeAcc(acc, bias, 1, InputScales(p.input_scale, p.kernel_scale),
                                           variant, p.output_zero_point, p.output_scale,
                                           p.output_min, p.output_max));
  return reference::Transpose(y, {0, 2, 3, 1});
}

absl::StatusOr<Tensor> ReferenceDense(Variant variant, const DenseParams& p, const Tensor& input,
                                      const Tensor& weight, const Tensor& bias) {
  ASSIGN_OR_RETURN(Tensor acc, reference::QnnDense(input, weight, I32(p.input_zero_point),
                                                   I32(p.kernel_zero_point)));
  return RequantizeAcc(acc, bias, -1, InputScales(p.input_scale, {p.kernel_scale}), variant,
                       p.output_zero_point, p.output_scale, p.output_min, p.output_max);
}

std::string Diff::ToString() const {
  return absl::StrCat(differing, " of ", elements, " differ (max |diff| ", max_abs, ")");
}

Diff Compare(const Tensor& a, const Tensor& b) {
  Diff d;
  d.elements = std::min(a.num_elements(), b.num_elements());
  for (int64_t i = 0; i < d.elements; ++i) {
    const int64_t diff = std::llabs(a.GetAsInt(i) - b.GetAsInt(i));
    if (diff != 0) ++d.differing;
    d.max_abs = std::max(d.max_abs, diff);
  }
  return d;
}

}  // namespace qnnc::kernels::xnnpack::internal
