#include "target/registry.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "kernels/spatial_pack/variants.h"
#include "util/status_macros.h"

namespace qnnc::target {

absl::Status Registry::RegisterLegalize(const std::string& op, const std::string& key,
                                        LegalizeFn fn) {
  if (!legalize_.emplace(std::make_pair(op, key), std::move(fn)).second) {
    return absl::AlreadyExistsError(
        absl::StrCat("legalize function for (", op, ", ", key, ") is registered twice"));
  }
  return absl::OkStatus();
}

absl::Status Registry::RegisterImplementation(const std::string& op, const std::string& key,
                                              Implementation impl) {
  for (const auto& [k, impls] : strategies_) {
    if (k.first != op) continue;
    for (const Implementation& existing : impls) {
      if (existing.name == impl.name) {
        return absl::AlreadyExistsError(absl::StrCat("implementation '", impl.name, "' of ", op,
                                                     " is registered twice"));
      }
    }
  }
  strategies_[{op, key}].push_back(std::move(impl));
  return absl::OkStatus();
}

const LegalizeFn* Registry::FindLegalize(const std::string& op, const Target& target) const {
  for (const std::string& key : target.Keys()) {
    auto it = legalize_.find({op, key});
    if (it != legalize_.end()) return &it->second;
  }
  return nullptr;
}

std::vector<const Implementation*> Registry::Implementations(const std::string& op,
                                                             const Target& target) const {
  std::vector<const Implementation*> out;
  for (const std::string& key : target.Keys()) {
    auto it = strategies_.find({op, key});
    if (it == strategies_.end()) continue;
    for (const Implementation& impl : it->second) out.push_back(&impl);
  }
  return out;
}

const Implementation* Registry::FindImplementation(const std::string& op,
                                                   const std::string& name) const {
  // A renamed implementation is found by its old name too (plans and IR
  // written before).
  const absl::string_view current = kernels::spatial_pack::CurrentImplementationName(name);
  for (const auto& [k, impls] : strategies_) {
    if (k.first != op) continue;
    for (const Implementation& impl : impls) {
      if (impl.name == current) return &impl;
    }
  }
  return nullptr;
}

std::vector<std::string> Registry::TunableOps() const {
  std::set<std::string> ops;
  for (const auto& [k, impls] : strategies_) ops.insert(k.first);
  return {ops.begin(), ops.end()};
}

absl::Status Registry::Verify() const {
  for (const auto& [key, impls] : strategies_) {
    if (!legalize_.count({key.first, "default"})) {
      return absl::FailedPreconditionError(absl::StrCat(
          "op ", key.first, " has implementations but no legalize function under 'default'"));
    }
    for (const Implementation& impl : impls) {
      if (!impl.applicable) {
        return absl::FailedPreconditionError(
            absl::StrCat("implementation '", impl.name, "' has no applicability predicate"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace qnnc::target
