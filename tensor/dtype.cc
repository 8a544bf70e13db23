#include "tensor/dtype.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"

namespace qnnc::tensor {

size_t DTypeSize(DType dtype) {
  switch (dtype) {
    case DType::kU8: case DType::kI8: case DType::kBool: return 1;
    case DType::kU16: case DType::kI16: case DType::kF16: return 2;
    case DType::kI32: case DType::kF32: return 4;
    case DType::kI64: return 8;
  }
  return 0;
}

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kU8: return "u8";
    case DType::kI8: return "i8";
    case DType::kU16: return "u16";
    case DType::kI16: return "i16";
    case DType::kI32: return "i32";
    case DType::kI64: return "i64";
    case DType::kF16: return "f16";
    case DType::kF32: return "f32";
    case DType::kBool: return "bool";
  }
  return "?";
}

absl::StatusOr<DType> ParseDType(absl::string_view name) {
  for (DType d : {DType::kU8, DType::kI8, DType::kU16, DType::kI16, DType::kI32,
                  DType::kI64, DType::kF16, DType::kF32, DType::kBool}) {
    if (name == DTypeName(d)) return d;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown dtype '", name, "' (expected u8, i8, u16, i16, i32, i64, f16, f32 or bool)"));
}

bool IsInteger(DType d) {
  return d == DType::kU8 || d == DType::kI8 || d == DType::kU16 || d == DType::kI16 ||
         d == DType::kI32 || d == DType::kI64;
}

bool IsFloat(DType d) { return d == DType::kF16 || d == DType::kF32; }

int64_t DTypeMin(DType d) {
  switch (d) {
    case DType::kI8: return std::numeric_limits<int8_t>::min();
    case DType::kI16: return std::numeric_limits<int16_t>::min();
    case DType::kI32: return std::numeric_limits<int32_t>::min();
    case DType::kI64: return std::numeric_limits<int64_t>::min();
    default: return 0;
  }
}

int64_t DTypeMax(DType d) {
  switch (d) {
    case DType::kU8: return std::numeric_limits<uint8_t>::max();
    case DType::kI8: return std::numeric_limits<int8_t>::max();
    case DType::kU16: return std::numeric_limits<uint16_t>::max();
    case DType::kI16: return std::numeric_limits<int16_t>::max();
    case DType::kI32: return std::numeric_limits<int32_t>::max();
    case DType::kI64: return std::numeric_limits<int64_t>::max();
    case DType::kBool: return 1;
    default: return 0;
  }
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      exp = 127 - 15 + 1;
      while ((mant & 0x400) == 0) { mant <<= 1; --exp; }
      mant &= 0x3ff;
      bits = sign | (exp << 23) | (mant << 13);
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t FloatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mant = bits & 0x7fffffu;
  if (((bits >> 23) & 0xff) == 0xff) return sign | 0x7c00u | (mant ? 0x200u : 0);
  if (exp >= 0x1f) return sign | 0x7c00u;  // overflow to infinity
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000u;
    uint32_t shift = 14 - exp;
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return sign | half;
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;  // round half to even
  return half;
}

}  // namespace qnnc::tensor
