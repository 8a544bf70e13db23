#include "ir/builder.h"

#include "ir/infer_types.h"
#include "util/status_macros.h"

namespace qnnc::ir {

absl::StatusOr<std::unique_ptr<Graph>> Builder::Finish() {
  if (external_ != nullptr) {
    return absl::FailedPreconditionError("Finish() on a builder of an external graph");
  }
  graph_->SetOutputs(outputs_);
  RETURN_IF_ERROR(InferTypes(*graph_));
  return std::move(graph_);
}

}  // namespace qnnc::ir
