// Evaluates one IR op on concrete tensors with the reference kernels. Used
// by FoldConstant at compile time and by the executor at run time.
#ifndef QNNC_EVAL_NODE_EVALUATOR_H_
#define QNNC_EVAL_NODE_EVALUATOR_H_

#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/op_views.h"
#include "kernels/reference/pool.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::eval {

// Errors name the op and node.
absl::StatusOr<std::vector<tensor::Tensor>> EvaluateNode(const ir::Node& node,
                                                         const std::vector<tensor::Tensor>& inputs,
                                                         pthreadpool_t pool = nullptr);

// The window of a 2-D pooling node (pool_size, strides, padding, dilation,
// ceil_mode, count_include_pad) from its attributes; the layout is not checked.
absl::StatusOr<kernels::reference::Pool2DParams> Pool2DParamsOf(const ir::Node& node);
// The same from the node's view.
kernels::reference::Pool2DParams Pool2DParamsOf(const ir::Pool2DView& view);

}  // namespace qnnc::eval

#endif  // QNNC_EVAL_NODE_EVALUATOR_H_
