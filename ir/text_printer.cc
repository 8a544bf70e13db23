#include "ir/text_printer.h"

#include <optional>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/text_lexer.h"
#include "ir/text_util.h"

namespace qnnc::ir {
namespace {

using internal::FormatName;
using internal::QuoteString;

std::string ValueRef(const Value* v) {
  return v == nullptr ? std::string("%<null>") : absl::StrCat("%", FormatName(v->name()));
}

std::string TypeText(const std::optional<TensorType>& t) { return t ? t->ToString() : "?"; }

// Element i of `t` as written inline, or nullopt when it has no exact inline form.
std::optional<std::string> Element(const tensor::Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::kF32: return internal::FormatF32(t.data<float>()[i]);
    case DType::kF16: return internal::FormatF16(t.data<uint16_t>()[i]);
    case DType::kBool: {
      uint8_t b = t.data<uint8_t>()[i];
      if (b > 1) return std::nullopt;
      return std::string(b ? "true" : "false");
    }
    default: return absl::StrCat(t.GetAsInt(i));
  }
}

std::optional<std::string> InlineData(const tensor::Tensor& t) {
  if (t.num_elements() > 0 && !t.defined()) return std::nullopt;
  std::vector<std::string> items;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    std::optional<std::string> e = Element(t, i);
    if (!e) return std::nullopt;
    items.push_back(*std::move(e));
  }
  if (t.rank() == 0 && items.size() == 1) return items[0];
  return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
}

// The bytes as they are in memory: little-endian on every supported host.
std::string HexData(const tensor::Tensor& t) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out = "hex\"";
  out.reserve(t.byte_size() * 2 + 5);
  const uint8_t* bytes = t.defined() ? t.data<uint8_t>() : nullptr;
  for (size_t i = 0; bytes != nullptr && i < t.byte_size(); ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out + "\"";
}

std::string ConstantData(const tensor::Tensor& t, const PrintOptions& options) {
  if (t.num_elements() <= options.max_inline_elements) {
    if (std::optional<std::string> s = InlineData(t)) return *s;
  }
  return HexData(t);
}

struct AttrPrinter {
  std::string operator()(int64_t v) const { return absl::StrCat(v); }
  std::string operator()(double v) const { return internal::FormatF64(v); }
  std::string operator()(const std::string& v) const { return QuoteString(v); }
  std::string operator()(const std::vector<int64_t>& v) const {
    return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
  }
  std::string operator()(const std::vector<double>& v) const {
    if (v.empty()) return "float[]";  // a bare [] is an empty list of ints
    std::vector<std::string> items;
    for (double d : v) items.push_back(internal::FormatF64(d));
    return absl::StrCat("[", absl::StrJoin(items, ", "), "]");
  }
};

std::string AttrName(const std::string& name) {
  // inf and nan lex as numbers, so they are quoted like any non-identifier.
  if (internal::IsIdentifier(name) && name != "inf" && name != "nan") return name;
  return QuoteString(name);
}

void PrintNode(const Node& node, std::string& out) {
  std::vector<std::string> results, inputs, types;
  bool typed = true;
  for (const Value* v : node.outputs()) {
    results.push_back(ValueRef(v));
    typed = typed && v->type().has_value();
    if (v->type()) types.push_back(v->type()->ToString());
  }
  for (const Value* v : node.inputs()) inputs.push_back(ValueRef(v));
  const std::string op =
      internal::IsIdentifier(node.op()) ? node.op() : QuoteString(node.op());
  absl::StrAppend(&out, "  ", absl::StrJoin(results, ", "), " = ", op, "(",
                  absl::StrJoin(inputs, ", "), ")");
  if (!node.attrs().map().empty()) {
    std::vector<std::string> attrs;
    for (const auto& [name, value] : node.attrs().map()) {
      attrs.push_back(absl::StrCat(AttrName(name), " = ", std::visit(AttrPrinter(), value)));
    }
    absl::StrAppend(&out, " {", absl::StrJoin(attrs, ", "), "}");
  }
  if (!node.name().empty()) absl::StrAppend(&out, " name=", QuoteString(node.name()));
  if (typed && types.size() == 1) absl::StrAppend(&out, " : ", types[0]);
  if (typed && types.size() > 1) absl::StrAppend(&out, " : (", absl::StrJoin(types, ", "), ")");
  out += "\n";
}

}  // namespace

std::string PrintGraph(const Graph& graph, const PrintOptions& options) {
  std::vector<std::string> params;
  for (const Value* in : graph.inputs()) {
    params.push_back(absl::StrCat(ValueRef(in), ": ", TypeText(in->type())));
  }
  std::string out = absl::StrCat("graph @", FormatName(graph.name()), "(",
                                 absl::StrJoin(params, ", "), ") {\n");
  for (const Value* c : graph.constants()) {
    const tensor::Tensor& data = c->data();
    absl::StrAppend(&out, "  ", ValueRef(c), " = const ",
                    TensorType{data.dtype(), data.shape()}.ToString(), " ",
                    ConstantData(c->data(), options), "\n");
  }
  for (const Node* node : graph.nodes()) PrintNode(*node, out);
  std::vector<std::string> outputs;
  for (const Value* v : graph.outputs()) outputs.push_back(ValueRef(v));
  absl::StrAppend(&out, "  return", outputs.empty() ? "" : " ", absl::StrJoin(outputs, ", "),
                  "\n}\n");
  return out;
}

}  // namespace qnnc::ir
