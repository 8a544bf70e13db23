// The lexer of the text IR (see ir/TEXT_FORMAT.md): turns text into tokens
// with 1-based line and column, skipping whitespace and '#' comments. Each
// token kind is one anchored RE2 pattern.
#ifndef QNNC_IR_TEXT_LEXER_H_
#define QNNC_IR_TEXT_LEXER_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qnnc::ir::internal {

enum class TokenKind {
  kEnd,        // end of input
  kIdent,      // graph, const, return, name, op names, dtypes: [A-Za-z_][A-Za-z0-9_.]*
  kValueName,  // %name or %"quoted name"; text is the name
  kGraphName,  // @name or @"quoted name"; text is the name
  kInt,        // 42, -7, +3
  kFloat,      // 1.5, -2e-3, 1., inf, -inf, nan, -nan
  kString,     // "..." with \" \\ \n \t \r \xHH escapes; text is the decoded string
  kHex,        // hex"0aff..."; text is the hex digits
  kPunct,      // one of ( ) { } [ ] , = :
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  // Decoded text: the name of a value or graph, the contents of a string, the
  // digits of hex data, otherwise the source text.
  std::string text;
  absl::string_view source;  // the token as written
  int line = 1;
  int column = 1;

  bool Is(TokenKind k, absl::string_view t) const { return kind == k && text == t; }
  bool IsPunct(char c) const {
    return kind == TokenKind::kPunct && text.size() == 1 && text[0] == c;
  }
};

// How a token reads in an error message: "'%x'", "end of input", ...
std::string DescribeToken(const Token& token);

// Characters of a value or graph name written without quotes.
bool IsPlainName(absl::string_view name);
// Characters of an identifier (attribute names, op names).
bool IsIdentifier(absl::string_view name);

class Lexer {
 public:
  // `text` must outlive the lexer and its tokens.
  Lexer(absl::string_view text, absl::string_view filename);

  // The next token; kEnd at the end of input (and on every call after).
  absl::StatusOr<Token> Next();

  // InvalidArgumentError "FILE:LINE:COL: message".
  absl::Status Error(int line, int column, absl::string_view message) const;

 private:
  absl::StatusOr<Token> LexString(size_t quote_pos, size_t token_start, TokenKind kind);
  void Advance(size_t n);  // moves past n bytes, tracking line and column

  absl::string_view text_;
  std::string filename_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace qnnc::ir::internal

#endif  // QNNC_IR_TEXT_LEXER_H_
