// The AlterOpLayout rules by op: how an op between blocked convolutions runs
// in the altered layout its producers come back from, and the helpers the
// rules share. Each op family's rules are in ops/<family>/<family>_layout.cc.
#ifndef QNNC_PASSES_LAYOUT_RULES_H_
#define QNNC_PASSES_LAYOUT_RULES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/layout.h"
#include "util/status_macros.h"

namespace qnnc::passes {

// A rule replaces `n` (of the op it is registered for) by the same op in an
// altered layout with one transform after it, or leaves it alone (OK).
using LayoutRule = absl::Status (*)(ir::Graph& graph, ir::Node* n);

class LayoutRules {
 public:
  // Adds the rule of `op`; a second rule for one op aborts (the built-in
  // rules are unique per op).
  void Add(const std::string& op, LayoutRule rule);
  // The rule of `op`, or nullptr.
  const LayoutRule* Find(const std::string& op) const;
  const std::map<std::string, LayoutRule>& rules() const { return rules_; }

  // The rules of the built-in op families (builtin_layout_rules.cc).
  static const LayoutRules& Builtin();

 private:
  std::map<std::string, LayoutRule> rules_;
};

// Each op family with rules adds them with Add<Family>LayoutRules(
// LayoutRules&) in ops/<family>/<family>_layout.cc; the generated
// builtin_layout_rules.cc (ops/op_family.bzl) declares them and Builtin()
// calls them all.

// Adds a node and types its results at once (later nodes of this pass read
// them).
absl::StatusOr<ir::Node*> AddTyped(ir::Graph& graph, const std::string& op,
                                   std::vector<ir::Value*> inputs, ir::Attrs attrs,
                                   const std::string& name = "", size_t outputs = 1);

// Replaces `n` by the same op on blocked operands (`inputs`, `attrs`), its
// first result going back to NCHW (`channels`) through one transform; other
// results (a range, scale, zero point) do not depend on the layout.
absl::Status RunBlocked(ir::Graph& graph, ir::Node* n, const ir::Layout& layout,
                        std::vector<ir::Value*> inputs, ir::Attrs attrs, int64_t channels);

// The layout `v` comes back from (v = layout_transform(x: L -> NCHW), L
// blocked or NHWC), or none.
std::optional<ir::Layout> AlteredSource(const ir::Value* v);

// Whether `v` holds one element (a per-tensor parameter).
bool OneElement(const ir::Value* v);

// The channels of a rank-4 NCHW type, and whether they fill whole blocks
// of `layout` (no padding lanes).
bool WholeBlocks(const ir::TensorType& t, const ir::Layout& layout);

// The `layout` of an op whose view `View` has one.
template <typename View>
absl::StatusOr<ir::Layout> LayoutOf(const ir::Node& n) {
  ASSIGN_OR_RETURN(View v, View::Of(n));
  return v.layout;
}

// Ops with a `layout` attribute that work channel by channel run in the
// altered layout their input comes back from, lane by lane as each lane's
// channel (exact), with one transform after them. Padding lanes compute
// values nobody reads: convolutions weigh them 0, the transform back drops
// them, DynamicQuantizeLinear runs blocked only on whole blocks or with its
// producer's range. `n` runs so when its `layout` (read by `layout_of`, from
// the op's view) is NCHW and its input comes back from NCHW{k}c, or from
// NHWC as well if `nhwc_too`; its data is f32, or u8/i8 as well if
// `bytes_too`.
absl::Status RunPerLane(ir::Graph& graph, ir::Node* n, bool nhwc_too, bool bytes_too,
                        absl::StatusOr<ir::Layout> (*layout_of)(const ir::Node&));

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_LAYOUT_RULES_H_
