// qnnc tune: measures every implementation (and config) of each workload of
// a model on this host, and appends one record per measurement to
// --records. //tools:compile --records=... then decides from them.
//
// Exit codes: 0 done, 2 bad input (flags, model, records file).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "frontend/load_model.h"
#include "kernels/cpu/isa.h"
#include "re2/re2.h"
#include "target/registry.h"
#include "target/target.h"
#include "tools/flag_names.h"
#include "tools/isa_cap.h"
#include "tools/tool_paths.h"
#include "tuning/measure.h"
#include "tuning/records_file.h"
#include "tuning/tuner.h"

ABSL_FLAG(std::string, model, "", "model to tune: .onnx or text IR (default: bundled MobileNetV2)");
ABSL_FLAG(std::string, target, "host", "target to tune for; it must run on this machine");
ABSL_FLAG(std::string, records, "", "records file to append to (JSON lines; created if missing)");
ABSL_FLAG(int, trials, 32, "measurements per workload at most");
ABSL_FLAG(std::string, tuner, "xgb", "grid, random or xgb (XGBoost cost model)");
ABSL_FLAG(int, early_stopping, 16, "stop a workload after this many trials without improvement (0: never)");
ABSL_FLAG(std::string, workloads, "", "tune only workloads whose key matches this RE2 pattern");
ABSL_FLAG(std::string, implementations, "",
          "try only implementations whose name matches this RE2 pattern (e.g. xnnpack)");
ABSL_FLAG(int, threads, 1, "threads each candidate runs with");
ABSL_FLAG(bool, resume, false, "skip candidates the records file already holds for this target and CPU");
ABSL_FLAG(std::string, shard, "", "I/N: tune only the I-th of N slices of the workload list (0-based)");
ABSL_FLAG(int, repeats, 10, "timed runs per candidate (after 2 warm-up runs); the median is recorded");
ABSL_FLAG(double, timeout, 60, "seconds a candidate may take before it is killed (recorded as timeout)");
ABSL_FLAG(int, seed, 1, "seed of the random and xgb tuners and of the random inputs");
ABSL_FLAG(std::string, isa, "", qnnc::tools::kIsaFlagHelp);

namespace qnnc::tools {
namespace {

using Clock = std::chrono::steady_clock;

std::string Clock2(double s) {
  const int t = static_cast<int>(s);
  return absl::StrFormat("%d:%02d", t / 60, t % 60);
}

// Progress: one line redrawn in place on a terminal, plain lines otherwise.
class Progress {
 public:
  explicit Progress(size_t workloads) : total_(workloads), tty_(isatty(2)), start_(Clock::now()) {}
  void Update(size_t index, const std::string& node, int trials, int budget, double best_gops,
              bool done) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double fraction = (index + static_cast<double>(trials) / std::max(budget, 1)) / total_;
    const std::string eta = fraction > 0 ? Clock2(elapsed / fraction - elapsed) : "?";
    std::string line = absl::StrFormat(
        "workload %zu/%zu (%s): %d/%d trials, best %.1f GOPS, elapsed %s, ETA %s", index + 1,
        total_, node, trials, budget, best_gops, Clock2(elapsed), eta);
    if (tty_) {
      std::cerr << "\r\033[K" << line << (done ? "\n" : "") << std::flush;
    } else if (done) {
      std::cerr << line << "\n";
    }
  }

 private:
  size_t total_;
  bool tty_;
  Clock::time_point start_;
};

absl::StatusOr<std::pair<int, int>> ParseShard(const std::string& s) {
  std::vector<std::string> parts = absl::StrSplit(s, '/');
  int i = 0, n = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &i) || !absl::SimpleAtoi(parts[1], &n) ||
      n < 1 || i < 0 || i >= n) {
    return absl::InvalidArgumentError(absl::StrCat("--shard: expected I/N with 0 <= I < N, got '", s, "'"));
  }
  return std::make_pair(i, n);
}

// Features of a candidate for the cost model: which implementation, and
// every knob's value (0 where it has none).
std::vector<std::vector<float>> Features(const std::vector<tuning::Candidate>& candidates) {
  std::map<std::string, int> impls, knobs;
  for (const auto& c : candidates) {
    impls.emplace(c.implementation, static_cast<int>(impls.size()));
    for (const auto& [k, v] : c.config) knobs.emplace(k, 0);
  }
  int col = 0;
  for (auto& [k, index] : knobs) index = col++;
  std::vector<std::vector<float>> rows;
  for (const auto& c : candidates) {
    std::vector<float> row(1 + knobs.size(), 0.0f);
    row[0] = static_cast<float>(impls[c.implementation]);
    for (const auto& [k, v] : c.config) row[1 + knobs[k]] = static_cast<float>(v);
    rows.push_back(std::move(row));
  }
  return rows;
}

int Main(int argc, char** argv) {
  DashesToUnderscores(argc, argv);
  absl::SetProgramUsageMessage("qnnc tune: measure every implementation of each workload of a model");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  auto fail = [](const absl::Status& s) {
    std::cerr << "qnnc tune: error: " << s.message() << "\n";
    return 2;
  };
  if (rest.size() > 1) return fail(absl::InvalidArgumentError(absl::StrCat("unexpected argument '", rest[1], "'")));
  if (absl::Status s = ApplyIsaFlag(absl::GetFlag(FLAGS_isa)); !s.ok()) return fail(s);
  if (absl::GetFlag(FLAGS_records).empty()) return fail(absl::InvalidArgumentError("--records=PATH is required"));
  const std::string records_path = ResolveUserPath(absl::GetFlag(FLAGS_records));
  const int trials = absl::GetFlag(FLAGS_trials), threads = absl::GetFlag(FLAGS_threads);
  const int early = absl::GetFlag(FLAGS_early_stopping), repeats = absl::GetFlag(FLAGS_repeats);
  if (trials < 1) return fail(absl::InvalidArgumentError("--trials must be at least 1"));
  if (threads < 1 || threads > 256) return fail(absl::InvalidArgumentError("--threads must be 1..256"));
  if (early < 0) return fail(absl::InvalidArgumentError("--early-stopping must be >= 0"));
  if (repeats < 1) return fail(absl::InvalidArgumentError("--repeats must be at least 1"));
  if (!(absl::GetFlag(FLAGS_timeout) > 0)) return fail(absl::InvalidArgumentError("--timeout must be > 0"));
  const std::string tuner_name = absl::GetFlag(FLAGS_tuner);
  if (!tuning::MakeTuner(tuner_name, {}, 1).ok()) {
    return fail(absl::InvalidArgumentError(absl::StrCat("--tuner: unknown tuner '", tuner_name,
                                                        "' (valid: grid, random, xgb)")));
  }
  std::pair<int, int> shard{0, 1};
  if (!absl::GetFlag(FLAGS_shard).empty()) {
    auto s = ParseShard(absl::GetFlag(FLAGS_shard));
    if (!s.ok()) return fail(s.status());
    shard = *s;
  }
  std::unique_ptr<RE2> filter;
  if (!absl::GetFlag(FLAGS_workloads).empty()) {
    filter = std::make_unique<RE2>(absl::GetFlag(FLAGS_workloads), RE2::Quiet);
    if (!filter->ok()) {
      return fail(absl::InvalidArgumentError(
          absl::StrCat("--workloads: bad pattern: ", filter->error())));
    }
  }
  std::unique_ptr<RE2> impl_filter;
  if (!absl::GetFlag(FLAGS_implementations).empty()) {
    impl_filter = std::make_unique<RE2>(absl::GetFlag(FLAGS_implementations), RE2::Quiet);
    if (!impl_filter->ok()) {
      return fail(absl::InvalidArgumentError(
          absl::StrCat("--implementations: bad pattern: ", impl_filter->error())));
    }
  }
  auto target = target::ParseTarget(absl::GetFlag(FLAGS_target));
  if (!target.ok()) return fail(absl::InvalidArgumentError(absl::StrCat("--target: ", target.status().message())));
  if (absl::Status s = target::CheckRunsOnHost(*target); !s.ok()) {
    return fail(absl::InvalidArgumentError(absl::StrCat("--target: ", s.message(), " (tuning measures here)")));
  }
  const std::string target_string = target->ToString(), cpu = kernels::cpu::CpuModelName();

  // What the records already hold: an unreadable file is an error before
  // anything is measured (never appended to).
  std::map<std::tuple<std::string, std::string, std::string>, double> known;
  if (std::filesystem::exists(records_path)) {
    auto loaded = tuning::LoadRecords(records_path, false);
    if (!loaded.ok()) return fail(loaded.status());
    for (const std::string& w : loaded->warnings) std::cerr << "qnnc tune: warning: " << w << "\n";
    if (absl::GetFlag(FLAGS_resume)) {
      for (const tuning::Record& r : loaded->records) {
        if (r.target != target_string || r.cpu != cpu) continue;
        const double cost = r.valid() ? r.result.median_s : INFINITY;
        auto key = std::make_tuple(r.workload, r.implementation, target::ConfigToJson(r.config));
        auto it = known.find(key);
        if (it == known.end() || cost < it->second) known[key] = cost;
      }
    }
  }

  const std::string model_path = absl::GetFlag(FLAGS_model).empty()
                                     ? BundledPath("testdata/models/mobilenet_v2_qdq.onnx")
                                     : ResolveUserPath(absl::GetFlag(FLAGS_model));
  auto graph = frontend::LoadModel(model_path);
  if (!graph.ok()) return fail(graph.status());
  auto ops = tuning::ExtractTunableOps(**graph);
  if (!ops.ok()) return fail(ops.status());
  for (const std::string& s : ops->skipped) std::cerr << "qnnc tune: skipped " << s << "\n";
  std::vector<const tuning::TunableOp*> selected;
  for (size_t i = 0; i < ops->ops.size(); ++i) {
    const tuning::TunableOp& op = ops->ops[i];
    if (filter && !RE2::PartialMatch(op.key, *filter)) continue;
    if (static_cast<int>(i % shard.second) != shard.first) continue;
    selected.push_back(&op);
  }
  std::cout << "model:     " << model_path << "\n"
            << "target:    " << target_string << "\n"
            << "host:      " << kernels::cpu::DescribeHostIsa() << "\n"
            << "workloads: " << selected.size() << " of " << ops->ops.size()
            << (shard.second > 1 ? absl::StrCat(" (shard ", shard.first, "/", shard.second, ")") : "")
            << "\n";

  tuning::MeasureOptions options;
  options.threads = threads;
  options.repeats = repeats;
  options.timeout_s = absl::GetFlag(FLAGS_timeout);
  options.seed = static_cast<uint32_t>(absl::GetFlag(FLAGS_seed));
  const auto start = Clock::now();
  Progress progress(selected.size());
  int measured = 0, reused = 0, failures = 0;
  std::set<std::tuple<std::string, std::string, std::string>> measured_now;
  for (size_t w = 0; w < selected.size(); ++w) {
    const tuning::TunableOp& op = *selected[w];
    std::vector<tuning::Candidate> candidates =
        tuning::Candidates(op.workload, *target, target::GlobalRegistry());
    if (impl_filter) {
      std::vector<tuning::Candidate> kept;
      for (auto& c : candidates) {
        if (RE2::PartialMatch(c.implementation, *impl_filter)) kept.push_back(std::move(c));
      }
      candidates = std::move(kept);
    }
    if (candidates.empty()) {
      std::cerr << "qnnc tune: no implementation applies to " << op.node << "\n";
      continue;
    }
    // The fallback: measured first, and its layouts are the neighbours'
    // layouts every candidate is charged against.
    target::FallbackDispatchContext no_records;
    auto fallback = no_records.Decide(op.workload, *target,
                                      target::GlobalRegistry().Implementations(op.workload.op, *target));
    options.model_layouts.reset();
    if (fallback.ok()) {
      if (const target::Implementation* impl =
              target::GlobalRegistry().FindImplementation(op.workload.op, fallback->implementation)) {
        options.model_layouts = target::IoLayoutsFor(*impl, op.workload);
      }
    }
    auto tuner = tuning::MakeTuner(tuner_name, Features(candidates),
                                   options.seed + static_cast<uint32_t>(w));
    const double gop = 2.0 * static_cast<double>(op.workload.Macs()) * 1e-9;
    double best_gops = 0;
    const int budget = std::min<int>(trials, static_cast<int>(candidates.size()));
    int done = 0;
    std::vector<double> costs;
    auto measure = [&](int i) {
      const tuning::Candidate& c = candidates[i];
      double cost;
      auto it = known.find({op.key, c.implementation, target::ConfigToJson(c.config)});
      if (it != known.end()) {
        cost = it->second;
        if (!measured_now.count(it->first)) ++reused;
      } else {
        tuning::Record r;
        r.target = target_string;
        r.cpu = cpu;
        r.workload = op.key;
        r.implementation = c.implementation;
        r.config = c.config;
        r.config_index = c.config_index;
        r.result = tuning::Measure(op, *target, c, options);
        r.timestamp = tuning::UtcTimestamp();
        if (absl::Status s = tuning::AppendRecord(records_path, r); !s.ok()) {
          std::cerr << "qnnc tune: error: " << s.message() << "\n";
          std::exit(2);
        }
        ++measured;
        if (!r.valid()) {
          ++failures;
          std::cerr << (isatty(2) ? "\r\033[K" : "") << "qnnc tune: " << op.node << " "
                    << c.implementation << " " << target::ConfigToJson(c.config) << ": "
                    << tuning::MeasureErrorName(r.result.error) << ": " << r.result.message << "\n";
        }
        cost = r.valid() ? r.result.median_s : INFINITY;
        known[{op.key, c.implementation, target::ConfigToJson(c.config)}] = cost;
        measured_now.insert({op.key, c.implementation, target::ConfigToJson(c.config)});
      }
      costs.push_back(cost);
      if (std::isfinite(cost)) best_gops = std::max(best_gops, gop / cost);
      progress.Update(w, op.node, ++done, budget, best_gops, false);
      return cost;
    };
    // The fallback is measured first, always: a record replaces it only when
    // clearly faster (target::kTunedMargin), so compile needs its time.
    int fallback_index = -1;
    double fallback_cost = 0;
    if (fallback.ok()) {
      for (size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i].implementation == fallback->implementation &&
            candidates[i].config == fallback->config) {
          fallback_index = static_cast<int>(i);
          fallback_cost = measure(fallback_index);
          (*tuner)->Update(fallback_index, fallback_cost);
          break;
        }
      }
    }
    tuning::TuneOutcome outcome = tuning::TuneSpace(**tuner, budget, early, measure);
    // The fallback's measurement counts too (the tuner does not measure it
    // again): without it the summary named the best of the others when the
    // fallback won (MobileNetV2's classifier: "best reference").
    if (fallback_index >= 0 && std::isfinite(fallback_cost) &&
        (outcome.best < 0 || fallback_cost <= outcome.best_cost)) {
      outcome.best = fallback_index;
      outcome.best_cost = fallback_cost;
    }
    if (fallback_index >= 0) ++outcome.trials;
    progress.Update(w, op.node, done, budget, best_gops, true);
    if (outcome.best >= 0) {
      int within5 = 0;
      for (size_t t = 0; t < costs.size(); ++t) {
        if (costs[t] <= outcome.best_cost * 1.05) {
          within5 = static_cast<int>(t) + 1;
          break;
        }
      }
      std::cout << absl::StrFormat("%-28s x%-2d best %-30s %-26s %8.4f ms %7.1f GOPS, %d trials, within 5%% after %d\n",
                                   op.node, op.count, candidates[outcome.best].implementation,
                                   target::ConfigToJson(candidates[outcome.best].config),
                                   outcome.best_cost * 1e3, gop / outcome.best_cost, outcome.trials, within5);
    }
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  std::cout << "measured:  " << measured << " candidates (" << failures << " failed, " << reused
            << " from earlier records) in " << absl::StrFormat("%.1f", wall) << " s\n"
            << "records:   " << records_path << "\n";
  return 0;
}

}  // namespace
}  // namespace qnnc::tools

int main(int argc, char** argv) { return qnnc::tools::Main(argc, argv); }
