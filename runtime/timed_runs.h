// Timing a compiled model: a first, cold run timed on its own (caches,
// page faults and the first touch of the arena land there), then warm runs
// of the executor on the same inputs, the median warm run and each op's own
// median (one run's per-op times are noisy op by op on a shared machine).
#ifndef QNNC_RUNTIME_TIMED_RUNS_H_
#define QNNC_RUNTIME_TIMED_RUNS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "runtime/executor.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

// How many warm runs to time: exactly `runs`, or with runs == 0 enough to
// fill `min_seconds`, at least `min_runs` and at most `max_runs`.
struct RunCount {
  int runs = 0;
  double min_seconds = 1.0;
  int min_runs = 10;
  int max_runs = 100000;
};

struct TimedRuns {
  std::vector<tensor::Tensor> outputs;  // of the last run
  double cold_ms = 0;                   // the first run
  std::vector<double> run_ms;           // the warm runs, in run order
  double median_ms = 0;                 // the median warm run
  // The median run's ops, each with its own median time over the runs.
  std::vector<OpTiming> timings;
};

// The cold run, then the warm runs `count` asks for; runs >= 0, min_runs
// >= 1. The first error of a run stops it.
absl::StatusOr<TimedRuns> RunTimed(Executor& executor, const std::vector<tensor::Tensor>& inputs,
                                   const RunCount& count);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_TIMED_RUNS_H_
