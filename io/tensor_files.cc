#include "io/tensor_files.h"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "frontend/onnx/tensor_convert.h"
#include "re2/re2.h"
#include "util/status_macros.h"

namespace qnnc::io {
namespace {

using tensor::DType;

const char kMagic[] = "\x93NUMPY";

absl::StatusOr<DType> NpyDType(const std::string& descr, absl::string_view what) {
  static const std::pair<const char*, DType> kMap[] = {
      {"|u1", DType::kU8},  {"|i1", DType::kI8},  {"<u2", DType::kU16}, {"<i2", DType::kI16},
      {"<i4", DType::kI32}, {"<i8", DType::kI64}, {"<f2", DType::kF16}, {"<f4", DType::kF32},
      {"|b1", DType::kBool}, {"u1", DType::kU8}, {"i1", DType::kI8}, {"b1", DType::kBool}};
  for (const auto& [name, dtype] : kMap) {
    if (descr == name) return dtype;
  }
  return absl::InvalidArgumentError(
      absl::StrCat(what, ": unsupported .npy dtype '", descr, "'"));
}

const char* NpyDescr(DType d) {
  switch (d) {
    case DType::kU8: return "|u1";
    case DType::kI8: return "|i1";
    case DType::kU16: return "<u2";
    case DType::kI16: return "<i2";
    case DType::kI32: return "<i4";
    case DType::kI64: return "<i8";
    case DType::kF16: return "<f2";
    case DType::kF32: return "<f4";
    case DType::kBool: return "|b1";
  }
  return "";
}

absl::StatusOr<tensor::Tensor> Conform(tensor::Tensor t, const ir::TensorType& expected,
                                       const std::string& path) {
  if (t.dtype() != expected.dtype) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": holds ", tensor::DTypeName(t.dtype()),
                                                   " data, the input needs ",
                                                   expected.ToString()));
  }
  if (t.shape() == expected.shape) return t;
  auto reshaped = t.Reshaped(expected.shape);
  if (!reshaped.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": holds shape [",
                                                   absl::StrJoin(t.shape(), ","),
                                                   "], the input needs ", expected.ToString()));
  }
  return reshaped;
}

}  // namespace

absl::StatusOr<std::string> ReadFileToString(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read '", path, "'"));
  return ss.str();
}

absl::Status WriteFileAtomically(const std::string& path, absl::string_view contents) {
  return WriteFileAtomically(path, [contents](std::ostream& out) {
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    return absl::OkStatus();
  });
}

absl::Status WriteFileAtomically(const std::string& path,
                                 const std::function<absl::Status(std::ostream&)>& write) {
  std::string tmp = absl::StrCat(path, ".tmp.", getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
    }
    absl::Status written = write(out);
    out.close();
    if (!written.ok() || !out) {
      std::remove(tmp.c_str());
      return written.ok() ? absl::DataLossError(absl::StrCat("cannot write '", path, "'")) : written;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return absl::PermissionDeniedError(
        absl::StrCat("cannot rename onto '", path, "': ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

absl::StatusOr<tensor::Tensor> ParseNpy(absl::string_view bytes, absl::string_view what) {
  if (bytes.size() < 10 || !absl::StartsWith(bytes, absl::string_view(kMagic, 6))) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": not a .npy file (bad magic)"));
  }
  int major = static_cast<uint8_t>(bytes[6]);
  size_t header_len, offset;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return absl::InvalidArgumentError(absl::StrCat(what, ": truncated .npy header"));
    header_len = 0;
    for (int i = 3; i >= 0; --i) header_len = (header_len << 8) | static_cast<uint8_t>(bytes[8 + i]);
    offset = 12;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(what, ": unsupported .npy version ", major));
  }
  if (header_len > bytes.size() - offset) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": .npy header longer than the file"));
  }
  std::string header(bytes.substr(offset, header_len));
  std::string descr, fortran, shape_text;
  static const RE2 kDescr(R"('descr'\s*:\s*'([^']*)')");
  static const RE2 kFortran(R"('fortran_order'\s*:\s*(True|False))");
  static const RE2 kShape(R"('shape'\s*:\s*\(([^)]*)\))");
  if (!RE2::PartialMatch(header, kDescr, &descr) || !RE2::PartialMatch(header, kFortran, &fortran) ||
      !RE2::PartialMatch(header, kShape, &shape_text)) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": malformed .npy header: ", header));
  }
  if (fortran == "True") {
    return absl::InvalidArgumentError(absl::StrCat(what, ": Fortran-order .npy is not supported"));
  }
  ASSIGN_OR_RETURN(DType dtype, NpyDType(descr, what));
  tensor::Shape shape;
  for (absl::string_view part : absl::StrSplit(shape_text, ',', absl::SkipWhitespace())) {
    int64_t d;
    if (!absl::SimpleAtoi(part, &d)) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": bad .npy shape (", shape_text, ")"));
    }
    shape.push_back(d);
  }
  // The size is checked before anything is allocated: a header can claim
  // any shape.
  auto want = tensor::ByteSize(shape, dtype);
  if (!want.ok()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", want.status().message()));
  size_t data_offset = offset + header_len;
  if (bytes.size() - data_offset != static_cast<size_t>(*want)) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": .npy header says ", *want,
                                                   " bytes of data, the file has ",
                                                   bytes.size() - data_offset));
  }
  auto t = tensor::Tensor::Create(dtype, shape);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", t.status().message()));
  if (t->byte_size() > 0) std::memcpy(t->raw_data(), bytes.data() + data_offset, t->byte_size());
  return t;
}

std::string SerializeNpy(const tensor::Tensor& t) {
  std::string shape;
  for (int64_t d : t.shape()) absl::StrAppend(&shape, d, ",");
  if (t.rank() > 1) shape.pop_back();
  std::string header = absl::StrCat("{'descr': '", NpyDescr(t.dtype()),
                                    "', 'fortran_order': False, 'shape': (", shape, "), }");
  // Pad with spaces so the data starts at a multiple of 64, then a newline.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out(kMagic, 6);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out += header;
  out.append(static_cast<const char*>(t.raw_data()), t.byte_size());
  return out;
}

absl::StatusOr<tensor::Tensor> ParseTensorBytes(absl::string_view bytes, TensorFileFormat format,
                                                const ir::TensorType& expected,
                                                const std::string& what) {
  if (format == TensorFileFormat::kNpy) {
    ASSIGN_OR_RETURN(tensor::Tensor t, ParseNpy(bytes, what));
    return Conform(std::move(t), expected, what);
  }
  if (format == TensorFileFormat::kTensorProto) {
    ::onnx::TensorProto proto;
    if (bytes.size() > static_cast<size_t>(INT_MAX) ||
        !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": not a valid ONNX TensorProto"));
    }
    auto t = frontend::onnx::TensorFromProto(proto);
    if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", t.status().message()));
    return Conform(*std::move(t), expected, what);
  }
  auto n = tensor::NumElements(expected.shape, expected.dtype);
  if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", n.status().message()));
  const size_t want = static_cast<size_t>(*n) * tensor::DTypeSize(expected.dtype);
  if (bytes.size() != want) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": has ", bytes.size(),
                                                   " bytes, the input ", expected.ToString(),
                                                   " needs ", want));
  }
  ASSIGN_OR_RETURN(tensor::Tensor t, tensor::Tensor::Create(expected.dtype, expected.shape));
  if (!bytes.empty()) std::memcpy(t.raw_data(), bytes.data(), bytes.size());
  return t;
}

TensorFileFormat TensorFileFormatOf(const std::string& path) {
  if (absl::EndsWith(path, ".npy")) return TensorFileFormat::kNpy;
  if (absl::EndsWith(path, ".pb")) return TensorFileFormat::kTensorProto;
  return TensorFileFormat::kRaw;
}

absl::StatusOr<tensor::Tensor> ReadTensorFile(const std::string& path,
                                              const ir::TensorType& expected) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path));
  return ParseTensorBytes(bytes, TensorFileFormatOf(path), expected, path);
}

absl::Status WriteTensorFile(const std::string& path, const tensor::Tensor& t) {
  if (absl::EndsWith(path, ".npy")) return WriteFileAtomically(path, SerializeNpy(t));
  return WriteFileAtomically(
      path, absl::string_view(static_cast<const char*>(t.raw_data()), t.byte_size()));
}

}  // namespace qnnc::io
