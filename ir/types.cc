#include "ir/types.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qnnc::ir {

std::string TensorType::ToString() const {
  return absl::StrCat(tensor::DTypeName(dtype), "[", absl::StrJoin(shape, ","), "]");
}

}  // namespace qnnc::ir
