// The elementwise family's kernel factories: the float binary ops, the float
// activations, cast and softmax, and the int16 legalization's input steps.
//
// Kernels of the float ops dynamically quantized models keep
// (kernels/elementwise/float_ops.h, softmax.h), bound per op: add, subtract,
// multiply, relu, clip, sigmoid, cast to f32, leaky_relu, hard_sigmoid,
// hard_swish, tanh and softmax. Each factory takes f32 nodes of the forms its
// kernel covers and returns nullptr (the reference kernel) for the rest.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/elementwise_views.h"
#include "ir/op_views.h"
#include "kernels/elementwise/float_ops.h"
#include "kernels/elementwise/int16_ops.h"
#include "kernels/elementwise/softmax.h"
#include "runtime/kernel_registry.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

using tensor::DType;
using tensor::Tensor;

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
    auto clip = ir::ClipView::Of(n);
    if (!clip.ok() || !(clip->min <= clip->max)) return none();
    return std::unique_ptr<PreparedKernel>(
        new FloatUnaryKernel(Kind::kClip, static_cast<float>(clip->min), static_cast<float>(clip->max)));
  }
  if (n.op() == "cast" && (in == DType::kI32 || in == DType::kU8 || in == DType::kI8)) {
    return std::unique_ptr<PreparedKernel>(new FloatUnaryKernel(Kind::kCast, 0, 0));
  }
  return none();
}

// The int16 legalization's input steps (kernels/elementwise/int16_ops.h): a
// convolution's 8-bit data cast to i16, then its zero point (one element)
// subtracted.
class Int16StepKernel : public PreparedKernel {
 public:
  explicit Int16StepKernel(bool subtract) : subtract_(subtract) {}
  absl::Status Run(const std::vector<Tensor>& in, std::vector<Tensor>& out,
                   pthreadpool_t pool) const override {
    return subtract_ ? kernels::elementwise::SubtractScalarI16(in[0], in[1], &out[0], pool)
                     : kernels::elementwise::WidenToI16(in[0], &out[0], pool);
  }
  std::string description() const override { return subtract_ ? "elementwise i16 subtract" : "elementwise i16 cast"; }

 private:
  bool subtract_;
};

absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeInt16Step(const ir::Node& n) {
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  for (const ir::Value* v : n.inputs()) {
    if (!v->type()) return none();
  }
  if (!n.output()->type() || n.output()->type()->dtype != DType::kI16) return none();
  const ir::TensorType& a = *n.input(0)->type();
  if (n.op() == "cast" && n.inputs().size() == 1 && (a.dtype == DType::kU8 || a.dtype == DType::kI8)) {
    return std::unique_ptr<PreparedKernel>(new Int16StepKernel(false));
  }
  if (n.op() == "subtract" && n.inputs().size() == 2 && a.dtype == DType::kI16 &&
      n.input(1)->type()->dtype == DType::kI16 && std::all_of(n.input(1)->type()->shape.begin(), n.input(1)->type()->shape.end(), [](int64_t d) { return d == 1; }) &&
      n.output()->type()->shape == a.shape) {
    return std::unique_ptr<PreparedKernel>(new Int16StepKernel(true));
  }
  return none();
}

// The first of `factories` to take the node (none: the reference kernel).
KernelFactory FirstOf(std::vector<KernelFactory> factories) {
  return [factories](const ir::Node& n) -> absl::StatusOr<std::unique_ptr<PreparedKernel>> {
    for (const KernelFactory& f : factories) {
      ASSIGN_OR_RETURN(std::unique_ptr<PreparedKernel> k, f(n));
      if (k != nullptr) return k;
    }
    return std::unique_ptr<PreparedKernel>();
  };
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

// The parameters as the reference evaluator reads them (ir::ActivationView).
absl::StatusOr<std::unique_ptr<PreparedKernel>> MakeFloatActivation(const ir::Node& n) {
  using kernels::elementwise::FloatActivation;
  auto none = [] { return std::unique_ptr<PreparedKernel>(); };
  if (n.inputs().size() != 1 || !n.input(0)->type() || n.input(0)->type()->dtype != DType::kF32) return none();
  auto params = ir::ActivationView::Of(n);
  if (!params.ok()) return none();
  FloatActivation kind = FloatActivation::kTanh;
  if (n.op() == "leaky_relu") kind = FloatActivation::kLeakyRelu;
  if (n.op() == "hard_sigmoid") kind = FloatActivation::kHardSigmoid;
  if (n.op() == "hard_swish") kind = FloatActivation::kHardSwish;
  return std::unique_ptr<PreparedKernel>(
      new FloatActivationKernel(kind, static_cast<float>(params->alpha), static_cast<float>(params->beta)));
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
  auto view = ir::AxisView::Of(n);
  if (n.inputs().size() != 1 || !n.input(0)->type() || n.input(0)->type()->dtype != DType::kF32 || !view.ok()) {
    return std::unique_ptr<PreparedKernel>();
  }
  // Out of range: the reference names it.
  if (!view->AxisFor(n.input(0)->type()->rank()).ok()) return std::unique_ptr<PreparedKernel>();
  return std::unique_ptr<PreparedKernel>(new SoftmaxKernel(view->axis));
}

}  // namespace

void RegisterElementwiseKernels(KernelRegistry& registry) {
  using kernels::elementwise::FloatBinaryOp;
  registry.RegisterForOp("add", MakeFloatBinary(FloatBinaryOp::kAdd));
  registry.RegisterForOp("subtract", FirstOf({MakeFloatBinary(FloatBinaryOp::kSubtract), &MakeInt16Step}));
  registry.RegisterForOp("multiply", MakeFloatBinary(FloatBinaryOp::kMultiply));
  for (const char* op : {"relu", "clip", "sigmoid"}) registry.RegisterForOp(op, &MakeFloatUnary);
  registry.RegisterForOp("cast", FirstOf({&MakeFloatUnary, &MakeInt16Step}));
  for (const char* op : {"leaky_relu", "hard_sigmoid", "hard_swish", "tanh"}) {
    registry.RegisterForOp(op, &MakeFloatActivation);
  }
  registry.RegisterForOp("softmax", &MakeSoftmax);
}

}  // namespace qnnc::runtime
