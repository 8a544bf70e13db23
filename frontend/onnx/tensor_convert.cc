#include "frontend/onnx/tensor_convert.h"

#include <climits>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "frontend/onnx/read_file.h"
#include "util/status_macros.h"

namespace qnnc::frontend::onnx {
namespace {

using ::onnx::TensorProto;
using tensor::DType;

// Copies a typed repeated field into the tensor, narrowing each value.
template <typename T, typename Field>
void CopyTyped(const Field& field, tensor::Tensor& out) {
  T* dst = out.data<T>();
  for (int i = 0; i < field.size(); ++i) dst[i] = static_cast<T>(field.Get(i));
}

absl::Status SizeMismatch(const TensorProto& p, const char* field, int64_t got, int64_t want) {
  return absl::InvalidArgumentError(absl::StrCat(
      "tensor '", p.name(), "' of dims [", absl::StrJoin(p.dims(), ","), "] needs ", want,
      field == std::string("raw_data") ? " bytes" : " values", " but ", field, " has ", got));
}

}  // namespace

absl::StatusOr<DType> DTypeFromOnnx(int t) {
  switch (t) {
    case TensorProto::FLOAT: return DType::kF32;
    case TensorProto::UINT8: return DType::kU8;
    case TensorProto::INT8: return DType::kI8;
    case TensorProto::UINT16: return DType::kU16;
    case TensorProto::INT16: return DType::kI16;
    case TensorProto::INT32: return DType::kI32;
    case TensorProto::INT64: return DType::kI64;
    case TensorProto::BOOL: return DType::kBool;
    case TensorProto::FLOAT16: return DType::kF16;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("ONNX data type ", OnnxTypeName(t), " is not supported"));
  }
}

int OnnxFromDType(DType d) {
  switch (d) {
    case DType::kF32: return TensorProto::FLOAT;
    case DType::kU8: return TensorProto::UINT8;
    case DType::kI8: return TensorProto::INT8;
    case DType::kU16: return TensorProto::UINT16;
    case DType::kI16: return TensorProto::INT16;
    case DType::kI32: return TensorProto::INT32;
    case DType::kI64: return TensorProto::INT64;
    case DType::kBool: return TensorProto::BOOL;
    case DType::kF16: return TensorProto::FLOAT16;
  }
  return TensorProto::UNDEFINED;
}

std::string OnnxTypeName(int t) {
  if (TensorProto::DataType_IsValid(t)) {
    return TensorProto::DataType_Name(static_cast<TensorProto::DataType>(t));
  }
  return absl::StrCat("type ", t);
}

absl::StatusOr<tensor::Tensor> TensorFromProto(const TensorProto& p) {
  auto where = [&] { return absl::StrCat("tensor '", p.name(), "': "); };
  if (p.data_location() == TensorProto::EXTERNAL || p.external_data_size() > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(where(), "external data is not supported (store the data in the model)"));
  }
  if (p.has_segment()) return absl::InvalidArgumentError(absl::StrCat(where(), "segments are not supported"));
  auto dtype = DTypeFromOnnx(p.data_type());
  if (!dtype.ok()) return absl::InvalidArgumentError(absl::StrCat(where(), dtype.status().message()));
  tensor::Shape shape(p.dims().begin(), p.dims().end());
  // The data must be there before anything is allocated: a few bytes of
  // protobuf can declare a tensor of terabytes.
  auto num = tensor::NumElements(shape, *dtype);
  if (!num.ok()) return absl::InvalidArgumentError(absl::StrCat(where(), num.status().message()));
  const int64_t n = *num;
  const int64_t bytes = n * static_cast<int64_t>(tensor::DTypeSize(*dtype));
  auto check = [&](const char* field, int size) -> absl::Status {
    if (size != n) return SizeMismatch(p, field, size, n);
    return absl::OkStatus();
  };
  if (p.has_raw_data()) {
    if (static_cast<int64_t>(p.raw_data().size()) != bytes) {
      return SizeMismatch(p, "raw_data", p.raw_data().size(), bytes);
    }
  } else if (*dtype == DType::kF32) {
    RETURN_IF_ERROR(check("float_data", p.float_data_size()));
  } else if (*dtype == DType::kI64) {
    RETURN_IF_ERROR(check("int64_data", p.int64_data_size()));
  } else {
    RETURN_IF_ERROR(check("int32_data", p.int32_data_size()));
    // Narrower types live in int32_data: a value out of their range would
    // silently wrap (a uint8 zero point of 300 becoming 44).
    if (*dtype != DType::kI32 && *dtype != DType::kBool) {
      const int64_t lo = *dtype == DType::kU8 || *dtype == DType::kU16 || *dtype == DType::kF16 ? 0
                         : *dtype == DType::kI8                                               ? -128
                                                                                              : -32768;
      const int64_t hi = *dtype == DType::kU8 ? 255 : *dtype == DType::kI8 ? 127
                         : *dtype == DType::kI16 ? 32767 : 65535;
      for (int i = 0; i < p.int32_data_size(); ++i) {
        if (p.int32_data(i) < lo || p.int32_data(i) > hi) {
          return absl::InvalidArgumentError(absl::StrCat(
              where(), "int32_data[", i, "] = ", p.int32_data(i), " does not fit ",
              OnnxTypeName(p.data_type()), " (", lo, "..", hi, ")"));
        }
      }
    }
  }
  auto created = tensor::Tensor::Create(*dtype, shape);
  if (!created.ok()) return absl::InvalidArgumentError(absl::StrCat(where(), created.status().message()));
  tensor::Tensor out = *std::move(created);
  if (p.has_raw_data()) {
    if (n > 0) std::memcpy(out.raw_data(), p.raw_data().data(), out.byte_size());
    return out;
  }
  switch (*dtype) {
    case DType::kF32:
      CopyTyped<float>(p.float_data(), out);
      break;
    case DType::kI64:
      CopyTyped<int64_t>(p.int64_data(), out);
      break;
    default:  // Every narrower type (and f16 bits) lives in int32_data.
      switch (*dtype) {
        case DType::kU8: case DType::kBool: CopyTyped<uint8_t>(p.int32_data(), out); break;
        case DType::kI8: CopyTyped<int8_t>(p.int32_data(), out); break;
        case DType::kU16: case DType::kF16: CopyTyped<uint16_t>(p.int32_data(), out); break;
        case DType::kI16: CopyTyped<int16_t>(p.int32_data(), out); break;
        default: CopyTyped<int32_t>(p.int32_data(), out); break;
      }
      if (*dtype == DType::kBool) {
        for (int i = 0; i < p.int32_data_size(); ++i) out.data<uint8_t>()[i] = p.int32_data(i) != 0;
      }
  }
  return out;
}

TensorProto TensorToProto(const tensor::Tensor& t, bool use_raw_data, const std::string& name) {
  TensorProto p;
  p.set_name(name);
  p.set_data_type(OnnxFromDType(t.dtype()));
  for (int64_t d : t.shape()) p.add_dims(d);
  if (use_raw_data) {
    p.set_raw_data(std::string(static_cast<const char*>(t.raw_data()), t.byte_size()));
    return p;
  }
  const int64_t n = t.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    switch (t.dtype()) {
      case DType::kF32: p.add_float_data(t.data<float>()[i]); break;
      case DType::kI64: p.add_int64_data(t.data<int64_t>()[i]); break;
      case DType::kF16: p.add_int32_data(t.data<uint16_t>()[i]); break;
      default: p.add_int32_data(static_cast<int32_t>(t.GetAsInt(i))); break;
    }
  }
  return p;
}

absl::StatusOr<tensor::Tensor> ReadTensorProtoFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  TensorProto p;
  if (bytes.size() > static_cast<size_t>(INT_MAX) ||
      !p.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' is not a valid ONNX TensorProto"));
  }
  auto t = TensorFromProto(p);
  if (!t.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", t.status().message()));
  return t;
}

}  // namespace qnnc::frontend::onnx
