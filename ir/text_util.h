// Pieces shared by the text printer and parser: exact number formatting and
// parsing (the printer only emits what the parser reads back bit for bit),
// string quoting and name formatting.
#ifndef QNNC_IR_TEXT_UTIL_H_
#define QNNC_IR_TEXT_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace qnnc::ir::internal {

// Parse a number as written in the text form ("1.5", "-2e-3", "7", "inf",
// "-inf", "nan", "-nan"). nan is the canonical quiet NaN of the type, -nan
// the same with the sign bit set. False if `s` is not a number.
bool ParseF64(absl::string_view s, double* out);
bool ParseF32(absl::string_view s, float* out);
bool ParseF16(absl::string_view s, uint16_t* bits);  // IEEE half bits

// The shortest text that parses back to the same bits. FormatF64 always reads
// as a float ("1.0", "1e+20", "inf"). FormatF32/F16 give nullopt for a NaN
// other than the canonical one (such a constant is printed as hex).
std::string FormatF64(double v);
std::optional<std::string> FormatF32(float v);
std::optional<std::string> FormatF16(uint16_t bits);

// "..." with \" \\ \n \t \r escaped and other control bytes as \xHH.
std::string QuoteString(absl::string_view s);
// A value or graph name as written after '%' or '@': plain when it can be,
// otherwise quoted.
std::string FormatName(absl::string_view name);

}  // namespace qnnc::ir::internal

#endif  // QNNC_IR_TEXT_UTIL_H_
