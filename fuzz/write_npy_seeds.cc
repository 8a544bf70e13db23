// Writes small tensors of every dtype as .npy (io::SerializeNpy) and as
// ONNX TensorProto .pb, the seeds of //fuzz:tensor_files_fuzzer.
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "frontend/onnx/tensor_convert.h"
#include "io/tensor_files.h"
#include "tensor/tensor.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_npy_seeds DIR\n");
    return 2;
  }
  namespace tensor = qnnc::tensor;
  const tensor::DType dtypes[] = {tensor::DType::kU8,  tensor::DType::kI8,  tensor::DType::kU16,
                                  tensor::DType::kI16, tensor::DType::kI32, tensor::DType::kI64,
                                  tensor::DType::kF16, tensor::DType::kF32, tensor::DType::kBool};
  const tensor::Shape shapes[] = {{}, {0}, {3}, {2, 3}, {1, 2, 2, 2}};
  for (tensor::DType d : dtypes) {
    int s = 0;
    for (const tensor::Shape& shape : shapes) {
      tensor::Tensor t = tensor::Tensor::Zeros(d, shape);
      for (size_t i = 0; i < t.byte_size(); ++i) {
        static_cast<uint8_t*>(t.raw_data())[i] = d == tensor::DType::kBool ? i % 2 : i * 37 + 1;
      }
      std::string base = absl::StrCat(argv[1], "/", tensor::DTypeName(d), "_", s++);
      absl::Status st = qnnc::io::WriteFileAtomically(base + ".npy", qnnc::io::SerializeNpy(t));
      if (st.ok()) {
        st = qnnc::io::WriteFileAtomically(
            base + ".pb", qnnc::frontend::onnx::TensorToProto(t, s % 2 == 0, "t").SerializeAsString());
      }
      if (!st.ok()) {
        std::fprintf(stderr, "%s\n", std::string(st.message()).c_str());
        return 1;
      }
    }
  }
  return 0;
}
