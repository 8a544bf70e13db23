#include "frontend/onnx/onnx_loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>

#include "absl/strings/str_cat.h"
#include "frontend/onnx/read_file.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {

bool IsDefaultDomain(absl::string_view domain) { return domain.empty() || domain == "ai.onnx"; }

namespace {

absl::Status CheckSize(size_t bytes) {
  if (bytes == 0) return absl::InvalidArgumentError("not a valid ONNX model: the input is empty");
  if (bytes > static_cast<size_t>(INT_MAX)) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a valid ONNX model: ", bytes, " bytes is over the 2 GiB protobuf limit"));
  }
  return absl::OkStatus();
}

absl::Status NotParsed(size_t bytes) {
  return absl::InvalidArgumentError(absl::StrCat(
      "not a valid ONNX model: ", bytes, " bytes do not parse as an onnx.ModelProto "
      "(truncated or not ONNX)"));
}

// The checks after parsing: a graph, and one supported default-domain opset.
absl::Status CheckParsed(LoadedModel& out) {
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
  return absl::OkStatus();
}

// A regular file is parsed as it is read, so that its bytes and the parsed
// model are not both in memory; anything else is read whole first.
absl::StatusOr<LoadedModel> LoadOpenFile(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return absl::UnimplementedError("not a regular file");
  const size_t bytes = static_cast<size_t>(st.st_size);
  RETURN_IF_ERROR(CheckSize(bytes));
  LoadedModel out;
  google::protobuf::io::FileInputStream stream(fd);
  if (!out.model.ParseFromZeroCopyStream(&stream)) return NotParsed(bytes);
  RETURN_IF_ERROR(CheckParsed(out));
  return out;
}

}  // namespace

absl::StatusOr<LoadedModel> LoadOnnxBytes(absl::string_view bytes) {
  RETURN_IF_ERROR(CheckSize(bytes.size()));
  LoadedModel out;
  if (!out.model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return NotParsed(bytes.size());
  }
  RETURN_IF_ERROR(CheckParsed(out));
  return out;
}

absl::StatusOr<LoadedModel> LoadOnnxFile(const std::string& path) {
  absl::StatusOr<LoadedModel> loaded = absl::UnimplementedError("");
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    loaded = LoadOpenFile(fd);
    close(fd);
  }
  if (absl::IsUnimplemented(loaded.status())) {
    ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
    loaded = LoadOnnxBytes(bytes);
  }
  if (!loaded.ok()) {
    return absl::Status(loaded.status().code(), absl::StrCat(path, ": ", loaded.status().message()));
  }
  return loaded;
}

}  // namespace qnnc::frontend::onnx
