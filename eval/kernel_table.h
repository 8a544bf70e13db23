// The reference evaluator's op table (eval/node_evaluator.cc), filled by one
// function per op family (ops/<family>/<family>_reference.cc), and the
// helpers the families share. Not a public API.
#ifndef QNNC_EVAL_KERNEL_TABLE_H_
#define QNNC_EVAL_KERNEL_TABLE_H_

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/layout.h"
#include "pthreadpool.h"
#include "tensor/tensor.h"

namespace qnnc::eval::internal {

using Tensors = std::vector<tensor::Tensor>;
// One op's reference kernel: the node (for its attributes), its inputs and
// the thread pool give its results.
using Kernel =
    std::function<absl::StatusOr<Tensors>(const ir::Node&, const Tensors&, pthreadpool_t)>;
// Op name -> its reference kernel.
using KernelTable = std::map<std::string, Kernel>;

// A kernel's one result as a list of results.
inline absl::StatusOr<Tensors> Single(absl::StatusOr<tensor::Tensor> t) {
  if (!t.ok()) return t.status();
  return Tensors{*std::move(t)};
}

// The dtype named by the attribute `name`, `dflt` when it is absent.
absl::StatusOr<tensor::DType> DTypeAttr(const ir::Node& n, const char* name, tensor::DType dflt);

// OK when `got`, the value of the layout attribute `attr` (from the op's
// view), is `layout`, else an Unimplemented error: the reference kernel
// computes only in that layout.
absl::Status ExpectLayout(const char* attr, const ir::Layout& got, const ir::Layout& layout);

// Each op family adds its reference kernels with Add<Family>Kernels(
// KernelTable*) in ops/<family>/<family>_reference.cc; the generated
// builtin_reference_kernels.cc of //eval:node_evaluator (ops/op_family.bzl)
// declares them and calls them all.

}  // namespace qnnc::eval::internal

#endif  // QNNC_EVAL_KERNEL_TABLE_H_
