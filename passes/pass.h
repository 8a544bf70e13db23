// The pass interface: a named graph-to-graph transformation.
#ifndef QNNC_PASSES_PASS_H_
#define QNNC_PASSES_PASS_H_

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "ir/graph.h"
#include "target/dispatch_context.h"
#include "target/registry.h"
#include "target/target.h"

namespace qnnc::passes {

// Time spent on each kind of op inside a pass (--time-passes), by op name.
struct OpTime {
  double ms = 0;
  int64_t count = 0;
};
using OpTimes = std::map<std::string, OpTime>;

// Adds the time from its construction to its destruction to `(*times)[op]`;
// nothing when `times` is null.
class ScopedOpTimer {
 public:
  ScopedOpTimer(OpTimes* times, const std::string& op)
      : times_(times), op_(times ? op : std::string()), start_(std::chrono::steady_clock::now()) {}
  ~ScopedOpTimer() {
    if (times_ == nullptr) return;
    OpTime& t = (*times_)[op_];
    t.ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    ++t.count;
  }
  ScopedOpTimer(const ScopedOpTimer&) = delete;
  ScopedOpTimer& operator=(const ScopedOpTimer&) = delete;

 private:
  OpTimes* times_;
  std::string op_;
  std::chrono::steady_clock::time_point start_;
};

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
  // Set by the pass manager under --time-passes: the passes that work op
  // by op (QnnLegalize, FoldConstant) add each op's time here.
  OpTimes* op_times = nullptr;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string name() const = 0;
  virtual absl::Status Run(ir::Graph& graph, PassContext& context) = 0;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_PASS_H_
