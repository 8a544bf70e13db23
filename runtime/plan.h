// The compiled plan file (//tools:compile --out writes it, --plan runs it):
// the compiled graph, every op with its decision, config and layouts, and
// the target it was compiled for, in one of two formats:
// - binary (the default; runtime/binary_plan.h): a FlatBuffer and the
//   constants' bytes, mapped at load and used in place;
// - text: the text IR under one header line naming the target,
//     # qnnc plan v1 target=x86_64+avx512vnni
//   which the IR parser skips as a comment, so a text plan is also a text
//   IR file (for `opt`, tests and reading).
// Readers tell the formats apart by the first bytes. The target stays a
// string here (the runtime does not depend on //target); the caller parses
// it.
#ifndef QNNC_RUNTIME_PLAN_H_
#define QNNC_RUNTIME_PLAN_H_

#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/graph.h"
#include "runtime/packed_state.h"

namespace qnnc::runtime {

inline constexpr char kPlanHeader[] = "# qnnc plan v1 target=";

enum class PlanFormat { kBinary, kText };
// "binary" or "text"; an error lists both.
absl::StatusOr<PlanFormat> ParsePlanFormat(absl::string_view name);

// The plan file's bytes in `format`; a binary plan holds the kernels'
// packed `states` (runtime::Executor::packed_states()). A text plan holds
// every constant's bytes: an error for a graph whose constants are held
// packed only (loaded from a binary plan).
absl::StatusOr<std::string> PlanBytes(const ir::Graph& graph, absl::string_view target,
                                      PlanFormat format, const PackedStates& states = {});
// The same, written to `out` (a binary plan as it goes: WriteBinaryPlan).
absl::Status WritePlan(std::ostream& out, const ir::Graph& graph, absl::string_view target,
                       PlanFormat format, const PackedStates& states = {});

// The plan text of `graph` compiled for `target` (a target's ToString()).
std::string PlanText(const ir::Graph& graph, absl::string_view target);

// The target named by a plan's first line (CRLF line ends too); an error
// names `path` when the line is not a plan header.
absl::StatusOr<std::string> ParsePlanHeader(absl::string_view first_line, absl::string_view path);

// The target of the plan file at `path`, in either format: reads a text
// plan's first line, a binary plan's header and graph section.
absl::StatusOr<std::string> ReadPlanTarget(const std::string& path);

// Whether the file at `path` is a binary plan (false when it cannot be read).
bool IsBinaryPlanFile(const std::string& path);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_PLAN_H_
