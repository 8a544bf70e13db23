// Binding a node to its kernel when a plan is loaded (runtime::Executor).
#ifndef QNNC_RUNTIME_BIND_KERNEL_H_
#define QNNC_RUNTIME_BIND_KERNEL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "runtime/kernel_registry.h"
#include "runtime/packed_state.h"

namespace qnnc::runtime {

// The kernel of `node`: restored from `state` (its packed state in the plan)
// when there is one, else made by its factory; nullptr runs the reference
// kernel. A decision is a promise: an op whose decision names an
// implementation gets that implementation's kernel, or an error (never a
// silent substitution by another kernel).
absl::StatusOr<std::unique_ptr<PreparedKernel>> BindKernel(const ir::Node& node, const PackedState* state);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_BIND_KERNEL_H_
