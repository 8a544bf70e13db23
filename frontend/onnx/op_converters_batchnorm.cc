// BatchNormalization at inference: y = x * a + b per channel (axis 1), with
// a = scale / sqrt(var + epsilon) and b = B - mean * a, computed here in
// double from the constant statistics. After a float convolution with
// constant weights it folds into a new convolution (weights * a, bias * a +
// b); the original convolution stays for its other users, or dead code
// elimination removes it.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "frontend/onnx/converter_util.h"
#include "frontend/onnx/op_converters.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

using tensor::DType;
using tensor::Tensor;

// The convolution (and its bias) a value comes from: nn.conv2d, or
// nn.bias_add of one, both with f32 constant weights and bias.
struct ConvSource {
  ir::Node* conv = nullptr;
  const Tensor* bias = nullptr;  // nullptr: no bias
};

ConvSource FindConv(ir::Value* x) {
  ConvSource s;
  ir::Node* n = x->producer();
  if (n != nullptr && n->op() == "nn.bias_add" && n->input(1)->is_constant()) {
    s.bias = &n->input(1)->data();
    n = n->input(0)->producer();
  }
  if (n == nullptr || n->op() != "nn.conv2d" || !n->input(1)->is_constant() ||
      n->input(1)->type()->dtype != DType::kF32 || (s.bias && s.bias->dtype() != DType::kF32)) {
    return ConvSource{};
  }
  s.conv = n;
  return s;
}

Outputs BatchNormalization(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  if (ctx.type(0).dtype != DType::kF32 || ctx.type(0).rank() < 2) {
    return absl::UnimplementedError(absl::StrCat("data must be f32 with a channel axis, got ",
                                                 ctx.type(0).ToString()));
  }
  ASSIGN_OR_RETURN(int64_t training, ctx.AttrInt("training_mode", 0));
  if (training != 0 || ctx.node().output_size() > 1) {
    return absl::UnimplementedError("training mode (running statistics as outputs) is not supported");
  }
  ASSIGN_OR_RETURN(float epsilon, ctx.AttrFloat("epsilon", 1e-5f));
  const int64_t c = ctx.type(0).shape[1];
  const char* names[] = {"scale", "B", "input_mean", "input_var"};
  const Tensor* p[4];
  for (int i = 0; i < 4; ++i) {
    ASSIGN_OR_RETURN(p[i], ConstantInput(ctx, i + 1, names[i]));
    if (p[i]->dtype() != DType::kF32 || p[i]->num_elements() != c) {
      return absl::InvalidArgumentError(absl::StrCat(names[i], " must be f32[", c, "]"));
    }
  }
  std::vector<double> a(c), b(c);
  for (int64_t i = 0; i < c; ++i) {
    a[i] = p[0]->data<float>()[i] / std::sqrt(static_cast<double>(p[3]->data<float>()[i]) + epsilon);
    b[i] = p[1]->data<float>()[i] - p[2]->data<float>()[i] * a[i];
  }
  const ConvSource src = FindConv(x);
  if (src.conv != nullptr) {
    const Tensor& w = src.conv->input(1)->data();
    Tensor wf = w.Clone();
    const int64_t per_channel = w.num_elements() / c;
    std::vector<float> bias(c);
    for (int64_t o = 0; o < c; ++o) {
      for (int64_t k = 0; k < per_channel; ++k) {
        float& v = wf.data<float>()[o * per_channel + k];
        v = static_cast<float>(v * a[o]);
      }
      const double b0 = src.bias ? src.bias->data<float>()[o] : 0.0;
      bias[o] = static_cast<float>(b0 * a[o] + b[o]);
    }
    ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("nn.conv2d", {src.conv->input(0), ctx.Constant(wf)},
                                             src.conv->attrs()));
    ir::Attrs attrs;
    attrs.Set("axis", int64_t{1});
    ASSIGN_OR_RETURN(y, ctx.Emit("nn.bias_add", {y, ctx.Constant(Tensor::FromVector<float>({c}, bias))},
                                 attrs));
    return One(y);
  }
  // [C, 1, ...]: broadcast along axis 1.
  tensor::Shape shape(ctx.type(0).rank() - 1, 1);
  shape[0] = c;
  std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("multiply", {x, ctx.Constant(Tensor::FromVector<float>(shape, af))}));
  ASSIGN_OR_RETURN(y, ctx.Emit("add", {y, ctx.Constant(Tensor::FromVector<float>(shape, bf))}));
  return One(y);
}

}  // namespace

void RegisterBatchNormConverter(ConverterTable& t) { t["BatchNormalization"] = BatchNormalization; }

}  // namespace qnnc::frontend::onnx
