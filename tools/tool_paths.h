// Paths for the tools under `bazel run`, which starts them in their runfiles
// tree: user paths are relative to where the user ran bazel
// (BUILD_WORKING_DIRECTORY), bundled data is found in the runfiles.
#ifndef QNNC_TOOLS_TOOL_PATHS_H_
#define QNNC_TOOLS_TOOL_PATHS_H_

#include <string>

namespace qnnc::tools {

// An absolute path, or a relative one taken from BUILD_WORKING_DIRECTORY
// when set (bazel run), else from the current directory.
std::string ResolveUserPath(const std::string& path);

// A file of the project bundled as data (e.g. testdata/models/x.onnx): found
// in the runfiles when run by bazel, else relative to the current directory.
std::string BundledPath(const std::string& workspace_relative);

}  // namespace qnnc::tools

#endif  // QNNC_TOOLS_TOOL_PATHS_H_
