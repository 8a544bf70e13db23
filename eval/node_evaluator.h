// Evaluates one IR op on concrete tensors with the reference kernels. Used
// by FoldConstant at compile time and by the executor at run time.
#ifndef QNNC_EVAL_NODE_EVALUATOR_H_
#define QNNC_EVAL_NODE_EVALUATOR_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::eval {

// Errors name the op and node.
absl::StatusOr<std::vector<tensor::Tensor>> EvaluateNode(const ir::Node& node,
                                                         const std::vector<tensor::Tensor>& inputs,
                                                         pthreadpool_t pool = nullptr);

// Whether `op` has a reference kernel.
bool HasReferenceKernel(const std::string& op);

}  // namespace qnnc::eval

#endif  // QNNC_EVAL_NODE_EVALUATOR_H_
