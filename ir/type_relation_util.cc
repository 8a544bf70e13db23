#include "ir/type_relation_util.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/graph.h"
#include "ir/layout.h"
#include "ir/layout_views.h"
#include "util/status_macros.h"

namespace qnnc::ir::internal {

void RegisterOrDie(OpRegistry& registry, OpDef def) {
  absl::Status s = registry.Register(std::move(def));
  if (!s.ok()) {
    std::fprintf(stderr, "qnnc internal error: %s\n", s.ToString().c_str());
    std::abort();
  }
}

absl::Status ExpectRank(const TensorType& t, int64_t rank, const char* what) {
  if (t.rank() != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must have rank ", rank, ", got ", t.ToString()));
  }
  return absl::OkStatus();
}

absl::Status ExpectDType(const TensorType& t, DType dtype, const char* what) {
  if (t.dtype != dtype) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be ", tensor::DTypeName(dtype),
                                                   ", got ", t.ToString()));
  }
  return absl::OkStatus();
}

absl::Status ExpectInteger(const TensorType& t, const char* what) {
  if (!tensor::IsInteger(t.dtype)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be an integer tensor, got ", t.ToString()));
  }
  return absl::OkStatus();
}

absl::Status ExpectFloat(const TensorType& t, const char* what) {
  if (!tensor::IsFloat(t.dtype)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be a float tensor, got ", t.ToString()));
  }
  return absl::OkStatus();
}

absl::Status ExpectQuantParam(const TensorType& t, const char* what) {
  if (t.rank() > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be a scalar or 1-D, got ", t.ToString()));
  }
  return absl::OkStatus();
}

absl::StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      return absl::InvalidArgumentError(absl::StrCat("shapes [", absl::StrJoin(a, ","), "] and [",
                                                     absl::StrJoin(b, ","),
                                                     "] do not broadcast"));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

absl::StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("axis ", axis, " is out of range for rank ", rank));
  }
  return a;
}

absl::StatusOr<DType> DTypeAttr(const Node& node, const char* attr, DType dflt) {
  auto name = node.attrs().GetString(attr, tensor::DTypeName(dflt));
  if (!name.ok()) return name.status();
  return tensor::ParseDType(*name);
}

// Float conv gives f32; integer conv (e.g. i16 x i16 after legalization) i32.
absl::StatusOr<DType> AccumulatorDType(const TypeRelationInput& in) {
  const auto& t = in.inputs;
  bool float_in = tensor::IsFloat(t[0].dtype);
  if (float_in != tensor::IsFloat(t[1].dtype)) {
    return absl::InvalidArgumentError(absl::StrCat("mixes float and integer operands: ",
                                                   t[0].ToString(), " and ", t[1].ToString()));
  }
  return DTypeAttr(in.node, "out_dtype", float_in ? DType::kF32 : DType::kI32);
}

absl::StatusOr<Shape> MatMulShape(const Shape& a0, const Shape& b0) {
  if (a0.empty() || b0.empty()) return absl::InvalidArgumentError("matmul operands must not be scalars");
  Shape a = a0, b = b0;
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  int64_t m = a[a.size() - 2], k = a.back(), kb = b[b.size() - 2], n = b.back();
  if (k != kb) {
    return absl::InvalidArgumentError(absl::StrCat("matmul K mismatch: ", k, " vs ", kb));
  }
  ASSIGN_OR_RETURN(Shape batch, BroadcastShapes(Shape(a.begin(), a.end() - 2),
                                                Shape(b.begin(), b.end() - 2)));
  Shape out = batch;
  if (a0.size() > 1) out.push_back(m);
  if (b0.size() > 1) out.push_back(n);
  return out;
}


std::vector<TensorType> One(TensorType t) { return {std::move(t)}; }

absl::StatusOr<Shape> GlobalPoolShape(const TensorType& x, const Node& node) {
  ASSIGN_OR_RETURN(const GlobalPoolView view, GlobalPoolView::Of(node));
  const Layout& layout = view.layout;
  if (layout.blocked()) {  // NCHW{k}c: lane by lane
    RETURN_IF_ERROR(ExpectRank(x, 5, "data"));
    if (x.shape[4] != layout.channel_block()) {
      return absl::InvalidArgumentError(absl::StrCat(x.ToString(), " is not ", layout.str()));
    }
    return Shape{x.shape[0], x.shape[1], 1, 1, x.shape[4]};
  }
  RETURN_IF_ERROR(ExpectRank(x, 4, "data"));
  Shape out = x.shape;
  if (layout.is_nchw()) {
    out[2] = out[3] = 1;
  } else if (layout.is_nhwc()) {
    out[1] = out[2] = 1;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("unsupported layout '", layout.str(), "'"));
  }
  return out;
}

}  // namespace qnnc::ir::internal
