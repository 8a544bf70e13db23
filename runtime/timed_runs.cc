#include "runtime/timed_runs.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace qnnc::runtime {

absl::StatusOr<TimedRuns> RunTimed(Executor& executor, const std::vector<tensor::Tensor>& inputs,
                                   int runs) {
  if (runs < 1) return absl::InvalidArgumentError("runs must be at least 1");
  TimedRuns result;
  std::vector<std::pair<double, std::vector<OpTiming>>> timed;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<std::vector<tensor::Tensor>> outputs = executor.Run(inputs);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!outputs.ok()) return outputs.status();
    result.outputs = *std::move(outputs);
    timed.push_back({ms, executor.last_timings()});
    result.run_ms.push_back(ms);
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
