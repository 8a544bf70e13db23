#include "ir/conv_epilogue.h"

#include <algorithm>

namespace qnnc::ir {
namespace {

bool IsConv(const Node& n) {
  return n.op() == "nn.conv2d" || n.op() == "qnn.conv2d" || n.op() == "nn.dense" ||
         n.op() == "qnn.dense";
}

bool ScalarConstant(const Value* v) { return v->is_constant() && v->data().num_elements() == 1; }

std::string WhyNotFusable(const ConvEpilogue& e) {
  const Node& r = *e.requantize;
  if (r.inputs().size() != 5) return "the requantize does not have 5 inputs";
  if (!e.view.nearest_even()) return std::string("rounding ") + tensor::RoundingName(e.view.rounding) + " (a fused epilogue rounds to nearest even)";
  if (!r.input(1)->is_constant() || !r.input(3)->is_constant()) return "run-time requantize scales";
  if (!ScalarConstant(r.input(2)) || r.input(2)->data().GetAsDouble(0) != 0) {
    return "requantize input zero point is not a constant 0";
  }
  if (!ScalarConstant(r.input(4))) return "requantize output zero point is not one constant";
  for (const Node* add : e.bias_adds) {
    if (!add->input(1)->is_constant()) return "run-time bias";
  }
  return "";
}

std::optional<ConvEpilogue> Finish(ConvEpilogue e) {
  auto view = RequantizeView::Of(*e.requantize);
  if (!view.ok()) return std::nullopt;  // a malformed requantize: InferTypes names it
  e.view = *view;
  std::reverse(e.bias_adds.begin(), e.bias_adds.end());
  e.not_fusable = WhyNotFusable(e);
  return e;
}

}  // namespace

const Node* SoleUser(const Graph& graph, const Value* v) {
  const Node* user = nullptr;
  int uses = static_cast<int>(std::count(graph.outputs().begin(), graph.outputs().end(), v));
  for (const Node* n : graph.nodes()) {
    for (const Value* in : n->inputs()) {
      if (in != v) continue;
      ++uses;
      user = n;
    }
  }
  return uses == 1 ? user : nullptr;
}

std::optional<ConvEpilogue> MatchConvEpilogue(const Graph& graph, const Node& requantize) {
  if (requantize.op() != "qnn.requantize" || requantize.inputs().empty()) return std::nullopt;
  ConvEpilogue e;
  e.requantize = &requantize;
  const Value* v = requantize.input(0);
  while (v->producer() != nullptr && v->producer()->op() == "nn.bias_add" &&
         SoleUser(graph, v) != nullptr) {
    e.bias_adds.push_back(v->producer());
    v = v->producer()->input(0);
  }
  if (v->producer() == nullptr || !IsConv(*v->producer()) || SoleUser(graph, v) == nullptr) {
    return std::nullopt;
  }
  e.conv = v->producer();
  return Finish(std::move(e));
}

std::optional<ConvEpilogue> MatchConvEpilogueFrom(const Graph& graph, const Node& conv) {
  if (!IsConv(conv)) return std::nullopt;
  const Node* user = SoleUser(graph, conv.output());
  while (user != nullptr && user->op() == "nn.bias_add") user = SoleUser(graph, user->output());
  if (user == nullptr || user->op() != "qnn.requantize") return std::nullopt;
  // Backwards the chain follows each bias_add's data operand: it must lead
  // here again.
  std::optional<ConvEpilogue> e = MatchConvEpilogue(graph, *user);
  if (!e || e->conv != &conv) return std::nullopt;
  return e;
}

}  // namespace qnnc::ir
