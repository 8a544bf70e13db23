// Runs a compiled graph: each op bound once to its kernel, one shared thread
// pool, intermediate tensors released after their last use, per-op times.
#ifndef QNNC_RUNTIME_EXECUTOR_H_
#define QNNC_RUNTIME_EXECUTOR_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "runtime/kernel_registry.h"
#include "runtime/thread_pool.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

struct ExecutorOptions {
  int threads = 1;
  // Create fails (ResourceExhaustedError with the size) when the inputs,
  // constants and results of every op together need more bytes than this.
  int64_t max_bytes = tensor::kDefaultMaxBytes;
  // Compile only (cross-compilation): kernels needing an instruction set
  // this host may not use are checked and described, and Create succeeds;
  // Run then fails naming the instruction set. Without it, Create fails.
  bool allow_unrunnable = false;
};

// The time one op took in the last run.
struct OpTiming {
  std::string op;
  std::string node_name;
  std::string implementation;
  std::string layout;
  std::string kernel;  // the kernel that ran ("reference" or its description)
  double ms = 0;
};

class Executor {
 public:
  // Takes a typed graph (InferTypes done).
  // Fails (FailedPrecondition) when a kernel needs an instruction set this
  // host may not use, unless options.allow_unrunnable.
  static absl::StatusOr<std::unique_ptr<Executor>> Create(std::unique_ptr<ir::Graph> graph,
                                                          const ExecutorOptions& options = {});

  // Inputs in graph-input order; each must match the input's type exactly.
  absl::StatusOr<std::vector<tensor::Tensor>> Run(const std::vector<tensor::Tensor>& inputs);

  const ir::Graph& graph() const { return *graph_; }
  // One record per op, in plan order: the last run's times (0 for the ops
  // after one that failed).
  const std::vector<OpTiming>& last_timings() const { return timings_; }
  // Why this host cannot run the plan ("" when it can): the first op whose
  // kernel needs an instruction set the host may not use.
  const std::string& unrunnable() const { return unrunnable_; }

 private:
  struct Step {
    const ir::Node* node;
    std::vector<int> inputs;   // slots
    std::vector<int> outputs;  // slots
    std::vector<int> release;  // slots dead after this step
    // The kernel bound to the op when the plan was loaded; nullptr runs the
    // reference kernel.
    std::shared_ptr<const PreparedKernel> kernel;
  };

  Executor(std::unique_ptr<ir::Graph> graph, const ExecutorOptions& options);
  absl::Status Plan(const ExecutorOptions& options);

  std::unique_ptr<ir::Graph> graph_;
  ThreadPool pool_;
  std::vector<Step> steps_;
  std::vector<tensor::Tensor> constant_slots_;  // slot -> constant data (or empty)
  std::vector<int> input_slots_;
  std::vector<int> output_slots_;
  int num_slots_ = 0;
  std::vector<OpTiming> timings_;  // one per step, built at plan load; Run sets `ms`
  std::string unrunnable_;
};

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_EXECUTOR_H_
