// The registries of a compilation: legalize functions keyed by (op, target
// key) and op strategies (lists of implementations) keyed the same way.
// Lookup goes from the target's most specific key to the generic ones
// (Target::Keys(): ..., arch, "cpu", "default"). Registering the same (op,
// key) twice is an error. Each target directory registers through one
// explicit function (RegisterGenericTarget, RegisterX86Target,
// RegisterArmTarget); RegisterAllTargets calls them all.
#ifndef QNNC_TARGET_REGISTRY_H_
#define QNNC_TARGET_REGISTRY_H_

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "target/dispatch_context.h"
#include "target/implementation.h"
#include "target/target.h"

namespace qnnc::target {

class Registry;

// What a legalize function sees besides the op.
struct LegalizeContext {
  const Target& target;
  const DispatchContext& dispatch;
  const Registry& registry;
  ir::Graph& graph;  // to add the replacement ops (before the op's position)
};

// A legalize call: the op's attributes, inputs, their types (tinfos) and its
// output type, with the context.
struct LegalizeCall {
  const ir::Node& node;
  const ir::Attrs& attrs;
  const std::vector<ir::Value*>& inputs;
  const std::vector<ir::TensorType>& tinfos;
  const ir::TensorType& out_type;
  LegalizeContext& context;
};

// Returns the value replacing the op's (single) output, or nullptr for
// "unchanged", or an error.
using LegalizeFn = std::function<absl::StatusOr<ir::Value*>(const LegalizeCall&)>;

class Registry {
 public:
  absl::Status RegisterLegalize(const std::string& op, const std::string& key, LegalizeFn fn);
  absl::Status RegisterImplementation(const std::string& op, const std::string& key,
                                      Implementation impl);

  // The legalize function for `op` under the most specific key of `target`
  // that has one; nullptr when none (not even "default").
  const LegalizeFn* FindLegalize(const std::string& op, const Target& target) const;
  // Every implementation of `op` registered under any key of `target`, the
  // most specific key's first.
  std::vector<const Implementation*> Implementations(const std::string& op,
                                                     const Target& target) const;
  const Implementation* FindImplementation(const std::string& op, const std::string& name) const;
  // Every op with implementations (any key).
  std::vector<std::string> TunableOps() const;
  // Checks that every op with implementations has a "default" legalize
  // function (so every target can legalize it) and that every
  // implementation has an applicability predicate.
  absl::Status Verify() const;

 private:
  std::map<std::pair<std::string, std::string>, LegalizeFn> legalize_;
  std::map<std::pair<std::string, std::string>, std::vector<Implementation>> strategies_;
};

// Registration of each target directory, and all of them.
absl::Status RegisterGenericTarget(Registry& registry);
absl::Status RegisterX86Target(Registry& registry);
absl::Status RegisterArmTarget(Registry& registry);
absl::Status RegisterAllTargets(Registry& registry);

// A registry with every target registered (built once).
const Registry& GlobalRegistry();

}  // namespace qnnc::target

#endif  // QNNC_TARGET_REGISTRY_H_
