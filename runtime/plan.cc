#include "runtime/plan.h"

#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "ir/text_printer.h"
#include "runtime/binary_plan.h"
#include "util/status_macros.h"

namespace qnnc::runtime {

absl::StatusOr<PlanFormat> ParsePlanFormat(absl::string_view name) {
  if (name == "binary") return PlanFormat::kBinary;
  if (name == "text") return PlanFormat::kText;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown plan format '", name, "' (valid: binary, text)"));
}

absl::Status WritePlan(std::ostream& out, const ir::Graph& graph, absl::string_view target,
                       PlanFormat format, const PackedStates& states) {
  if (format == PlanFormat::kBinary) return WriteBinaryPlan(graph, target, states, out);
  if (!states.absent.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a text plan holds every constant's bytes, but this plan holds ", states.absent.size(),
        " only packed for its kernels (compile the model to write a text plan)"));
  }
  out << PlanText(graph, target);
  if (!out) return absl::DataLossError("the plan could not be written in full");
  return absl::OkStatus();
}

absl::StatusOr<std::string> PlanBytes(const ir::Graph& graph, absl::string_view target,
                                      PlanFormat format, const PackedStates& states) {
  std::ostringstream out;
  RETURN_IF_ERROR(WritePlan(out, graph, target, format, states));
  return std::move(out).str();
}

bool IsBinaryPlanFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  return in.read(magic, sizeof(magic)) && IsBinaryPlan(absl::string_view(magic, sizeof(magic)));
}

std::string PlanText(const ir::Graph& graph, absl::string_view target) {
  return absl::StrCat(kPlanHeader, target, "\n", ir::PrintGraph(graph));
}

absl::StatusOr<std::string> ParsePlanHeader(absl::string_view first_line, absl::string_view path) {
  absl::string_view line = absl::StripTrailingAsciiWhitespace(first_line);
  if (!absl::ConsumePrefix(&line, kPlanHeader)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", path, "' is not a qnnc plan (its first line should start with '", kPlanHeader,
        "'; write plans with --out)"));
  }
  if (line.empty()) return absl::InvalidArgumentError(absl::StrCat("'", path, "' line 1: no target"));
  return std::string(line);
}

absl::StatusOr<std::string> ReadPlanTarget(const std::string& path) {
  if (IsBinaryPlanFile(path)) return ReadBinaryPlanTarget(path);
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open '", path, "'"));
  std::string first;
  std::getline(in, first);
  return ParsePlanHeader(first, path);
}

}  // namespace qnnc::runtime
