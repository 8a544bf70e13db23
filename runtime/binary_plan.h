// The binary plan file (compile --out's default; runtime/plan.h has both
// formats): the compiled graph as a FlatBuffer (runtime/plan.fbs) and every
// constant's bytes in a data section, aligned so that a loaded plan's
// constants are the mapped file itself, never copied. Layout, little-endian:
//   [0, 64)          header: "qnncplan", u32 format version, u32 0,
//                    u64 graph offset, u64 graph size, u64 data offset,
//                    u64 data size, u64 XXH3-64 of bytes [64, end), u64 0
//   graph section    the FlatBuffer (identifier "QNNP")
//   data section     at a multiple of 64; each constant at a multiple of 64
//                    from its start, followed by at least 64 zero bytes
// Loading checks, before any field is read: the magic, the version, the
// sections' bounds, the checksum, then the FlatBuffer Verifier; then every
// index, name, type, op and constant range. A bad file is an error naming
// the file and what is wrong, never a crash.
#ifndef QNNC_RUNTIME_BINARY_PLAN_H_
#define QNNC_RUNTIME_BINARY_PLAN_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/graph.h"
#include "runtime/packed_state.h"

namespace qnnc::runtime {

inline constexpr char kBinaryPlanMagic[] = "qnncplan";  // 8 bytes, no terminator in the file
// Version 2 added kernels' packed states; version 1 plans (none) still load.
inline constexpr uint32_t kBinaryPlanVersion = 2;
inline constexpr uint32_t kOldestBinaryPlanVersion = 1;
inline constexpr int64_t kBinaryPlanHeaderBytes = 64;

// Whether a file starting with these bytes is a binary plan (by its magic).
bool IsBinaryPlan(absl::string_view first_bytes);

// The binary plan of `graph` compiled for `target` (a target's ToString()),
// with its kernels' packed `states` (Executor::packed_states()); a
// constant only they read is not written. An error names what the format
// cannot hold (an op input that is not set).
// Written to `out` from where the bytes are (the graph section built in
// memory, the constants and packed blobs as they are held): the file is
// never assembled whole.
absl::Status WriteBinaryPlan(const ir::Graph& graph, absl::string_view target, const PackedStates& states,
                             std::ostream& out);
// The same bytes in memory (tests, the fuzzer).
absl::StatusOr<std::string> BinaryPlanBytes(const ir::Graph& graph, absl::string_view target,
                                            const PackedStates& states = {});

struct LoadedPlan {
  std::unique_ptr<ir::Graph> graph;  // typed, its constants over the mapped file
  std::string target;
  // The kernels' packed states, over the mapped file, and the constants the
  // plan does not hold (ExecutorOptions::packed).
  PackedStates packed;
};

// Maps and checks the plan at `path`; constants over `max_bytes` in all are
// refused before any is touched.
absl::StatusOr<LoadedPlan> LoadBinaryPlan(const std::string& path, int64_t max_bytes);

// The same over bytes in memory (kept alive by the graph's constants):
// `bytes` must be aligned to 64. `name` names the plan in errors.
absl::StatusOr<LoadedPlan> ParseBinaryPlan(std::shared_ptr<uint8_t> bytes, int64_t size,
                                           absl::string_view name, int64_t max_bytes);

// The target of the binary plan at `path`: reads and verifies its header
// and graph section only.
absl::StatusOr<std::string> ReadBinaryPlanTarget(const std::string& path);

}  // namespace qnnc::runtime

#endif  // QNNC_RUNTIME_BINARY_PLAN_H_
