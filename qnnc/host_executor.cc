#include "qnnc/host_executor.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/plan.h"

namespace qnnc {

absl::Status CheckThreadCount(int threads) {
  if (threads < 1 || threads > 256) return absl::InvalidArgumentError("--threads must be 1..256");
  return absl::OkStatus();
}

absl::StatusOr<int64_t> MemoryLimitBytes(int64_t max_memory_mb) {
  if (max_memory_mb < 1 || max_memory_mb > (int64_t{1} << 26)) {
    return absl::InvalidArgumentError("--max-memory-mb must be 1..67108864");
  }
  return max_memory_mb << 20;
}

absl::StatusOr<target::Target> ResolveTarget(const std::string& name, bool no_run) {
  absl::StatusOr<target::Target> target = target::ParseTarget(name);
  if (!target.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--target: ", target.status().message()));
  }
  // A model is checked before it is compiled; a plan once it has loaded
  // (CreateHostExecutor), so that a bad plan is reported as bad on any host.
  if (absl::Status runs_here = target::CheckRunsOnHost(*target); !no_run && !runs_here.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--target: ", runs_here.message(), "; add --no-run to compile and report only"));
  }
  return target;
}

absl::StatusOr<target::Target> PlanTarget(const std::string& plan_path) {
  absl::StatusOr<std::string> name = runtime::ReadPlanTarget(plan_path);
  if (!name.ok()) {
    return absl::Status(name.status().code(), absl::StrCat("--plan: ", name.status().message()));
  }
  auto t = target::ParseTarget(*name);
  if (!t.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--plan: '", plan_path, "' line 1: ", t.status().message()));
  }
  return *t;
}

absl::StatusOr<std::unique_ptr<runtime::Executor>> CreateHostExecutor(
    std::unique_ptr<ir::Graph> graph, runtime::ExecutorOptions options, const ExecutorSource& source) {
  const bool plan = !source.plan_path.empty();
  options.allow_unrunnable = source.no_run || plan;
  auto executor = runtime::Executor::Create(std::move(graph), options);
  if (!executor.ok()) {
    // A plan's decisions are bound only now: name the file they came from.
    if (!plan) return executor.status();
    return absl::Status(executor.status().code(),
                        absl::StrCat("--plan: '", source.plan_path, "': ", executor.status().message()));
  }
  if (!source.no_run && plan) {
    absl::Status runs_here = target::CheckRunsOnHost(source.target);
    if (runs_here.ok() && !(*executor)->unrunnable().empty()) {
      runs_here = absl::FailedPreconditionError((*executor)->unrunnable());
    }
    if (!runs_here.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--plan: '", source.plan_path, "': ", runs_here.message()));
    }
  }
  return executor;
}

}  // namespace qnnc
