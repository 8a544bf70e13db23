// The JSON report of //tools:compile (--report=PATH).
#ifndef QNNC_TOOLS_COMPILE_REPORT_H_
#define QNNC_TOOLS_COMPILE_REPORT_H_

#include <string>
#include <vector>

#include "ir/graph.h"
#include "runtime/executor.h"

namespace qnnc::tools {

struct OutputCheck {
  std::string output;
  bool match = false;
  double max_abs_diff = 0;
  std::string message;
};

struct CompileSummary {
  std::string model;
  std::string target;
  // The instruction-set level this host used and its CPU, e.g.
  // "avx2 (capped at avx2 by QNNC_ISA; the CPU has avx512vnni) (AMD EPYC)".
  std::string host;
  int threads = 1;
  int runs = 0;          // warm runs timed; 0: not run
  double cold_ms = 0;     // the first run, not among them
  double median_ms = 0;   // the median warm run
  std::vector<double> run_ms;
  // The command that times ONNX Runtime beside qnnc on this host, or "".
  std::string compare;
  std::vector<runtime::OpTiming> timings;  // each op's median over the runs
  std::vector<OutputCheck> checks;
  std::vector<std::string> untuned_workloads;
  runtime::MemoryStats memory;  // as the executor planned it
  // Compiling the model (or loading the plan) until its kernels bound.
  bool from_plan = false;
  double prepare_ms = 0;
  int restored_kernels = 0;  // kernels made from the plan's packed weights (none packed at load)
  int64_t peak_rss_bytes = 0;  // the process's, when the report is made
};

// The process's peak resident set so far (getrusage), in bytes.
int64_t PeakRssBytes();

// Serialized with nlohmann::json, pretty-printed.
std::string ReportJson(const ir::Graph& graph, const CompileSummary& summary);
// The short human summary printed on stdout.
std::string HumanSummary(const ir::Graph& graph, const CompileSummary& summary);

}  // namespace qnnc::tools

#endif  // QNNC_TOOLS_COMPILE_REPORT_H_
