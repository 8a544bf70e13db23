#include "tools/isa_cap.h"

#include "absl/strings/str_cat.h"
#include "kernels/cpu/isa.h"

namespace qnnc::tools {

absl::Status ApplyIsaFlag(const std::string& flag) {
  if (flag.empty()) return kernels::cpu::CheckIsaEnvironment();
  auto level = kernels::cpu::ParseIsaLevel(flag);
  if (!level.ok()) return absl::InvalidArgumentError(absl::StrCat("--isa: ", level.status().message()));
  kernels::cpu::SetIsaCap(*level);
  return absl::OkStatus();
}

}  // namespace qnnc::tools
