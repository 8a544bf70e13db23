// Typed views of the attributes of the elementwise ops with parameters
// (clip, the float activations, fixed_point_multiply) and of the
// reductions, parsed and validated in one place with the defaults of their
// op definitions (ops/<family>/<family>_def.cc). The `axis` of softmax,
// bias_add and the quantization ops is ir::AxisView (ir/op_views.h).
#ifndef QNNC_IR_ELEMENTWISE_VIEWS_H_
#define QNNC_IR_ELEMENTWISE_VIEWS_H_

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "tensor/rounding.h"

namespace qnnc::ir {

// clip {min=-inf, max=+inf}. Validated: not min > max (NaN bounds pass).
struct ClipView {
  double min = -INFINITY;
  double max = INFINITY;

  static absl::StatusOr<ClipView> Of(const Node& node);
};

// The parameters of the float activations: leaky_relu {alpha=0.01},
// hard_sigmoid {alpha=0.2, beta=0.5}. Ops without parameters (hard_swish,
// tanh, ...) read none and keep the struct's values.
struct ActivationView {
  double alpha = 0.0;
  double beta = 0.0;

  static absl::StatusOr<ActivationView> Of(const Node& node);
};

// reduce_min, reduce_max, reduce_mean, reduce_sum {axes (empty: all),
// keepdims=1}.
struct ReduceView {
  std::vector<int64_t> axes;  // as given: may be negative
  bool keepdims = true;

  static absl::StatusOr<ReduceView> Of(const Node& node);
};

// fixed_point_multiply {axis=1, rounding=UPWARD}. Validated: rounding is a
// rounding mode's name.
struct FixedPointMultiplyView {
  int64_t axis = 1;  // as given: may be negative
  tensor::Rounding rounding = tensor::Rounding::kUpward;

  static absl::StatusOr<FixedPointMultiplyView> Of(const Node& node);
};

}  // namespace qnnc::ir

#endif  // QNNC_IR_ELEMENTWISE_VIEWS_H_
