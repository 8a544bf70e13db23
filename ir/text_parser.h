// Parses the text form of the IR (ir/TEXT_FORMAT.md has the full
// description and examples):
//
//   # a comment runs from '#' to the end of the line
//   graph @main(%x: f32[1,3,8,8]) {
//     %s = const f32[] 0.0078125
//     %zp = const u8[] 128
//     %w = const i8[4,3,3,3] hex"00ff7f..."
//     %q = qnn.quantize(%x, %s, %zp) {axis = 1, out_dtype = "u8"} name="q0" : u8[1,3,8,8]
//     %d, %ds, %dz = qnn.dynamic_quantize(%x) : (u8[1,3,8,8], f32[], u8[])
//     return %q, %d
//   }
//
// Grammar (terminals in quotes, IDENT = [A-Za-z_][A-Za-z0-9_.]*):
//   file       := graph END
//   graph      := 'graph' '@' name '(' [param {',' param}] ')' '{' {stmt} return '}'
//   param      := value ':' type
//   stmt       := value '=' 'const' type data
//               | value {',' value} '=' op '(' [value {',' value}] ')'
//                 [attrs] ['name' '=' STRING] [':' results]
//   return     := 'return' [value {',' value}]
//   value      := '%' name
//   name       := [A-Za-z0-9_./-]+ | STRING
//   type       := DTYPE '[' [INT {',' INT}] ']'    DTYPE: u8 i8 u16 i16 i32 i64 f16 f32 bool
//   data       := number | '[' [number {',' number}] ']' | 'hex' STRING-of-hex-digits
//   number     := INT | FLOAT | 'true' | 'false'      FLOAT also: inf -inf nan -nan
//   op         := IDENT | STRING                        a registered op, e.g. qnn.conv2d
//   attrs      := '{' [attr {',' attr}] '}'
//   attr       := (IDENT | STRING) '=' attr_value
//   attr_value := INT | FLOAT | STRING | ['int' | 'float'] '[' [number {',' number}] ']'
//   results    := type | '(' type {',' type} ')'
//
// A bare number is data for a one-element constant; a list gives every
// element in row-major order; hex gives the little-endian bytes. A list
// attribute is a float list if any element is a float; `[]` is an empty int
// list and `float[]` an empty float list. Strings take \" \\ \n \t \r \xHH.
// Values are defined before use and once. Result types are optional; the
// parser runs InferTypes, and a written type must equal the inferred one.
#ifndef QNNC_IR_TEXT_PARSER_H_
#define QNNC_IR_TEXT_PARSER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/graph.h"

namespace qnnc::ir {

// Parses one graph and infers its types. Errors are InvalidArgumentError
// "FILE:LINE:COL: ..." (1-based), e.g. "f.qnnir:3:7: expected ')', got '{'";
// a type error points at its op.
absl::StatusOr<std::unique_ptr<Graph>> ParseGraph(absl::string_view text,
                                                  absl::string_view filename = "<input>");

}  // namespace qnnc::ir

#endif  // QNNC_IR_TEXT_PARSER_H_
