#include "runtime/timed_runs.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "util/status_macros.h"

namespace qnnc::runtime {

namespace {

// One run's time in milliseconds, its outputs in `result`.
absl::StatusOr<double> TimeOneRun(Executor& executor, const std::vector<tensor::Tensor>& inputs,
                                  TimedRuns& result) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<tensor::Tensor>> outputs = executor.Run(inputs);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!outputs.ok()) return outputs.status();
  result.outputs = *std::move(outputs);
  return ms;
}

bool Enough(const RunCount& count, int done, double elapsed_ms) {
  if (count.runs > 0) return done >= count.runs;
  return done >= count.max_runs || (done >= count.min_runs && elapsed_ms >= 1000 * count.min_seconds);
}

}  // namespace

absl::StatusOr<TimedRuns> RunTimed(Executor& executor, const std::vector<tensor::Tensor>& inputs,
                                   const RunCount& count) {
  if (count.runs < 0 || count.min_runs < 1 || count.max_runs < count.min_runs) {
    return absl::InvalidArgumentError("runs must be at least 0, and 1 <= min_runs <= max_runs");
  }
  TimedRuns result;
  ASSIGN_OR_RETURN(result.cold_ms, TimeOneRun(executor, inputs, result));
  std::vector<std::pair<double, std::vector<OpTiming>>> timed;
  double elapsed_ms = 0;
  while (!Enough(count, static_cast<int>(timed.size()), elapsed_ms)) {
    ASSIGN_OR_RETURN(const double ms, TimeOneRun(executor, inputs, result));
    timed.push_back({ms, executor.last_timings()});
    result.run_ms.push_back(ms);
    elapsed_ms += ms;
  }
  std::sort(timed.begin(), timed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  result.median_ms = timed[timed.size() / 2].first;
  result.timings = timed[timed.size() / 2].second;
  for (size_t i = 0; i < result.timings.size(); ++i) {
    std::vector<double> op_ms;
    for (const auto& run : timed) op_ms.push_back(run.second[i].ms);
    std::nth_element(op_ms.begin(), op_ms.begin() + op_ms.size() / 2, op_ms.end());
    result.timings[i].ms = op_ms[op_ms.size() / 2];
  }
  return result;
}

}  // namespace qnnc::runtime
