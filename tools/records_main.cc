// qnnc records: tuning records files.
//   records show FILE...            a table per workload: implementations tried, best time, GOPS
//   records best --out=OUT FILE...  keep the best record per workload, target, CPU and thread count
//   records merge --out=OUT FILE... concatenate shards, drop duplicate lines, validate
// Malformed lines are reported (FILE:LINE) and skipped; with --strict they
// are errors. Exit codes: 0 done, 2 bad input (nothing written).
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "re2/re2.h"
#include "io/tensor_files.h"
#include "tools/flag_names.h"
#include "tools/tool_paths.h"
#include "tuning/records_dispatch_context.h"
#include "tuning/records_file.h"

ABSL_FLAG(std::string, out, "", "output file (best, merge)");
ABSL_FLAG(bool, strict, false, "a malformed line is an error, not a warning");

namespace qnnc::tools {
namespace {

// Multiply-accumulates of a workload, from the shapes in its key: the
// accumulator's elements times the weight elements per output channel.
double Macs(const std::string& key) {
  std::string weight, output;
  if (!RE2::PartialMatch(key, R"re("weight":"[a-z0-9]+\[([0-9,]+)\]")re", &weight) ||
      !RE2::PartialMatch(key, R"re("output":"[a-z0-9]+\[([0-9,]+)\]")re", &output)) {
    return 0;
  }
  auto product = [](const std::string& dims, size_t skip) {
    double p = 1;
    size_t i = 0;
    for (absl::string_view d : absl::StrSplit(dims, ',')) {
      if (i++ >= skip) p *= std::strtod(std::string(d).c_str(), nullptr);
    }
    return p;
  };
  return product(output, 0) * product(weight, 1);
}

std::string Short(const std::string& key) {
  std::string op, data, weight;
  RE2::PartialMatch(key, R"re("op":"([a-z0-9_.]+)")re", &op);
  RE2::PartialMatch(key, R"re("data":"([^"]+)")re", &data);
  RE2::PartialMatch(key, R"re("weight":"([^"]+)")re", &weight);
  return absl::StrCat(op, " ", data, " * ", weight);
}

int Show(const std::vector<tuning::Record>& records) {
  // workload -> (target, cpu, threads, scope) -> implementation -> {tried, failed, best}
  struct Tried {
    int tried = 0, failed = 0;
    double best = 0;
  };
  std::map<std::string, std::map<std::string, std::map<std::string, Tried>>> table;
  for (const tuning::Record& r : records) {
    const std::string where =
        absl::StrCat(r.target, " on ", r.cpu, ", ", r.threads, r.threads == 1 ? " thread" : " threads",
                     r.scope == tuning::RecordScope::kModel ? ", whole model" : "");
    Tried& t = table[r.workload][where][r.implementation];
    ++t.tried;
    if (!r.valid()) {
      ++t.failed;
    } else if (t.best == 0 || r.result.median_s < t.best) {
      t.best = r.result.median_s;
    }
  }
  for (const auto& [workload, hosts] : table) {
    const double gop = 2 * Macs(workload) * 1e-9;
    std::cout << Short(workload) << "\n";
    for (const auto& [host, impls] : hosts) {
      std::cout << "  " << host << "\n";
      // A whole model's time says nothing of the op's GOPS.
      const bool in_model = absl::EndsWith(host, ", whole model");
      double best = 0;
      for (const auto& [impl, t] : impls) {
        if (t.best > 0 && (best == 0 || t.best < best)) best = t.best;
      }
      for (const auto& [impl, t] : impls) {
        std::cout << absl::StrFormat("    %-30s %3d tried %3d failed", impl, t.tried, t.failed);
        if (t.best > 0) {
          std::cout << absl::StrFormat("  best %9.4f ms", t.best * 1e3);
          if (!in_model) std::cout << absl::StrFormat(" %7.1f GOPS", gop > 0 ? gop / t.best : 0.0);
          if (t.best == best) std::cout << "  <- best";
        }
        std::cout << "\n";
      }
    }
  }
  return 0;
}

int Main(int argc, char** argv) {
  DashesToUnderscores(argc, argv);
  absl::SetProgramUsageMessage("qnnc records show|best|merge [--out=FILE] FILE...");
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  auto fail = [](const std::string& message) {
    std::cerr << "qnnc records: error: " << message << "\n";
    return 2;
  };
  if (args.size() < 3) return fail("usage: records show|best|merge [--out=FILE] FILE...");
  const std::string command = args[1];
  if (command != "show" && command != "best" && command != "merge") {
    return fail(absl::StrCat("unknown command '", command, "' (valid: show, best, merge)"));
  }
  const std::string out = absl::GetFlag(FLAGS_out);
  if (command != "show" && out.empty()) return fail(absl::StrCat(command, " needs --out=FILE"));
  std::vector<tuning::Record> records;
  std::vector<std::string> lines;  // merge keeps each distinct line once, in order
  std::set<std::string> seen;
  for (size_t i = 2; i < args.size(); ++i) {
    auto loaded = tuning::LoadRecords(ResolveUserPath(args[i]), absl::GetFlag(FLAGS_strict));
    if (!loaded.ok()) return fail(std::string(loaded.status().message()));
    for (const std::string& w : loaded->warnings) std::cerr << "qnnc records: warning: " << w << "\n";
    for (tuning::Record& r : loaded->records) {
      std::string line = tuning::RecordToJson(r);
      if (seen.insert(line).second) lines.push_back(line);
      records.push_back(std::move(r));
    }
  }
  if (command == "show") return Show(records);
  std::string text;
  size_t kept = 0;
  if (command == "merge") {
    for (const std::string& l : lines) absl::StrAppend(&text, l, "\n");
    kept = lines.size();
  } else {
    // Per (workload, target, cpu, threads): the whole-model records where
    // the tune confirmed the workload (the fallback's and its rival's, so
    // compile decides as from the full file), else the best per-op record.
    using Group = std::tuple<std::string, std::string, std::string, int>;
    std::map<Group, tuning::Record> best_op;
    std::map<Group, std::vector<tuning::Record>> in_model;
    for (const tuning::Record& r : tuning::BestRecords(records)) {
      const Group key{r.workload, r.target, r.cpu, r.threads};
      if (r.scope == tuning::RecordScope::kModel) {
        in_model[key].push_back(r);
        continue;
      }
      auto it = best_op.find(key);
      if (it == best_op.end() || r.result.median_s < it->second.result.median_s) best_op[key] = r;
    }
    for (const auto& [key, r] : best_op) {
      if (in_model.count(key)) continue;
      absl::StrAppend(&text, tuning::RecordToJson(r), "\n");
      ++kept;
    }
    // The fallback each group was measured against stays beside its best,
    // so the file decides only the ops with that fallback, as the full one.
    for (const tuning::Record& r : tuning::BestRecords(records)) {
      const Group key{r.workload, r.target, r.cpu, r.threads};
      if (r.scope != tuning::RecordScope::kOp || !r.fallback || in_model.count(key)) continue;
      if (tuning::RecordToJson(best_op[key]) == tuning::RecordToJson(r)) continue;
      absl::StrAppend(&text, tuning::RecordToJson(r), "\n");
      ++kept;
    }
    for (const auto& [key, rs] : in_model) {
      for (const tuning::Record& r : rs) absl::StrAppend(&text, tuning::RecordToJson(r), "\n");
      kept += rs.size();
    }
  }
  if (absl::Status s = io::WriteFileAtomically(ResolveUserPath(out), text); !s.ok()) {
    return fail(std::string(s.message()));
  }
  std::cout << command << ": " << records.size() << " records read, " << kept << " written to "
            << out << "\n";
  return 0;
}

}  // namespace
}  // namespace qnnc::tools

int main(int argc, char** argv) { return qnnc::tools::Main(argc, argv); }
