// A compilation target: architecture, instruction-set features and an
// optional CPU model, with the keys registries are looked up by.
//
// Target strings (RE2 grammar, see ParseTarget):
//   target   := "host" | arch { "+" feature } [ ":" model ]
//   arch     := "x86_64" | "aarch64" | "generic"
//   feature  := "sse4.2" | "avx2" | "avx512bw" | "avx512vnni" | "avxvnni"   (x86_64)
//             | "neon" | "dotprod" | "i8mm"                                 (aarch64)
//   model    := [A-Za-z0-9_.-]+          e.g. "x86_64+avx2:skylake"
// Examples: host, generic, x86_64, x86_64+avx2, x86_64+avx512bw+avx512vnni,
// aarch64+neon, aarch64+dotprod. Features imply the ones below them
// (avx512vnni implies avx512bw, avx2 and sse4.2; dotprod implies neon).
#ifndef QNNC_TARGET_TARGET_H_
#define QNNC_TARGET_TARGET_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "kernels/cpu/isa_level.h"

namespace qnnc::target {

enum class Arch { kGeneric, kX86_64, kAArch64 };

// The instruction-set features, named once (kernels/cpu/isa_level.h).
using Feature = kernels::cpu::Feature;
using kernels::cpu::FeatureName;

const char* ArchName(Arch arch);

struct Target {
  Arch arch = Arch::kGeneric;
  std::set<Feature> features;
  std::string model;

  bool Has(Feature f) const { return features.count(f) > 0; }
  // Canonical string, e.g. "x86_64+avx2+avx512bw+sse4.2" (features sorted
  // by name, implied ones included); parses back to an equal target.
  std::string ToString() const;
  // Registry keys from the most specific to the most generic: one per
  // feature (most capable first), then the architecture, then "cpu", then
  // "default". E.g. x86_64+avx512vnni -> x86_64+avx512vnni, x86_64+avx512bw,
  // x86_64+avx2, x86_64+sse4.2, x86_64, cpu, default.
  std::vector<std::string> Keys() const;
  bool operator==(const Target& o) const {
    return arch == o.arch && features == o.features && model == o.model;
  }
};

// Parses a target string; "host" detects this machine. An unknown
// architecture or feature is an error listing the valid ones.
absl::StatusOr<Target> ParseTarget(absl::string_view text);

// This machine: the CPU's features (kernels/cpu/isa.h) lowered by the
// instruction-set cap (QNNC_ISA, the tools' --isa).
Target DetectHost();

// Whether code for `target` can run on `host` (same architecture, or a
// generic target, and every feature present).
bool CanRunOn(const Target& target, const Target& host);
// What `host` lacks to run code for `target`: feature names (e.g.
// "avx512vnni"), or the architecture when they differ; empty when it can.
std::vector<std::string> MissingFeatures(const Target& target, const Target& host);
// OK when code for `target` runs on this host (DetectHost(), the cap
// applied); otherwise FailedPrecondition: "code for T cannot run on this
// machine: it needs avx512bw, avx512vnni (this machine: ..., instruction
// sets ...)".
absl::Status CheckRunsOnHost(const Target& target);

}  // namespace qnnc::target

#endif  // QNNC_TARGET_TARGET_H_
