// What kernels packed from their nodes' constant inputs (packed weights),
// as a binary plan saves it so that loading the plan packs nothing
// (runtime/binary_plan.h, PreparedKernel::packed_state, KernelRestorer).
#ifndef QNNC_RUNTIME_PACKED_STATE_H_
#define QNNC_RUNTIME_PACKED_STATE_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "tensor/tensor.h"

namespace qnnc::runtime {

// One kernel's state.
struct PackedState {
  // What the blobs are, as the kernel names it: a restoring kernel refuses
  // another packing.
  std::string packing;
  // The node's inputs (positions) the state stands for: a constant read
  // only at such positions need not be in the plan.
  std::vector<int> inputs;
  // Each saved at a multiple of 64 bytes; a loaded plan's are views of it.
  std::vector<tensor::Tensor> blobs;
};

// The states of a graph's kernels, and the constants whose bytes a loaded
// plan did not hold (only restored kernels may read them: the executor
// checks).
struct PackedStates {
  absl::flat_hash_map<const ir::Node*, PackedState> by_node;
  absl::flat_hash_set<const ir::Value*> absent;
};

// The constants `states` stand for wherever an op reads them, and no graph
// output: a plan need not hold their bytes, nor memory once the kernels
// are made.
absl::flat_hash_set<const ir::Value*> ConstantsHeldPacked(const ir::Graph& graph, const PackedStates& states);

// Ok when every constant of states.absent is held packed; otherwise an
// error naming an op that reads one's bytes, or the output it is.
absl::Status CheckAbsentConstants(const ir::Graph& graph, const PackedStates& states);

// The data of a constant whose bytes are not held: zero pages mapped and
// never touched, so it takes no memory (only kernels restored from packed
// states, which do not read it, are given it).
absl::StatusOr<tensor::Tensor> AbsentConstantData(const ir::TensorType& type);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_PACKED_STATE_H_
