// Passes by name, for pipelines given on the command line.
#ifndef QNNC_PASSES_PASS_REGISTRY_H_
#define QNNC_PASSES_PASS_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "passes/pass.h"

namespace qnnc::passes {

using PassFactory = std::function<std::unique_ptr<Pass>()>;

class PassRegistry {
 public:
  // The registry with every built-in pass.
  static const PassRegistry& Global();

  absl::Status Register(const std::string& name, PassFactory factory);
  // An unknown name is an error listing the known ones.
  absl::StatusOr<std::unique_ptr<Pass>> Create(absl::string_view name) const;
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, PassFactory> factories_;
};

}  // namespace qnnc::passes

#endif  // QNNC_PASSES_PASS_REGISTRY_H_
