// Conversion between ONNX TensorProto messages and tensor::Tensor, for the
// importer (initializers, Constant nodes) and the runtime (.pb input files).
#ifndef QNNC_FRONTEND_ONNX_TENSOR_CONVERT_H_
#define QNNC_FRONTEND_ONNX_TENSOR_CONVERT_H_

#include <string>

#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"  // defines ONNX_API, includes onnx-ml.pb.h
#include "tensor/tensor.h"

namespace qnnc::frontend::onnx {

// ONNX TensorProto.DataType <-> DType. Types qnnc has no dtype for (double,
// string, bfloat16, ...) are an error naming the ONNX type.
absl::StatusOr<tensor::DType> DTypeFromOnnx(int onnx_data_type);
int OnnxFromDType(tensor::DType dtype);
// "FLOAT", "UINT8", ... ("type 42" for unknown values), for messages.
std::string OnnxTypeName(int onnx_data_type);

// Reads the tensor from raw_data or the typed field (float_data, int32_data,
// int64_data). Checks dims (negative, overflow) and that the data size
// matches them; external or segmented data is an error.
absl::StatusOr<tensor::Tensor> TensorFromProto(const ::onnx::TensorProto& proto);

// Writes the tensor into raw_data (use_raw_data) or the typed field.
::onnx::TensorProto TensorToProto(const tensor::Tensor& tensor, bool use_raw_data = true,
                                  const std::string& name = "");

// Parses a serialized TensorProto file (the test_data_set_*/input_*.pb form).
// A missing file is NotFoundError.
absl::StatusOr<tensor::Tensor> ReadTensorProtoFile(const std::string& path);

}  // namespace qnnc::frontend::onnx

#endif  // QNNC_FRONTEND_ONNX_TENSOR_CONVERT_H_
