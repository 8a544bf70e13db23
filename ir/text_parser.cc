#include "ir/text_parser.h"

#include <cstring>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "ir/infer_types.h"
#include "ir/op_registry.h"
#include "ir/text_lexer.h"
#include "ir/text_util.h"
#include "util/status_macros.h"

namespace qnnc::ir {
namespace {

using internal::Token;
using internal::TokenKind;

// Larger constants are refused rather than allocated.
constexpr int64_t kMaxConstantBytes = int64_t{1} << 31;

struct Pos {
  int line = 0;
  int column = 0;
};

Pos PosOf(const Token& t) { return {t.line, t.column}; }

// The lexer only lets hex digits into a hex token.
int HexValue(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

class Parser {
 public:
  Parser(absl::string_view text, absl::string_view filename)
      : lexer_(text, filename), filename_(filename), graph_(std::make_unique<Graph>()) {}

  absl::StatusOr<std::unique_ptr<Graph>> Parse();

 private:
  absl::Status Advance();
  absl::Status ErrorAt(Pos p, absl::string_view message) const {
    return lexer_.Error(p.line, p.column, message);
  }
  // "expected WHAT, got TOKEN" at the current token.
  absl::Status Expected(absl::string_view what) const {
    return ErrorAt(PosOf(tok_), absl::StrCat("expected ", what, ", got ", DescribeToken(tok_)));
  }
  absl::Status Expect(char punct);
  // The ',' between list items; names `close` in the error.
  absl::Status ExpectSeparator(char close);
  absl::Status ExpectKeyword(absl::string_view keyword);

  absl::StatusOr<TensorType> ParseType();
  absl::Status CheckNewName(const Token& name) const;
  absl::StatusOr<Value*> ParseUse();
  absl::Status ParseParam();
  absl::Status ParseStatement();
  absl::Status ParseConstant(const Token& name);
  absl::Status ParseNode(const std::vector<Token>& results);
  absl::Status ParseAttrs(Attrs& attrs);
  absl::StatusOr<AttrValue> ParseAttrValue();
  absl::StatusOr<AttrValue> ParseList(bool force_float);
  absl::Status StoreElement(const Token& t, tensor::Tensor& data, int64_t i) const;
  absl::Status InferAndCheckTypes();

  internal::Lexer lexer_;
  std::string filename_;
  Token tok_;
  std::unique_ptr<Graph> graph_;
  absl::flat_hash_map<std::string, Pos> defined_at_;
  absl::flat_hash_map<const Node*, Pos> node_pos_;
  struct Declared {
    Value* value;
    TensorType type;
    Pos pos;
  };
  std::vector<Declared> declared_;
};

absl::Status Parser::Advance() {
  ASSIGN_OR_RETURN(tok_, lexer_.Next());
  return absl::OkStatus();
}

absl::Status Parser::Expect(char punct) {
  if (!tok_.IsPunct(punct)) return Expected(absl::StrCat("'", std::string(1, punct), "'"));
  return Advance();
}

absl::Status Parser::ExpectSeparator(char close) {
  if (!tok_.IsPunct(',')) return Expected(absl::StrCat("',' or '", std::string(1, close), "'"));
  return Advance();
}

absl::Status Parser::ExpectKeyword(absl::string_view keyword) {
  if (!tok_.Is(TokenKind::kIdent, keyword)) return Expected(absl::StrCat("'", keyword, "'"));
  return Advance();
}

absl::StatusOr<TensorType> Parser::ParseType() {
  const Pos pos = PosOf(tok_);
  TensorType type;
  absl::StatusOr<DType> dtype = tensor::ParseDType(tok_.text);
  if (tok_.kind != TokenKind::kIdent || !dtype.ok()) {
    return Expected("a dtype (u8, i8, u16, i16, i32, i64, f16, f32 or bool)");
  }
  type.dtype = *dtype;
  RETURN_IF_ERROR(Advance());
  RETURN_IF_ERROR(Expect('['));
  while (!tok_.IsPunct(']')) {
    if (!type.shape.empty()) RETURN_IF_ERROR(ExpectSeparator(']'));
    int64_t dim;
    if (tok_.kind != TokenKind::kInt) return Expected("a dimension");
    if (!absl::SimpleAtoi(tok_.text, &dim) || dim < 0) {
      return ErrorAt(PosOf(tok_), absl::StrCat("invalid dimension ", tok_.text));
    }
    type.shape.push_back(dim);
    RETURN_IF_ERROR(Advance());
  }
  RETURN_IF_ERROR(Advance());
  absl::StatusOr<int64_t> n = tensor::NumElements(type.shape, type.dtype);
  if (!n.ok()) return ErrorAt(pos, absl::StrCat("bad type: ", n.status().message()));
  return type;
}

absl::Status Parser::CheckNewName(const Token& name) const {
  if (name.text.empty()) return ErrorAt(PosOf(name), "a value name must not be empty");
  auto it = defined_at_.find(name.text);
  if (it == defined_at_.end()) return absl::OkStatus();
  return ErrorAt(PosOf(name), absl::StrCat("redefinition of %", internal::FormatName(name.text),
                                           " (first defined at ", it->second.line, ":",
                                           it->second.column, ")"));
}

absl::StatusOr<Value*> Parser::ParseUse() {
  if (tok_.kind != TokenKind::kValueName) return Expected("a value ('%name')");
  Value* v = graph_->FindValue(tok_.text);
  if (v == nullptr) {
    return ErrorAt(PosOf(tok_), absl::StrCat("use of undefined value %",
                                             internal::FormatName(tok_.text),
                                             " (values must be defined before they are used)"));
  }
  RETURN_IF_ERROR(Advance());
  return v;
}

absl::Status Parser::ParseParam() {
  if (tok_.kind != TokenKind::kValueName) return Expected("an input ('%name: type')");
  const Token name = tok_;
  RETURN_IF_ERROR(CheckNewName(name));
  RETURN_IF_ERROR(Advance());
  RETURN_IF_ERROR(Expect(':'));
  ASSIGN_OR_RETURN(TensorType type, ParseType());
  graph_->AddInput(name.text, std::move(type));
  defined_at_[name.text] = PosOf(name);
  return absl::OkStatus();
}

absl::Status Parser::ParseStatement() {
  std::vector<Token> results;
  while (true) {
    if (tok_.kind != TokenKind::kValueName) return Expected("a result ('%name')");
    RETURN_IF_ERROR(CheckNewName(tok_));
    for (const Token& r : results) {
      if (r.text == tok_.text) {
        return ErrorAt(PosOf(tok_), absl::StrCat("redefinition of %",
                                                 internal::FormatName(tok_.text)));
      }
    }
    results.push_back(tok_);
    RETURN_IF_ERROR(Advance());
    if (!tok_.IsPunct(',')) break;
    RETURN_IF_ERROR(Advance());
  }
  RETURN_IF_ERROR(Expect('='));
  if (tok_.Is(TokenKind::kIdent, "const")) {
    if (results.size() != 1) return ErrorAt(PosOf(tok_), "a constant defines exactly one value");
    return ParseConstant(results[0]);
  }
  return ParseNode(results);
}

absl::Status Parser::StoreElement(const Token& t, tensor::Tensor& data, int64_t i) const {
  const DType dt = data.dtype();
  if (dt == DType::kBool) {
    int value = t.Is(TokenKind::kIdent, "true") || t.Is(TokenKind::kInt, "1")   ? 1
                : t.Is(TokenKind::kIdent, "false") || t.Is(TokenKind::kInt, "0") ? 0
                                                                                   : -1;
    if (value < 0) {
      return ErrorAt(PosOf(t), absl::StrCat("expected true, false, 0 or 1 for bool, got ",
                                            DescribeToken(t)));
    }
    data.data<uint8_t>()[i] = static_cast<uint8_t>(value);
    return absl::OkStatus();
  }
  if (tensor::IsFloat(dt)) {
    bool ok = t.kind == TokenKind::kInt || t.kind == TokenKind::kFloat;
    if (ok && dt == DType::kF32) ok = internal::ParseF32(t.text, &data.data<float>()[i]);
    if (ok && dt == DType::kF16) ok = internal::ParseF16(t.text, &data.data<uint16_t>()[i]);
    if (!ok) return ErrorAt(PosOf(t), absl::StrCat("expected a number, got ", DescribeToken(t)));
    return absl::OkStatus();
  }
  int64_t v;
  if (t.kind != TokenKind::kInt) {
    return ErrorAt(PosOf(t), absl::StrCat("expected an integer for ", tensor::DTypeName(dt),
                                          ", got ", DescribeToken(t)));
  }
  if (!absl::SimpleAtoi(t.text, &v) || v < tensor::DTypeMin(dt) || v > tensor::DTypeMax(dt)) {
    return ErrorAt(PosOf(t), absl::StrCat("value ", t.text, " does not fit in ",
                                          tensor::DTypeName(dt)));
  }
  switch (dt) {
    case DType::kU8: data.data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
    case DType::kI8: data.data<int8_t>()[i] = static_cast<int8_t>(v); break;
    case DType::kU16: data.data<uint16_t>()[i] = static_cast<uint16_t>(v); break;
    case DType::kI16: data.data<int16_t>()[i] = static_cast<int16_t>(v); break;
    case DType::kI32: data.data<int32_t>()[i] = static_cast<int32_t>(v); break;
    default: data.data<int64_t>()[i] = v; break;
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseConstant(const Token& name) {
  RETURN_IF_ERROR(Advance());  // 'const'
  const Pos type_pos = PosOf(tok_);
  ASSIGN_OR_RETURN(TensorType type, ParseType());
  const std::string what = absl::StrCat("const ", type.ToString());
  ASSIGN_OR_RETURN(int64_t n, tensor::NumElements(type.shape, type.dtype));
  const int64_t bytes = n * static_cast<int64_t>(tensor::DTypeSize(type.dtype));
  if (bytes > kMaxConstantBytes) {
    return ErrorAt(type_pos, absl::StrCat(what, " is too large (", bytes,
                                          " bytes, the limit is ", kMaxConstantBytes, ")"));
  }
  const Pos data_pos = PosOf(tok_);
  tensor::Tensor data;
  if (tok_.kind == TokenKind::kHex) {
    const std::string& digits = tok_.text;
    if (digits.size() % 2 != 0 || static_cast<int64_t>(digits.size() / 2) != bytes) {
      return ErrorAt(data_pos, absl::StrCat("hex data of ", what, " must have ", bytes,
                                            " bytes (", 2 * bytes, " hex digits), got ",
                                            digits.size(), " hex digits"));
    }
    ASSIGN_OR_RETURN(data, tensor::Tensor::Create(type.dtype, type.shape));
    uint8_t* out = data.data<uint8_t>();
    for (int64_t i = 0; i < bytes; ++i) {
      out[i] = static_cast<uint8_t>(HexValue(digits[2 * i]) * 16 + HexValue(digits[2 * i + 1]));
    }
    RETURN_IF_ERROR(Advance());
  } else {
    std::vector<Token> elements;
    const bool list = tok_.IsPunct('[');
    if (list) {
      RETURN_IF_ERROR(Advance());
      while (!tok_.IsPunct(']')) {
        if (!elements.empty()) RETURN_IF_ERROR(ExpectSeparator(']'));
        if (tok_.kind != TokenKind::kInt && tok_.kind != TokenKind::kFloat &&
            tok_.kind != TokenKind::kIdent) {
          return Expected("a number");
        }
        elements.push_back(tok_);
        RETURN_IF_ERROR(Advance());
      }
    } else if (tok_.kind == TokenKind::kInt || tok_.kind == TokenKind::kFloat ||
               tok_.Is(TokenKind::kIdent, "true") || tok_.Is(TokenKind::kIdent, "false")) {
      elements.push_back(tok_);
    } else {
      return Expected("constant data (a number, a list '[...]' or hex\"...\")");
    }
    if (static_cast<int64_t>(elements.size()) != n) {
      return ErrorAt(data_pos, absl::StrCat(what, " has ", n, " elements, got ", elements.size()));
    }
    ASSIGN_OR_RETURN(data, tensor::Tensor::Create(type.dtype, type.shape));
    for (int64_t i = 0; i < n; ++i) RETURN_IF_ERROR(StoreElement(elements[i], data, i));
    RETURN_IF_ERROR(Advance());  // ']' or the single number
  }
  graph_->AddConstant(name.text, std::move(data));
  defined_at_[name.text] = PosOf(name);
  return absl::OkStatus();
}

absl::StatusOr<AttrValue> Parser::ParseList(bool force_float) {
  RETURN_IF_ERROR(Expect('['));
  std::vector<Token> items;
  bool any_float = force_float;
  while (!tok_.IsPunct(']')) {
    if (!items.empty()) RETURN_IF_ERROR(ExpectSeparator(']'));
    if (tok_.kind != TokenKind::kInt && tok_.kind != TokenKind::kFloat) return Expected("a number");
    any_float = any_float || tok_.kind == TokenKind::kFloat;
    items.push_back(tok_);
    RETURN_IF_ERROR(Advance());
  }
  RETURN_IF_ERROR(Advance());
  if (any_float) {
    std::vector<double> out(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      if (!internal::ParseF64(items[i].text, &out[i])) {
        return ErrorAt(PosOf(items[i]), absl::StrCat("invalid number ", items[i].text));
      }
    }
    return AttrValue(std::move(out));
  }
  std::vector<int64_t> out(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (!absl::SimpleAtoi(items[i].text, &out[i])) {
      return ErrorAt(PosOf(items[i]), absl::StrCat("integer ", items[i].text, " is out of range"));
    }
  }
  return AttrValue(std::move(out));
}

absl::StatusOr<AttrValue> Parser::ParseAttrValue() {
  const Token t = tok_;
  switch (t.kind) {
    case TokenKind::kInt: {
      int64_t v;
      if (!absl::SimpleAtoi(t.text, &v)) {
        return ErrorAt(PosOf(t), absl::StrCat("integer ", t.text, " is out of range"));
      }
      RETURN_IF_ERROR(Advance());
      return AttrValue(v);
    }
    case TokenKind::kFloat: {
      double v;
      if (!internal::ParseF64(t.text, &v)) {
        return ErrorAt(PosOf(t), absl::StrCat("invalid number ", t.text));
      }
      RETURN_IF_ERROR(Advance());
      return AttrValue(v);
    }
    case TokenKind::kString:
      RETURN_IF_ERROR(Advance());
      return AttrValue(t.text);
    case TokenKind::kIdent:
      if (t.text == "int" || t.text == "float") {
        RETURN_IF_ERROR(Advance());
        ASSIGN_OR_RETURN(AttrValue list, ParseList(t.text == "float"));
        if (t.text == "int" && !std::holds_alternative<std::vector<int64_t>>(list)) {
          return ErrorAt(PosOf(t), "an int list holds a float");
        }
        return list;
      }
      break;
    default:
      if (t.IsPunct('[')) return ParseList(false);
  }
  return Expected("an attribute value (integer, float, string or list)");
}

absl::Status Parser::ParseAttrs(Attrs& attrs) {
  RETURN_IF_ERROR(Expect('{'));
  while (!tok_.IsPunct('}')) {
    if (!attrs.map().empty()) RETURN_IF_ERROR(ExpectSeparator('}'));
    if (tok_.kind != TokenKind::kIdent && tok_.kind != TokenKind::kString) {
      return Expected("an attribute name");
    }
    const Token key = tok_;
    if (attrs.Has(key.text)) {
      return ErrorAt(PosOf(key), absl::StrCat("duplicate attribute '", key.text, "'"));
    }
    RETURN_IF_ERROR(Advance());
    RETURN_IF_ERROR(Expect('='));
    ASSIGN_OR_RETURN(AttrValue value, ParseAttrValue());
    attrs.Set(key.text, std::move(value));
  }
  return Advance();
}

absl::Status Parser::ParseNode(const std::vector<Token>& results) {
  const Token op = tok_;
  if (op.kind != TokenKind::kIdent && op.kind != TokenKind::kString) {
    return Expected("an op name or 'const'");
  }
  if (OpRegistry::Global().Find(op.text) == nullptr) {
    return ErrorAt(PosOf(op), absl::StrCat("unknown op '", op.text, "'"));
  }
  RETURN_IF_ERROR(Advance());
  RETURN_IF_ERROR(Expect('('));
  std::vector<Value*> inputs;
  while (!tok_.IsPunct(')')) {
    if (!inputs.empty()) RETURN_IF_ERROR(ExpectSeparator(')'));
    ASSIGN_OR_RETURN(Value * v, ParseUse());
    inputs.push_back(v);
  }
  RETURN_IF_ERROR(Advance());
  Attrs attrs;
  if (tok_.IsPunct('{')) RETURN_IF_ERROR(ParseAttrs(attrs));
  std::string node_name;
  if (tok_.Is(TokenKind::kIdent, "name")) {
    RETURN_IF_ERROR(Advance());
    RETURN_IF_ERROR(Expect('='));
    if (tok_.kind != TokenKind::kString) return Expected("a quoted node name");
    node_name = tok_.text;
    RETURN_IF_ERROR(Advance());
  }
  std::vector<std::pair<TensorType, Pos>> types;
  if (tok_.IsPunct(':')) {
    const Pos colon = PosOf(tok_);
    RETURN_IF_ERROR(Advance());
    const bool tuple = tok_.IsPunct('(');
    if (tuple) RETURN_IF_ERROR(Advance());
    do {
      if (!types.empty()) RETURN_IF_ERROR(Advance());  // ','
      const Pos p = PosOf(tok_);
      ASSIGN_OR_RETURN(TensorType t, ParseType());
      types.emplace_back(std::move(t), p);
    } while (tuple && tok_.IsPunct(','));
    if (tuple) RETURN_IF_ERROR(Expect(')'));
    if (types.size() != results.size()) {
      return ErrorAt(colon, absl::StrCat(results.size(), " results but ", types.size(),
                                         " result types"));
    }
  }
  std::vector<std::string> names;
  for (const Token& r : results) {
    names.push_back(r.text);
    defined_at_[r.text] = PosOf(r);
  }
  Node* node = graph_->AddNode(op.text, std::move(inputs), std::move(attrs),
                               static_cast<int>(results.size()), node_name, names);
  node_pos_[node] = PosOf(op);
  for (size_t i = 0; i < types.size(); ++i) {
    declared_.push_back({node->output(i), types[i].first, types[i].second});
  }
  return absl::OkStatus();
}

// Types are inferred with no result type set, so the failing op is the first
// with an untyped result; written types are compared afterwards.
absl::Status Parser::InferAndCheckTypes() {
  absl::Status status = InferTypes(*graph_);
  if (!status.ok()) {
    for (const Node* node : graph_->nodes()) {
      for (const Value* out : node->outputs()) {
        if (!out->type()) return ErrorAt(node_pos_[node], status.message());
      }
    }
    return absl::InvalidArgumentError(absl::StrCat(filename_, ": ", status.message()));
  }
  for (const Declared& d : declared_) {
    if (*d.value->type() != d.type) {
      return ErrorAt(d.pos, absl::StrCat(d.value->producer()->Describe(), ": result %",
                                         internal::FormatName(d.value->name()), " is declared ",
                                         d.type.ToString(), " but the op gives ",
                                         d.value->type()->ToString()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Graph>> Parser::Parse() {
  RETURN_IF_ERROR(Advance());
  RETURN_IF_ERROR(ExpectKeyword("graph"));
  if (tok_.kind != TokenKind::kGraphName) return Expected("a graph name ('@main')");
  graph_->set_name(tok_.text);
  RETURN_IF_ERROR(Advance());
  RETURN_IF_ERROR(Expect('('));
  while (!tok_.IsPunct(')')) {
    if (!graph_->inputs().empty()) RETURN_IF_ERROR(ExpectSeparator(')'));
    RETURN_IF_ERROR(ParseParam());
  }
  RETURN_IF_ERROR(Advance());
  RETURN_IF_ERROR(Expect('{'));
  while (!tok_.Is(TokenKind::kIdent, "return")) {
    if (tok_.kind != TokenKind::kValueName) {
      return Expected("a statement ('%name = ...') or 'return'");
    }
    RETURN_IF_ERROR(ParseStatement());
  }
  RETURN_IF_ERROR(Advance());
  std::vector<Value*> outputs;
  if (tok_.kind == TokenKind::kValueName) {
    while (true) {
      ASSIGN_OR_RETURN(Value * v, ParseUse());
      outputs.push_back(v);
      if (!tok_.IsPunct(',')) break;
      RETURN_IF_ERROR(Advance());
    }
  }
  RETURN_IF_ERROR(Expect('}'));
  if (tok_.kind != TokenKind::kEnd) return Expected("end of input");
  graph_->SetOutputs(std::move(outputs));
  RETURN_IF_ERROR(InferAndCheckTypes());
  return std::move(graph_);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Graph>> ParseGraph(absl::string_view text,
                                                  absl::string_view filename) {
  return Parser(text, filename).Parse();
}

}  // namespace qnnc::ir
