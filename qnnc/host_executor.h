// From a target name or a compiled graph to something that runs here: the
// checks //tools:compile and the session API (qnnc/session.h) share, with
// the same messages (named by the CLI's flags: --target, --plan).
#ifndef QNNC_QNNC_HOST_EXECUTOR_H_
#define QNNC_QNNC_HOST_EXECUTOR_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "runtime/executor.h"
#include "target/target.h"

namespace qnnc {

// The thread count of a run's pool: 1..256.
absl::Status CheckThreadCount(int threads);
// The memory limit in bytes of `max_memory_mb` (1..2^26 MiB).
absl::StatusOr<int64_t> MemoryLimitBytes(int64_t max_memory_mb);

// The target a model is compiled for, parsed from `name` ("host", "generic",
// "x86_64+avx2", ...). Unless `no_run`, it must run on this host.
absl::StatusOr<target::Target> ResolveTarget(const std::string& name, bool no_run);

// The target a plan file names in its first line (runtime/plan.h).
absl::StatusOr<target::Target> PlanTarget(const std::string& plan_path);

// What the executor is made for: a model compiled here, or a plan file
// (`plan_path`), whose decisions are bound only now and checked to run on
// this host unless `no_run`.
struct ExecutorSource {
  std::string plan_path;  // empty: compiled in this process
  target::Target target;
  bool no_run = false;
};

// The executor for a compiled graph; it checks the memory limit before any
// input is read. `options.allow_unrunnable` is set from the source.
absl::StatusOr<std::unique_ptr<runtime::Executor>> CreateHostExecutor(
    std::unique_ptr<ir::Graph> graph, runtime::ExecutorOptions options, const ExecutorSource& source);

}  // namespace qnnc

#endif  // QNNC_QNNC_HOST_EXECUTOR_H_
