#include "ir/text_lexer.h"

#include <memory>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "re2/re2.h"

namespace qnnc::ir::internal {
namespace {

// One anchored pattern per token kind (and one for what is skipped).
enum PatternId { kSkip, kName, kIdent, kInt, kNumber, kString, kHex, kPunct, kNumPatterns };

constexpr const char* kPatterns[kNumPatterns] = {
    R"re((?:[ \t\r\n]+|#[^\n]*)+)re",  // kSkip
    R"re([A-Za-z0-9_./\-]+)re",  // kName
    R"re([A-Za-z_][A-Za-z0-9_.]*)re",  // kIdent
    R"re([-+]?[0-9]+)re",  // kInt
    R"re([-+]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|inf|nan))re",  // kNumber
    R"re("((?:[^"\\\n]|\\.)*)")re",  // kString
    R"re(hex"([0-9a-fA-F]*))re",  // kHex
    R"re([(){}\[\],=:])re",  // kPunct
};

// Byte-wise (Latin-1) patterns, so names and strings may hold any bytes.
const RE2& Re(PatternId id) {
  static const std::vector<std::unique_ptr<RE2>>* patterns = [] {
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);
    options.set_log_errors(false);
    auto* v = new std::vector<std::unique_ptr<RE2>>;
    for (const char* p : kPatterns) v->push_back(std::make_unique<RE2>(p, options));
    return v;
  }();
  return *(*patterns)[id];
}

bool FullMatch(const RE2& re, absl::string_view s) {
  return RE2::FullMatch(re2::StringPiece(s.data(), s.size()), re);
}

bool IsIdentChar(char c) { return absl::ascii_isalnum(c) || c == '_' || c == '.'; }

std::string DescribeChar(char c) {
  if (absl::ascii_isprint(c)) return absl::StrCat("'", std::string(1, c), "'");
  return absl::StrFormat("'\\x%02x'", static_cast<unsigned char>(c));
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool IsPlainName(absl::string_view name) { return FullMatch(Re(kName), name); }
bool IsIdentifier(absl::string_view name) { return FullMatch(Re(kIdent), name); }

std::string DescribeToken(const Token& token) {
  if (token.kind == TokenKind::kEnd) return "end of input";
  constexpr size_t kMax = 32;
  if (token.source.size() > kMax) return absl::StrCat("'", token.source.substr(0, kMax), "...'");
  return absl::StrCat("'", token.source, "'");
}

Lexer::Lexer(absl::string_view text, absl::string_view filename)
    : text_(text), filename_(filename) {}

absl::Status Lexer::Error(int line, int column, absl::string_view message) const {
  return absl::InvalidArgumentError(absl::StrCat(filename_, ":", line, ":", column, ": ", message));
}

void Lexer::Advance(size_t n) {
  for (size_t end = pos_ + n; pos_ < end; ++pos_) {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
  }
}

// A quoted string whose opening quote is at `quote_pos`; the token starts at
// `token_start` (before a '%' or '@' prefix).
absl::StatusOr<Token> Lexer::LexString(size_t quote_pos, size_t token_start, TokenKind kind) {
  Token tok;
  tok.kind = kind;
  tok.line = line_;
  tok.column = column_;
  re2::StringPiece m[2];
  if (!Re(kString).Match(re2::StringPiece(text_.data(), text_.size()), quote_pos, text_.size(),
                        RE2::ANCHOR_START, m, 2)) {
    return Error(line_, column_, "unterminated string");
  }
  absl::string_view body(m[1].data(), m[1].size());
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      tok.text.push_back(body[i]);
      continue;
    }
    char e = body[i + 1];  // the pattern guarantees a character after '\'
    int hi = i + 2 < body.size() ? HexDigit(body[i + 2]) : -1;
    int lo = i + 3 < body.size() ? HexDigit(body[i + 3]) : -1;
    if (e == '"' || e == '\\') {
      tok.text.push_back(e);
    } else if (e == 'n') {
      tok.text.push_back('\n');
    } else if (e == 't') {
      tok.text.push_back('\t');
    } else if (e == 'r') {
      tok.text.push_back('\r');
    } else if (e == 'x' && hi >= 0 && lo >= 0) {
      tok.text.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      int col = column_ + static_cast<int>(body.data() + i - (text_.data() + token_start));
      return Error(line_, col,
                   absl::StrCat("invalid escape sequence '\\", std::string(1, e),
                                "' (use \\\" \\\\ \\n \\t \\r or \\xHH)"));
    }
    ++i;
  }
  size_t end = quote_pos + m[0].size();
  tok.source = text_.substr(token_start, end - token_start);
  Advance(end - token_start);
  return tok;
}

absl::StatusOr<Token> Lexer::Next() {
  const re2::StringPiece all(text_.data(), text_.size());
  re2::StringPiece m[2];
  if (Re(kSkip).Match(all, pos_, text_.size(), RE2::ANCHOR_START, m, 1)) Advance(m[0].size());

  Token tok;
  tok.line = line_;
  tok.column = column_;
  if (pos_ >= text_.size()) return tok;  // kEnd
  const char c = text_[pos_];
  const char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';

  auto take = [&](TokenKind kind, size_t length, std::string text) {
    tok.kind = kind;
    tok.source = text_.substr(pos_, length);
    tok.text = std::move(text);
    Advance(length);
    return tok;
  };

  if (c == '%' || c == '@') {
    TokenKind kind = c == '%' ? TokenKind::kValueName : TokenKind::kGraphName;
    if (next == '"') return LexString(pos_ + 1, pos_, kind);
    if (!Re(kName).Match(all, pos_ + 1, text_.size(), RE2::ANCHOR_START, m, 1)) {
      return Error(line_, column_ + 1,
                   absl::StrCat("expected a name or a quoted name after '", std::string(1, c),
                                "', got ", pos_ + 1 < text_.size() ? DescribeChar(next)
                                                                   : "end of input"));
    }
    return take(kind, m[0].size() + 1, std::string(m[0].data(), m[0].size()));
  }
  if (c == '"') return LexString(pos_, pos_, TokenKind::kString);
  if (absl::StartsWith(text_.substr(pos_), "hex\"")) {
    Re(kHex).Match(all, pos_, text_.size(), RE2::ANCHOR_START, m, 2);  // always matches
    size_t end = pos_ + m[0].size();
    if (end >= text_.size() || text_[end] != '"') {
      return Error(line_, column_ + static_cast<int>(m[0].size()),
                   absl::StrCat("expected a hex digit or '\"' in hex data, got ",
                                end >= text_.size() ? "end of input" : DescribeChar(text_[end])));
    }
    return take(TokenKind::kHex, m[0].size() + 1, std::string(m[1].data(), m[1].size()));
  }
  if (absl::ascii_isdigit(c) || c == '.' || c == '+' || c == '-') {
    if (!Re(kNumber).Match(all, pos_, text_.size(), RE2::ANCHOR_START, m, 1)) {
      return Error(line_, column_, absl::StrCat("unexpected character ", DescribeChar(c)));
    }
    size_t end = pos_ + m[0].size();
    if (end < text_.size() && IsIdentChar(text_[end])) {
      size_t stop = end;
      while (stop < text_.size() && IsIdentChar(text_[stop])) ++stop;
      return Error(line_, column_,
                   absl::StrCat("malformed number '", text_.substr(pos_, stop - pos_), "'"));
    }
    absl::string_view s(m[0].data(), m[0].size());
    TokenKind kind = FullMatch(Re(kInt), s) ? TokenKind::kInt : TokenKind::kFloat;
    return take(kind, s.size(), std::string(s));
  }
  if (Re(kIdent).Match(all, pos_, text_.size(), RE2::ANCHOR_START, m, 1)) {
    absl::string_view s(m[0].data(), m[0].size());
    TokenKind kind = s == "inf" || s == "nan" ? TokenKind::kFloat : TokenKind::kIdent;
    return take(kind, s.size(), std::string(s));
  }
  if (Re(kPunct).Match(all, pos_, text_.size(), RE2::ANCHOR_START, m, 1)) {
    return take(TokenKind::kPunct, 1, std::string(1, c));
  }
  return Error(line_, column_, absl::StrCat("unexpected character ", DescribeChar(c)));
}

}  // namespace qnnc::ir::internal
