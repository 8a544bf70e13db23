#include "kernels/xnnpack/common.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace qnnc::kernels::xnnpack {

const char* VariantName(Variant variant) {
  switch (variant) {
    case Variant::kQu8: return "qu8";
    case Variant::kQs8: return "qs8";
    case Variant::kQc8: return "qc8";
  }
  return "unknown";
}

tensor::DType DataType(Variant variant) {
  return variant == Variant::kQu8 ? tensor::DType::kU8 : tensor::DType::kI8;
}

absl::Status CheckScale(absl::string_view what, float scale) {
  if (scale > 0.0f && std::isnormal(scale)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, " must be positive, finite and normal, got ", scale));
}

absl::Status InitializeXnnpack() {
  static const xnn_status status = xnn_initialize(/*allocator=*/nullptr);
  return FromXnnStatus(status, "xnn_initialize");
}

const char* StatusName(xnn_status status) {
  switch (status) {
    case xnn_status_success: return "xnn_status_success";
    case xnn_status_uninitialized: return "xnn_status_uninitialized";
    case xnn_status_invalid_parameter: return "xnn_status_invalid_parameter";
    case xnn_status_invalid_state: return "xnn_status_invalid_state";
    case xnn_status_unsupported_parameter: return "xnn_status_unsupported_parameter";
    case xnn_status_unsupported_hardware: return "xnn_status_unsupported_hardware";
    case xnn_status_out_of_memory: return "xnn_status_out_of_memory";
  }
  return "xnn_status_unknown";
}

absl::Status FromXnnStatus(xnn_status status, absl::string_view operation) {
  if (status == xnn_status_success) return absl::OkStatus();
  std::string message = absl::StrCat(operation, " failed: ", StatusName(status), " (",
                                     static_cast<int>(status), ")");
  switch (status) {
    case xnn_status_invalid_parameter: return absl::InvalidArgumentError(message);
    case xnn_status_unsupported_parameter:
    case xnn_status_unsupported_hardware: return absl::UnimplementedError(message);
    case xnn_status_out_of_memory: return absl::ResourceExhaustedError(message);
    default: return absl::InternalError(message);
  }
}

}  // namespace qnnc::kernels::xnnpack
