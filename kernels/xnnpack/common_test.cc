#include "kernels/xnnpack/common.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"

namespace qnnc::kernels::xnnpack {
namespace {

TEST(CommonTest, InitializeIsIdempotent) {
  EXPECT_TRUE(InitializeXnnpack().ok());
  EXPECT_TRUE(InitializeXnnpack().ok());
}

TEST(CommonTest, StatusNamesStatusAndOperation) {
  EXPECT_TRUE(FromXnnStatus(xnn_status_success, "op").ok());
  const absl::Status s =
      FromXnnStatus(xnn_status_unsupported_parameter, "xnn_create_convolution2d_nhwc_qs8");
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(s.message(),
            "xnn_create_convolution2d_nhwc_qs8 failed: xnn_status_unsupported_parameter (4)");
  EXPECT_EQ(FromXnnStatus(xnn_status_invalid_parameter, "x").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FromXnnStatus(xnn_status_out_of_memory, "x").code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(FromXnnStatus(xnn_status_uninitialized, "x").code(), absl::StatusCode::kInternal);
  EXPECT_EQ(std::string(StatusName(xnn_status_invalid_state)), "xnn_status_invalid_state");
  EXPECT_EQ(std::string(StatusName(xnn_status_unsupported_hardware)),
            "xnn_status_unsupported_hardware");
}

TEST(CommonTest, Scales) {
  EXPECT_TRUE(CheckScale("s", 0.5f).ok());
  EXPECT_FALSE(CheckScale("s", 0.0f).ok());
  EXPECT_FALSE(CheckScale("s", -1.0f).ok());
  EXPECT_FALSE(CheckScale("s", 1e-40f).ok());
  EXPECT_FALSE(CheckScale("s", INFINITY).ok());
  EXPECT_FALSE(CheckScale("s", NAN).ok());
  EXPECT_EQ(RequantizationScale(0.5f, 0.25f, 2.0f), 0.0625f);
  EXPECT_EQ(DataType(Variant::kQu8), tensor::DType::kU8);
  EXPECT_EQ(DataType(Variant::kQc8), tensor::DType::kI8);
  EXPECT_EQ(std::string(VariantName(Variant::kQc8)), "qc8");
}

}  // namespace
}  // namespace qnnc::kernels::xnnpack
