// Converters of Conv, Gemm, MatMul and the pooling ops.
#include "absl/strings/str_cat.h"
#include "frontend/onnx/op_converters.h"
#include "frontend/onnx/window_attrs.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

using Outputs = absl::StatusOr<std::vector<ir::Value*>>;

// A 1-D bias along axis 1 becomes nn.bias_add, anything else a broadcast add.
absl::StatusOr<ir::Value*> AddBias(NodeContext& ctx, ir::Value* y, ir::Value* bias) {
  const ir::TensorType& yt = *y->type();
  const ir::TensorType& bt = *bias->type();
  if (yt.rank() >= 2 && bt.rank() == 1 && bt.shape[0] == yt.shape[1]) {
    ir::Attrs attrs;
    attrs.Set("axis", int64_t{1});
    return ctx.Emit("nn.bias_add", {y, bias}, attrs);
  }
  return ctx.Emit("add", {y, bias});
}

Outputs Conv(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * w, ctx.Required(1));
  ASSIGN_OR_RETURN(ir::Attrs attrs, ConvAttrs(ctx, ctx.type(0), ctx.type(1)));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("nn.conv2d", {x, w}, attrs));
  if (ctx.has_input(2)) {
    if (ctx.type(2).rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("bias must be 1-D, got ", ctx.type(2).ToString()));
    }
    ASSIGN_OR_RETURN(y, AddBias(ctx, y, ctx.input(2)));
  }
  return std::vector<ir::Value*>{y};
}

absl::StatusOr<ir::Value*> Transpose2D(NodeContext& ctx, ir::Value* v) {
  if (v->type()->rank() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("Gemm operands must be 2-D, got ", v->type()->ToString()));
  }
  ir::Attrs attrs;
  attrs.Set("axes", std::vector<int64_t>{1, 0});
  return ctx.Emit("transpose", {v}, attrs);
}

Outputs Gemm(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * a, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * b, ctx.Required(1));
  ASSIGN_OR_RETURN(int64_t trans_a, ctx.AttrInt("transA", 0));
  ASSIGN_OR_RETURN(int64_t trans_b, ctx.AttrInt("transB", 0));
  ASSIGN_OR_RETURN(float alpha, ctx.AttrFloat("alpha", 1.0f));
  ASSIGN_OR_RETURN(float beta, ctx.AttrFloat("beta", 1.0f));
  if (ctx.type(0).rank() != 2 || ctx.type(1).rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat("A and B must be 2-D, got ",
                                                   ctx.type(0).ToString(), " and ",
                                                   ctx.type(1).ToString()));
  }
  if (trans_a) {
    ASSIGN_OR_RETURN(a, Transpose2D(ctx, a));
  }
  ir::Value* y;
  // nn.dense takes the weight as [N, K]: B when transB is set, or a constant
  // B transposed (the transpose folds at import).
  if (trans_b) {
    ASSIGN_OR_RETURN(y, ctx.Emit("nn.dense", {a, b}));
  } else if (b->is_constant()) {
    ASSIGN_OR_RETURN(ir::Value * bt, Transpose2D(ctx, b));
    ASSIGN_OR_RETURN(y, ctx.Emit("nn.dense", {a, bt}));
  } else {
    ASSIGN_OR_RETURN(y, ctx.Emit("nn.matmul", {a, b}));
  }
  const tensor::DType dt = y->type()->dtype;
  if (alpha != 1.0f) {
    if (dt != tensor::DType::kF32) return absl::UnimplementedError("alpha != 1 needs float32 operands");
    ASSIGN_OR_RETURN(y, ctx.Emit("multiply", {y, ctx.Scalar<float>(alpha)}));
  }
  if (ctx.has_input(2) && beta != 0.0f) {
    ir::Value* c = ctx.input(2);
    if (beta != 1.0f) {
      if (dt != tensor::DType::kF32) return absl::UnimplementedError("beta != 1 needs float32 operands");
      ASSIGN_OR_RETURN(c, ctx.Emit("multiply", {c, ctx.Scalar<float>(beta)}));
    }
    ASSIGN_OR_RETURN(y, AddBias(ctx, y, c));
  }
  return std::vector<ir::Value*>{y};
}

Outputs MatMul(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * a, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Value * b, ctx.Required(1));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("nn.matmul", {a, b}));
  return std::vector<ir::Value*>{y};
}

Outputs MaxPool(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  if (ctx.node().output_size() > 1 && !ctx.node().output(1).empty()) {
    return absl::UnimplementedError("the Indices output is not supported");
  }
  ASSIGN_OR_RETURN(int64_t storage_order, ctx.AttrInt("storage_order", 0));
  if (storage_order != 0) {
    return absl::UnimplementedError(absl::StrCat("storage_order ", storage_order, " is not supported"));
  }
  ASSIGN_OR_RETURN(ir::Attrs attrs, PoolAttrs(ctx));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("nn.max_pool2d", {x}, attrs));
  return std::vector<ir::Value*>{y};
}

Outputs AveragePool(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  ASSIGN_OR_RETURN(ir::Attrs attrs, AveragePoolAttrs(ctx));
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("nn.avg_pool2d", {x}, attrs));
  return std::vector<ir::Value*>{y};
}

Outputs GlobalAveragePool(NodeContext& ctx) {
  ASSIGN_OR_RETURN(ir::Value * x, ctx.Required(0));
  if (ctx.type(0).rank() != 4) {
    return absl::UnimplementedError(
        absl::StrCat("only 2-D (NCHW) data is supported, got ", ctx.type(0).ToString()));
  }
  ASSIGN_OR_RETURN(ir::Value * y, ctx.Emit("nn.global_avg_pool2d", {x}));
  return std::vector<ir::Value*>{y};
}

}  // namespace

void RegisterNnConverters(ConverterTable& t) {
  t["Conv"] = Conv;
  t["Gemm"] = Gemm;
  t["MatMul"] = MatMul;
  t["MaxPool"] = MaxPool;
  t["AveragePool"] = AveragePool;
  t["GlobalAveragePool"] = GlobalAveragePool;
}

}  // namespace qnnc::frontend::onnx
