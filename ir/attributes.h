// Typed op attributes: int, float, string, int list, float list.
#ifndef QNNC_IR_ATTRIBUTES_H_
#define QNNC_IR_ATTRIBUTES_H_

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qnnc::ir {

using AttrValue =
    std::variant<int64_t, double, std::string, std::vector<int64_t>, std::vector<double>>;

// Attributes of one op, ordered by name (so printing is deterministic).
class Attrs {
 public:
  void Set(const std::string& name, AttrValue value) { map_[name] = std::move(value); }
  bool Has(absl::string_view name) const { return map_.count(std::string(name)) > 0; }
  void Erase(absl::string_view name) { map_.erase(std::string(name)); }
  const std::map<std::string, AttrValue>& map() const { return map_; }
  // Floats compare by bits, so a NaN attribute equals itself.
  bool operator==(const Attrs& other) const;
  bool operator!=(const Attrs& other) const { return !(*this == other); }

  // Typed getters: an error names the attribute when it is missing or of
  // another type. An int attribute reads as a float too.
  absl::StatusOr<int64_t> GetInt(absl::string_view name) const;
  absl::StatusOr<double> GetFloat(absl::string_view name) const;
  absl::StatusOr<std::string> GetString(absl::string_view name) const;
  absl::StatusOr<std::vector<int64_t>> GetInts(absl::string_view name) const;
  absl::StatusOr<std::vector<double>> GetFloats(absl::string_view name) const;

  // Getters with a default for a missing attribute (a wrong type is still an error).
  absl::StatusOr<int64_t> GetInt(absl::string_view name, int64_t dflt) const;
  absl::StatusOr<double> GetFloat(absl::string_view name, double dflt) const;
  absl::StatusOr<std::string> GetString(absl::string_view name, const std::string& dflt) const;
  absl::StatusOr<std::vector<int64_t>> GetInts(absl::string_view name,
                                               const std::vector<int64_t>& dflt) const;

 private:
  std::map<std::string, AttrValue> map_;
};

}  // namespace qnnc::ir

#endif  // QNNC_IR_ATTRIBUTES_H_
