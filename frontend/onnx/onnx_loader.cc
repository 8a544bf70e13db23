#include "frontend/onnx/onnx_loader.h"

#include <climits>

#include "absl/strings/str_cat.h"
#include "frontend/onnx/read_file.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {

bool IsDefaultDomain(absl::string_view domain) { return domain.empty() || domain == "ai.onnx"; }

absl::StatusOr<LoadedModel> LoadOnnxBytes(absl::string_view bytes) {
  LoadedModel out;
  if (bytes.empty()) return absl::InvalidArgumentError("not a valid ONNX model: the input is empty");
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a valid ONNX model: ", bytes.size(), " bytes is over the 2 GiB protobuf limit"));
  }
  if (!out.model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "not a valid ONNX model: ", bytes.size(), " bytes do not parse as an onnx.ModelProto "
        "(truncated or not ONNX)"));
  }
  if (!out.model.has_graph()) {
    return absl::InvalidArgumentError("not a valid ONNX model: the ModelProto has no graph");
  }
  bool found = false;
  for (const auto& opset : out.model.opset_import()) {
    if (!IsDefaultDomain(opset.domain())) continue;
    if (found && opset.version() != out.opset) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the model imports the default ONNX domain twice (opsets ", out.opset, " and ",
          opset.version(), ")"));
    }
    found = true;
    if (opset.version() < kMinOpset || opset.version() > kMaxOpset) {
      return absl::InvalidArgumentError(absl::StrCat("ONNX opset ", opset.version(),
                                                     " is not supported (supported: ", kMinOpset,
                                                     " to ", kMaxOpset, ")"));
    }
    out.opset = static_cast<int>(opset.version());
  }
  if (!found) {
    return absl::InvalidArgumentError(
        "not a valid ONNX model: no opset_import for the default ONNX domain");
  }
  return out;
}

absl::StatusOr<LoadedModel> LoadOnnxFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  auto loaded = LoadOnnxBytes(bytes);
  if (!loaded.ok()) {
    return absl::Status(loaded.status().code(), absl::StrCat(path, ": ", loaded.status().message()));
  }
  return loaded;
}

}  // namespace qnnc::frontend::onnx
