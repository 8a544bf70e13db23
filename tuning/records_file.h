// Records files: JSON lines (tuning/record.h), read with file:line errors,
// appended one flushed line at a time.
#ifndef QNNC_TUNING_RECORDS_FILE_H_
#define QNNC_TUNING_RECORDS_FILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tuning/record.h"

namespace qnnc::tuning {

struct LoadedRecords {
  std::vector<Record> records;
  // "FILE:LINE: why" for each line skipped (malformed, or a truncated last
  // line, which a writer killed mid-line leaves).
  std::vector<std::string> warnings;
};

// Parses the text of a records file named `name` (for messages). Blank
// lines are skipped. A malformed line is a warning, or with `strict` an
// error. Always an error: binary content, a file with no valid line but
// some invalid ones (not a records file), a line of another format version.
absl::StatusOr<LoadedRecords> ParseRecords(absl::string_view text, const std::string& name,
                                           bool strict);
// Reads and parses a file (at most 1 GiB).
absl::StatusOr<LoadedRecords> LoadRecords(const std::string& path, bool strict);

// Appends `record` as one line with a single write(2) on a file opened
// O_APPEND, then fsync: a writer killed at any moment leaves every earlier
// line intact, and at most the line in flight lost.
absl::Status AppendRecord(const std::string& path, const Record& record);

}  // namespace qnnc::tuning

#endif  // QNNC_TUNING_RECORDS_FILE_H_
