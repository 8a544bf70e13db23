// Per-iteration timing for the Google Benchmark binaries of bench/: each
// iteration is timed on its own and the median is reported as the counter
// "ms" (the fastest as "best_ms"). bench/compare.js reads "ms": the median
// of runs, the statistic of its ONNX Runtime column, and robust to the
// stalls of a shared host, which Google Benchmark's mean time is not.
#ifndef QNNC_BENCH_ITERATION_TIMES_H_
#define QNNC_BENCH_ITERATION_TIMES_H_

#include <algorithm>
#include <chrono>
#include <vector>

#include "benchmark/benchmark.h"

namespace qnnc::bench {

// Runs `run()` once per benchmark iteration; sets the counters "ms" and
// "best_ms" and returns the median seconds of one iteration (0 if none ran).
template <typename Run>
double TimeIterations(benchmark::State& state, Run&& run) {
  std::vector<double> times;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    const auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  state.counters["ms"] = median * 1e3;
  state.counters["best_ms"] = times.front() * 1e3;
  return median;
}

}  // namespace qnnc::bench

#endif  // QNNC_BENCH_ITERATION_TIMES_H_
