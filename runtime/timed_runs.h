// Timing a compiled model: `runs` runs of the executor on the same inputs,
// the median run and each op's own median (one run's per-op times are noisy
// op by op on a shared machine).
#ifndef QNNC_RUNTIME_TIMED_RUNS_H_
#define QNNC_RUNTIME_TIMED_RUNS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "runtime/executor.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

struct TimedRuns {
  std::vector<tensor::Tensor> outputs;  // of the last run
  std::vector<double> run_ms;           // in run order
  double median_ms = 0;                 // the median run
  // The median run's ops, each with its own median time over the runs.
  std::vector<OpTiming> timings;
};

// runs >= 1; the first error of a run stops it.
absl::StatusOr<TimedRuns> RunTimed(Executor& executor, const std::vector<tensor::Tensor>& inputs,
                                   int runs);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_TIMED_RUNS_H_
