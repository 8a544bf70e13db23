#include "passes/fuse_lookup.h"

#include <map>
#include <set>
#include <vector>

#include "eval/node_evaluator.h"
#include "ir/op_registry.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using tensor::DType;
using tensor::Tensor;

bool IsByte(DType d) { return d == DType::kU8 || d == DType::kI8; }

bool IsScalarConstant(const ir::Value* v) { return v->is_constant() && v->data().num_elements() == 1; }

// How many leading inputs of an element-wise op are data (each output
// element a function of the same element of each; the rest are parameters,
// which must be constants: per tensor, or the table of a lookup), or 0 for
// an op that is not element-wise (its definition says, ir/op_registry.h).
size_t DataOperands(const ir::Node& n) {
  const ir::OpDef* def = ir::OpRegistry::Global().Find(n.op());
  return def == nullptr ? 0 : static_cast<size_t>(def->elementwise_inputs);
}

bool ConstantParams(const ir::Node& n) {
  for (size_t i = DataOperands(n); i < n.inputs().size(); ++i) {
    const ir::Value* v = n.input(i);
    if (n.op() == "qnn.lookup" ? !v->is_constant() : !IsScalarConstant(v)) return false;
  }
  return true;
}

// The chain ending at a value: its nodes in topological order and the one
// 8-bit value it reads (besides scalar constants).
struct Chain {
  std::vector<ir::Node*> nodes;
  std::set<const ir::Node*> members;
  ir::Value* source = nullptr;
};

// Walks back from `v`: through element-wise ops while every path ends at
// scalar constants or one 8-bit source value. An 8-bit value is tried as a
// member first (so a dequantize -> ... -> quantize run folds whole), then
// as the source.
bool Collect(ir::Value* v, Chain& c) {
  if (IsScalarConstant(v)) return true;
  if (!v->type()) return false;
  ir::Node* p = v->producer();
  if (p != nullptr && c.members.count(p)) return true;
  if (p != nullptr && DataOperands(*p) > 0 && p->outputs().size() == 1 && ConstantParams(*p)) {
    Chain tried = c;
    bool ok = true;
    for (size_t i = 0; ok && i < DataOperands(*p); ++i) ok = Collect(p->input(i), tried);
    if (ok) {
      tried.members.insert(p);
      tried.nodes.push_back(p);
      c = std::move(tried);
      return true;
    }
  }
  if (!IsByte(v->type()->dtype) || (c.source != nullptr && c.source != v)) return false;
  c.source = v;
  return true;
}

// Values a chain node makes are used only inside the chain (or, for the
// root, anywhere), and all have the source's shape (no broadcasting).
bool SelfContained(const ir::Graph& g, const Chain& c, const ir::Node* root) {
  std::map<const ir::Value*, int> inside;
  for (const ir::Node* n : c.nodes) {
    for (const ir::Value* in : n->inputs()) ++inside[in];
  }
  for (const ir::Node* n : c.nodes) {
    if (n->output()->type()->shape != c.source->type()->shape) return false;
    if (n != root && g.CountUses(n->output()) != inside[n->output()]) return false;
  }
  return true;
}

// The chain on every byte value: [1, 256] through the reference kernels.
absl::StatusOr<Tensor> Tabulate(const Chain& c) {
  Tensor bytes = Tensor::Zeros(c.source->type()->dtype, {1, 256});
  for (int b = 0; b < 256; ++b) static_cast<uint8_t*>(bytes.raw_data())[b] = static_cast<uint8_t>(b);
  std::map<const ir::Value*, Tensor> values;
  values[c.source] = bytes;
  auto value_of = [&](const ir::Value* v) { return v->is_constant() ? v->data() : values.at(v); };
  for (const ir::Node* n : c.nodes) {
    std::vector<Tensor> args;
    for (const ir::Value* in : n->inputs()) args.push_back(value_of(in));
    ASSIGN_OR_RETURN(auto r, eval::EvaluateNode(*n, args));
    values[n->output()] = r[0];
  }
  const Tensor& last = values.at(c.nodes.back()->output());
  if (last.num_elements() != 256) return absl::InternalError("the table does not have 256 entries");
  return last.Reshaped({256});
}

}  // namespace

absl::StatusOr<int> FuseLookup(ir::Graph& graph) {
  int fused = 0;
  for (ir::Node* root : graph.nodes()) {
    // Roots: element-wise ops with an 8-bit result that is not already one
    // table of one source.
    if (DataOperands(*root) == 0 || root->outputs().size() != 1 || !root->output()->type() ||
        !IsByte(root->output()->type()->dtype) || graph.CountUses(root->output()) == 0) {
      continue;
    }
    Chain c;
    if (!Collect(root->output(), c) || c.source == nullptr || c.nodes.empty() || c.nodes.back() != root ||
        (c.nodes.size() == 1 && root->op() == "qnn.lookup") || !SelfContained(graph, c, root)) {
      continue;
    }
    auto table = Tabulate(c);
    if (!table.ok()) continue;  // an op the reference refuses stays as it is
    ir::Value* t = graph.AddConstant(root->output()->name() + "_table", *std::move(table));
    ir::Node* lookup = graph.InsertNodeBefore(root, "qnn.lookup", {c.source, t}, {}, 1,
                                              root->name().empty() ? "" : root->name() + "_lookup");
    lookup->output()->set_type(*root->output()->type());
    graph.ReplaceAllUsesWith(root->output(), lookup->output());
    ++fused;
  }
  if (fused > 0) graph.RemoveDeadCode();
  RETURN_IF_ERROR(graph.Verify());
  return fused;
}

}  // namespace qnnc::passes
