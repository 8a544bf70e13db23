// Converters of the shape ops (Reshape, Flatten, Transpose, Squeeze,
// Unsqueeze, Concat), Resize and the reductions. Shapes are static, so every
// shape operand must be a constant and is resolved here.
#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "frontend/onnx/converter_util.h"
#include "frontend/onnx/op_converters.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

Outputs Reshape(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(const tensor::Tensor* shape_t, ConstantInput(ctx, 1, "shape"));
  ASSIGN_OR_RETURN(std::vector<int64_t> shape, IntValues(*shape_t, "shape"));
  ASSIGN_OR_RETURN(int64_t allowzero, ctx.AttrInt("allowzero", 0));
  const tensor::Shape& in = ctx.type(0).shape;
  ASSIGN_OR_RETURN(int64_t total, tensor::NumElements(in));
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowzero) {
      if (i >= in.size()) {
        return absl::InvalidArgumentError(absl::StrCat("shape [", absl::StrJoin(shape, ","),
                                                       "] copies dimension ", i, " of ",
                                                       ctx.type(0).ToString()));
      }
      shape[i] = in[i];
    }
    if (shape[i] == -1) {
      if (infer >= 0) return absl::InvalidArgumentError("shape has more than one -1");
      infer = static_cast<int64_t>(i);
    } else if (shape[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat("invalid shape [", absl::StrJoin(shape, ","), "]"));
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      return absl::InvalidArgumentError(absl::StrCat("shape [", absl::StrJoin(shape, ","),
                                                     "] overflows"));
    }
  }
  if (infer >= 0) {
    if (known == 0 || total % known != 0) {
      return absl::InvalidArgumentError(absl::StrCat("cannot reshape ", ctx.type(0).ToString(),
                                                     " to [", absl::StrJoin(shape, ","), "]"));
    }
    shape[infer] = total / known;
  }
  ASSIGN_OR_RETURN(ir::Value * y, EmitReshape(ctx, x, shape));
  return One(y);
}

Outputs Flatten(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 1));
  ir::Attrs attrs;
  attrs.Set("axis", axis);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("flatten", {x}, attrs));
  return One(y);
}

Outputs Transpose(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  std::vector<int64_t> dflt(ctx.type(0).rank());
  std::iota(dflt.rbegin(), dflt.rend(), 0);
  ASSIGN_OR_RETURN(std::vector<int64_t> perm, ctx.AttrInts("perm", dflt));
  ir::Attrs attrs;
  attrs.Set("axes", perm);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("transpose", {x}, attrs));
  return One(y);
}

Outputs Squeeze(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  // Axes: an attribute before opset 13, then an input.
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, IntsInputOrAttr(ctx, 1, 13, "axes"));
  const tensor::Shape& in = ctx.type(0).shape;
  std::vector<bool> drop(in.size(), axes.empty());
  for (int64_t axis : axes) {
    ASSIGN_OR_RETURN(int64_t a, Axis(axis, in.size()));
    if (in[a] != 1) {
      return absl::InvalidArgumentError(absl::StrCat("cannot squeeze axis ", axis, " of ",
                                                     ctx.type(0).ToString()));
    }
    drop[a] = true;
  }
  std::vector<int64_t> out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!(drop[i] && in[i] == 1)) out.push_back(in[i]);
  }
  ASSIGN_OR_RETURN(ir::Value * y, EmitReshape(ctx, x, out));
  return One(y);
}

Outputs Unsqueeze(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  // Axes: an attribute before opset 13, then an input.
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, IntsInputOrAttr(ctx, 1, 13, "axes"));
  const tensor::Shape& in = ctx.type(0).shape;
  int64_t rank = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> inserted(rank, false);
  for (int64_t axis : axes) {
    ASSIGN_OR_RETURN(int64_t a, Axis(axis, rank));
    if (inserted[a]) return absl::InvalidArgumentError(absl::StrCat("axis ", axis, " repeats"));
    inserted[a] = true;
  }
  std::vector<int64_t> out;
  size_t next = 0;
  for (int64_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? 1 : in[next++]);
  ASSIGN_OR_RETURN(ir::Value * y, EmitReshape(ctx, x, out));
  return One(y);
}

Outputs Concat(NodeContext& ctx) {
  std::vector<ir::Value*> inputs;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(i));
    inputs.push_back(x);
  }
  if (inputs.empty()) return absl::InvalidArgumentError("needs at least one input");
  if (ctx.attr("axis") == nullptr) return absl::InvalidArgumentError("missing attribute 'axis'");
  ASSIGN_OR_RETURN(int64_t axis, ctx.AttrInt("axis", 0));
  ir::Attrs attrs;
  attrs.Set("axis", axis);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("concat", inputs, attrs));
  return One(y);
}

// Axes are an attribute until opset 18 (ReduceSum: 13), then an optional
// constant input; no axes reduce everything unless noop_with_empty_axes.
template <const char* kOp, int kAxesInputSince>
Outputs Reduce(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, IntsInputOrAttr(ctx, 1, kAxesInputSince, "axes"));
  ASSIGN_OR_RETURN(int64_t keepdims, ctx.AttrInt("keepdims", 1));
  ASSIGN_OR_RETURN(int64_t noop, ctx.AttrInt("noop_with_empty_axes", 0));
  if (axes.empty() && noop != 0) return One(x);
  ir::Attrs attrs;
  attrs.Set("axes", axes);
  attrs.Set("keepdims", keepdims);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit(kOp, {x}, attrs));
  return One(y);
}

constexpr char kReduceMin[] = "reduce_min", kReduceMax[] = "reduce_max";
constexpr char kReduceMean[] = "reduce_mean", kReduceSum[] = "reduce_sum";

// Output [h, w] of Resize from the constant scales or sizes input.
absl::StatusOr<std::vector<int64_t>> ResizeSize(NodeContext& ctx) {
  const tensor::Shape& in = ctx.type(0).shape;
  const int scales_input = ctx.opset() < 11 ? 1 : 2;
  const tensor::Tensor* sizes = ctx.opset() < 11 ? nullptr : ctx.constant(3);
  if (sizes == nullptr && ctx.has_input(3)) {
    return absl::UnimplementedError("input 3 (sizes) must be a constant");
  }
  if (sizes != nullptr && sizes->num_elements() > 0) {
    ASSIGN_OR_RETURN(std::vector<int64_t> s, IntValues(*sizes, "sizes"));
    if (s.size() != 4 || s[0] != in[0] || s[1] != in[1]) {
      return absl::UnimplementedError(absl::StrCat("sizes [", absl::StrJoin(s, ","),
                                                   "]: only the 2 spatial dims may be resized"));
    }
    return std::vector<int64_t>{s[2], s[3]};
  }
  ASSIGN_OR_RETURN(const tensor::Tensor* scales, ConstantInput(ctx, scales_input, "scales"));
  if (scales->dtype() != tensor::DType::kF32 || scales->num_elements() != 4) {
    return absl::InvalidArgumentError("scales must be 4 float32 values (or give sizes)");
  }
  const float* s = scales->data<float>();
  if (s[0] != 1.0f || s[1] != 1.0f) {
    return absl::UnimplementedError("only the 2 spatial dims may be resized");
  }
  std::vector<int64_t> out;
  for (int i = 0; i < 2; ++i) {
    float exact = s[2 + i] * static_cast<float>(in[2 + i]);
    if (!(exact >= 1.0f && exact < 1e9f) || std::floor(exact) != exact) {
      return absl::UnimplementedError(absl::StrCat("scale ", s[2 + i], " of a dimension of ",
                                                   in[2 + i], " does not give an integral size"));
    }
    out.push_back(static_cast<int64_t>(exact));
  }
  return out;
}

// The mode of Resize/Upsample over NCHW data: nearest or linear.
absl::StatusOr<std::string> ResizeMode(const NodeContext& ctx) {
  if (ctx.type(0).rank() != 4) {
    return absl::UnimplementedError(absl::StrCat("only NCHW data is supported, got ",
                                                 ctx.type(0).ToString()));
  }
  ASSIGN_OR_RETURN(std::string mode, ctx.AttrString("mode", "nearest"));
  if (mode != "nearest" && mode != "linear") {
    return absl::UnimplementedError(absl::StrCat("mode '", mode, "' is not supported"));
  }
  return mode;
}

Outputs Resize(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(std::string mode, ResizeMode(ctx));
  std::string ctm = "asymmetric", nearest = "floor";  // Resize-10 semantics
  if (ctx.opset() >= 11) {
    ASSIGN_OR_RETURN(ctm, ctx.AttrString("coordinate_transformation_mode", "half_pixel"));
    ASSIGN_OR_RETURN(nearest, ctx.AttrString("nearest_mode", "round_prefer_floor"));
  }
  if (ctm == "tf_crop_and_resize" || ctm == "tf_half_pixel_for_nn") {
    return absl::UnimplementedError(
        absl::StrCat("coordinate_transformation_mode '", ctm, "' is not supported"));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> size, ResizeSize(ctx));
  const tensor::Shape& in = ctx.type(0).shape;
  if (ctx.opset() < 11 && mode == "nearest" && (size[0] < in[2] || size[1] < in[3])) {
    return absl::UnimplementedError("nearest downsampling of Resize-10 is not supported");
  }
  ir::Attrs attrs;
  attrs.Set("size", size);
  attrs.Set("method", mode);
  attrs.Set("coordinate_transformation_mode", ctm);
  attrs.Set("nearest_mode", nearest);
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("resize", {x}, attrs));
  return One(y);
}

// Upsample (deprecated at opset 10, still exported): Resize-10's semantics
// (asymmetric coordinates, nearest rounds down), scales a constant input.
Outputs Upsample(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(std::string mode, ResizeMode(ctx));
  ASSIGN_OR_RETURN(const tensor::Tensor* t, ConstantInput(ctx, 1, "scales"));
  if (t->dtype() != tensor::DType::kF32) return absl::InvalidArgumentError("scales must be float32");
  const std::vector<float> scales(t->data<float>(), t->data<float>() + t->num_elements());
  if (scales.size() != 4 || scales[0] != 1.0f || scales[1] != 1.0f) {
    return absl::UnimplementedError("only the 2 spatial dims may be scaled (4 scales, the first two 1)");
  }
  const tensor::Shape& in = ctx.type(0).shape;
  std::vector<int64_t> size;
  for (int i = 0; i < 2; ++i) {
    const float s = scales[2 + i];
    if (!(s >= 1.0f && s < 1e6f)) {
      return absl::UnimplementedError(absl::StrCat("scale ", s, ": only upsampling is supported"));
    }
    size.push_back(static_cast<int64_t>(std::floor(s * static_cast<float>(in[2 + i]))));
  }
  ir::Attrs attrs;
  attrs.Set("size", size);
  attrs.Set("method", mode);
  attrs.Set("coordinate_transformation_mode", std::string("asymmetric"));
  attrs.Set("nearest_mode", std::string("floor"));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("resize", {x}, attrs));
  return One(y);
}

}  // namespace

void RegisterShapeConverters(ConverterTable& t) {
  t["Reshape"] = Reshape;
  t["Flatten"] = Flatten;
  t["Transpose"] = Transpose;
  t["Squeeze"] = Squeeze;
  t["Unsqueeze"] = Unsqueeze;
  t["Concat"] = Concat;
  t["ReduceMin"] = Reduce<kReduceMin, 18>;
  t["ReduceMax"] = Reduce<kReduceMax, 18>;
  t["ReduceMean"] = Reduce<kReduceMean, 18>;
  t["ReduceSum"] = Reduce<kReduceSum, 13>;
  t["Upsample"] = Upsample;
  t["Resize"] = Resize;
}

}  // namespace qnnc::frontend::onnx
