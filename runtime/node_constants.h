// Reading a node's constant inputs in the kernel factories. Not a public API.
#ifndef QNNC_RUNTIME_NODE_CONSTANTS_H_
#define QNNC_RUNTIME_NODE_CONSTANTS_H_

#include "ir/graph.h"

namespace qnnc::runtime {

// The value of input `i` when it is a constant of one element, else false.
inline bool ConstantScalar(const ir::Node& n, int i, double* v) {
  const ir::Value* x = n.input(i);
  if (!x->is_constant() || x->data().num_elements() != 1) return false;
  *v = x->data().GetAsDouble(0);
  return true;
}

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_NODE_CONSTANTS_H_
