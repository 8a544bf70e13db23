// The reference kernel's pooling window of a 2-D pooling node, which the
// pool family's reference and fast kernels share.
#ifndef QNNC_OPS_POOL_POOL_PARAMS_H_
#define QNNC_OPS_POOL_POOL_PARAMS_H_

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/op_views.h"
#include "kernels/reference/pool.h"

namespace qnnc::eval {

// The window of a 2-D pooling node (pool_size, strides, padding, dilation,
// ceil_mode, count_include_pad) from its attributes; the layout is not checked.
absl::StatusOr<kernels::reference::Pool2DParams> Pool2DParamsOf(const ir::Node& node);
// The same from the node's view.
kernels::reference::Pool2DParams Pool2DParamsOf(const ir::Pool2DView& view);

}  // namespace qnnc::eval

#endif  // QNNC_OPS_POOL_POOL_PARAMS_H_
