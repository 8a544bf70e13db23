#include "target/target.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "kernels/cpu/arm_hwcaps.h"
#include "kernels/cpu/isa.h"
#include "re2/re2.h"

namespace qnnc::target {
namespace {

// A feature's architecture and the features it implies (its name is
// kernels/cpu/isa_level.h's).
struct FeatureInfo {
  Feature feature;
  Arch arch;
  std::vector<Feature> implies;
};

const std::vector<FeatureInfo>& Features() {
  static const auto* features = new std::vector<FeatureInfo>{
      {Feature::kSse42, Arch::kX86_64, {}},
      {Feature::kAvx2, Arch::kX86_64, {Feature::kSse42}},
      {Feature::kAvx512bw, Arch::kX86_64, {Feature::kAvx2}},
      {Feature::kAvx512vnni, Arch::kX86_64, {Feature::kAvx512bw}},
      {Feature::kAvxvnni, Arch::kX86_64, {Feature::kAvx2}},
      {Feature::kNeon, Arch::kAArch64, {}},
      {Feature::kDotprod, Arch::kAArch64, {Feature::kNeon}},
      {Feature::kI8mm, Arch::kAArch64, {Feature::kDotprod}},
  };
  return *features;
}

const FeatureInfo& Info(Feature f) {
  for (const auto& i : Features()) {
    if (i.feature == f) return i;
  }
  return Features()[0];
}

void AddWithImplied(Feature f, std::set<Feature>& out) {
  if (!out.insert(f).second) return;
  for (Feature g : Info(f).implies) AddWithImplied(g, out);
}

std::string ValidFeatures(Arch arch) {
  std::vector<std::string> names;
  for (const auto& i : Features()) {
    if (i.arch == arch) names.push_back(FeatureName(i.feature));
  }
  return names.empty() ? "none" : absl::StrJoin(names, ", ");
}

}  // namespace

const char* ArchName(Arch arch) {
  switch (arch) {
    case Arch::kGeneric: return "generic";
    case Arch::kX86_64: return "x86_64";
    case Arch::kAArch64: return "aarch64";
  }
  return "?";
}


std::string Target::ToString() const {
  std::vector<std::string> names;
  for (Feature f : features) names.push_back(FeatureName(f));
  std::sort(names.begin(), names.end());
  std::string s = ArchName(arch);
  for (const auto& n : names) absl::StrAppend(&s, "+", n);
  if (!model.empty()) absl::StrAppend(&s, ":", model);
  return s;
}

std::vector<std::string> Target::Keys() const {
  std::vector<std::string> keys;
  // Most capable feature first: the enum is ordered by capability.
  for (auto it = features.rbegin(); it != features.rend(); ++it) {
    keys.push_back(absl::StrCat(ArchName(arch), "+", FeatureName(*it)));
  }
  if (arch != Arch::kGeneric) keys.push_back(ArchName(arch));
  keys.push_back("cpu");
  keys.push_back("default");
  return keys;
}

absl::StatusOr<Target> ParseTarget(absl::string_view text) {
  if (text == "host") return DetectHost();
  static const RE2 kGrammar(R"(([a-z0-9_]+)((?:\+[a-z0-9_.]+)*)(?::([A-Za-z0-9_.-]+))?)");
  std::string arch_name, feature_list, model;
  if (!RE2::FullMatch(std::string(text), kGrammar, &arch_name, &feature_list, &model)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad target '", text, "': expected host or ARCH[+FEATURE...][:MODEL], e.g. x86_64+avx2"));
  }
  Target t;
  t.model = model;
  static const std::map<std::string, Arch> kArchs = {
      {"generic", Arch::kGeneric}, {"x86_64", Arch::kX86_64}, {"aarch64", Arch::kAArch64}};
  auto arch = kArchs.find(arch_name);
  if (arch == kArchs.end()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown architecture '", arch_name,
                                                   "' in target '", text,
                                                   "' (valid: host, generic, x86_64, aarch64)"));
  }
  t.arch = arch->second;
  for (absl::string_view name : absl::StrSplit(feature_list, '+', absl::SkipEmpty())) {
    const FeatureInfo* found = nullptr;
    for (const auto& i : Features()) {
      if (name == FeatureName(i.feature) && i.arch == t.arch) found = &i;
    }
    if (found == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown feature '", name, "' for ",
                                                     arch_name, " in target '", text,
                                                     "' (valid: ", ValidFeatures(t.arch), ")"));
    }
    AddWithImplied(found->feature, t.features);
  }
  return t;
}

Target DetectHost() {
  // kernels/cpu: the CPU's features, lowered by the instruction-set cap.
  const kernels::cpu::CpuFeatures f = kernels::cpu::HostCpuFeatures();
  Target t;
#if defined(__x86_64__)
  t.arch = Arch::kX86_64;
  if (f.sse42) AddWithImplied(Feature::kSse42, t.features);
  if (f.avx2) AddWithImplied(Feature::kAvx2, t.features);
  if (f.avx512bw) AddWithImplied(Feature::kAvx512bw, t.features);
  if (f.avx512vnni) AddWithImplied(Feature::kAvx512vnni, t.features);
  if (f.avxvnni) AddWithImplied(Feature::kAvxvnni, t.features);
#elif defined(__aarch64__)
  t.arch = Arch::kAArch64;
  if (f.neon) AddWithImplied(Feature::kNeon, t.features);
  if (f.dotprod) AddWithImplied(Feature::kDotprod, t.features);
  if (f.i8mm) AddWithImplied(Feature::kI8mm, t.features);
  // The core, where MIDR_EL1 names one: the static cost model of the
  // fallback (target/arm/arm_cost_model.h) reads it.
  t.model = kernels::cpu::ArmCoreName(kernels::cpu::ReadArmMidr());
#endif
  return t;
}

bool CanRunOn(const Target& target, const Target& host) {
  if (target.arch == Arch::kGeneric) return true;
  if (target.arch != host.arch) return false;
  return std::includes(host.features.begin(), host.features.end(), target.features.begin(),
                       target.features.end());
}

std::vector<std::string> MissingFeatures(const Target& target, const Target& host) {
  std::vector<std::string> missing;
  if (target.arch == Arch::kGeneric) return missing;
  if (target.arch != host.arch) {
    missing.push_back(Target{target.arch, {}, ""}.ToString());
    return missing;
  }
  for (Feature f : target.features) {
    if (!host.features.count(f)) {
      for (const auto& i : Features()) {
        if (i.feature == f) missing.push_back(FeatureName(i.feature));
      }
    }
  }
  return missing;
}

absl::Status CheckRunsOnHost(const Target& target) {
  const Target host = DetectHost();
  if (CanRunOn(target, host)) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "code for ", target.ToString(), " cannot run on this machine: it needs ",
      absl::StrJoin(MissingFeatures(target, host), ", "), " (this machine: ", host.ToString(),
      ", instruction sets ", kernels::cpu::DescribeHostIsa(), ")"));
}

}  // namespace qnnc::target
