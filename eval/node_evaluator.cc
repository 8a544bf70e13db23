#include "eval/node_evaluator.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "eval/kernel_table.h"
#include "util/status_macros.h"

namespace qnnc::eval {
namespace internal {
// Every family's reference kernels (the generated builtin_reference_kernels.cc).
const KernelTable& BuiltinKernels();
}  // namespace internal

namespace {

const internal::KernelTable& Kernels() { return internal::BuiltinKernels(); }

}  // namespace

bool HasReferenceKernel(const std::string& op) { return Kernels().count(op) > 0; }

absl::StatusOr<std::vector<tensor::Tensor>> EvaluateNode(const ir::Node& node,
                                                         const std::vector<tensor::Tensor>& inputs,
                                                         pthreadpool_t pool) {
  auto it = Kernels().find(node.op());
  if (it == Kernels().end()) {
    return absl::UnimplementedError(absl::StrCat(node.Describe(), ": no reference kernel"));
  }
  auto result = it->second(node, inputs, pool);
  if (!result.ok()) {
    return absl::Status(result.status().code(),
                        absl::StrCat(node.Describe(), ": ", result.status().message()));
  }
  if (result->size() != node.outputs().size()) {
    return absl::InternalError(absl::StrCat(node.Describe(), ": kernel returned ", result->size(),
                                            " results"));
  }
  return result;
}

}  // namespace qnnc::eval
