#include "ir/structural_equal.h"

#include <cmath>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace qnnc::ir {
namespace {

class Comparer {
 public:
  // Compares the values reached from a and b; records the first difference.
  bool Equal(const Value* a, const Value* b) {
    auto it = matched_.find(a);
    if (it != matched_.end()) return it->second == b || Fail(a, b, "are bound to different values");
    if (a->kind() != b->kind()) return Fail(a, b, "are of different kinds");
    if (a->type() != b->type()) {
      return Fail(a, b, absl::StrCat("have types ", a->type() ? a->type()->ToString() : "?",
                                     " and ", b->type() ? b->type()->ToString() : "?"));
    }
    switch (a->kind()) {
      case ValueKind::kInput:
        if (input_index_a_.at(a) != input_index_b_.at(b)) return Fail(a, b, "are different inputs");
        break;
      case ValueKind::kConstant:
        if (!a->data().BitwiseEquals(b->data())) return Fail(a, b, "hold different data");
        break;
      case ValueKind::kResult: {
        const Node* na = a->producer();
        const Node* nb = b->producer();
        if (a->output_index() != b->output_index()) return Fail(a, b, "are different outputs");
        if (na->op() != nb->op()) return Fail(a, b, absl::StrCat("come from ", na->op(), " and ", nb->op()));
        if (na->attrs() != nb->attrs()) return Fail(a, b, absl::StrCat("come from ", na->op(), " ops with different attributes"));
        if (na->inputs().size() != nb->inputs().size()) return Fail(a, b, "have different input counts");
        for (size_t i = 0; i < na->inputs().size(); ++i) {
          if (!Equal(na->input(i), nb->input(i))) return false;
        }
        break;
      }
    }
    matched_[a] = b;
    return true;
  }

  void IndexInputs(const Graph& a, const Graph& b) {
    for (size_t i = 0; i < a.inputs().size(); ++i) input_index_a_[a.inputs()[i]] = i;
    for (size_t i = 0; i < b.inputs().size(); ++i) input_index_b_[b.inputs()[i]] = i;
  }

  std::string diff;

 private:
  bool Fail(const Value* a, const Value* b, const std::string& why) {
    if (diff.empty()) diff = absl::StrCat("%", a->name(), " and %", b->name(), " ", why);
    return false;
  }

  absl::flat_hash_map<const Value*, const Value*> matched_;
  absl::flat_hash_map<const Value*, size_t> input_index_a_, input_index_b_;
};

}  // namespace

std::string StructuralDiff(const Graph& a, const Graph& b) {
  if (a.inputs().size() != b.inputs().size()) {
    return absl::StrCat("input counts differ: ", a.inputs().size(), " vs ", b.inputs().size());
  }
  for (size_t i = 0; i < a.inputs().size(); ++i) {
    if (a.inputs()[i]->type() != b.inputs()[i]->type()) return absl::StrCat("input ", i, " types differ");
  }
  if (a.outputs().size() != b.outputs().size()) {
    return absl::StrCat("output counts differ: ", a.outputs().size(), " vs ", b.outputs().size());
  }
  Comparer c;
  c.IndexInputs(a, b);
  for (size_t i = 0; i < a.outputs().size(); ++i) {
    if (!c.Equal(a.outputs()[i], b.outputs()[i])) return absl::StrCat("output ", i, ": ", c.diff);
  }
  return "";
}

}  // namespace qnnc::ir
