#include "ir/attributes.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace qnnc::ir {
namespace {

template <typename T>
absl::StatusOr<T> Get(const std::map<std::string, AttrValue>& map, absl::string_view name,
                      const char* type_name) {
  auto it = map.find(std::string(name));
  if (it == map.end()) return absl::NotFoundError(absl::StrCat("missing attribute '", name, "'"));
  if (const T* v = std::get_if<T>(&it->second)) return *v;
  return absl::InvalidArgumentError(
      absl::StrCat("attribute '", name, "' must be ", type_name));
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

bool SameValue(const AttrValue& a, const AttrValue& b) {
  if (a.index() != b.index()) return false;
  if (const double* d = std::get_if<double>(&a)) return SameBits(*d, std::get<double>(b));
  if (const auto* l = std::get_if<std::vector<double>>(&a)) {
    const auto& r = std::get<std::vector<double>>(b);
    if (l->size() != r.size()) return false;
    for (size_t i = 0; i < l->size(); ++i) {
      if (!SameBits((*l)[i], r[i])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace

bool Attrs::operator==(const Attrs& other) const {
  if (map_.size() != other.map_.size()) return false;
  for (auto a = map_.begin(), b = other.map_.begin(); a != map_.end(); ++a, ++b) {
    if (a->first != b->first || !SameValue(a->second, b->second)) return false;
  }
  return true;
}

absl::StatusOr<int64_t> Attrs::GetInt(absl::string_view name) const {
  return Get<int64_t>(map_, name, "an int");
}

absl::StatusOr<double> Attrs::GetFloat(absl::string_view name) const {
  auto it = map_.find(std::string(name));
  if (it != map_.end()) {
    if (const int64_t* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
  }
  return Get<double>(map_, name, "a float");
}

absl::StatusOr<std::string> Attrs::GetString(absl::string_view name) const {
  return Get<std::string>(map_, name, "a string");
}

absl::StatusOr<std::vector<int64_t>> Attrs::GetInts(absl::string_view name) const {
  return Get<std::vector<int64_t>>(map_, name, "a list of ints");
}

absl::StatusOr<std::vector<double>> Attrs::GetFloats(absl::string_view name) const {
  auto it = map_.find(std::string(name));
  if (it != map_.end()) {
    if (const auto* ints = std::get_if<std::vector<int64_t>>(&it->second)) {
      return std::vector<double>(ints->begin(), ints->end());
    }
  }
  return Get<std::vector<double>>(map_, name, "a list of floats");
}

absl::StatusOr<int64_t> Attrs::GetInt(absl::string_view name, int64_t dflt) const {
  return Has(name) ? GetInt(name) : dflt;
}

absl::StatusOr<double> Attrs::GetFloat(absl::string_view name, double dflt) const {
  return Has(name) ? GetFloat(name) : dflt;
}

absl::StatusOr<std::string> Attrs::GetString(absl::string_view name,
                                             const std::string& dflt) const {
  return Has(name) ? GetString(name) : dflt;
}

absl::StatusOr<std::vector<int64_t>> Attrs::GetInts(absl::string_view name,
                                                    const std::vector<int64_t>& dflt) const {
  return Has(name) ? GetInts(name) : dflt;
}

}  // namespace qnnc::ir
