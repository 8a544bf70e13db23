#include "frontend/onnx/tensor_convert.h"

#include <cstdlib>
#include <fstream>

#include "gtest/gtest.h"

namespace qnnc::frontend::onnx {
namespace {

using ::onnx::TensorProto;
using tensor::DType;
using tensor::Tensor;

// A 2x3 tensor of `dtype` with values covering the type's range.
Tensor Sample(DType dtype) {
  switch (dtype) {
    case DType::kU8: return Tensor::FromVector<uint8_t>({2, 3}, {0, 1, 2, 127, 128, 255});
    case DType::kI8: return Tensor::FromVector<int8_t>({2, 3}, {-128, -1, 0, 1, 64, 127});
    case DType::kU16: return Tensor::FromVector<uint16_t>({2, 3}, {0, 1, 300, 32768, 40000, 65535});
    case DType::kI16: return Tensor::FromVector<int16_t>({2, 3}, {-32768, -300, 0, 1, 300, 32767});
    case DType::kI32: return Tensor::FromVector<int32_t>({2, 3}, {INT32_MIN, -7, 0, 1, 70000, INT32_MAX});
    case DType::kI64: return Tensor::FromVector<int64_t>({2, 3}, {INT64_MIN, -7, 0, 1, int64_t{1} << 40, INT64_MAX});
    case DType::kF16: {
      std::vector<uint16_t> bits;
      for (float f : {-2.5f, -0.0f, 0.0f, 1.0f, 65504.0f, 0.333f}) bits.push_back(tensor::FloatToHalf(f));
      Tensor t = Tensor::Zeros(DType::kF16, {2, 3});
      for (int i = 0; i < 6; ++i) t.data<uint16_t>()[i] = bits[i];
      return t;
    }
    case DType::kF32: return Tensor::FromVector<float>({2, 3}, {-1.5f, 0.0f, 1e-30f, 3.25f, 1e30f, -0.0f});
    case DType::kBool: return Tensor::FromVector<bool>({2, 3}, {true, false, false, true, true, false});
  }
  return Tensor();
}

class RoundTripTest : public ::testing::TestWithParam<std::tuple<DType, bool>> {};

TEST_P(RoundTripTest, ToProtoAndBack) {
  auto [dtype, raw] = GetParam();
  Tensor t = Sample(dtype);
  TensorProto p = TensorToProto(t, raw, "t");
  EXPECT_EQ(p.has_raw_data(), raw);
  EXPECT_EQ(p.data_type(), OnnxFromDType(dtype));
  auto back = TensorFromProto(p);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->BitwiseEquals(t)) << tensor::DTypeName(dtype);
  // And through the serialized form.
  TensorProto parsed;
  ASSERT_TRUE(parsed.ParseFromString(p.SerializeAsString()));
  auto again = TensorFromProto(parsed);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->BitwiseEquals(t));
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, RoundTripTest,
                         ::testing::Combine(::testing::Values(DType::kU8, DType::kI8, DType::kU16,
                                                              DType::kI16, DType::kI32, DType::kI64,
                                                              DType::kF16, DType::kF32, DType::kBool),
                                            ::testing::Bool()));

TEST(TensorConvertTest, ScalarAndEmpty) {
  auto s = TensorFromProto(TensorToProto(Tensor::Scalar<float>(2.0f), false));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->rank(), 0);
  EXPECT_EQ(s->data<float>()[0], 2.0f);
  TensorProto empty;
  empty.set_data_type(TensorProto::INT64);
  empty.add_dims(0);
  auto e = TensorFromProto(empty);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->num_elements(), 0);
}

TEST(TensorConvertTest, Errors) {
  TensorProto p = TensorToProto(Sample(DType::kF32), true, "w");
  p.mutable_raw_data()->pop_back();
  EXPECT_NE(TensorFromProto(p).status().message().find("needs 24 bytes but raw_data has 23"),
            std::string::npos)
      << TensorFromProto(p).status();

  p = TensorToProto(Sample(DType::kI32), false, "w");
  p.add_int32_data(5);
  EXPECT_NE(TensorFromProto(p).status().message().find("int32_data has 7"), std::string::npos);

  p = TensorToProto(Sample(DType::kF32), false, "w");
  p.set_dims(0, -2);
  EXPECT_NE(TensorFromProto(p).status().message().find("negative dimension"), std::string::npos);

  p.set_dims(0, int64_t{1} << 40);
  p.set_dims(1, int64_t{1} << 40);
  EXPECT_FALSE(TensorFromProto(p).ok());

  p = TensorToProto(Sample(DType::kF32), true, "w");
  p.set_data_location(TensorProto::EXTERNAL);
  EXPECT_NE(TensorFromProto(p).status().message().find("external data"), std::string::npos);

  p = TensorToProto(Sample(DType::kF32), true, "w");
  p.set_data_type(TensorProto::DOUBLE);
  EXPECT_NE(TensorFromProto(p).status().message().find("DOUBLE"), std::string::npos);
  for (const auto& s : {TensorFromProto(p).status()}) {
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(TensorConvertTest, ReadTensorProtoFile) {
  std::string dir = std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR") : "/tmp";
  std::string path = dir + "/t.pb";
  {
    std::ofstream out(path, std::ios::binary);
    out << TensorToProto(Sample(DType::kI8)).SerializeAsString();
  }
  auto t = ReadTensorProtoFile(path);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->BitwiseEquals(Sample(DType::kI8)));

  EXPECT_EQ(ReadTensorProtoFile(dir + "/missing.pb").status().code(), absl::StatusCode::kNotFound);
  {
    std::ofstream out(path, std::ios::binary);
    out << "\xff\xff\xff garbage";
  }
  EXPECT_EQ(ReadTensorProtoFile(path).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(TensorConvertTest, NarrowValuesOutOfRangeAreErrorsNotWrapped) {
  TensorProto p;
  p.set_name("zp");
  p.set_data_type(TensorProto::UINT8);
  p.add_int32_data(300);  // would wrap to 44
  auto t = TensorFromProto(p);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("int32_data[0] = 300 does not fit UINT8 (0..255)"), std::string::npos)
      << t.status();
  p.set_data_type(TensorProto::INT8);
  p.set_int32_data(0, -129);
  EXPECT_FALSE(TensorFromProto(p).ok());
  p.set_int32_data(0, -128);
  EXPECT_TRUE(TensorFromProto(p).ok());
}

TEST(TensorConvertTest, DeclaredSizeIsCheckedBeforeAllocating) {
  TensorProto p;
  p.set_name("big");
  p.set_data_type(TensorProto::FLOAT);
  p.add_dims(1000000);
  p.add_dims(1000000);  // 4 TB declared, nothing stored
  auto t = TensorFromProto(p);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("needs 1000000000000 values but float_data has 0"), std::string::npos)
      << t.status();
}

}  // namespace
}  // namespace qnnc::frontend::onnx
