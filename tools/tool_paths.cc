#include "tools/tool_paths.h"

#include <cstdlib>
#include <filesystem>

namespace qnnc::tools {

std::string ResolveUserPath(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  const char* wd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (wd == nullptr || *wd == '\0') return path;
  return std::string(wd) + "/" + path;
}

std::string BundledPath(const std::string& workspace_relative) {
  // bazel run / bazel test: the runfiles tree of the main repository.
  for (const char* var : {"RUNFILES_DIR", "TEST_SRCDIR"}) {
    const char* dir = std::getenv(var);
    if (dir == nullptr) continue;
    std::string p = std::string(dir) + "/qnnc/" + workspace_relative;
    if (std::filesystem::exists(p)) return p;
  }
  if (std::filesystem::exists(workspace_relative)) return workspace_relative;
  // A binary run directly from bazel-bin: its runfiles are beside it.
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    std::string p = self.string() + ".runfiles/qnnc/" + workspace_relative;
    if (std::filesystem::exists(p)) return p;
  }
  return workspace_relative;
}

}  // namespace qnnc::tools
