#include "tools/compile_report.h"

#include <sys/resource.h>

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "ir/decision_view.h"
#include "util/config_json.h"

namespace qnnc::tools {
namespace {

std::map<std::string, int> OpsByKind(const ir::Graph& graph) {
  std::map<std::string, int> kinds;
  for (const ir::Node* n : graph.nodes()) ++kinds[n->op()];
  return kinds;
}

}  // namespace

std::string ReportJson(const ir::Graph& graph, const CompileSummary& s) {
  nlohmann::json j;
  j["model"] = s.model;
  j["target"] = s.target;
  j["host"] = s.host;
  j["threads"] = s.threads;
  j["runs"] = s.runs;
  j["latency_ms_median"] = s.median_ms;
  j["latency_ms_cold"] = s.cold_ms;
  j["latency_ms_runs"] = s.run_ms;
  nlohmann::json ops = nlohmann::json::array();
  double total = 0;
  std::vector<ir::Node*> nodes = graph.nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    nlohmann::json op = {{"kind", nodes[i]->op()}, {"node", nodes[i]->name()}};
    const std::optional<ir::DecisionView> d = ir::DecisionView::Of(*nodes[i]);
    op["implementation"] = d ? d->implementation : "reference";
    op["layout"] = ir::KernelLayoutOf(*nodes[i]);
    if (d && !d->workload.empty()) {
      op["workload"] = d->workload;
      op["tuned"] = d->tuned;
      op["decision"] = d->tuned ? "tuned" : "fallback";
      op["legalization"] = d->legalization;
      auto config = util::ConfigFromJson(d->config);
      op["config"] = config.ok() ? nlohmann::json(*config) : nlohmann::json(nullptr);
      if (!d->record_rejected.empty()) op["record_rejected"] = d->record_rejected;
      if (!d->passed_over.empty()) op["passed_over"] = d->passed_over;
    }
    if (i < s.timings.size()) {
      op["kernel"] = s.timings[i].kernel;
      op["ms"] = s.timings[i].ms;
      total += s.timings[i].ms;
    }
    ops.push_back(op);
  }
  j["ops"] = ops;
  j["untuned_workloads"] = s.untuned_workloads;
  j["totals"] = {{"ops", graph.num_nodes()}, {"ops_by_kind", OpsByKind(graph)}, {"op_ms", total}};
  j["memory"] = {{"arena_bytes", s.memory.arena_bytes},
                 {"peak_bytes", s.memory.peak_bytes},
                 {"sum_without_reuse_bytes", s.memory.sum_bytes},
                 {"constant_bytes", s.memory.constant_bytes},
                 {"packed_bytes", s.memory.packed_bytes},
                 {"input_output_bytes", s.memory.io_bytes},
                 {"in_place_concats", s.memory.in_place_concats},
                 {"peak_rss_bytes", s.peak_rss_bytes}};
  j[s.from_plan ? "load_ms" : "compile_ms"] = s.prepare_ms;
  if (s.from_plan) j["kernels_from_packed_weights"] = s.restored_kernels;
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : s.checks) {
    checks.push_back({{"output", c.output},
                      {"match", c.match},
                      {"max_abs_diff", c.max_abs_diff},
                      {"message", c.message}});
  }
  j["checks"] = checks;
  return j.dump(2) + "\n";
}

int64_t PeakRssBytes() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;  // Linux gives KiB
}

std::string HumanSummary(const ir::Graph& graph, const CompileSummary& s) {
  std::string ops;
  for (const auto& [kind, count] : OpsByKind(graph)) {
    absl::StrAppend(&ops, ops.empty() ? "" : ", ", count, " ", kind);
  }
  std::string out = absl::StrCat("model:   ", s.model, "\n", "target:  ", s.target, "\n",
                                 "host:    ", s.host, "\n",
                                 "ops:     ", graph.num_nodes(), " (", ops, ")\n");
  const std::string packed =
      s.from_plan ? absl::StrCat("; ", s.restored_kernels, " from the plan's packed weights") : "";
  absl::StrAppend(&out, absl::StrFormat("%s %.1f ms (%s, until the kernels bound%s)\n",
                                        s.from_plan ? "load:   " : "compile:", s.prepare_ms,
                                        s.from_plan ? "the plan loaded" : "import and passes", packed));
  auto mib = [](int64_t b) { return static_cast<double>(b) / (1 << 20); };
  absl::StrAppend(&out, absl::StrFormat(
                            "memory:  activations in a planned arena of %.2f MiB (peak %.2f MiB, "
                            "%.2f MiB without reuse%s); constants %.2f MiB; peak RSS %.1f MiB\n",
                            mib(s.memory.arena_bytes), mib(s.memory.peak_bytes),
                            mib(s.memory.sum_bytes),
                            s.memory.in_place_concats
                                ? absl::StrCat(", ", s.memory.in_place_concats,
                                               " concat(s) written in place")
                                : "",
                            mib(s.memory.constant_bytes), mib(s.peak_rss_bytes)));
  if (s.runs > 0) {
    absl::StrAppend(&out, absl::StrFormat("latency: %.3f ms (median of %d warm run%s, %d thread%s)\n",
                                          s.median_ms, s.runs, s.runs == 1 ? "" : "s", s.threads,
                                          s.threads == 1 ? "" : "s"));
    absl::StrAppend(&out, absl::StrFormat("first:   %.3f ms (the first run, cold: not in the median)\n", s.cold_ms));
  }
  if (!s.untuned_workloads.empty()) {
    absl::StrAppend(&out, "tuning:  ", s.untuned_workloads.size(),
                    " workload(s) untuned, using the fallback (see the report)\n");
  }
  if (s.runs == 0) {
    absl::StrAppend(&out, "run:     skipped (--no-run)\n");
  } else if (s.checks.empty()) absl::StrAppend(&out, "match:   not checked (no --expect or --test-data)\n");
  for (const auto& c : s.checks) absl::StrAppend(&out, "match:   ", c.output, ": ", c.message, "\n");
  if (s.runs > 0 && !s.compare.empty()) {
    absl::StrAppend(&out, "compare: ", s.compare, "   # ONNX Runtime beside qnnc, on this host\n");
  }
  return out;
}

}  // namespace qnnc::tools
