// Prints a graph in the text form of the IR (grammar: ir/text_parser.h and
// ir/TEXT_FORMAT.md). The output is deterministic and parses back with
// ParseGraph to a structurally equal graph that prints identically.
#ifndef QNNC_IR_TEXT_PRINTER_H_
#define QNNC_IR_TEXT_PRINTER_H_

#include <cstdint>
#include <string>

#include "ir/graph.h"

namespace qnnc::ir {

struct PrintOptions {
  // Constants with more elements are printed as hex"..." of their
  // little-endian bytes (so are constants holding a value the inline form
  // cannot spell exactly: a non-canonical NaN, a bool byte other than 0/1).
  int64_t max_inline_elements = 16;
};

std::string PrintGraph(const Graph& graph, const PrintOptions& options = {});

}  // namespace qnnc::ir

#endif  // QNNC_IR_TEXT_PRINTER_H_
