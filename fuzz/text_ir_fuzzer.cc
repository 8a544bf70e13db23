// libFuzzer target: the text IR parser and printer. Whatever parses must
// print, parse back to a structurally equal graph, and print identically.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_check.h"
#include "ir/structural_equal.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  auto graph = qnnc::ir::ParseGraph(text, "fuzz.qnnir");
  if (!graph.ok()) return 0;
  const std::string printed = qnnc::ir::PrintGraph(**graph);
  auto reparsed = qnnc::ir::ParseGraph(printed, "printed.qnnir");
  FUZZ_CHECK(reparsed.ok(), absl::StrCat(reparsed.status().message(), "\n--- printed:\n", printed));
  const std::string diff = qnnc::ir::StructuralDiff(**graph, **reparsed);
  FUZZ_CHECK(diff.empty(), absl::StrCat(diff, "\n--- printed:\n", printed));
  const std::string reprinted = qnnc::ir::PrintGraph(**reparsed);
  FUZZ_CHECK(reprinted == printed,
             absl::StrCat("--- printed:\n", printed, "\n--- reprinted:\n", reprinted));
  return 0;
}
