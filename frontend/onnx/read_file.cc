#include "frontend/onnx/read_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace qnnc::frontend::onnx {

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::string why = std::strerror(errno);
    if (errno == ENOENT) return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", why));
    return absl::InvalidArgumentError(absl::StrCat("cannot open '", path, "': ", why));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return absl::InvalidArgumentError(absl::StrCat("error reading '", path, "'"));
  return buffer.str();
}

}  // namespace qnnc::frontend::onnx
