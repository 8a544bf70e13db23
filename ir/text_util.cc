#include "ir/text_util.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "ir/text_lexer.h"
#include "tensor/dtype.h"

namespace qnnc::ir::internal {
namespace {

template <typename Float, typename Bits>
Float FromBits(Bits bits) {
  static_assert(sizeof(Float) == sizeof(Bits));
  Float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

template <typename Bits, typename Float>
Bits ToBits(Float f) {
  static_assert(sizeof(Float) == sizeof(Bits));
  Bits b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

// +1 / -1 for "nan" / "-nan" (a leading '+' is allowed), 0 otherwise.
int NanSign(absl::string_view s) {
  if (s == "nan" || s == "+nan") return 1;
  if (s == "-nan") return -1;
  return 0;
}

// %.{p}g for the smallest p in [1, max_precision] that `round_trips`.
template <typename Check>
std::optional<std::string> Shortest(double v, int max_precision, Check round_trips) {
  for (int p = 1; p <= max_precision; ++p) {
    std::string s = absl::StrFormat("%.*g", p, v);
    if (round_trips(s)) return s;
  }
  return std::nullopt;
}

}  // namespace

bool ParseF64(absl::string_view s, double* out) {
  if (int sign = NanSign(s)) {
    *out = FromBits<double>(sign > 0 ? uint64_t{0x7ff8000000000000} : uint64_t{0xfff8000000000000});
    return true;
  }
  return absl::SimpleAtod(s, out);
}

bool ParseF32(absl::string_view s, float* out) {
  if (int sign = NanSign(s)) {
    *out = FromBits<float>(sign > 0 ? uint32_t{0x7fc00000} : uint32_t{0xffc00000});
    return true;
  }
  return absl::SimpleAtof(s, out);
}

bool ParseF16(absl::string_view s, uint16_t* bits) {
  if (int sign = NanSign(s)) {
    *bits = sign > 0 ? 0x7e00 : 0xfe00;
    return true;
  }
  float f;
  if (!absl::SimpleAtof(s, &f)) return false;
  *bits = tensor::FloatToHalf(f);
  return true;
}

std::string FormatF64(double v) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const uint64_t bits = ToBits<uint64_t>(v);
  std::string s = Shortest(v, 17, [&](const std::string& t) {
                    double d;
                    return ParseF64(t, &d) && ToBits<uint64_t>(d) == bits;
                  }).value_or(absl::StrFormat("%.17g", v));
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::optional<std::string> FormatF32(float v) {
  const uint32_t bits = ToBits<uint32_t>(v);
  if (std::isnan(v)) {
    if (bits == 0x7fc00000) return "nan";
    if (bits == 0xffc00000) return "-nan";
    return std::nullopt;
  }
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return Shortest(v, 9, [&](const std::string& t) {
    float f;
    return ParseF32(t, &f) && ToBits<uint32_t>(f) == bits;
  });
}

std::optional<std::string> FormatF16(uint16_t bits) {
  const float v = tensor::HalfToFloat(bits);
  if (std::isnan(v)) {
    if (bits == 0x7e00) return "nan";
    if (bits == 0xfe00) return "-nan";
    return std::nullopt;
  }
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return Shortest(v, 9, [&](const std::string& t) {
    uint16_t b;
    return ParseF16(t, &b) && b == bits;
  });
}

std::string QuoteString(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += absl::StrFormat("\\x%02x", static_cast<unsigned char>(c));
        } else {
          out += c;  // printable ASCII and bytes >= 0x80 (UTF-8) as they are
        }
    }
  }
  return out + "\"";
}

std::string FormatName(absl::string_view name) {
  return IsPlainName(name) ? std::string(name) : QuoteString(name);
}

}  // namespace qnnc::ir::internal
