#include "runtime/packed_state.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "util/status_macros.h"

namespace qnnc::runtime {
namespace {

bool StandsFor(const PackedStates& states, const ir::Node* n, size_t input) {
  auto state = states.by_node.find(n);
  return state != states.by_node.end() &&
         std::count(state->second.inputs.begin(), state->second.inputs.end(), static_cast<int>(input)) > 0;
}

}  // namespace

absl::flat_hash_set<const ir::Value*> ConstantsHeldPacked(const ir::Graph& graph, const PackedStates& states) {
  absl::flat_hash_map<const ir::Value*, bool> held;  // false once something needs the bytes
  for (const ir::Value* v : graph.constants()) held[v] = false;
  absl::flat_hash_set<const ir::Value*> needed(graph.outputs().begin(), graph.outputs().end());
  for (const ir::Node* n : graph.nodes()) {
    for (size_t i = 0; i < n->inputs().size(); ++i) {
      const ir::Value* v = n->input(i);
      if (!held.count(v)) continue;
      if (StandsFor(states, n, i)) {
        held[v] = true;
      } else {
        needed.insert(v);
      }
    }
  }
  absl::flat_hash_set<const ir::Value*> out;
  for (const auto& [v, read_packed] : held) {
    if (read_packed && !needed.count(v)) out.insert(v);
  }
  return out;
}

absl::Status CheckAbsentConstants(const ir::Graph& graph, const PackedStates& states) {
  if (states.absent.empty()) return absl::OkStatus();
  for (const ir::Value* v : graph.outputs()) {
    if (states.absent.count(v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("constant %", v->name(), " is a graph output, but only its packed form is held"));
    }
  }
  for (const ir::Node* n : graph.nodes()) {
    for (size_t i = 0; i < n->inputs().size(); ++i) {
      if (states.absent.count(n->input(i)) && !StandsFor(states, n, i)) {
        return absl::InvalidArgumentError(absl::StrCat(n->Describe(), " reads constant %", n->input(i)->name(),
                                                       ", which is held only packed, for another op's kernel"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<tensor::Tensor> AbsentConstantData(const ir::TensorType& type) {
  ASSIGN_OR_RETURN(const int64_t bytes, tensor::ByteSize(type.shape, type.dtype));
  const size_t size = static_cast<size_t>(tensor::Tensor::StorageBytes(bytes));
  void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    return absl::ResourceExhaustedError(absl::StrCat("cannot map ", size, " bytes: ", std::strerror(errno)));
  }
  std::shared_ptr<uint8_t> storage(static_cast<uint8_t*>(map), [size](uint8_t* p) { munmap(p, size); });
  ASSIGN_OR_RETURN(tensor::Tensor base, tensor::Tensor::Wrap(std::move(storage), bytes, /*file_mapped=*/false));
  // The padding is zero already (and read-only).
  return tensor::Tensor::View(base, 0, type.dtype, type.shape, /*zero_padding=*/false);
}

}  // namespace qnnc::runtime
