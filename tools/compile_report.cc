#include "tools/compile_report.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"

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
  j["threads"] = s.threads;
  j["runs"] = s.runs;
  j["latency_ms_median"] = s.median_ms;
  j["latency_ms_runs"] = s.run_ms;
  nlohmann::json ops = nlohmann::json::array();
  double total = 0;
  for (const auto& t : s.timings) {
    ops.push_back({{"kind", t.op},
                   {"node", t.node_name},
                   {"implementation", t.implementation},
                   {"layout", t.layout},
                   {"ms", t.ms}});
    total += t.ms;
  }
  j["ops"] = ops;
  j["totals"] = {{"ops", graph.num_nodes()}, {"ops_by_kind", OpsByKind(graph)}, {"op_ms", total}};
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

std::string HumanSummary(const ir::Graph& graph, const CompileSummary& s) {
  std::string ops;
  for (const auto& [kind, count] : OpsByKind(graph)) {
    absl::StrAppend(&ops, ops.empty() ? "" : ", ", count, " ", kind);
  }
  std::string out = absl::StrCat("model:   ", s.model, "\n", "target:  ", s.target, "\n",
                                 "ops:     ", graph.num_nodes(), " (", ops, ")\n");
  if (s.runs > 0) {
    absl::StrAppend(&out, absl::StrFormat("latency: %.3f ms (median of %d run%s, %d thread%s)\n",
                                          s.median_ms, s.runs, s.runs == 1 ? "" : "s", s.threads,
                                          s.threads == 1 ? "" : "s"));
  }
  if (s.checks.empty()) absl::StrAppend(&out, "match:   not checked (no --expect or --test-data)\n");
  for (const auto& c : s.checks) absl::StrAppend(&out, "match:   ", c.output, ": ", c.message, "\n");
  return out;
}

}  // namespace qnnc::tools
