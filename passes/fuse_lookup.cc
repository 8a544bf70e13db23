#include "passes/fuse_lookup.h"

#include <map>
#include <set>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "runtime/node_evaluator.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using tensor::DType;
using tensor::Tensor;

bool IsByte(DType d) { return d == DType::kU8 || d == DType::kI8; }

bool IsScalarConstant(const ir::Value* v) { return v->is_constant() && v->data().num_elements() == 1; }

// A qnn.dequantize/quantize with per-tensor constant parameters.
bool PerTensor(const ir::Node* n) { return IsScalarConstant(n->input(1)) && IsScalarConstant(n->input(2)); }

const absl::flat_hash_set<std::string>& ElementwiseOps() {
  static const auto* ops = new absl::flat_hash_set<std::string>{
      "relu",     "clip",     "sigmoid",  "tanh",     "leaky_relu", "hard_sigmoid", "hard_swish",
      "round",    "add",      "subtract", "multiply", "divide",     "maximum",      "minimum"};
  return *ops;
}

// The chain feeding a quantize: its nodes in topological order and the one
// dequantized value it reads (besides scalar constants).
struct Chain {
  std::vector<ir::Node*> nodes;
  std::set<const ir::Node*> members;
  ir::Value* source = nullptr;  // the qnn.dequantize's output
};

bool Collect(ir::Value* v, Chain& c) {
  if (IsScalarConstant(v)) return true;
  ir::Node* p = v->producer();
  if (p == nullptr || !v->type()) return false;
  if (p->op() == "qnn.dequantize") {
    if (!PerTensor(p) || !p->input(0)->type() || !IsByte(p->input(0)->type()->dtype)) return false;
    if (c.source != nullptr && c.source != v) return false;
    c.source = v;
    return true;
  }
  if (!ElementwiseOps().contains(p->op()) || p->outputs().size() != 1) return false;
  if (c.members.count(p)) return true;
  for (ir::Value* in : p->inputs()) {
    if (!Collect(in, c)) return false;
  }
  c.members.insert(p);
  c.nodes.push_back(p);
  return true;
}

// Values a chain node makes are used only inside the chain (or, for the
// last, only by the quantize), so the chain can go.
bool SelfContained(const ir::Graph& g, const Chain& c, const ir::Node* quantize) {
  std::map<const ir::Value*, int> inside;
  for (const ir::Node* n : c.nodes) {
    for (const ir::Value* in : n->inputs()) ++inside[in];
  }
  ++inside[quantize->input(0)];
  for (const ir::Node* n : c.nodes) {
    if (g.CountUses(n->output()) != inside[n->output()]) return false;
    if (n->output()->type()->shape != c.source->type()->shape) return false;  // no broadcast
  }
  return true;
}

// The chain on every byte value: [1, 256] through the reference kernels.
absl::StatusOr<Tensor> Tabulate(const Chain& c, const ir::Node* quantize) {
  const ir::Node* dq = c.source->producer();
  Tensor bytes = Tensor::Zeros(dq->input(0)->type()->dtype, {1, 256});
  for (int b = 0; b < 256; ++b) static_cast<uint8_t*>(bytes.raw_data())[b] = static_cast<uint8_t>(b);
  std::map<const ir::Value*, Tensor> values;
  auto value_of = [&](const ir::Value* v) { return v->is_constant() ? v->data() : values.at(v); };
  ASSIGN_OR_RETURN(auto d, runtime::EvaluateNode(*dq, {bytes, dq->input(1)->data(), dq->input(2)->data()}));
  values[c.source] = d[0];
  for (const ir::Node* n : c.nodes) {
    std::vector<Tensor> args;
    for (const ir::Value* in : n->inputs()) args.push_back(value_of(in));
    ASSIGN_OR_RETURN(auto r, runtime::EvaluateNode(*n, args));
    values[n->output()] = r[0];
  }
  ASSIGN_OR_RETURN(auto q, runtime::EvaluateNode(*quantize, {value_of(quantize->input(0)),
                                                             quantize->input(1)->data(),
                                                             quantize->input(2)->data()}));
  if (q[0].num_elements() != 256) return absl::InternalError("the table does not have 256 entries");
  return q[0].Reshaped({256});
}

}  // namespace

absl::StatusOr<int> FuseLookup(ir::Graph& graph) {
  int fused = 0;
  for (ir::Node* q : graph.nodes()) {
    if (q->op() != "qnn.quantize" || !PerTensor(q) || !q->output()->type() ||
        !IsByte(q->output()->type()->dtype) || !q->input(0)->type()) {
      continue;
    }
    Chain c;
    if (!Collect(q->input(0), c) || c.source == nullptr || c.nodes.empty() ||
        !SelfContained(graph, c, q)) {
      continue;
    }
    auto table = Tabulate(c, q);
    if (!table.ok()) continue;  // an op the reference refuses stays as it is
    ir::Value* t = graph.AddConstant(q->output()->name() + "_table", *std::move(table));
    ir::Node* lookup = graph.InsertNodeBefore(q, "qnn.lookup", {c.source->producer()->input(0), t}, {}, 1,
                                              q->name().empty() ? "" : q->name() + "_lookup");
    lookup->output()->set_type(*q->output()->type());
    graph.ReplaceAllUsesWith(q->output(), lookup->output());
    ++fused;
  }
  if (fused > 0) graph.RemoveDeadCode();
  RETURN_IF_ERROR(graph.Verify());
  return fused;
}

}  // namespace qnnc::passes
