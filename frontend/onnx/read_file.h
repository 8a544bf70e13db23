// Reads a whole file: NotFoundError when it does not exist.
#ifndef QNNC_FRONTEND_ONNX_READ_FILE_H_
#define QNNC_FRONTEND_ONNX_READ_FILE_H_

#include <string>

#include "absl/status/statusor.h"

namespace qnnc::frontend::onnx {

absl::StatusOr<std::string> ReadFile(const std::string& path);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_READ_FILE_H_
