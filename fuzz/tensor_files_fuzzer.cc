// libFuzzer target: the input-file readers of //tools:compile (raw, .npy and
// ONNX TensorProto .pb) through io::ParseTensorBytes, io::ParseNpy
// and frontend/onnx TensorFromProto. A tensor that parses must serialize and
// parse back bitwise equal.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "frontend/onnx/tensor_convert.h"
#include "fuzz/fuzz_check.h"
#include "io/tensor_files.h"

namespace {

using qnnc::ir::TensorType;
using qnnc::io::TensorFileFormat;
namespace tensor = qnnc::tensor;

// Reads `bytes` as the type of `t` (same dtype, flattened shape: the
// readers reshape) and as a fixed type that usually does not fit.
void ReadAs(absl::string_view bytes, TensorFileFormat format, const tensor::Tensor& t) {
  TensorType flat{t.dtype(), {t.num_elements()}};
  auto same = qnnc::io::ParseTensorBytes(bytes, format, flat, "fuzz");
  FUZZ_CHECK(same.ok(), absl::StrCat("re-reading as ", flat.ToString(), ": ", same.status().message()));
  FUZZ_CHECK(same->num_elements() == t.num_elements() && same->byte_size() == t.byte_size() &&
                 (t.byte_size() == 0 || std::memcmp(same->raw_data(), t.raw_data(), t.byte_size()) == 0),
             "reshaped data differs");
  (void)qnnc::io::ParseTensorBytes(bytes, format, TensorType{tensor::DType::kF32, {1, 3, 2, 2}}, "fuzz");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);

  // Raw: any byte string is u8[size]; f32 needs a multiple of 4.
  auto raw = qnnc::io::ParseTensorBytes(
      bytes, TensorFileFormat::kRaw, TensorType{tensor::DType::kU8, {static_cast<int64_t>(size)}}, "fuzz");
  FUZZ_CHECK(raw.ok(), raw.status().message());
  auto raw_f32 = qnnc::io::ParseTensorBytes(
      bytes, TensorFileFormat::kRaw, TensorType{tensor::DType::kF32, {static_cast<int64_t>(size / 4)}}, "fuzz");
  FUZZ_CHECK(raw_f32.ok() == (size % 4 == 0), raw_f32.status().message());

  // .npy: what parses serializes and parses back bitwise equal.
  auto npy = qnnc::io::ParseNpy(bytes, "fuzz.npy");
  if (npy.ok()) {
    const std::string again = qnnc::io::SerializeNpy(*npy);
    auto back = qnnc::io::ParseNpy(again, "serialized.npy");
    FUZZ_CHECK(back.ok(), back.status().message());
    FUZZ_CHECK(back->BitwiseEquals(*npy), "SerializeNpy/ParseNpy round trip differs");
    ReadAs(bytes, TensorFileFormat::kNpy, *npy);
  }

  // TensorProto: what converts converts back (raw_data) to the same tensor.
  ::onnx::TensorProto proto;
  if (proto.ParseFromArray(data, static_cast<int>(size))) {
    auto t = qnnc::frontend::onnx::TensorFromProto(proto);
    if (t.ok()) {
      auto back = qnnc::frontend::onnx::TensorFromProto(
          qnnc::frontend::onnx::TensorToProto(*t, /*use_raw_data=*/true, "t"));
      FUZZ_CHECK(back.ok(), back.status().message());
      FUZZ_CHECK(back->BitwiseEquals(*t), "TensorToProto/TensorFromProto round trip differs");
      ReadAs(bytes, TensorFileFormat::kTensorProto, *t);
    }
  }
  return 0;
}
