// The helpers the reference kernels of every op family share (declared in
// eval/kernel_table.h).
#include "eval/kernel_table.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "util/status_macros.h"

namespace qnnc::eval::internal {

absl::StatusOr<tensor::DType> DTypeAttr(const ir::Node& n, const char* name, tensor::DType dflt) {
  ASSIGN_OR_RETURN(std::string s, n.attrs().GetString(name, tensor::DTypeName(dflt)));
  return tensor::ParseDType(s);
}

absl::Status ExpectLayout(const char* attr, const ir::Layout& got, const ir::Layout& layout) {
  if (got != layout) {
    return absl::UnimplementedError(
        absl::StrCat("the reference kernel needs ", attr, " ", layout.str(), ", got ", got.str()));
  }
  return absl::OkStatus();
}

}  // namespace qnnc::eval::internal
