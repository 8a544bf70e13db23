#include "tools/tune_confirm.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "qnnc/compile_model.h"
#include "qnnc/host_executor.h"
#include "runtime/executor.h"
#include "target/dispatch_context.h"
#include "target/registry.h"
#include "tools/model_inputs.h"
#include "tuning/records_dispatch_context.h"
#include "tuning/records_file.h"
#include "util/status_macros.h"

namespace qnnc::tools {
namespace {

using Clock = std::chrono::steady_clock;

// The model compiled with `dispatch` deciding every tunable op, ready to run.
absl::StatusOr<std::unique_ptr<runtime::Executor>> Build(const ConfirmSettings& s,
                                                         const target::DispatchContext& dispatch,
                                                         std::shared_ptr<runtime::ThreadPool> pool) {
  CompileOptions options;
  options.target = s.target;
  options.threads = s.threads;
  options.dispatch = &dispatch;
  std::ostringstream log;
  ASSIGN_OR_RETURN(CompiledModel compiled, CompileModel(s.model_path, options, log));
  runtime::ExecutorOptions executor;
  executor.pool = std::move(pool);
  ExecutorSource source;
  source.target = s.target;
  return CreateHostExecutor(std::move(compiled.graph), executor, source);
}

struct AbRuns {
  std::vector<double> a_s, b_s;  // each run's time
  bool same_outputs = true;
  double wall_s = 0;
};

double Median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Runs `a` and `b` alternately (ABBA...) until each has had
// `seconds` and at least 10 runs; a warm-up run of each first.
absl::StatusOr<AbRuns> RunAlternately(const runtime::Executor& a, const runtime::Executor& b,
                                      const std::vector<tensor::Tensor>& inputs, double seconds) {
  const Clock::time_point start = Clock::now();
  ASSIGN_OR_RETURN(std::vector<tensor::Tensor> a_out, a.Run(inputs));
  ASSIGN_OR_RETURN(std::vector<tensor::Tensor> b_out, b.Run(inputs));
  AbRuns runs;
  runs.same_outputs = a_out.size() == b_out.size();
  for (size_t i = 0; runs.same_outputs && i < a_out.size(); ++i) {
    runs.same_outputs = a_out[i].BitwiseEquals(b_out[i]);
  }
  double a_total = 0, b_total = 0;
  for (int pair = 0; pair < 10 || a_total < seconds || b_total < seconds; ++pair) {
    for (int half = 0; half < 2; ++half) {
      const bool run_a = (half == 0) == (pair % 2 == 0);
      const Clock::time_point t0 = Clock::now();
      RETURN_IF_ERROR((run_a ? a : b).Run(inputs).status());
      const double t = std::chrono::duration<double>(Clock::now() - t0).count();
      (run_a ? runs.a_s : runs.b_s).push_back(t);
      (run_a ? a_total : b_total) += t;
    }
  }
  runs.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  return runs;
}

// The config's index in the candidate list of its implementation, -1 if
// not found.
int64_t ConfigIndex(const tuning::TunableOp& op, const target::Target& target,
                    const std::string& implementation, const target::Config& config) {
  for (const tuning::Candidate& c : tuning::Candidates(op.workload, target, target::GlobalRegistry())) {
    if (c.implementation == implementation && c.config == config) return c.config_index;
  }
  return -1;
}

tuning::Record ModelRecord(const ConfirmSettings& s, const tuning::TunableOp& op,
                           const target::Decision& d, const std::vector<double>& times, double wall_s) {
  tuning::Record r;
  r.target = s.target.ToString();
  r.cpu = s.cpu;
  r.workload = op.key;
  r.implementation = d.implementation;
  r.config = d.config;
  r.config_index = ConfigIndex(op, s.target, d.implementation, d.config);
  r.threads = s.threads;
  r.scope = tuning::RecordScope::kModel;
  r.result.repeats_s = times;
  r.result.median_s = std::max(Median(times), 1e-9);
  r.result.wall_s = wall_s;
  r.timestamp = tuning::UtcTimestamp();
  return r;
}

// Whether the records hold in-model records of `key` for this target, CPU
// and thread count.
bool HasModelRecords(const std::vector<tuning::Record>& records, const ConfirmSettings& s,
                     const std::string& key) {
  const std::string target = s.target.ToString();
  return std::any_of(records.begin(), records.end(), [&](const tuning::Record& r) {
    return r.scope == tuning::RecordScope::kModel && r.workload == key && r.target == target &&
           r.cpu == s.cpu && r.threads == s.threads;
  });
}

bool SameChoice(const target::Decision& a, const target::Decision& b) {
  return a.implementation == b.implementation && a.config == b.config;
}

// The kept verdicts as compile will see them: per workload, the winner's
// and the fallback's in-model records with the winner faster, so each op
// is decided exactly as the records file will decide it (an op whose
// fallback is another keeps its own: target::TunedChoice::tune_fallback).
class VerdictContext : public target::DispatchContext {
 public:
  void Keep(const std::string& key, const target::Decision& winner, const target::Decision& fallback) {
    verdicts_[key] = {{winner.implementation, winner.config, 1.0, true, false},
                      {fallback.implementation, fallback.config, 2.0, true, true}};
  }
  std::optional<target::TunedChoice> Lookup(const std::string& key, const target::Target& t) const override {
    std::vector<target::TunedChoice> all = LookupAll(key, t);
    if (all.empty()) return std::nullopt;
    return all[0];
  }
  std::vector<target::TunedChoice> LookupAll(const std::string& key, const target::Target&) const override {
    auto it = verdicts_.find(key);
    return it == verdicts_.end() ? std::vector<target::TunedChoice>{} : it->second;
  }

 private:
  std::map<std::string, std::vector<target::TunedChoice>> verdicts_;
};

}  // namespace

absl::Status ConfirmInModel(const ConfirmSettings& s, const std::vector<const tuning::TunableOp*>& ops,
                            std::ostream& out) {
  // Nothing was measured (no file): nothing to confirm.
  tuning::LoadedRecords loaded;
  if (std::filesystem::exists(s.records_path)) {
    ASSIGN_OR_RETURN(loaded, tuning::LoadRecords(s.records_path, false));
  }
  std::vector<tuning::Record> op_records;
  for (const tuning::Record& r : loaded.records) {
    if (r.scope == tuning::RecordScope::kOp) op_records.push_back(r);
  }
  const tuning::RecordsDispatchContext per_op(op_records, s.cpu, s.threads);
  const tuning::RecordsDispatchContext all(loaded.records, s.cpu, s.threads);
  const target::FallbackDispatchContext no_records;
  auto pool = std::make_shared<runtime::ThreadPool>(s.threads);
  // The winners kept so far (other workloads are absent: their fallbacks decide).
  VerdictContext accepted;
  std::unique_ptr<runtime::Executor> base;  // the model as `accepted` decides it
  std::vector<tensor::Tensor> inputs;
  int timed = 0, kept_count = 0;
  for (const tuning::TunableOp* op : ops) {
    const auto candidates = target::GlobalRegistry().Implementations(op->workload.op, s.target);
    auto fallback = no_records.Decide(op->workload, s.target, candidates);
    auto tuned = per_op.Decide(op->workload, s.target, candidates);
    if (!fallback.ok() || !tuned.ok() || SameChoice(*tuned, *fallback)) continue;
    if (s.reuse && HasModelRecords(loaded.records, s, op->key)) {
      auto kept = all.Decide(op->workload, s.target, candidates);
      if (kept.ok() && !SameChoice(*kept, *fallback)) accepted.Keep(op->key, *kept, *fallback);
      if (kept.ok()) out << absl::StrFormat("confirm:   %-28s in-model records held: %s\n", op->node, kept->implementation);
      base.reset();
      continue;
    }
    if (base == nullptr) {
      ASSIGN_OR_RETURN(base, Build(s, accepted, pool));
      ASSIGN_OR_RETURN(inputs, ReadInputs(base->graph(), {}));
    }
    VerdictContext trial = accepted;
    trial.Keep(op->key, *tuned, *fallback);
    ASSIGN_OR_RETURN(std::unique_ptr<runtime::Executor> with, Build(s, trial, pool));
    ASSIGN_OR_RETURN(AbRuns runs, RunAlternately(*base, *with, inputs, s.seconds));
    tuning::Record fallback_record = ModelRecord(s, *op, *fallback, runs.a_s, runs.wall_s);
    fallback_record.fallback = true;
    tuning::Record tuned_record = ModelRecord(s, *op, *tuned, runs.b_s, runs.wall_s);
    if (!runs.same_outputs) {
      tuned_record.result = {};
      tuned_record.result.error = tuning::MeasureError::kWrongAnswer;
      tuned_record.result.message = "the model's outputs differ from the fallback's";
    }
    RETURN_IF_ERROR(tuning::AppendRecord(s.records_path, fallback_record));
    RETURN_IF_ERROR(tuning::AppendRecord(s.records_path, tuned_record));
    // The verdict is what the two records decide, by the rule compile applies.
    const tuning::RecordsDispatchContext verdict({fallback_record, tuned_record}, s.cpu, s.threads);
    auto decided = verdict.Decide(op->workload, s.target, candidates);
    const bool keep = decided.ok() && SameChoice(*decided, *tuned);
    const double a = fallback_record.result.median_s, b = Median(runs.b_s);
    out << absl::StrFormat("confirm:   %-28s %-34s model %.3f ms, fallback %.3f ms (%+.1f%%): %s\n",
                           op->node, tuned->implementation, b * 1e3, a * 1e3, (b / a - 1) * 100,
                           !runs.same_outputs ? "outputs differ, fallback stays"
                           : keep             ? "kept"
                                              : "fallback stays");
    ++timed;
    if (keep) {
      ++kept_count;
      accepted = std::move(trial);
      base = std::move(with);
    }
  }
  out << "confirmed: " << kept_count << " of " << timed
      << " per-op winners kept in the model (the others' workloads keep the fallback)\n";
  return absl::OkStatus();
}

}  // namespace qnnc::tools
