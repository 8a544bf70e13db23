#include "ir/elementwise_views.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "ir/op_views.h"
#include "util/status_macros.h"

namespace qnnc::ir {

absl::StatusOr<ClipView> ClipView::Of(const Node& node) {
  ClipView v;
  ASSIGN_OR_RETURN(v.min, node.attrs().GetFloat("min", -INFINITY));
  ASSIGN_OR_RETURN(v.max, node.attrs().GetFloat("max", INFINITY));
  if (v.min > v.max) return absl::InvalidArgumentError(absl::StrCat("min ", v.min, " > max ", v.max));
  return v;
}

absl::StatusOr<ActivationView> ActivationView::Of(const Node& node) {
  ActivationView v;
  if (node.op() == "leaky_relu") {
    ASSIGN_OR_RETURN(v.alpha, node.attrs().GetFloat("alpha", 0.01));
  } else if (node.op() == "hard_sigmoid") {
    ASSIGN_OR_RETURN(v.alpha, node.attrs().GetFloat("alpha", 0.2));
    ASSIGN_OR_RETURN(v.beta, node.attrs().GetFloat("beta", 0.5));
  }
  return v;
}

absl::StatusOr<ReduceView> ReduceView::Of(const Node& node) {
  ReduceView v;
  ASSIGN_OR_RETURN(v.axes, node.attrs().GetInts("axes", {}));
  ASSIGN_OR_RETURN(int64_t keepdims, node.attrs().GetInt("keepdims", 1));
  v.keepdims = keepdims != 0;
  return v;
}

absl::StatusOr<FixedPointMultiplyView> FixedPointMultiplyView::Of(const Node& node) {
  FixedPointMultiplyView v;
  ASSIGN_OR_RETURN(const AxisView axis, AxisView::Of(node));
  v.axis = axis.axis;
  ASSIGN_OR_RETURN(const std::string rounding, node.attrs().GetString("rounding", "UPWARD"));
  ASSIGN_OR_RETURN(v.rounding, tensor::ParseRounding(rounding));
  return v;
}

}  // namespace qnnc::ir
