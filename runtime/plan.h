// The compiled plan file (//tools:compile --out writes it, --plan runs it):
// the text IR of the compiled graph, every op with its decision, config and
// layouts, under one header line naming the target it was compiled for:
//   # qnnc plan v1 target=x86_64+avx512vnni
// The IR parser skips the header as a comment, so a plan is also a text IR
// file. The target stays a string here (the runtime does not depend on
// //target); the caller parses it.
#ifndef QNNC_RUNTIME_PLAN_H_
#define QNNC_RUNTIME_PLAN_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/graph.h"

namespace qnnc::runtime {

inline constexpr char kPlanHeader[] = "# qnnc plan v1 target=";

// The plan text of `graph` compiled for `target` (a target's ToString()).
std::string PlanText(const ir::Graph& graph, absl::string_view target);

// The target named by a plan's first line (CRLF line ends too); an error
// names `path` when the line is not a plan header.
absl::StatusOr<std::string> ParsePlanHeader(absl::string_view first_line, absl::string_view path);

// The target of the plan file at `path`: reads its first line only.
absl::StatusOr<std::string> ReadPlanTarget(const std::string& path);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_PLAN_H_
