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
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
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
#include "tools/tune_confirm.h"
#include "tuning/measure.h"
#include "tuning/records_file.h"
#include "tuning/tuner.h"
#include "util/status_macros.h"

ABSL_FLAG(std::string, model, "", "model to tune: .onnx or text IR (default: bundled MobileNetV2)");
ABSL_FLAG(std::string, target, "host", "target to tune for; it must run on this machine");
ABSL_FLAG(std::string, records, "", "records file to append to (JSON lines; created if missing)");
ABSL_FLAG(int, trials, 32, "measurements per workload at most");
ABSL_FLAG(std::string, tuner, "xgb", "grid, random or xgb (XGBoost cost model)");
ABSL_FLAG(int, early_stopping, 16, "stop a workload after this many trials without improvement (0: never)");
ABSL_FLAG(std::string, workloads, "", "tune only workloads whose key matches this RE2 pattern");
ABSL_FLAG(std::string, implementations, "",
          "try only implementations whose name matches this RE2 pattern (e.g. xnnpack)");
ABSL_FLAG(int, threads, 1, "threads each candidate and the model run with (records carry it)");
ABSL_FLAG(bool, confirm, true,
          "time the whole model with each per-op winner against the fallback, alternately, "
          "and record both (a winner replaces the fallback only when the model confirms it)");
ABSL_FLAG(double, confirm_seconds, 0.5, "timing per side of each in-model confirmation");
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

// A candidate as the records file keys it: workload key, implementation,
// config as JSON.
using CandidateKey = std::tuple<std::string, std::string, std::string>;
// The cost of each candidate known so far (infinite if it did not work).
using KnownCosts = std::map<CandidateKey, double>;

// The flags of one run, checked.
struct TuneSettings {
  std::string records_path;  // resolved
  int trials = 0, threads = 0, early_stopping = 0, repeats = 0;
  std::string tuner_name;
  std::pair<int, int> shard{0, 1};       // I/N
  std::unique_ptr<RE2> workloads;        // null: every workload
  std::unique_ptr<RE2> implementations;  // null: every implementation
  target::Target target;
  std::string target_string, cpu;  // as the records name them
};

// --FLAG's RE2 pattern, or null when the flag is empty.
absl::StatusOr<std::unique_ptr<RE2>> FlagPattern(const std::string& flag, const std::string& pattern) {
  if (pattern.empty()) return nullptr;
  auto re = std::make_unique<RE2>(pattern, RE2::Quiet);
  if (!re->ok()) return absl::InvalidArgumentError(absl::StrCat(flag, ": bad pattern: ", re->error()));
  return re;
}

// Parses the command line and checks the flags, in the order their errors
// are reported.
absl::StatusOr<TuneSettings> ParseFlags(int argc, char** argv) {
  DashesToUnderscores(argc, argv);
  absl::SetProgramUsageMessage("qnnc tune: measure every implementation of each workload of a model");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", rest[1], "'"));
  RETURN_IF_ERROR(ApplyIsaFlag(absl::GetFlag(FLAGS_isa)));
  if (absl::GetFlag(FLAGS_records).empty()) return absl::InvalidArgumentError("--records=PATH is required");
  TuneSettings s;
  s.records_path = ResolveUserPath(absl::GetFlag(FLAGS_records));
  s.trials = absl::GetFlag(FLAGS_trials);
  s.threads = absl::GetFlag(FLAGS_threads);
  s.early_stopping = absl::GetFlag(FLAGS_early_stopping);
  s.repeats = absl::GetFlag(FLAGS_repeats);
  if (s.trials < 1) return absl::InvalidArgumentError("--trials must be at least 1");
  if (s.threads < 1 || s.threads > 256) return absl::InvalidArgumentError("--threads must be 1..256");
  if (s.early_stopping < 0) return absl::InvalidArgumentError("--early-stopping must be >= 0");
  if (s.repeats < 1) return absl::InvalidArgumentError("--repeats must be at least 1");
  if (!(absl::GetFlag(FLAGS_timeout) > 0)) return absl::InvalidArgumentError("--timeout must be > 0");
  if (!(absl::GetFlag(FLAGS_confirm_seconds) > 0) || absl::GetFlag(FLAGS_confirm_seconds) > 600) {
    return absl::InvalidArgumentError("--confirm-seconds must be in (0, 600]");
  }
  s.tuner_name = absl::GetFlag(FLAGS_tuner);
  if (!tuning::MakeTuner(s.tuner_name, {}, 1).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--tuner: unknown tuner '", s.tuner_name, "' (valid: grid, random, xgb)"));
  }
  if (!absl::GetFlag(FLAGS_shard).empty()) {
    ASSIGN_OR_RETURN(s.shard, ParseShard(absl::GetFlag(FLAGS_shard)));
  }
  ASSIGN_OR_RETURN(s.workloads, FlagPattern("--workloads", absl::GetFlag(FLAGS_workloads)));
  ASSIGN_OR_RETURN(s.implementations,
                   FlagPattern("--implementations", absl::GetFlag(FLAGS_implementations)));
  auto target = target::ParseTarget(absl::GetFlag(FLAGS_target));
  if (!target.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--target: ", target.status().message()));
  }
  if (absl::Status runs_here = target::CheckRunsOnHost(*target); !runs_here.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--target: ", runs_here.message(), " (tuning measures here)"));
  }
  s.target = *target;
  s.target_string = target->ToString();
  s.cpu = kernels::cpu::CpuModelName();
  return s;
}

// What the records already hold: with --resume, the best cost of each
// candidate measured for this target and CPU (infinite if it never worked).
// An unreadable file is an error before anything is measured (never
// appended to).
absl::StatusOr<KnownCosts> LoadKnownCosts(const TuneSettings& s) {
  KnownCosts known;
  if (!std::filesystem::exists(s.records_path)) return known;
  ASSIGN_OR_RETURN(tuning::LoadedRecords loaded, tuning::LoadRecords(s.records_path, false));
  for (const std::string& w : loaded.warnings) std::cerr << "qnnc tune: warning: " << w << "\n";
  if (!absl::GetFlag(FLAGS_resume)) return known;
  for (const tuning::Record& r : loaded.records) {
    if (r.target != s.target_string || r.cpu != s.cpu || r.threads != s.threads ||
        r.scope != tuning::RecordScope::kOp) {
      continue;
    }
    const double cost = r.valid() ? r.result.median_s : INFINITY;
    auto key = std::make_tuple(r.workload, r.implementation, target::ConfigToJson(r.config));
    auto it = known.find(key);
    if (it == known.end() || cost < it->second) known[key] = cost;
  }
  return known;
}

// The workloads this run tunes: those --workloads matches, in this --shard.
std::vector<const tuning::TunableOp*> SelectOps(const std::vector<tuning::TunableOp>& ops,
                                                const TuneSettings& s) {
  std::vector<const tuning::TunableOp*> selected;
  for (size_t i = 0; i < ops.size(); ++i) {
    const tuning::TunableOp& op = ops[i];
    if (s.workloads && !RE2::PartialMatch(op.key, *s.workloads)) continue;
    if (static_cast<int>(i % s.shard.second) != s.shard.first) continue;
    selected.push_back(&op);
  }
  return selected;
}

// Tunes workload after workload: measures candidates, appending a record for
// each, and takes the costs the records file holds already (--resume)
// instead of measuring them again.
class TuneRun {
 public:
  TuneRun(const TuneSettings& settings, KnownCosts known, size_t workloads)
      : settings_(settings), known_(std::move(known)), progress_(workloads) {
    options_.threads = settings.threads;
    options_.repeats = settings.repeats;
    options_.timeout_s = absl::GetFlag(FLAGS_timeout);
    options_.seed = static_cast<uint32_t>(absl::GetFlag(FLAGS_seed));
  }

  // Tunes the w-th selected workload and prints its best candidate.
  void TuneWorkload(size_t w, const tuning::TunableOp& op);

  // The totals, once every workload is tuned.
  void PrintTotals() const {
    const double wall = std::chrono::duration<double>(Clock::now() - start_).count();
    std::cout << "measured:  " << measured_ << " candidates (" << failures_ << " failed, " << reused_
              << " from earlier records) in " << absl::StrFormat("%.1f", wall) << " s\n"
              << "records:   " << settings_.records_path << "\n";
  }

 private:
  // The candidates for `op` that --implementations lets through.
  std::vector<tuning::Candidate> CandidatesFor(const tuning::TunableOp& op) const;
  // Decides the fallback for `op` (what compile would run without records),
  // sets the layouts every candidate is charged against to the fallback's,
  // and returns the fallback's index in `candidates` (-1 if none).
  int PrepareFallback(const tuning::TunableOp& op, const std::vector<tuning::Candidate>& candidates);
  // The cost of a candidate: the records' if they hold it, else measured
  // and appended to the records file (exit 2 if that cannot be written).
  double Cost(const tuning::TunableOp& op, const tuning::Candidate& c, bool fallback = false);
  // The summary line of a tuned workload; `costs` in the order measured.
  void PrintBest(const tuning::TunableOp& op, const std::vector<tuning::Candidate>& candidates,
                 const tuning::TuneOutcome& outcome, const std::vector<double>& costs,
                 double gop) const;

  const TuneSettings& settings_;
  tuning::MeasureOptions options_;
  KnownCosts known_;
  std::set<CandidateKey> measured_now_;  // by this run, so not "reused"
  const Clock::time_point start_ = Clock::now();
  Progress progress_;
  int measured_ = 0, reused_ = 0, failures_ = 0;
};

std::vector<tuning::Candidate> TuneRun::CandidatesFor(const tuning::TunableOp& op) const {
  std::vector<tuning::Candidate> candidates =
      tuning::Candidates(op.workload, settings_.target, target::GlobalRegistry());
  if (!settings_.implementations) return candidates;
  std::vector<tuning::Candidate> kept;
  for (auto& c : candidates) {
    if (RE2::PartialMatch(c.implementation, *settings_.implementations)) kept.push_back(std::move(c));
  }
  return kept;
}

int TuneRun::PrepareFallback(const tuning::TunableOp& op,
                             const std::vector<tuning::Candidate>& candidates) {
  target::FallbackDispatchContext no_records;
  auto fallback = no_records.Decide(
      op.workload, settings_.target,
      target::GlobalRegistry().Implementations(op.workload.op, settings_.target));
  options_.model_layouts.reset();
  if (!fallback.ok()) return -1;
  if (const target::Implementation* impl =
          target::GlobalRegistry().FindImplementation(op.workload.op, fallback->implementation)) {
    options_.model_layouts = target::IoLayoutsFor(*impl, op.workload);
  }
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i].implementation == fallback->implementation &&
        candidates[i].config == fallback->config) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

double TuneRun::Cost(const tuning::TunableOp& op, const tuning::Candidate& c, bool fallback) {
  const CandidateKey key{op.key, c.implementation, target::ConfigToJson(c.config)};
  if (auto it = known_.find(key); it != known_.end()) {
    if (!measured_now_.count(it->first)) ++reused_;
    return it->second;
  }
  tuning::Record r;
  r.target = settings_.target_string;
  r.cpu = settings_.cpu;
  r.workload = op.key;
  r.implementation = c.implementation;
  r.config = c.config;
  r.config_index = c.config_index;
  r.threads = settings_.threads;
  r.fallback = fallback;
  r.result = tuning::Measure(op, settings_.target, c, options_);
  r.timestamp = tuning::UtcTimestamp();
  // Exits here rather than returning an error: the records written so far
  // stay, and nothing more is measured.
  if (absl::Status s = tuning::AppendRecord(settings_.records_path, r); !s.ok()) {
    std::cerr << "qnnc tune: error: " << s.message() << "\n";
    std::exit(2);
  }
  ++measured_;
  if (!r.valid()) {
    ++failures_;
    std::cerr << (isatty(2) ? "\r\033[K" : "") << "qnnc tune: " << op.node << " " << c.implementation
              << " " << target::ConfigToJson(c.config) << ": "
              << tuning::MeasureErrorName(r.result.error) << ": " << r.result.message << "\n";
  }
  const double cost = r.valid() ? r.result.median_s : INFINITY;
  known_[key] = cost;
  measured_now_.insert(key);
  return cost;
}

void TuneRun::TuneWorkload(size_t w, const tuning::TunableOp& op) {
  std::vector<tuning::Candidate> candidates = CandidatesFor(op);
  if (candidates.empty()) {
    std::cerr << "qnnc tune: no implementation applies to " << op.node << "\n";
    return;
  }
  // The fallback's layouts are the neighbours' layouts every candidate is
  // charged against.
  const int fallback_index = PrepareFallback(op, candidates);
  auto tuner = tuning::MakeTuner(settings_.tuner_name, Features(candidates),
                                 options_.seed + static_cast<uint32_t>(w));
  const double gop = 2.0 * static_cast<double>(op.workload.Macs()) * 1e-9;
  double best_gops = 0;
  const int budget = std::min<int>(settings_.trials, static_cast<int>(candidates.size()));
  int done = 0;
  std::vector<double> costs;
  auto measure = [&](int i) {
    const double cost = Cost(op, candidates[i], i == fallback_index);
    costs.push_back(cost);
    if (std::isfinite(cost)) best_gops = std::max(best_gops, gop / cost);
    progress_.Update(w, op.node, ++done, budget, best_gops, false);
    return cost;
  };
  // The fallback is measured first, always: a record replaces it only when
  // clearly faster (target::kTunedMargin), so compile needs its time.
  double fallback_cost = 0;
  if (fallback_index >= 0) {
    fallback_cost = measure(fallback_index);
    (*tuner)->Update(fallback_index, fallback_cost);
  }
  tuning::TuneOutcome outcome = tuning::TuneSpace(**tuner, budget, settings_.early_stopping, measure);
  // The fallback's measurement counts too (the tuner does not measure it
  // again), so when the fallback is fastest the summary names it.
  if (fallback_index >= 0 && std::isfinite(fallback_cost) &&
      (outcome.best < 0 || fallback_cost <= outcome.best_cost)) {
    outcome.best = fallback_index;
    outcome.best_cost = fallback_cost;
  }
  if (fallback_index >= 0) ++outcome.trials;
  progress_.Update(w, op.node, done, budget, best_gops, true);
  if (outcome.best >= 0) PrintBest(op, candidates, outcome, costs, gop);
}

void TuneRun::PrintBest(const tuning::TunableOp& op, const std::vector<tuning::Candidate>& candidates,
                        const tuning::TuneOutcome& outcome, const std::vector<double>& costs,
                        double gop) const {
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

// The whole job; an error is a bad input (exit 2).
absl::Status Tune(int argc, char** argv) {
  ASSIGN_OR_RETURN(const TuneSettings s, ParseFlags(argc, argv));
  ASSIGN_OR_RETURN(KnownCosts known, LoadKnownCosts(s));
  const std::string model_path = absl::GetFlag(FLAGS_model).empty()
                                     ? BundledPath("testdata/models/mobilenet_v2_qdq.onnx")
                                     : ResolveUserPath(absl::GetFlag(FLAGS_model));
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Graph> graph, frontend::LoadModel(model_path));
  ASSIGN_OR_RETURN(const tuning::TunableOps ops, tuning::ExtractTunableOps(*graph));
  for (const std::string& skipped : ops.skipped) std::cerr << "qnnc tune: skipped " << skipped << "\n";
  const std::vector<const tuning::TunableOp*> selected = SelectOps(ops.ops, s);
  std::cout << "model:     " << model_path << "\n"
            << "target:    " << s.target_string << "\n"
            << "host:      " << kernels::cpu::DescribeHostIsa() << "\n"
            << "workloads: " << selected.size() << " of " << ops.ops.size()
            << (s.shard.second > 1 ? absl::StrCat(" (shard ", s.shard.first, "/", s.shard.second, ")") : "")
            << "\n";

  TuneRun run(s, std::move(known), selected.size());
  for (size_t w = 0; w < selected.size(); ++w) run.TuneWorkload(w, *selected[w]);
  run.PrintTotals();
  if (!absl::GetFlag(FLAGS_confirm)) return absl::OkStatus();
  ConfirmSettings confirm;
  confirm.model_path = model_path;
  confirm.records_path = s.records_path;
  confirm.target = s.target;
  confirm.cpu = s.cpu;
  confirm.threads = s.threads;
  confirm.seconds = absl::GetFlag(FLAGS_confirm_seconds);
  confirm.reuse = absl::GetFlag(FLAGS_resume);
  return ConfirmInModel(confirm, selected, std::cout);
}

int Main(int argc, char** argv) {
  if (absl::Status s = Tune(argc, argv); !s.ok()) {
    std::cerr << "qnnc tune: error: " << s.message() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace qnnc::tools

int main(int argc, char** argv) { return qnnc::tools::Main(argc, argv); }
