#include "passes/gather_channels.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

#include "eval/node_evaluator.h"
#include "ir/layout_views.h"
#include "util/status_macros.h"

namespace qnnc::passes {
namespace {

using tensor::DType;
using tensor::Tensor;

// Chains longer than this, or tensors with more elements, are left alone:
// the positions are evaluated at compile time.
constexpr size_t kMaxChain = 8;
constexpr int64_t kMaxElements = int64_t{1} << 22;

// An op that moves elements without changing them, with one data input.
bool Moves(const ir::Node& n) {
  if (n.outputs().size() != 1 || n.inputs().empty() || !n.output()->type()) return false;
  if (n.op() == "take") {
    const absl::StatusOr<ir::TakeView> take = ir::TakeView::Of(n);
    return n.inputs().size() == 2 && n.input(1)->is_constant() && take.ok() && !take->blocked();
  }
  return (n.op() == "reshape" || n.op() == "transpose" || n.op() == "strided_slice") && n.inputs().size() == 1;
}

// `x` can start a gather ending in `end`: rank 4, the same N, H and W, no
// empty dimension on either side (positions need at least one element per
// channel and pixel).
bool Candidate(const ir::Value* x, const ir::TensorType& end) {
  if (!x->type() || x->type()->rank() != 4 || x->type()->dtype != end.dtype) return false;
  const tensor::Shape& s = x->type()->shape;
  auto positive = [](const tensor::Shape& d) { return std::all_of(d.begin(), d.end(), [](int64_t v) { return v > 0; }); };
  return positive(s) && positive(end.shape) && s[0] == end.shape[0] && s[2] == end.shape[2] &&
         s[3] == end.shape[3] && std::accumulate(s.begin(), s.end(), int64_t{1}, std::multiplies<>()) <= kMaxElements;
}

// The chain (`nodes`, first to last) run on the positions of `x`: the
// channel of x each output channel holds, when every element of the result
// is that channel's element at the same n, h, w; nullopt otherwise.
std::optional<std::vector<int32_t>> ChannelMap(const ir::Value* x, const std::vector<const ir::Node*>& nodes) {
  const tensor::Shape& s = x->type()->shape;
  const int64_t c = s[1], hw = s[2] * s[3];
  std::vector<int32_t> positions(static_cast<size_t>(s[0] * c * hw));
  std::iota(positions.begin(), positions.end(), 0);
  Tensor value = Tensor::FromVector<int32_t>(s, positions);
  for (const ir::Node* n : nodes) {
    std::vector<Tensor> args{value};
    for (size_t i = 1; i < n->inputs().size(); ++i) args.push_back(n->input(i)->data());
    auto r = eval::EvaluateNode(*n, args);
    if (!r.ok() || r->size() != 1) return std::nullopt;
    value = (*r)[0];
  }
  const tensor::Shape& o = value.shape();
  if (o.size() != 4 || o[0] != s[0] || o[2] != s[2] || o[3] != s[3]) return std::nullopt;
  const auto* got = static_cast<const int32_t*>(value.raw_data());
  std::vector<int32_t> map(static_cast<size_t>(o[1]));
  for (int64_t j = 0; j < o[1]; ++j) {
    const int32_t first = got[j * hw];
    if (first % hw != 0 || first / hw >= c) return std::nullopt;
    map[j] = static_cast<int32_t>(first / hw);
  }
  for (int64_t n = 0; n < o[0]; ++n) {
    for (int64_t j = 0; j < o[1]; ++j) {
      const int32_t* plane = got + (n * o[1] + j) * hw;
      const int64_t base = (n * c + map[j]) * hw;
      for (int64_t p = 0; p < hw; ++p) {
        if (plane[p] != base + p) return std::nullopt;
      }
    }
  }
  return map;
}

bool Identity(const std::vector<int32_t>& map, int64_t channels) {
  if (static_cast<int64_t>(map.size()) != channels) return false;
  for (size_t i = 0; i < map.size(); ++i) {
    if (map[i] != static_cast<int32_t>(i)) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<int> GatherChannels(ir::Graph& graph) {
  int replaced = 0;
  for (ir::Node* end : graph.nodes()) {
    if (!Moves(*end) || end->output()->type()->rank() != 4 || graph.CountUses(end->output()) == 0) continue;
    const ir::TensorType& type = *end->output()->type();
    // Walk up through moving ops; each rank-4 value on the way may start
    // the gather, the furthest first.
    std::vector<const ir::Node*> chain{end};
    std::vector<std::pair<ir::Value*, size_t>> starts;  // (x, how many chain nodes)
    for (ir::Value* v = end->input(0);;) {
      if (Candidate(v, type)) starts.emplace_back(v, chain.size());
      const ir::Node* p = v->producer();
      if (p == nullptr || !Moves(*p) || chain.size() == kMaxChain) break;
      chain.push_back(p);
      v = p->input(0);
    }
    for (auto it = starts.rbegin(); it != starts.rend(); ++it) {
      auto [x, length] = *it;
      if (length == 1 && end->op() == "take") break;  // already one gather of x
      std::vector<const ir::Node*> nodes(chain.begin(), chain.begin() + length);
      std::reverse(nodes.begin(), nodes.end());
      std::optional<std::vector<int32_t>> map = ChannelMap(x, nodes);
      if (!map) continue;
      if (Identity(*map, x->type()->shape[1])) {
        graph.ReplaceAllUsesWith(end->output(), x);
      } else {
        const int64_t count = static_cast<int64_t>(map->size());
        ir::Value* indices = graph.AddConstant(end->output()->name() + "_channels",
                                               Tensor::FromVector<int32_t>({count}, *map));
        ir::Attrs attrs;
        attrs.Set("axis", int64_t{1});
        ir::Node* take = graph.InsertNodeBefore(end, "take", {x, indices}, attrs, 1, end->name());
        take->output()->set_type(type);
        graph.ReplaceAllUsesWith(end->output(), take->output());
      }
      ++replaced;
      break;
    }
  }
  if (replaced > 0) graph.RemoveDeadCode();
  RETURN_IF_ERROR(graph.Verify());
  return replaced;
}

}  // namespace qnnc::passes
