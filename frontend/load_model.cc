#include "frontend/load_model.h"

#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "frontend/onnx/import.h"
#include "ir/infer_types.h"
#include "ir/text_parser.h"
#include "passes/fold_constant.h"
#include "util/status_macros.h"

namespace qnnc::frontend {

bool IsOnnxModel(const std::string& path) { return absl::EndsWith(path, ".onnx"); }

absl::StatusOr<std::unique_ptr<ir::Graph>> LoadModel(const std::string& path, int64_t max_bytes,
                                                     bool clean_up) {
  if (IsOnnxModel(path)) {
    onnx::ImportOptions options;
    options.max_bytes = max_bytes;
    options.clean_up = clean_up;
    return onnx::ImportOnnxFile(path, options);
  }
  return LoadTextModel(path, max_bytes);
}

absl::StatusOr<std::unique_ptr<ir::Graph>> LoadTextModel(const std::string& path,
                                                         int64_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open '", path, "'"));
  std::ostringstream text;
  text << in.rdbuf();
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Graph> graph, ir::ParseGraph(text.str(), path));
  RETURN_IF_ERROR(ir::InferTypes(*graph));
  absl::Status size = passes::CheckConstantBytes(*graph, max_bytes);
  if (!size.ok()) return absl::Status(size.code(), absl::StrCat(path, ": ", size.message()));
  return graph;
}

}  // namespace qnnc::frontend
