// InferTypes: gives every value of a graph its type through the op registry.
#ifndef QNNC_IR_INFER_TYPES_H_
#define QNNC_IR_INFER_TYPES_H_

#include "absl/status/status.h"
#include "ir/graph.h"

namespace qnnc::ir {

// Sets the type of every op result. A result that already has a type (from
// the text form or a builder) must agree with the inferred one. Errors name
// the op and node.
absl::Status InferTypes(Graph& graph);

}  // namespace qnnc::ir

#endif  // QNNC_IR_INFER_TYPES_H_
