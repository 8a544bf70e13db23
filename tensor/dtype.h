// Element types shared by the IR, the kernels and the runtime.
#ifndef QNNC_TENSOR_DTYPE_H_
#define QNNC_TENSOR_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qnnc::tensor {

enum class DType { kU8, kI8, kU16, kI16, kI32, kI64, kF16, kF32, kBool };

// Size of one element in bytes.
size_t DTypeSize(DType dtype);
// Short name used by the text IR: u8, i8, u16, i16, i32, i64, f16, f32, bool.
const char* DTypeName(DType dtype);
absl::StatusOr<DType> ParseDType(absl::string_view name);
bool IsInteger(DType dtype);  // u8..i64 (not bool)
bool IsFloat(DType dtype);    // f16, f32
// Value range of an integer dtype, as int64 (bool is [0, 1]).
int64_t DTypeMin(DType dtype);
int64_t DTypeMax(DType dtype);

// Maps a C++ element type to its DType.
template <typename T>
struct DTypeOf;
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::kU8; };
template <> struct DTypeOf<int8_t> { static constexpr DType value = DType::kI8; };
template <> struct DTypeOf<uint16_t> { static constexpr DType value = DType::kU16; };
template <> struct DTypeOf<int16_t> { static constexpr DType value = DType::kI16; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::kI32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::kI64; };
template <> struct DTypeOf<float> { static constexpr DType value = DType::kF32; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::kBool; };

// IEEE half <-> float conversion (f16 is stored as uint16_t bits).
float HalfToFloat(uint16_t bits);
uint16_t FloatToHalf(float value);

}  // namespace qnnc::tensor

#endif  // QNNC_TENSOR_DTYPE_H_
