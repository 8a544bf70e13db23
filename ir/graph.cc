#include "ir/graph.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

namespace qnnc::ir {

std::string Node::Describe() const {
  if (name_.empty()) {
    return absl::StrCat("op '", op_, "' (result %", outputs_.empty() ? "?" : outputs_[0]->name(),
                        ")");
  }
  return absl::StrCat("op '", op_, "' (node '", name_, "')");
}

std::string Graph::UniqueName(const std::string& wanted) {
  if (wanted.empty()) {
    std::string n;
    do {
      n = absl::StrCat(next_id_++);
    } while (by_name_.count(n));
    return n;
  }
  if (!by_name_.count(wanted)) return wanted;
  for (int i = 1;; ++i) {
    std::string n = absl::StrCat(wanted, "_", i);
    if (!by_name_.count(n)) return n;
  }
}

Value* Graph::NewValue(ValueKind kind, const std::string& name) {
  auto v = std::make_unique<Value>();
  v->kind_ = kind;
  v->name_ = UniqueName(name);
  Value* raw = v.get();
  by_name_[raw->name_] = raw;
  values_.push_back(std::move(v));
  return raw;
}

Value* Graph::AddInput(const std::string& name, TensorType type) {
  Value* v = NewValue(ValueKind::kInput, name);
  v->type_ = std::move(type);
  inputs_.push_back(v);
  return v;
}

Value* Graph::AddConstant(const std::string& name, tensor::Tensor data) {
  Value* v = NewValue(ValueKind::kConstant, name);
  v->type_ = TensorType{data.dtype(), data.shape()};
  v->data_ = std::move(data);
  constants_.push_back(v);
  return v;
}

Node* Graph::AddNode(const std::string& op, std::vector<Value*> inputs, Attrs attrs,
                     int num_outputs, const std::string& name,
                     const std::vector<std::string>& output_names) {
  auto n = std::make_unique<Node>();
  n->op_ = op;
  n->name_ = name;
  n->inputs_ = std::move(inputs);
  n->attrs_ = std::move(attrs);
  for (int i = 0; i < num_outputs; ++i) {
    Value* v = NewValue(ValueKind::kResult, i < static_cast<int>(output_names.size())
                                                ? output_names[i]
                                                : std::string());
    v->producer_ = n.get();
    v->output_index_ = i;
    n->outputs_.push_back(v);
  }
  Node* raw = n.get();
  nodes_.push_back(std::move(n));
  return raw;
}

Node* Graph::InsertNodeBefore(const Node* position, const std::string& op,
                              std::vector<Value*> inputs, Attrs attrs, int num_outputs,
                              const std::string& name) {
  Node* n = AddNode(op, std::move(inputs), std::move(attrs), num_outputs, name);
  auto it = std::find_if(nodes_.begin(), nodes_.end(),
                         [&](const std::unique_ptr<Node>& p) { return p.get() == position; });
  if (it != nodes_.end()) {
    std::unique_ptr<Node> moved = std::move(nodes_.back());
    nodes_.pop_back();
    nodes_.insert(it, std::move(moved));
  }
  return n;
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

std::vector<Value*> Graph::constants() const { return constants_; }

Value* Graph::FindValue(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

void Graph::ReplaceAllUsesWith(Value* from, Value* to) {
  for (auto& n : nodes_) {
    for (auto& in : n->inputs_) {
      if (in == from) in = to;
    }
  }
  for (auto& out : outputs_) {
    if (out == from) out = to;
  }
}

void Graph::ReleaseConstantData(Value* constant) {
  if (constant->is_constant()) constant->data_ = tensor::Tensor();
}

int Graph::CountUses(const Value* v) const {
  int uses = 0;
  for (const auto& n : nodes_) uses += std::count(n->inputs_.begin(), n->inputs_.end(), v);
  uses += std::count(outputs_.begin(), outputs_.end(), v);
  return uses;
}

int Graph::RemoveDeadCode() {
  absl::flat_hash_set<const Value*> live(outputs_.begin(), outputs_.end());
  std::vector<bool> keep(nodes_.size(), false);
  for (int i = static_cast<int>(nodes_.size()) - 1; i >= 0; --i) {
    const Node& n = *nodes_[i];
    bool used = std::any_of(n.outputs_.begin(), n.outputs_.end(),
                            [&](const Value* v) { return live.count(v) > 0; });
    if (!used) continue;
    keep[i] = true;
    live.insert(n.inputs_.begin(), n.inputs_.end());
  }
  int removed = 0;
  std::vector<std::unique_ptr<Node>> kept;
  absl::flat_hash_set<const Value*> dead_values;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (keep[i]) {
      kept.push_back(std::move(nodes_[i]));
    } else {
      ++removed;
      for (Value* v : nodes_[i]->outputs_) dead_values.insert(v);
    }
  }
  nodes_ = std::move(kept);
  std::vector<Value*> constants;
  for (Value* c : constants_) {
    if (live.count(c)) {
      constants.push_back(c);
    } else {
      dead_values.insert(c);
    }
  }
  constants_ = std::move(constants);
  if (!dead_values.empty()) {
    for (const Value* v : dead_values) by_name_.erase(v->name());
    values_.erase(std::remove_if(values_.begin(), values_.end(),
                                 [&](const std::unique_ptr<Value>& v) {
                                   return dead_values.count(v.get()) > 0;
                                 }),
                  values_.end());
  }
  return removed;
}

absl::Status Graph::TopologicalSort() {
  absl::flat_hash_map<const Value*, Node*> producer;
  for (auto& n : nodes_) {
    for (Value* v : n->outputs_) producer[v] = n.get();
  }
  absl::flat_hash_map<const Node*, int> state;  // 0 new, 1 visiting, 2 done
  std::vector<std::unique_ptr<Node>> order;
  absl::flat_hash_map<const Node*, std::unique_ptr<Node>*> slot;
  for (auto& n : nodes_) slot[n.get()] = &n;
  // Iterative DFS keeps the original order where it is already valid.
  for (auto& root : nodes_) {
    if (root == nullptr || state[root.get()] == 2) continue;
    std::vector<std::pair<Node*, size_t>> stack{{root.get(), 0}};
    state[root.get()] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < node->inputs_.size()) {
        const Value* in = node->inputs_[next++];
        auto it = producer.find(in);
        if (it == producer.end()) continue;
        Node* dep = it->second;
        if (state[dep] == 1) {
          return absl::InvalidArgumentError(
              absl::StrCat("cycle in the graph through ", dep->Describe()));
        }
        if (state[dep] == 0) {
          state[dep] = 1;
          stack.push_back({dep, 0});
        }
        continue;
      }
      state[node] = 2;
      order.push_back(std::move(*slot[node]));
      stack.pop_back();
    }
  }
  nodes_ = std::move(order);
  return Verify();
}

absl::Status Graph::Verify() const {
  absl::flat_hash_set<const Value*> defined(inputs_.begin(), inputs_.end());
  defined.insert(constants_.begin(), constants_.end());
  for (const auto& n : nodes_) {
    for (size_t i = 0; i < n->inputs_.size(); ++i) {
      const Value* in = n->inputs_[i];
      if (in == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat(n->Describe(), ": input ", i, " is missing"));
      }
      if (!defined.count(in)) {
        return absl::InvalidArgumentError(absl::StrCat(
            n->Describe(), ": input ", i, " %", in->name(), " is used before it is defined"));
      }
    }
    defined.insert(n->outputs_.begin(), n->outputs_.end());
  }
  for (const Value* out : outputs_) {
    if (out == nullptr || !defined.count(out)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "graph output %", out ? out->name() : "?", " is not defined by the graph"));
    }
  }
  return absl::OkStatus();
}

std::unique_ptr<Graph> Graph::Clone() const {
  auto g = std::make_unique<Graph>();
  g->name_ = name_;
  g->next_id_ = next_id_;
  absl::flat_hash_map<const Value*, Value*> map;
  for (const Value* in : inputs_) map[in] = g->AddInput(in->name(), *in->type());
  for (const Value* c : constants_) map[c] = g->AddConstant(c->name(), c->data());
  for (const auto& n : nodes_) {
    std::vector<Value*> ins;
    for (const Value* in : n->inputs_) ins.push_back(map.count(in) ? map[in] : nullptr);
    std::vector<std::string> names;
    for (const Value* out : n->outputs_) names.push_back(out->name());
    Node* copy = g->AddNode(n->op_, std::move(ins), n->attrs_,
                            static_cast<int>(n->outputs_.size()), n->name_, names);
    for (size_t i = 0; i < n->outputs_.size(); ++i) {
      if (n->outputs_[i]->type()) copy->outputs_[i]->type_ = n->outputs_[i]->type();
      map[n->outputs_[i]] = copy->outputs_[i];
    }
  }
  for (const Value* out : outputs_) g->outputs_.push_back(map.count(out) ? map[out] : nullptr);
  return g;
}

}  // namespace qnnc::ir
