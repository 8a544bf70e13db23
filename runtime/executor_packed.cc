// The executor's kernels' packed states (runtime/packed_state.h): for a
// binary plan, and holding the weights once (packed) after binding.
#include "runtime/executor.h"
#include "util/status_macros.h"

namespace qnnc::runtime {

PackedStates Executor::packed_states() const {
  PackedStates out;
  out.absent = absent_;
  for (const Step& step : steps_) {
    if (!step.kernel) continue;
    if (std::optional<PackedState> state = step.kernel->packed_state()) {
      out.by_node.emplace(step.node, *std::move(state));
    }
  }
  return out;
}

absl::Status Executor::ReleasePackedConstants() {
  const absl::flat_hash_set<const ir::Value*> held = ConstantsHeldPacked(*graph_, packed_states());
  const std::vector<ir::Value*> constants = graph_->constants();
  for (size_t i = 0; i < constants.size(); ++i) {
    ir::Value* c = constants[i];
    if (!held.count(c) || absent_.count(c)) continue;
    ASSIGN_OR_RETURN(constant_slots_[input_slots_.size() + i], AbsentConstantData(*c->type()));
    graph_->ReleaseConstantData(c);
    absent_.insert(c);
  }
  return absl::OkStatus();
}

absl::Status Executor::ReleaseConstantsPackedBy(const Step& step, const PackedState& packed,
                                                const std::vector<int>& readers) {
  for (int i : packed.inputs) {
    const int s = step.inputs[i];
    ir::Value* v = step.node->input(i);
    if (!v->is_constant() || readers[s] != 1 || absent_.count(v)) continue;
    ASSIGN_OR_RETURN(constant_slots_[s], AbsentConstantData(*v->type()));
    graph_->ReleaseConstantData(v);
    absent_.insert(v);
  }
  return absl::OkStatus();
}

}  // namespace qnnc::runtime
