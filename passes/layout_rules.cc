// The registry of AlterOpLayout rules by op and the helpers the rules share.
#include "passes/layout_rules.h"

#include <cstdio>
#include <cstdlib>

#include "ir/layout.h"
#include "ir/layout_views.h"
#include "ir/op_registry.h"
#include "util/status_macros.h"

namespace qnnc::passes {

using ir::Attrs;
using ir::Node;
using ir::Value;

void LayoutRules::Add(const std::string& op, LayoutRule rule) {
  if (!rules_.emplace(op, rule).second) {
    std::fprintf(stderr, "qnnc internal error: op '%s' has two layout rules\n", op.c_str());
    std::abort();
  }
}

const LayoutRule* LayoutRules::Find(const std::string& op) const {
  auto it = rules_.find(op);
  return it == rules_.end() ? nullptr : &it->second;
}

absl::StatusOr<Node*> AddTyped(ir::Graph& graph, const std::string& op, std::vector<Value*> inputs,
                               Attrs attrs, const std::string& name, size_t outputs) {
  Node* node = graph.AddNode(op, std::move(inputs), std::move(attrs), outputs, name);
  std::vector<ir::TensorType> types;
  for (const Value* v : node->inputs()) types.push_back(*v->type());
  ASSIGN_OR_RETURN(auto out, ir::OpRegistry::Global().InferNode(*node, types));
  for (size_t i = 0; i < outputs && i < out.size(); ++i) node->output(i)->set_type(out[i]);
  return node;
}

absl::Status RunBlocked(ir::Graph& graph, Node* n, const ir::Layout& layout,
                        std::vector<Value*> inputs, Attrs attrs, int64_t channels) {
  ASSIGN_OR_RETURN(Node* blocked, AddTyped(graph, n->op(), std::move(inputs), std::move(attrs),
                                           n->name(), n->outputs().size()));
  ASSIGN_OR_RETURN(Node* back, AddTyped(graph, "layout_transform", {blocked->output(0)},
                                        ir::LayoutTransformAttrs(layout, ir::Layout::Nchw(), channels)));
  graph.ReplaceAllUsesWith(n->output(0), back->output());
  for (size_t i = 1; i < n->outputs().size(); ++i) graph.ReplaceAllUsesWith(n->output(i), blocked->output(i));
  return absl::OkStatus();
}

std::optional<ir::Layout> AlteredSource(const Value* v) {
  const Node* t = v->producer();
  if (t == nullptr || t->op() != "layout_transform") return std::nullopt;
  absl::StatusOr<ir::LayoutTransformView> view = ir::LayoutTransformView::Of(*t);
  if (!view.ok() || !view->dst_layout.is_nchw() || !view->src_layout.altered()) return std::nullopt;
  return view->src_layout;
}

bool OneElement(const Value* v) {
  int64_t n = 1;
  for (int64_t d : v->type()->shape) n *= d;
  return n == 1;
}

bool WholeBlocks(const ir::TensorType& t, const ir::Layout& layout) {
  const int64_t block = layout.channel_block();
  return t.rank() == 4 && block > 0 && t.shape[1] % block == 0;
}

absl::Status RunPerLane(ir::Graph& graph, Node* n, bool nhwc_too, bool bytes_too,
                        absl::StatusOr<ir::Layout> (*layout_of)(const Node&)) {
  const absl::StatusOr<ir::Layout> current = layout_of(*n);
  if (!current.ok() || !current->is_nchw()) return absl::OkStatus();
  const std::optional<ir::Layout> layout = AlteredSource(n->input(0));
  const ir::TensorType& t = *n->input(0)->type();
  const bool dtype_ok = t.dtype == tensor::DType::kF32 ||
                        (bytes_too && (t.dtype == tensor::DType::kU8 || t.dtype == tensor::DType::kI8));
  if (!layout || (!nhwc_too && !layout->blocked()) || t.rank() != 4 || !dtype_ok) {
    return absl::OkStatus();
  }
  Attrs attrs = n->attrs();
  attrs.Set("layout", layout->str());
  std::vector<Value*> inputs = n->inputs();  // the data, then any parameters
  inputs[0] = n->input(0)->producer()->input(0);
  return RunBlocked(graph, n, *layout, inputs, attrs, t.shape[1]);
}

}  // namespace qnnc::passes
