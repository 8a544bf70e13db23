// The quantize family's kernel factories: qnn.quantize, qnn.requantize,
// qnn.dequantize and qnn.dynamic_quantize.
//
// Kernels of the quantization ops, bound per op whatever the decision
// (KernelRegistry::RegisterForOp): qnn.quantize, qnn.dequantize,
// qnn.requantize and qnn.dynamic_quantize.
// Each factory takes only the nodes its kernel computes exactly like the
// reference and returns nullptr for the rest.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/op_views.h"
#include "kernels/elementwise/channel_ops.h"
#include "kernels/elementwise/dequantize.h"
#include "kernels/elementwise/float_ops.h"
#include "kernels/elementwise/quantize.h"
#include "kernels/elementwise/requantize.h"
#include "runtime/kernel_registry.h"
#include "runtime/node_constants.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

using tensor::DType;
using tensor::Tensor;

// qnn.quantize inputs: data, scale, zero_point.
class QuantizeKernel : public PreparedKernel {
 public:
  QuantizeKernel(float scale, int32_t zp, DType out_dtype)
      : scale_(scale), zp_(zp), out_dtype_(out_dtype) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::QuantizePerTensor(in[0], scale_, zp_, out_dtype_, &out[0], pool);
  }
  std::string description() const override { return "elementwise quantize"; }
  // Its loops, scalar, vectorized by GCC or AVX2 (kernels/elementwise/
  // quantize.cc), stop at the last element.
  bool ReadsWithinInputs() const override { return true; }

 private:
  float scale_;
  int32_t zp_;
  DType out_dtype_;
};

// f32 -> u8/i8 with a constant per-tensor f32 scale and zero point; nullptr
// (the reference kernel) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQuantize(const ir::Node& n) {
  double scale, zp;
  if (n.inputs().size() != 3 || !n.input(0)->type() || !n.output()->type() ||
      n.input(0)->type()->dtype != DType::kF32 || !ConstantScalar(n, 1, &scale) ||
      !ConstantScalar(n, 2, &zp) || n.input(1)->data().dtype() != DType::kF32 ||
      !(zp >= -2147483648.0 && zp <= 2147483647.0)) {
    return std::unique_ptr<PreparedKernel>();
  }
  const DType out_dtype = n.output()->type()->dtype;
  if (!kernels::elementwise::QuantizeSupported(out_dtype, static_cast<float>(scale),
                                               static_cast<int32_t>(zp))) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(
      new QuantizeKernel(static_cast<float>(scale), static_cast<int32_t>(zp), out_dtype));
}

// qnn.requantize inputs: data, input_scale, input_zero_point, output_scale,
// output_zero_point. One multiplier, or one per channel along `axis_`.
class RequantizeKernel : public PreparedKernel {
 public:
  RequantizeKernel(const kernels::elementwise::RequantizeParams& p, std::vector<float> multipliers,
                   int64_t axis, DType out_dtype)
      : p_(p), multipliers_(std::move(multipliers)), axis_(axis), out_dtype_(out_dtype) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (multipliers_.empty()) return kernels::elementwise::RequantizePerTensor(in[0], p_, out_dtype_, &out[0], pool);
    return kernels::elementwise::RequantizePerChannel(in[0], multipliers_, axis_, p_, out_dtype_, &out[0], pool);
  }
  std::string description() const override {
    return multipliers_.empty() ? "elementwise requantize" : "elementwise requantize per channel";
  }

 private:
  kernels::elementwise::RequantizeParams p_;
  std::vector<float> multipliers_;
  int64_t axis_;
  DType out_dtype_;
};

// i32 -> u8/i8 in the default rounding, with constant f32 scales (the input
// scale per tensor or per channel along `axis`), input zero point 0 and an
// output zero point; nullptr (the reference kernel) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeRequantize(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  double in_zp, out_scale, out_zp;
  if (n.inputs().size() != 5 || !n.input(0)->type() || !n.output()->type() ||
      n.input(0)->type()->dtype != DType::kI32 || !n.input(1)->is_constant() ||
      !ConstantScalar(n, 2, &in_zp) || !ConstantScalar(n, 3, &out_scale) ||
      !ConstantScalar(n, 4, &out_zp) || n.input(1)->data().dtype() != DType::kF32 ||
      n.input(3)->data().dtype() != DType::kF32 || !(out_zp >= -256.0 && out_zp <= 256.0)) {
    return none();
  }
  auto view = ir::RequantizeView::Of(n);
  if (!view.ok() || !view->nearest_even()) return none();
  const DType out_dtype = n.output()->type()->dtype;
  if (out_dtype != DType::kU8 && out_dtype != DType::kI8) return none();
  kernels::elementwise::RequantizeParams p;
  p.output_zero_point = static_cast<int32_t>(out_zp);
  p.lo = static_cast<int32_t>(view->clamp_min);
  p.hi = static_cast<int32_t>(view->clamp_max);
  if (in_zp != 0) return none();
  // As the reference: the float quotient of the float scales.
  const Tensor& in_scale = n.input(1)->data();
  const float os = static_cast<float>(out_scale);
  if (in_scale.num_elements() == 1) {
    p.multiplier = in_scale.data<float>()[0] / os;
    if (!kernels::elementwise::RequantizeSupported(0, p, out_dtype)) return none();
    return std::unique_ptr<PreparedKernel>(new RequantizeKernel(p, {}, 0, out_dtype));
  }
  auto axis = view->AxisFor(n.input(0)->type()->rank());
  if (!axis.ok()) return none();
  const int64_t a = *axis;
  if (in_scale.rank() != 1 || in_scale.num_elements() != n.input(0)->type()->shape[a]) {
    return none();
  }
  std::vector<float> multipliers(in_scale.num_elements());
  for (int64_t c = 0; c < in_scale.num_elements(); ++c) {
    multipliers[c] = in_scale.data<float>()[c] / os;
    p.multiplier = multipliers[c];
    if (!kernels::elementwise::RequantizeSupported(0, p, out_dtype)) return none();
  }
  return std::unique_ptr<PreparedKernel>(new RequantizeKernel(p, std::move(multipliers), a, out_dtype));
}

// qnn.dequantize inputs: data, scale, zero_point.
class DequantizeKernel : public PreparedKernel {
 public:
  DequantizeKernel(float scale, int32_t zp) : scale_(scale), zp_(zp) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::DequantizePerTensor(in[0], scale_, zp_, &out[0], pool);
  }
  std::string description() const override { return "elementwise dequantize"; }

 private:
  float scale_;
  int32_t zp_;
};

// u8/i8 -> f32 with a constant per-tensor f32 scale and zero point; nullptr
// (the reference kernel) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeDequantize(const ir::Node& n) {
  double scale, zp;
  if (n.inputs().size() != 3 || !n.input(0)->type() ||
      (n.input(0)->type()->dtype != DType::kU8 && n.input(0)->type()->dtype != DType::kI8) ||
      !ConstantScalar(n, 1, &scale) || !ConstantScalar(n, 2, &zp) ||
      n.input(1)->data().dtype() != DType::kF32 || !(zp >= -2147483648.0 && zp <= 2147483647.0)) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(
      new DequantizeKernel(static_cast<float>(scale), static_cast<int32_t>(zp)));
}

// qnn.dynamic_quantize of f32: data, scale, zero point.
class DynamicQuantizeKernel : public PreparedKernel {
 public:
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    // A second input: the range its producer computed (qnn.conv2d_dynamic).
    const float* range = in.size() > 1 && in[1].dtype() == DType::kF32 && in[1].num_elements() == 2
                             ? in[1].data<float>()
                             : nullptr;
    return kernels::elementwise::DynamicQuantizeU8(in[0], &out[0], &out[1], &out[2], pool, range);
  }
  std::string description() const override { return "elementwise dynamic_quantize"; }
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeDynamicQuantize(const ir::Node& n) {
  if (n.inputs().empty() || n.inputs().size() > 2 || n.outputs().size() != 3 || !n.input(0)->type() ||
      n.input(0)->type()->dtype != DType::kF32 || !n.output(0)->type() ||
      n.output(0)->type()->dtype != DType::kU8) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new DynamicQuantizeKernel());
}

}  // namespace

void RegisterQuantizeKernels(KernelRegistry& registry) {
  registry.RegisterForOp("qnn.quantize", &MakeQuantize);
  registry.RegisterForOp("qnn.requantize", &MakeRequantize);
  registry.RegisterForOp("qnn.dequantize", &MakeDequantize);
  registry.RegisterForOp("qnn.dynamic_quantize", &MakeDynamicQuantize);
}

}  // namespace qnnc::runtime
