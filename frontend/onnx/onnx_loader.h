// Reads, parses and validates an ONNX ModelProto before conversion.
#ifndef QNNC_FRONTEND_ONNX_ONNX_LOADER_H_
#define QNNC_FRONTEND_ONNX_ONNX_LOADER_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "onnx/onnx_pb.h"  // defines ONNX_API, includes onnx-ml.pb.h

namespace qnnc::frontend::onnx {

// Opsets of the default domain ("" or "ai.onnx") the importer accepts.
inline constexpr int kMinOpset = 10;
inline constexpr int kMaxOpset = 17;

struct LoadedModel {
  ::onnx::ModelProto model;
  int opset = 0;  // of the default domain
};

// Parses and validates: the bytes must be a ModelProto with a graph and a
// default-domain opset in [kMinOpset, kMaxOpset]; opsets of other domains
// are recorded but only matter if a node uses them.
absl::StatusOr<LoadedModel> LoadOnnxBytes(absl::string_view bytes);
// As LoadOnnxBytes; a missing file is NotFoundError.
absl::StatusOr<LoadedModel> LoadOnnxFile(const std::string& path);

// True for the default ONNX domain names.
bool IsDefaultDomain(absl::string_view domain);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_ONNX_LOADER_H_
