// The pass interface: a named graph-to-graph transformation.
#ifndef QNNC_PASSES_PASS_H_
#define QNNC_PASSES_PASS_H_

#include <set>
#include <string>

#include "absl/status/status.h"
#include "ir/graph.h"
#include "target/dispatch_context.h"
#include "target/registry.h"
#include "target/target.h"

namespace qnnc::passes {

// What passes may consult besides the graph, and what they report back.
struct PassContext {
  target::Target target;  // default: generic
  // Tuning records; nullptr means none (every decision is the fallback).
  const target::DispatchContext* dispatch = nullptr;
  // Legalize functions and strategies; nullptr means target::GlobalRegistry().
  const target::Registry* registry = nullptr;
  // QnnLegalize fails on any fallback decision.
  bool require_tuned = false;
  // Memory limit of the graph's constants: FoldConstant refuses a node
  // whose results would pass it (//tools:compile --max-memory-mb).
  int64_t max_bytes = tensor::kDefaultMaxBytes;

  // Filled by QnnLegalize: the workloads that got the fallback, once each.
  std::set<std::string> untuned_workloads;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string name() const = 0;
  virtual absl::Status Run(ir::Graph& graph, PassContext& context) = 0;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_PASS_H_
