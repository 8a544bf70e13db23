// Converters of the element-wise ops, Cast, Identity and the ops that
// produce constants (Constant, ConstantOfShape, Shape).
#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "frontend/onnx/converter_util.h"
#include "frontend/onnx/op_converters.h"
#include "frontend/onnx/tensor_convert.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

// Larger constants from ConstantOfShape are refused (a model cannot make the
// importer allocate without bound).
constexpr int64_t kMaxConstantBytes = int64_t{1} << 30;

template <const char* kOp>
Outputs Binary(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * a, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * b, ctx.Required(1));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit(kOp, {a, b}));
  return One(y);
}

template <const char* kOp>
Outputs Unary(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit(kOp, {x}));
  return One(y);
}

// Max/Min of any number of inputs: a chain of maximum/minimum.
template <const char* kOp>
Outputs Variadic(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Required(0));
  for (int i = 1; i < ctx.num_inputs(); ++i) {
    ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(i));
    ASSIGN_OR_RETURN(y, ctx.Emit(kOp, {y, x}));
  }
  return One(y);
}

constexpr char kAdd[] = "add", kSub[] = "subtract", kMul[] = "multiply", kDiv[] = "divide";
constexpr char kMax[] = "maximum", kMin[] = "minimum";
constexpr char kRelu[] = "relu", kSigmoid[] = "sigmoid", kRound[] = "round";

// One bound of Clip: opset 11+ takes optional constant scalar inputs, before
// that float attributes.
absl::Status ClipBound(NodeContext& ctx, int input, const char* name, ir::Attrs& attrs) {
  if (ctx.opset() < 11) {
    if (ctx.attr(name) == nullptr) return absl::OkStatus();
    ASSIGN_OR_RETURN(float v, ctx.AttrFloat(name, 0.0f));
    attrs.Set(name, static_cast<double>(v));
    return absl::OkStatus();
  }
  if (!ctx.has_input(input)) return absl::OkStatus();
  ASSIGN_OR_RETURN(const tensor::Tensor* t, ConstantInput(ctx, input, name));
  if (t->num_elements() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(name, " must be a scalar, got ",
                                                   tensor::ShapeToString(t->shape())));
  }
  attrs.Set(name, t->GetAsDouble(0));
  return absl::OkStatus();
}

Outputs Clip(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ir::Attrs attrs;
  RETURN_IF_ERROR(ClipBound(ctx, 1, "min", attrs));
  RETURN_IF_ERROR(ClipBound(ctx, 2, "max", attrs));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("clip", {x}, attrs));
  return One(y);
}

Outputs Identity(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  return One(x);
}

// Dropout at inference is the identity; its optional mask output is all
// true. Training mode (a constant true input 2) would need randomness.
Outputs Dropout(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  if (ctx.opset() < 7) return absl::UnimplementedError("Dropout before opset 7 has an is_test attribute");
  if (ctx.has_input(2)) {
    ASSIGN_OR_RETURN(const tensor::Tensor* training, ConstantInput(ctx, 2, "training_mode"));
    if (training->num_elements() != 1 || training->GetAsDouble(0) != 0) {
      return absl::UnimplementedError("training mode is not supported");
    }
  }
  std::vector<ir::Value*> out{x};
  if (ctx.node().output_size() > 1 && !ctx.node().output(1).empty()) {
    tensor::Tensor mask = tensor::Tensor::Zeros(tensor::DType::kBool, ctx.type(0).shape);
    std::fill_n(static_cast<uint8_t*>(mask.raw_data()), mask.num_elements(), 1);
    out.push_back(ctx.Constant(std::move(mask)));
  }
  return out;
}

Outputs Cast(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  const ::onnx::AttributeProto* to_attr = ctx.attr("to");
  if (to_attr == nullptr) return absl::InvalidArgumentError("missing attribute 'to'");
  ASSIGN_OR_RETURN(int64_t to, ctx.AttrInt("to", 0));
  auto dtype = DTypeFromOnnx(static_cast<int>(to));
  if (!dtype.ok()) return absl::UnimplementedError(absl::StrCat("to: ", dtype.status().message()));
  if (*dtype == ctx.type(0).dtype) return One(x);
  ir::Attrs attrs;
  attrs.Set("dtype", std::string(tensor::DTypeName(*dtype)));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("cast", {x}, attrs));
  return One(y);
}

Outputs Constant(NodeContext& ctx) {
  if (ctx.node().attribute_size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat("needs exactly one value attribute, got ",
                                                   ctx.node().attribute_size()));
  }
  const std::string& name = ctx.node().attribute(0).name();
  tensor::Tensor t;
  if (name == "value") {
    const ::onnx::AttributeProto& a = ctx.node().attribute(0);
    if (a.type() == ::onnx::AttributeProto::TENSOR && !DTypeFromOnnx(a.t().data_type()).ok()) {
      return absl::UnimplementedError(absl::StrCat(
          "a constant of ONNX type ", OnnxTypeName(a.t().data_type()), " is not supported"));
    }
    ASSIGN_OR_RETURN(t, ctx.AttrTensor(name));
  } else if (name == "value_float") {
    ASSIGN_OR_RETURN(float v, ctx.AttrFloat(name, 0));
    t = tensor::Tensor::Scalar<float>(v);
  } else if (name == "value_int") {
    ASSIGN_OR_RETURN(int64_t v, ctx.AttrInt(name, 0));
    t = tensor::Tensor::Scalar<int64_t>(v);
  } else if (name == "value_floats") {
    ASSIGN_OR_RETURN(std::vector<float> v, ctx.AttrFloats(name));
    t = tensor::Tensor::FromVector<float>({static_cast<int64_t>(v.size())}, v);
  } else if (name == "value_ints") {
    ASSIGN_OR_RETURN(std::vector<int64_t> v, ctx.AttrInts(name));
    t = tensor::Tensor::FromVector<int64_t>({static_cast<int64_t>(v.size())}, v);
  } else {
    return absl::UnimplementedError(absl::StrCat("attribute '", name, "' is not supported"));
  }
  return One(ctx.Constant(std::move(t)));
}

Outputs ConstantOfShape(NodeContext& ctx) {
  ASSIGN_OR_RETURN(const tensor::Tensor* shape_t, ConstantInput(ctx, 0, "shape"));
  ASSIGN_OR_RETURN(tensor::Shape shape, IntValues(*shape_t, "shape"));
  tensor::Tensor value = tensor::Tensor::Scalar<float>(0.0f);
  if (ctx.attr("value") != nullptr) {
    ASSIGN_OR_RETURN(value, ctx.AttrTensor("value"));
    if (value.num_elements() != 1) {
      return absl::InvalidArgumentError(absl::StrCat("value must have one element, got ",
                                                     value.num_elements()));
    }
  }
  auto n = tensor::NumElements(shape, value.dtype());
  if (!n.ok()) return absl::InvalidArgumentError(n.status().message());
  const int64_t bytes = *n * static_cast<int64_t>(tensor::DTypeSize(value.dtype()));
  if (bytes > ctx.max_bytes()) {
    return tensor::MemoryLimitError(absl::StrCat("a constant of shape ", tensor::ShapeToString(shape)),
                                    bytes, ctx.max_bytes());
  }
  if (bytes > kMaxConstantBytes) {
    return absl::UnimplementedError(absl::StrCat("a constant of shape ",
                                                 tensor::ShapeToString(shape), " is too large"));
  }
  return One(ctx.Constant(Filled(value, shape)));
}

Outputs Shape(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  const tensor::Shape& s = x->type()->shape;
  int64_t rank = static_cast<int64_t>(s.size());
  int64_t start = 0, end = rank;
  if (ctx.opset() >= 15) {
    ASSIGN_OR_RETURN(start, ctx.AttrInt("start", 0));
    ASSIGN_OR_RETURN(end, ctx.AttrInt("end", rank));
  }
  auto clamp = [rank](int64_t i) { return std::min(rank, std::max<int64_t>(0, i < 0 ? i + rank : i)); };
  start = clamp(start);
  end = std::max(start, clamp(end));
  std::vector<int64_t> dims(s.begin() + start, s.begin() + end);
  return One(ctx.Constant(tensor::Tensor::FromVector<int64_t>({end - start}, dims)));
}

}  // namespace

void RegisterTensorConverters(ConverterTable& t) {
  t["Add"] = Binary<kAdd>;
  t["Sub"] = Binary<kSub>;
  t["Mul"] = Binary<kMul>;
  t["Div"] = Binary<kDiv>;
  t["Max"] = Variadic<kMax>;
  t["Min"] = Variadic<kMin>;
  t["Relu"] = Unary<kRelu>;
  t["Sigmoid"] = Unary<kSigmoid>;
  t["Round"] = Unary<kRound>;
  t["Clip"] = Clip;
  t["Identity"] = Identity;
  t["Dropout"] = Dropout;
  t["Cast"] = Cast;
  t["Constant"] = Constant;
  t["ConstantOfShape"] = ConstantOfShape;
  t["Shape"] = Shape;
}

}  // namespace qnnc::frontend::onnx
