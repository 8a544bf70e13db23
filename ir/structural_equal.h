// Structural equality of graphs, for golden tests: same inputs (by position
// and type), same ops with equal attributes, equal constants and the same
// dataflow into the outputs. Value names, node names and node order do not
// matter.
#ifndef QNNC_IR_STRUCTURAL_EQUAL_H_
#define QNNC_IR_STRUCTURAL_EQUAL_H_

#include <string>

#include "ir/graph.h"

namespace qnnc::ir {

// Empty when equal; otherwise where the graphs first differ.
std::string StructuralDiff(const Graph& a, const Graph& b);
inline bool StructuralEqual(const Graph& a, const Graph& b) { return StructuralDiff(a, b).empty(); }

}  // namespace qnnc::ir

#endif  // QNNC_IR_STRUCTURAL_EQUAL_H_
