// Reading and writing tensors as files: raw little-endian data, NumPy .npy
// and ONNX TensorProto .pb (chosen by extension). Writes go to a temporary
// name and are renamed, so an interrupted run never leaves a partial file.
#ifndef QNNC_IO_TENSOR_FILES_H_
#define QNNC_IO_TENSOR_FILES_H_

#include <functional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/types.h"
#include "tensor/tensor.h"

namespace qnnc::io {

// Reads `path` as a tensor of type `expected`: raw files must have exactly
// its byte size; .npy and .pb files must match its dtype and element count
// (a differing shape of the same size is accepted and reshaped). f32 data is
// accepted for an f32 input only. Errors name the file and what is wrong.
absl::StatusOr<tensor::Tensor> ReadTensorFile(const std::string& path,
                                              const ir::TensorType& expected);

enum class TensorFileFormat { kRaw, kNpy, kTensorProto };
// By extension: .npy, .pb, anything else raw.
TensorFileFormat TensorFileFormatOf(const std::string& path);

// ReadTensorFile on bytes already read; `what` names the source in errors.
absl::StatusOr<tensor::Tensor> ParseTensorBytes(absl::string_view bytes, TensorFileFormat format,
                                                const ir::TensorType& expected,
                                                const std::string& what);

// Parses .npy bytes (versions 1-3, little-endian, C order). `what` names the
// source in errors.
absl::StatusOr<tensor::Tensor> ParseNpy(absl::string_view bytes, absl::string_view what);
std::string SerializeNpy(const tensor::Tensor& t);

// Writes `t` to `path`: .npy by extension, raw bytes otherwise.
absl::Status WriteTensorFile(const std::string& path, const tensor::Tensor& t);

// Writes `contents` to `path` atomically (temporary file + rename).
absl::Status WriteFileAtomically(const std::string& path, absl::string_view contents);
// As above, what `write` writes to the stream it is given (a large file
// need not be held in memory); its error, or a failed stream, leaves no
// file.
absl::Status WriteFileAtomically(const std::string& path,
                                 const std::function<absl::Status(std::ostream&)>& write);
absl::StatusOr<std::string> ReadFileToString(const std::string& path);

}  // namespace qnnc::io

#endif  // QNNC_IO_TENSOR_FILES_H_
