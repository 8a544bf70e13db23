#include "tools/compile_dot.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "ir/decision_view.h"
#include "ir/layout_views.h"

extern char** environ;

namespace qnnc::tools {
namespace {

// A DOT string literal's contents: quotes and backslashes escaped; `\n`
// stays a line break (DOT's own escape).
std::string Quote(const std::string& s) {
  return absl::StrReplaceAll(s, {{"\\", "\\\\"}, {"\"", "\\\""}, {"\n", "\\n"}});
}

std::string TypeOf(const ir::Value* v) { return v->type() ? v->type()->ToString() : "?"; }

// White to red by the op's share of the slowest op's time.
std::string Shade(double fraction) {
  const double f = std::clamp(fraction, 0.0, 1.0);
  auto mix = [&](int from, int to) { return static_cast<int>(std::lround(from + (to - from) * f)); };
  return absl::StrFormat("#%02x%02x%02x", mix(0xff, 0xd6), mix(0xff, 0x60), mix(0xff, 0x4d));
}

}  // namespace

std::string GraphDot(const ir::Graph& graph, const std::vector<runtime::OpTiming>& timings) {
  const std::vector<ir::Node*> nodes = graph.nodes();
  double total = 0, slowest = 0;
  for (const runtime::OpTiming& t : timings) {
    total += t.ms;
    slowest = std::max(slowest, t.ms);
  }
  std::vector<std::string> ins, outs;
  for (const ir::Value* v : graph.inputs()) ins.push_back(absl::StrCat("%", v->name(), " ", TypeOf(v)));
  for (const ir::Value* v : graph.outputs()) outs.push_back(absl::StrCat("%", v->name(), " ", TypeOf(v)));
  std::string out = absl::StrCat(
      "digraph qnnc {\n  rankdir=TB;\n  labelloc=t;\n  label=\"",
      Quote(absl::StrCat("@", graph.name(), "  inputs: ", absl::StrJoin(ins, ", "),
                         "  outputs: ", absl::StrJoin(outs, ", "),
                         total > 0 ? absl::StrFormat("  ops: %.3f ms in all", total) : "")),
      "\";\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", "
      "fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n");
  absl::flat_hash_map<const ir::Value*, size_t> producer;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ir::Node& n = *nodes[i];
    std::vector<std::string> lines = {n.op()};
    if (!n.name().empty()) lines.push_back(n.name());
    const std::optional<ir::DecisionView> d = ir::DecisionView::Of(n);
    if (d && !d->implementation.empty()) {
      const bool decided = !d->workload.empty();
      lines.push_back(absl::StrCat(d->implementation,
                                   decided ? (d->tuned ? " (tuned)" : " (fallback)") : ""));
    }
    const bool transform = n.op() == "layout_transform";
    if (transform) {
      const absl::StatusOr<ir::LayoutTransformView> t = ir::LayoutTransformView::Of(n);
      lines.push_back(t.ok() ? absl::StrCat(t->src_layout.str(), " -> ", t->dst_layout.str()) : "? -> ?");
    } else {
      const std::string layout = ir::KernelLayoutOf(n);
      if (!layout.empty()) lines.push_back(absl::StrCat("layout ", layout));
    }
    std::vector<std::string> in_dtypes;
    for (const ir::Value* v : n.inputs()) {
      if (!v->is_constant() && v->type()) in_dtypes.push_back(tensor::DTypeName(v->type()->dtype));
    }
    std::vector<std::string> results;
    for (const ir::Value* v : n.outputs()) results.push_back(TypeOf(v));
    lines.push_back(absl::StrCat(absl::StrJoin(in_dtypes, ","), in_dtypes.empty() ? "" : " -> ",
                                 absl::StrJoin(results, ", ")));
    std::string fill = "#ffffff";
    if (i < timings.size() && timings[i].ms > 0) {
      lines.push_back(absl::StrFormat("%.3f ms (%.1f%%)", timings[i].ms, 100.0 * timings[i].ms / total));
      // The slowest ops stand out; those under 2% of the time stay white.
      if (timings[i].ms >= 0.02 * total) fill = Shade(timings[i].ms / slowest);
    }
    absl::StrAppend(&out, "  n", i, " [label=\"", Quote(absl::StrJoin(lines, "\n")), "\", fillcolor=\"",
                    fill, "\"",
                    transform ? ", shape=box, style=\"dashed,filled\", color=\"#e66101\", penwidth=2" : "",
                    "];\n");
    for (const ir::Value* v : n.inputs()) {
      auto it = producer.find(v);
      if (it == producer.end()) continue;
      absl::StrAppend(&out, "  n", it->second, " -> n", i, " [label=\"",
                      Quote(v->type() ? tensor::DTypeName(v->type()->dtype) : "?"), "\"];\n");
    }
    for (const ir::Value* v : n.outputs()) producer[v] = i;
  }
  absl::StrAppend(&out, "}\n");
  return out;
}

absl::Status RenderSvg(const std::string& dot, const std::string& svg_path) {
  const std::string dot_tmp = svg_path + ".dot.tmp", svg_tmp = svg_path + ".tmp";
  {
    std::ofstream f(dot_tmp, std::ios::binary);
    f << dot;
    if (!f.good()) return absl::InvalidArgumentError(absl::StrCat("--svg: cannot write ", dot_tmp));
  }
  // argv for `dot -Tsvg -o SVG_TMP DOT_TMP`, no shell.
  std::vector<std::string> args = {"dot", "-Tsvg", "-o", svg_tmp, dot_tmp};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int status = 0;
  const int spawned = posix_spawnp(&pid, "dot", nullptr, nullptr, argv.data(), environ);
  // Where the spawn cannot report a failed exec (glibc's posix_spawnp under
  // qemu-user runs as a fork), the child exits 127, the shells' "not found".
  const bool ran = spawned == 0 && waitpid(pid, &status, 0) == pid &&
                   !(WIFEXITED(status) && WEXITSTATUS(status) == 127);
  std::remove(dot_tmp.c_str());
  if (!ran) {
    std::remove(svg_tmp.c_str());
    return absl::FailedPreconditionError(
        "--svg needs Graphviz's dot on PATH (Debian: apt-get install graphviz; scripts/setup.sh "
        "installs it); --dot writes the graph without it");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::remove(svg_tmp.c_str());
    return absl::InternalError(absl::StrCat("--svg: dot failed (status ", status, ") on the graph"));
  }
  if (std::rename(svg_tmp.c_str(), svg_path.c_str()) != 0) {
    std::remove(svg_tmp.c_str());
    return absl::InvalidArgumentError(absl::StrCat("--svg: cannot write ", svg_path));
  }
  return absl::OkStatus();
}

}  // namespace qnnc::tools
