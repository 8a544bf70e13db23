// A tuning record: one measurement of one candidate (implementation +
// config) of one workload on one target and host, as one JSON line.
//
//   {"format":1,"qnnc":"0.4","target":"x86_64+avx2+sse4.2","cpu":"AMD EPYC",
//    "workload":"{...}","impl":"xnnpack.qs8","config":{"tile_co":16},
//    "config_index":3,"threads":1,"scope":"op","result":{"error":"none",
//    "median_s":1.2e-4,"repeats_s":[...],"wall_s":0.8},
//    "timestamp":"2026-12-01T09:00:00Z"}
//
// A record's scope says what was timed: "op", the candidate's kernel alone
// (tuning/measure.h); "model", the whole model with the candidate deciding
// the workload, timed alternately against the fallback deciding it
// (tools/tune_confirm.h). "fallback":true marks the record of the fallback
// the others were measured against. `threads` is the thread count it ran
// with. Lines without these (older files) read as "op" at 1 thread, not
// the fallback.
//
// Records are append-only: files merge by concatenation, and a later
// measurement of the same candidate simply adds a line.
#ifndef QNNC_TUNING_RECORD_H_
#define QNNC_TUNING_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "target/config.h"

namespace qnnc::tuning {

// The format this build reads and writes; a line of any other is refused.
inline constexpr int kRecordFormat = 1;
// qnnc's version, written into every record.
inline constexpr char kQnncVersion[] = "0.4";

// How a measurement ended. Only kNone carries a time.
enum class MeasureError {
  kNone,
  kInvalidConfig,  // the config is not in the implementation's space
  kCompileError,   // legalization or kernel creation failed
  kRuntimeError,   // the kernel returned an error
  kWrongAnswer,    // the output differs from the reference kernel's
  kTimeout,        // the candidate ran past its time limit (killed)
  kCrash,          // the candidate's process died (signal, abort)
};
const char* MeasureErrorName(MeasureError e);  // "none", "invalid_config", ...
absl::StatusOr<MeasureError> ParseMeasureError(absl::string_view name);

struct MeasureResult {
  MeasureError error = MeasureError::kNone;
  double median_s = 0;          // median of repeats_s (0 on error)
  std::vector<double> repeats_s;
  double wall_s = 0;            // the whole measurement, build and checks included
  std::string message;          // what went wrong, when error != kNone
};

// What a record's time covers.
enum class RecordScope { kOp, kModel };
const char* RecordScopeName(RecordScope scope);  // "op", "model"

struct Record {
  int format = kRecordFormat;
  std::string qnnc_version = kQnncVersion;
  std::string target;  // canonical target string (target::Target::ToString)
  std::string cpu;     // the measuring host's CPU model
  std::string workload;  // the workload key (target::Workload::Key)
  std::string implementation;
  target::Config config;
  int64_t config_index = -1;  // the config's index in the space, -1 if unknown
  int threads = 1;            // the thread count it was measured with
  RecordScope scope = RecordScope::kOp;
  // The fallback the tune measured the other candidates against (the
  // fallback of the op it tuned): records decide only ops with that
  // fallback (target::TunedChoice::tune_fallback).
  bool fallback = false;
  MeasureResult result;
  std::string timestamp;  // UTC, ISO 8601

  bool valid() const { return result.error == MeasureError::kNone && result.median_s > 0; }
};

// One line of JSON, no newline.
std::string RecordToJson(const Record& record);
// Parses one line. Errors name what is wrong; a record of another format
// version is refused naming both versions.
absl::StatusOr<Record> RecordFromJson(absl::string_view line);

// Now as "2026-12-01T09:00:00Z".
std::string UtcTimestamp();

}  // namespace qnnc::tuning

#endif  // QNNC_TUNING_RECORD_H_
