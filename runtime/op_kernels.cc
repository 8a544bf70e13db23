// Kernels bound at plan load per op, whatever the decision (see
// KernelRegistry::RegisterForOp): quantize, dequantize, requantize, qnn.add,
// integer nn.dense, 8-bit max pool, f32 global average pool, and the float
// ops of dynamically quantized models (add, subtract, multiply, relu, clip,
// sigmoid, leaky_relu, hard_sigmoid, hard_swish, tanh, softmax, cast to f32,
// dynamic_quantize, resize); concat of any dtype. Each factory takes only the nodes its kernel
// computes exactly like the reference and returns nullptr for the rest.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/op_views.h"
#include "kernels/dense/int8_dense.h"
#include "kernels/dense/qnn_matmul.h"
#include "kernels/elementwise/channel_ops.h"
#include "kernels/elementwise/dequantize.h"
#include "kernels/elementwise/float_ops.h"
#include "kernels/elementwise/softmax.h"
#include "kernels/elementwise/qnn_add.h"
#include "kernels/elementwise/qnn_mul.h"
#include "kernels/elementwise/quantize.h"
#include "kernels/elementwise/requantize.h"
#include "kernels/layout/concat.h"
#include "kernels/pool/avg_pool.h"
#include "kernels/pool/global_avg_pool.h"
#include "kernels/pool/max_pool.h"
#include "kernels/pool/quantized_global_avg_pool.h"
#include "kernels/resize/resize.h"
#include "kernels/spatial_pack/blocked_layout.h"
#include "ir/layout.h"
#include "runtime/kernel_registry.h"
#include "eval/node_evaluator.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

using kernels::elementwise::QnnAddParams;
using tensor::DType;
using tensor::Tensor;

// qnn.add inputs: a, b, a_scale, a_zero_point, b_scale, b_zero_point,
// output_scale, output_zero_point.
class QnnAddKernel : public PreparedKernel {
 public:
  QnnAddKernel(const QnnAddParams& p, DType out_dtype) : p_(p), out_dtype_(out_dtype) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::QnnAddSameShape(in[0], in[1], p_, out_dtype_, &out[0], pool);
  }
  std::string description() const override { return "elementwise qnn_add"; }

 private:
  QnnAddParams p_;
  DType out_dtype_;
};

// One value of a constant one-element input, or false.
bool ConstantScalar(const ir::Node& n, int i, double* v) {
  const ir::Value* x = n.input(i);
  if (!x->is_constant() || x->data().num_elements() != 1) return false;
  *v = x->data().GetAsDouble(0);
  return true;
}

// Same-shape 8-bit adds with constant per-tensor parameters; nullptr (the
// reference kernel) for anything else: broadcasting, wider types, run-time
// parameters.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQnnAdd(const ir::Node& n) {
  if (n.inputs().size() != 8 || !n.input(0)->type() || !n.input(1)->type() || !n.output()->type()) {
    return std::unique_ptr<PreparedKernel>();
  }
  double v[6];
  for (int i = 0; i < 6; ++i) {
    if (!ConstantScalar(n, i + 2, &v[i])) return std::unique_ptr<PreparedKernel>();
  }
  // Zero points (odd entries) must fit int32 before the cast; the support
  // check then holds them to their dtypes.
  for (int i : {1, 3, 5}) {
    if (!(v[i] >= -2147483648.0 && v[i] <= 2147483647.0)) return std::unique_ptr<PreparedKernel>();
  }
  QnnAddParams p;
  p.a_scale = static_cast<float>(v[0]);
  p.a_zero_point = static_cast<int32_t>(v[1]);
  p.b_scale = static_cast<float>(v[2]);
  p.b_zero_point = static_cast<int32_t>(v[3]);
  p.out_scale = static_cast<float>(v[4]);
  p.out_zero_point = static_cast<int32_t>(v[5]);
  const ir::TensorType& a = *n.input(0)->type();
  const ir::TensorType& b = *n.input(1)->type();
  const DType out_dtype = n.output()->type()->dtype;
  // Scales must be f32 as in the reference (a double scale would round).
  for (int i : {2, 4, 6}) {
    if (n.input(i)->data().dtype() != DType::kF32) return std::unique_ptr<PreparedKernel>();
  }
  if (!kernels::elementwise::QnnAddSupported(a.dtype, a.shape, b.dtype, b.shape, p, out_dtype)) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new QnnAddKernel(p, out_dtype));
}

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

// qnn.mul of 8-bit tensors with constant per-tensor parameters: same shapes
// or a broadcast gate (kernels/elementwise/qnn_mul.h).
class QnnMulKernel : public PreparedKernel {
 public:
  QnnMulKernel(const kernels::elementwise::QnnMulParams& p, DType out_dtype) : p_(p), out_dtype_(out_dtype) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::QnnMul(in[0], in[1], p_, out_dtype_, &out[0], pool);
  }
  std::string description() const override { return "elementwise qnn_mul"; }

 private:
  kernels::elementwise::QnnMulParams p_;
  DType out_dtype_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQnnMul(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 8 || !n.input(0)->type() || !n.input(1)->type() || !n.output()->type()) return none();
  double v[6];
  for (int i = 0; i < 6; ++i) {
    if (!ConstantScalar(n, i + 2, &v[i])) return none();
  }
  for (int i : {2, 4, 6}) {
    if (n.input(i)->data().dtype() != DType::kF32) return none();
  }
  for (int i : {1, 3, 5}) {
    if (!(v[i] >= -256.0 && v[i] <= 256.0)) return none();
  }
  kernels::elementwise::QnnMulParams p{static_cast<float>(v[0]), static_cast<float>(v[2]), static_cast<float>(v[4]),
                                       static_cast<int32_t>(v[1]), static_cast<int32_t>(v[3]),
                                       static_cast<int32_t>(v[5])};
  const ir::TensorType& a = *n.input(0)->type();
  const ir::TensorType& b = *n.input(1)->type();
  const DType out_dtype = n.output()->type()->dtype;
  if (!kernels::elementwise::QnnMulSupported(a.dtype, a.shape, b.dtype, b.shape, p, out_dtype)) return none();
  return std::unique_ptr<PreparedKernel>(new QnnMulKernel(p, out_dtype));
}

// nn.bias_add of i32 or f32 along its axis (a dense layer's bias).
class BiasAddKernel : public PreparedKernel {
 public:
  explicit BiasAddKernel(int64_t axis) : axis_(axis) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::BiasAdd(in[0], in[1], axis_, &out[0], pool);
  }
  std::string description() const override { return "elementwise bias_add"; }

 private:
  int64_t axis_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeBiasAdd(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 2 || !n.input(0)->type() || !n.input(1)->type()) return none();
  const DType dt = n.input(0)->type()->dtype;
  auto axis = n.attrs().GetInt("axis", 1);
  const int64_t rank = n.input(0)->type()->rank();
  if ((dt != DType::kI32 && dt != DType::kF32) || n.input(1)->type()->dtype != dt || !axis.ok()) return none();
  const int64_t a = *axis < 0 ? *axis + rank : *axis;
  if (a < 0 || a >= rank) return none();
  return std::unique_ptr<PreparedKernel>(new BiasAddKernel(a));
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

// nn.dense inputs: data, weight.
class DenseKernel : public PreparedKernel {
 public:
  explicit DenseKernel(std::unique_ptr<kernels::dense::Int8Dense> dense)
      : dense_(std::move(dense)) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return dense_->Run(in[0], &out[0], pool);
  }
  std::string description() const override { return "dense int8"; }

 private:
  std::unique_ptr<kernels::dense::Int8Dense> dense_;
};

// Integer nn.dense: u8/i8 data, constant i8 weights [N, K], i32 result;
// nullptr (the reference kernel) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeDense(const ir::Node& n) {
  if (n.inputs().size() != 2 || !n.input(0)->type() || !n.output()->type() ||
      !n.input(1)->is_constant() || n.output()->type()->dtype != DType::kI32) {
    return std::unique_ptr<PreparedKernel>();
  }
  const DType data = n.input(0)->type()->dtype;
  const Tensor& w = n.input(1)->data();
  if ((data != DType::kU8 && data != DType::kI8) || w.dtype() != DType::kI8 || w.rank() != 2) {
    return std::unique_ptr<PreparedKernel>();
  }
  ASSIGN_OR_RETURN(auto dense, kernels::dense::Int8Dense::Create(w, data));
  return std::unique_ptr<PreparedKernel>(new DenseKernel(std::move(dense)));
}

class GlobalAvgPoolKernel : public PreparedKernel {
 public:
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::pool::GlobalAvgPool2DF32(in[0], &out[0], pool);
  }
  std::string description() const override { return "pool global average f32"; }
};

// f32 NCHW or NCHW{k}c; nullptr (the reference kernel) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeGlobalAvgPool(const ir::Node& n) {
  auto layout = n.attrs().GetString("layout", "NCHW");
  if (n.inputs().size() != 1 || !n.input(0)->type() || n.input(0)->type()->dtype != DType::kF32 ||
      !layout.ok()) {
    return std::unique_ptr<PreparedKernel>();
  }
  const size_t rank = n.input(0)->type()->shape.size();
  if (!(*layout == "NCHW" && rank == 4) && !(ir::ChannelBlock(*layout) > 0 && rank == 5)) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new GlobalAvgPoolKernel());
}

// qnn.global_avg_pool2d of 8-bit NCHW or NCHW{k}c with constant per-tensor
// parameters; nullptr (the reference: the three ops it fuses) otherwise.
class QnnGlobalAvgPoolKernel : public PreparedKernel {
 public:
  explicit QnnGlobalAvgPoolKernel(kernels::pool::GlobalPoolQuantization q) : q_(q) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::pool::QuantizedGlobalAvgPool2D(in[0], q_, &out[0], pool);
  }
  std::string description() const override { return "pool global average 8-bit (float means)"; }

 private:
  kernels::pool::GlobalPoolQuantization q_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQnnGlobalAvgPool(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  auto layout = n.attrs().GetString("layout", "NCHW");
  if (n.inputs().size() != 5 || !n.input(0)->type() || !n.output()->type() || !layout.ok()) return none();
  const size_t rank = n.input(0)->type()->shape.size();
  if (!(*layout == "NCHW" && rank == 4) && !(ir::ChannelBlock(*layout) > 0 && rank == 5)) return none();
  double v[4];
  for (int i = 0; i < 4; ++i) {
    if (!ConstantScalar(n, i + 1, &v[i])) return none();
  }
  for (int i : {1, 3}) {  // scales f32, zero points integers
    if (n.input(i)->data().dtype() != DType::kF32 || !tensor::IsInteger(n.input(i + 1)->data().dtype())) {
      return none();
    }
  }
  for (int i : {1, 3}) {
    if (!(v[i] >= -256.0 && v[i] <= 256.0)) return none();
  }
  kernels::pool::GlobalPoolQuantization q{static_cast<float>(v[0]), static_cast<int32_t>(v[1]),
                                          static_cast<float>(v[2]), static_cast<int32_t>(v[3]),
                                          n.output()->type()->dtype};
  if (!kernels::pool::QuantizedGlobalAvgPoolSupported(n.input(0)->type()->dtype, q)) return none();
  return std::unique_ptr<PreparedKernel>(new QnnGlobalAvgPoolKernel(q));
}

// reduce_mean of f32 NCHW over H and W (ShuffleNet's head) is a global
// average pool: the reference sums each plane in index order in float and
// divides by the count, as the pool kernel does. The result is the pool's
// [N, C, 1, 1], reshaped to the node's shape.
class ReduceMeanHwKernel : public PreparedKernel {
 public:
  explicit ReduceMeanHwKernel(tensor::Shape shape) : shape_(std::move(shape)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    Tensor pooled;
    if (out[0].defined()) {
      ASSIGN_OR_RETURN(pooled, out[0].Reshaped({in[0].dim(0), in[0].dim(1), 1, 1}));
    }
    RETURN_IF_ERROR(kernels::pool::GlobalAvgPool2DF32(in[0], &pooled, pool));
    ASSIGN_OR_RETURN(out[0], pooled.Reshaped(shape_));
    return absl::OkStatus();
  }
  std::string description() const override { return "pool global average f32 (reduce_mean)"; }

 private:
  tensor::Shape shape_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeReduceMean(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 1 || !n.input(0)->type() || !n.output()->type() ||
      n.input(0)->type()->dtype != DType::kF32 || n.input(0)->type()->rank() != 4) {
    return none();
  }
  auto axes = n.attrs().GetInts("axes", {});
  if (!axes.ok()) return none();
  std::vector<int64_t> a;
  for (int64_t v : *axes) a.push_back(v < 0 ? v + 4 : v);
  std::sort(a.begin(), a.end());
  if (a != std::vector<int64_t>{2, 3}) return none();
  return std::unique_ptr<PreparedKernel>(new ReduceMeanHwKernel(n.output()->type()->shape));
}

// The float ops dynamically quantized models keep (kernels/elementwise/
// float_ops.h): each factory takes f32 nodes of the forms its kernel covers.
class FloatBinaryKernel : public PreparedKernel {
 public:
  explicit FloatBinaryKernel(kernels::elementwise::FloatBinaryOp op) : op_(op) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::FloatBinary(op_, in[0], in[1], &out[0], pool);
  }
  std::string description() const override { return "elementwise float"; }

 private:
  kernels::elementwise::FloatBinaryOp op_;
};

KernelFactory MakeFloatBinary(kernels::elementwise::FloatBinaryOp op) {
  return [op](const ir::Node& n) -> absl::StatusOr<std::unique_ptr<PreparedKernel>> {
    if (n.inputs().size() != 2 || !n.input(0)->type() || !n.input(1)->type() ||
        n.input(0)->type()->dtype != DType::kF32 || n.input(1)->type()->dtype != DType::kF32 ||
        !kernels::elementwise::FloatBinarySupported(op, n.input(0)->type()->shape,
                                                    n.input(1)->type()->shape)) {
      return std::unique_ptr<PreparedKernel>();
    }
    return std::unique_ptr<PreparedKernel>(new FloatBinaryKernel(op));
  };
}

// relu, clip (lo > hi: the reference's error), sigmoid and cast to f32.
class FloatUnaryKernel : public PreparedKernel {
 public:
  enum class Kind { kRelu, kClip, kSigmoid, kCast };
  FloatUnaryKernel(Kind kind, float lo, float hi) : kind_(kind), lo_(lo), hi_(hi) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    switch (kind_) {
      case Kind::kRelu:
        return kernels::elementwise::ReluF32(in[0], &out[0], pool);
      case Kind::kClip:
        return kernels::elementwise::ClipF32(in[0], lo_, hi_, &out[0], pool);
      case Kind::kSigmoid:
        return kernels::elementwise::SigmoidF32(in[0], &out[0], pool);
      case Kind::kCast:
        return kernels::elementwise::CastToF32(in[0], &out[0], pool);
    }
    return absl::InternalError("unknown float unary kernel");
  }
  std::string description() const override { return "elementwise float"; }

 private:
  Kind kind_;
  float lo_, hi_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeFloatUnary(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 1 || !n.input(0)->type() || !n.output()->type() ||
      n.output()->type()->dtype != DType::kF32) {
    return none();
  }
  const DType in = n.input(0)->type()->dtype;
  using Kind = FloatUnaryKernel::Kind;
  if (n.op() == "relu" && in == DType::kF32) {
    return std::unique_ptr<PreparedKernel>(new FloatUnaryKernel(Kind::kRelu, 0, 0));
  }
  if (n.op() == "sigmoid" && in == DType::kF32) {
    return std::unique_ptr<PreparedKernel>(new FloatUnaryKernel(Kind::kSigmoid, 0, 0));
  }
  if (n.op() == "clip" && in == DType::kF32) {
    auto lo = n.attrs().GetFloat("min", -INFINITY);
    auto hi = n.attrs().GetFloat("max", INFINITY);
    if (!lo.ok() || !hi.ok() || !(*lo <= *hi)) return none();
    return std::unique_ptr<PreparedKernel>(
        new FloatUnaryKernel(Kind::kClip, static_cast<float>(*lo), static_cast<float>(*hi)));
  }
  if (n.op() == "cast" && (in == DType::kI32 || in == DType::kU8 || in == DType::kI8)) {
    return std::unique_ptr<PreparedKernel>(new FloatUnaryKernel(Kind::kCast, 0, 0));
  }
  return none();
}

// leaky_relu, hard_sigmoid, hard_swish and tanh of f32.
class FloatActivationKernel : public PreparedKernel {
 public:
  FloatActivationKernel(kernels::elementwise::FloatActivation kind, float alpha, float beta)
      : kind_(kind), alpha_(alpha), beta_(beta) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::ActivationF32(kind_, in[0], alpha_, beta_, &out[0], pool);
  }
  std::string description() const override { return "elementwise float activation"; }

 private:
  kernels::elementwise::FloatActivation kind_;
  float alpha_, beta_;
};

// The attribute defaults are the IR's (ir/ops_tensor.cc), as the reference
// evaluator reads them.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeFloatActivation(const ir::Node& n) {
  using kernels::elementwise::FloatActivation;
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 1 || !n.input(0)->type() || n.input(0)->type()->dtype != DType::kF32) return none();
  auto alpha = n.attrs().GetFloat("alpha", n.op() == "leaky_relu" ? 0.01 : 0.2);
  auto beta = n.attrs().GetFloat("beta", 0.5);
  if (!alpha.ok() || !beta.ok()) return none();
  FloatActivation kind = FloatActivation::kTanh;
  if (n.op() == "leaky_relu") kind = FloatActivation::kLeakyRelu;
  if (n.op() == "hard_sigmoid") kind = FloatActivation::kHardSigmoid;
  if (n.op() == "hard_swish") kind = FloatActivation::kHardSwish;
  return std::unique_ptr<PreparedKernel>(
      new FloatActivationKernel(kind, static_cast<float>(*alpha), static_cast<float>(*beta)));
}

// softmax of f32 along its axis.
class SoftmaxKernel : public PreparedKernel {
 public:
  explicit SoftmaxKernel(int64_t axis) : axis_(axis) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::elementwise::SoftmaxF32(in[0], axis_, &out[0], pool);
  }
  std::string description() const override { return "softmax f32"; }

 private:
  int64_t axis_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeSoftmax(const ir::Node& n) {
  auto axis = n.attrs().GetInt("axis", -1);
  if (n.inputs().size() != 1 || !n.input(0)->type() || n.input(0)->type()->dtype != DType::kF32 || !axis.ok()) {
    return std::unique_ptr<PreparedKernel>();
  }
  const int64_t rank = n.input(0)->type()->rank();
  if (*axis < -rank || *axis >= rank) return std::unique_ptr<PreparedKernel>();  // the reference names it
  return std::unique_ptr<PreparedKernel>(new SoftmaxKernel(*axis));
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

class ConcatKernel : public PreparedKernel {
 public:
  explicit ConcatKernel(int64_t axis) : axis_(axis) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::layout::Concat(in, axis_, &out[0], pool);
  }
  std::string description() const override { return "layout concat"; }

 private:
  int64_t axis_;
};

// NCHW <-> NCHW{k}c (the spatial-pack layouts) of any dtype, into the
// planned output; padding lanes 0, as the reference's.
class BlockLayoutKernel : public PreparedKernel {
 public:
  BlockLayoutKernel(int64_t to_block, int64_t channels) : to_block_(to_block), channels_(channels) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (to_block_ > 0) return kernels::spatial_pack::ToBlockedInto(in[0], to_block_, 0, &out[0], pool);
    return kernels::spatial_pack::FromBlockedInto(in[0], channels_, &out[0], pool);
  }
  std::string description() const override { return "layout blocks"; }

 private:
  int64_t to_block_, channels_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeLayoutTransform(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  auto src = n.attrs().GetString("src_layout"), dst = n.attrs().GetString("dst_layout");
  if (!src.ok() || !dst.ok() || n.inputs().size() != 1 || !n.input(0)->type()) return none();
  const ir::TensorType& t = *n.input(0)->type();
  const int64_t to_block = ir::ChannelBlock(*dst), from_block = ir::ChannelBlock(*src);
  if (*src == "NCHW" && to_block > 0 && t.rank() == 4) {
    return std::unique_ptr<PreparedKernel>(new BlockLayoutKernel(to_block, 0));
  }
  if (*dst == "NCHW" && from_block > 0 && t.rank() == 5) {
    // The channel count as the reference evaluator reads it.
    const int64_t channels = n.attrs().GetInt("channels", t.shape[1] * from_block).value_or(0);
    if (channels <= 0 || channels > t.shape[1] * from_block) return none();
    return std::unique_ptr<PreparedKernel>(new BlockLayoutKernel(0, channels));
  }
  return none();
}

// MatMulInteger with a constant 2-D right operand and its zero point
// (dynamically quantized MatMul); a's zero point is read per run.
class QnnMatMulKernel : public PreparedKernel {
 public:
  explicit QnnMatMulKernel(std::unique_ptr<kernels::dense::QnnMatMulConstB> mm) : mm_(std::move(mm)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (in[2].num_elements() != 1) {
      return absl::InvalidArgumentError("qnn.matmul: a's zero point must hold one value");
    }
    return mm_->Run(in[0], static_cast<int32_t>(in[2].GetAsInt(0)), &out[0], pool);
  }
  std::string description() const override { return "dense qnn_matmul const_b"; }

 private:
  std::unique_ptr<kernels::dense::QnnMatMulConstB> mm_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeQnnMatMul(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 6 || !n.input(0)->type() || !n.input(1)->is_constant() ||
      !n.input(3)->is_constant() || n.input(1)->data().rank() != 2) {
    return none();
  }
  auto mm = kernels::dense::QnnMatMulConstB::Create(n.input(1)->data(), n.input(3)->data(),
                                                    n.input(0)->type()->dtype);
  if (!mm.ok()) return none();  // e.g. 16-bit operands: the reference kernel
  return std::unique_ptr<PreparedKernel>(new QnnMatMulKernel(*std::move(mm)));
}

// Any dtype, typed inputs; a negative axis counts from the end.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeConcat(const ir::Node& n) {
  auto axis = n.attrs().GetInt("axis", 0);
  if (!axis.ok() || n.inputs().empty() || !n.input(0)->type()) return std::unique_ptr<PreparedKernel>();
  const int64_t rank = static_cast<int64_t>(n.input(0)->type()->shape.size());
  const int64_t a = *axis < 0 ? *axis + rank : *axis;
  if (a < 0 || a >= rank) return std::unique_ptr<PreparedKernel>();
  return std::unique_ptr<PreparedKernel>(new ConcatKernel(a));
}

class ResizeKernel : public PreparedKernel {
 public:
  ResizeKernel(int64_t h, int64_t w, kernels::reference::ResizeParams p) : h_(h), w_(w), p_(std::move(p)) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::resize::Resize(in[0], h_, w_, p_, &out[0], pool);
  }
  std::string description() const override { return p_.mode == "nearest" ? "resize nearest" : "resize linear f32"; }

 private:
  int64_t h_, w_;
  kernels::reference::ResizeParams p_;
};

// f32 (or 8-bit, nearest) NCHW or NCHW{k}c with the attributes the
// reference evaluator reads.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeResize(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  const DType dt = n.input(0)->type() ? n.input(0)->type()->dtype : DType::kF32;
  if (n.inputs().size() != 1 || !n.input(0)->type() || (dt != DType::kF32 && dt != DType::kU8 && dt != DType::kI8) ||
      (n.input(0)->type()->shape.size() != 4 && n.input(0)->type()->shape.size() != 5)) {
    return none();
  }
  auto size = n.attrs().GetInts("size");
  auto method = n.attrs().GetString("method", "nearest");
  auto coord = n.attrs().GetString("coordinate_transformation_mode", "half_pixel");
  auto nearest = n.attrs().GetString("nearest_mode", "round_prefer_floor");
  if (!size.ok() || size->size() != 2 || !method.ok() || !coord.ok() || !nearest.ok()) return none();
  kernels::reference::ResizeParams p;
  p.mode = *method;
  p.coordinate_transformation_mode = *coord;
  p.nearest_mode = *nearest;
  if (dt != DType::kF32 && p.mode != "nearest") return none();
  // Parameters the reference refuses stay with it (and its error).
  tensor::Shape planes = n.input(0)->type()->shape;
  planes.resize(4);  // a blocked tensor's lanes resize as its channels
  if (!kernels::reference::PlanResize2D(planes, 0, 0, p).ok()) return none();
  return std::unique_ptr<PreparedKernel>(new ResizeKernel((*size)[0], (*size)[1], p));
}

class MaxPoolKernel : public PreparedKernel {
 public:
  MaxPoolKernel(const kernels::reference::Pool2DParams& p, bool nhwc) : p_(p), nhwc_(nhwc) {}

  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    if (!nhwc_) return kernels::pool::MaxPool2D(in[0], p_, &out[0], pool);
    // NHWC [N, H, W, C] is NCHW{C}c with one block: [N, 1, H, W, C].
    const tensor::Shape& s = in[0].shape();
    if (s.size() != 4) return absl::InvalidArgumentError("an NHWC max pool needs a rank-4 input");
    ASSIGN_OR_RETURN(Tensor blocked, in[0].Reshaped({s[0], 1, s[1], s[2], s[3]}));
    // The planned output, seen the same way, is written in place.
    Tensor pooled;
    if (out[0].defined()) {
      const tensor::Shape& o = out[0].shape();
      ASSIGN_OR_RETURN(pooled, out[0].Reshaped({o[0], 1, o[1], o[2], o[3]}));
    }
    RETURN_IF_ERROR(kernels::pool::MaxPool2D(blocked, p_, &pooled, pool));
    const tensor::Shape& o = pooled.shape();
    ASSIGN_OR_RETURN(out[0], pooled.Reshaped({o[0], o[2], o[3], o[4]}));
    return absl::OkStatus();
  }
  std::string description() const override { return nhwc_ ? "pool max NHWC" : "pool max"; }

 private:
  kernels::reference::Pool2DParams p_;
  bool nhwc_;
};

// u8/i8 nn.max_pool2d in NCHW, NHWC or NCHW{k}c; nullptr (the reference)
// otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeMaxPool(const ir::Node& n) {
  if (n.inputs().size() != 1 || !n.input(0)->type()) return std::unique_ptr<PreparedKernel>();
  const DType dt = n.input(0)->type()->dtype;
  auto view = ir::Pool2DView::Of(n);
  auto params = eval::Pool2DParamsOf(n);
  if ((dt != DType::kU8 && dt != DType::kI8 && dt != DType::kF32) || !view.ok() || !params.ok() ||
      (view->layout != "NCHW" && view->layout != "NHWC" && ir::ChannelBlock(view->layout) == 0) ||
      !view->has_pool_size) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new MaxPoolKernel(*params, view->layout == "NHWC"));
}

class AvgPoolKernel : public PreparedKernel {
 public:
  explicit AvgPoolKernel(const kernels::reference::Pool2DParams& p) : p_(p) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return kernels::pool::AvgPool2DF32(in[0], p_, &out[0], pool);
  }
  std::string description() const override { return "pool average f32"; }

 private:
  kernels::reference::Pool2DParams p_;
};

// f32 nn.avg_pool2d in NCHW or NCHW{k}c; nullptr (the reference) otherwise.
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeAvgPool(const ir::Node& n) {
  if (n.inputs().size() != 1 || !n.input(0)->type() || n.input(0)->type()->dtype != DType::kF32) {
    return std::unique_ptr<PreparedKernel>();
  }
  auto view = ir::Pool2DView::Of(n);
  auto params = eval::Pool2DParamsOf(n);
  if (!view.ok() || !params.ok() || (view->layout != "NCHW" && ir::ChannelBlock(view->layout) == 0) ||
      params->dilation[0] != 1 || params->dilation[1] != 1 || !view->has_pool_size) {
    return std::unique_ptr<PreparedKernel>();
  }
  return std::unique_ptr<PreparedKernel>(new AvgPoolKernel(*params));
}

}  // namespace

void RegisterOpKernels(KernelRegistry& registry) {
  registry.RegisterForOp("nn.avg_pool2d", &MakeAvgPool);
  registry.RegisterForOp("nn.max_pool2d", &MakeMaxPool);
  registry.RegisterForOp("nn.global_avg_pool2d", &MakeGlobalAvgPool);
  registry.RegisterForOp("qnn.global_avg_pool2d", &MakeQnnGlobalAvgPool);
  registry.RegisterForOp("reduce_mean", &MakeReduceMean);
  using kernels::elementwise::FloatBinaryOp;
  registry.RegisterForOp("add", MakeFloatBinary(FloatBinaryOp::kAdd));
  registry.RegisterForOp("subtract", MakeFloatBinary(FloatBinaryOp::kSubtract));
  registry.RegisterForOp("multiply", MakeFloatBinary(FloatBinaryOp::kMultiply));
  for (const char* op : {"relu", "clip", "sigmoid", "cast"}) registry.RegisterForOp(op, &MakeFloatUnary);
  registry.RegisterForOp("qnn.dynamic_quantize", &MakeDynamicQuantize);
  registry.RegisterForOp("concat", &MakeConcat);
  registry.RegisterForOp("layout_transform", &MakeLayoutTransform);
  registry.RegisterForOp("qnn.matmul", &MakeQnnMatMul);
  registry.RegisterForOp("resize", &MakeResize);
  registry.RegisterForOp("softmax", &MakeSoftmax);
  for (const char* op : {"leaky_relu", "hard_sigmoid", "hard_swish", "tanh"}) {
    registry.RegisterForOp(op, &MakeFloatActivation);
  }
  registry.RegisterForOp("nn.dense", &MakeDense);
  // The integer nn.dense the u8 x s8 legalization leaves, bound by its
  // decision (the int8 dense kernel takes no tiles, so those
  // implementations give dense workloads an empty config space).
  for (const char* impl : {"x86.spatial_pack.u8s8.vnni", "x86.spatial_pack.u8s8.avx2"}) {
    registry.Register("nn.dense", impl, &MakeDense);
  }
  registry.RegisterForOp("qnn.add", &MakeQnnAdd);
  registry.RegisterForOp("qnn.mul", &MakeQnnMul);
  registry.RegisterForOp("qnn.quantize", &MakeQuantize);
  registry.RegisterForOp("qnn.requantize", &MakeRequantize);
  registry.RegisterForOp("nn.bias_add", &MakeBiasAdd);
  registry.RegisterForOp("qnn.dequantize", &MakeDequantize);
}

}  // namespace qnnc::runtime
