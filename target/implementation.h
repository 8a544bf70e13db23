// An implementation of a tunable op (qnn.conv2d, qnn.dense): what it can run
// (its applicability predicate), the legalization and layout it needs, its
// config space and the default config of a workload (the fallback).
#ifndef QNNC_TARGET_IMPLEMENTATION_H_
#define QNNC_TARGET_IMPLEMENTATION_H_

#include <functional>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/layout.h"
#include "target/config.h"
#include "target/target.h"
#include "target/workload.h"

namespace qnnc::target {

// The legalization an implementation needs (target/legalizations.h: what
// each does to the op).
enum class Legalization { kKeep, kInt16, kXnnpackQu8, kXnnpackQs8, kXnnpackQc8, kU8S8, kS8S8 };

inline constexpr Legalization kAllLegalizations[] = {
    Legalization::kKeep,        Legalization::kInt16, Legalization::kXnnpackQu8, Legalization::kXnnpackQs8,
    Legalization::kXnnpackQc8, Legalization::kU8S8,  Legalization::kS8S8};

// "keep", "int16", "xnnpack_qu8", "xnnpack_qs8", "xnnpack_qc8", "u8s8",
// "s8s8": the name a decision stores on its op and the report shows.
constexpr const char* LegalizationName(Legalization l) {
  switch (l) {
    case Legalization::kKeep:
      return "keep";
    case Legalization::kInt16:
      return "int16";
    case Legalization::kXnnpackQu8:
      return "xnnpack_qu8";
    case Legalization::kXnnpackQs8:
      return "xnnpack_qs8";
    case Legalization::kXnnpackQc8:
      return "xnnpack_qc8";
    case Legalization::kU8S8:
      return "u8s8";
    case Legalization::kS8S8:
      return "s8s8";
  }
  return "?";
}

// The legalization named `name`; an error lists the names.
absl::StatusOr<Legalization> ParseLegalization(absl::string_view name);

struct Implementation {
  std::string name;  // e.g. "x86.spatial_pack.u8s8.avx512vnni"
  int priority = 0;  // higher wins the fallback
  // OK when the implementation can run the workload on the target; else an
  // error saying why not (reported when nothing applies).
  std::function<absl::Status(const Workload&, const Target&)> applicable;
  // Optional: OK when the fallback may choose it for a workload it applies
  // to; else why not. For a kernel that runs the workload exactly but was
  // measured slower than a lower-ranked one there on the hosts its priority
  // was set on (u8s8.avx2 with many corrected steps): the tuner still
  // measures it (every applicable implementation competes where it runs),
  // and a tuning record may choose it; the untuned fallback passes it over
  // and says why. Unset: always.
  std::function<absl::Status(const Workload&, const Target&)> fallback_ok;
  // The legalization it needs.
  Legalization legalization = Legalization::kKeep;
  // The data layout its kernel consumes (NCHW, NHWC, NCHW16c, ...).
  ir::Layout layout = ir::Layout::Nchw();
  // The layouts its kernel reads and writes for one workload, when they
  // differ from `layout` (the u8s8 stem reads NCHW4c and writes NCHW16c).
  // Use IoLayoutsFor(); AlterOpLayout gives the graph these around the op.
  struct IoLayouts {
    ir::Layout data, out;
  };
  std::function<IoLayouts(const Workload&)> io_layouts;
  // Whether its kernel applies the requantization in its epilogue (so
  // QnnCanonicalize leaves the qnn.requantize for fusion).
  bool fuses_requantize = false;
  // Whether its kernel applies a dynamically quantized convolution's float
  // epilogue (cast, times a run-time scale, plus bias, clip), so that FuseOps
  // builds a qnn.conv2d_dynamic.
  bool fuses_dynamic_epilogue = false;
  ConfigSpace config_space;
  // The space for one workload, when it differs from config_space (e.g. the
  // depthwise kernels have no knobs: a knob that changes nothing is not a
  // knob). Use SpaceFor().
  std::function<ConfigSpace(const Workload&)> space_for;
  // A good config computed from the workload and target: the fallback.
  std::function<Config(const Workload&, const Target&)> default_config;
  // Optional: the cycles a static cost model estimates for one run of the
  // workload at a config on the target's core, or none where it has no
  // estimate. Where a CPU cannot be measured (Arm here: no board, and qemu's
  // times mean nothing), the fallback orders the implementations with an
  // estimate and one legalization and layout among themselves by it
  // (dispatch_context.cc Ranked); records still win.
  std::function<std::optional<double>(const Workload&, const Target&, const Config&)> static_cycles;
};

// A kernel's layouts as the kernel library, below the IR, spells them
// ("NCHW16c"): always layouts, so text that is not one is qnnc's own error
// (it aborts, naming it).
Implementation::IoLayouts KernelIoLayouts(const std::string& data, const std::string& out);

// The config space of `impl` for `workload`.
inline ConfigSpace SpaceFor(const Implementation& impl, const Workload& workload) {
  return impl.space_for ? impl.space_for(workload) : impl.config_space;
}

// The layouts `impl`'s kernel reads and writes for `workload` (a dense reads
// and writes NC: layouts are a convolution's concern).
inline Implementation::IoLayouts IoLayoutsFor(const Implementation& impl, const Workload& workload) {
  if (workload.op != "qnn.conv2d") return {ir::Layout::Nc(), ir::Layout::Nc()};
  return impl.io_layouts ? impl.io_layouts(workload) : Implementation::IoLayouts{impl.layout, impl.layout};
}

}  // namespace qnnc::target

#endif  // QNNC_TARGET_IMPLEMENTATION_H_
