// Evaluates one IR op on concrete tensors with the reference kernels. Used
// by FoldConstant at compile time and by the executor at run time.
#ifndef QNNC_RUNTIME_NODE_EVALUATOR_H_
#define QNNC_RUNTIME_NODE_EVALUATOR_H_

#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

// Errors name the op and node.
absl::StatusOr<std::vector<tensor::Tensor>> EvaluateNode(const ir::Node& node,
                                                         const std::vector<tensor::Tensor>& inputs,
                                                         pthreadpool_t pool = nullptr);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_NODE_EVALUATOR_H_
