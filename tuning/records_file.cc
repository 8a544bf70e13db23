#include "tuning/records_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace qnnc::tuning {
namespace {

constexpr int64_t kMaxFileBytes = int64_t{1} << 30;

}  // namespace

absl::StatusOr<LoadedRecords> ParseRecords(absl::string_view text, const std::string& name,
                                           bool strict) {
  if (text.find('\0') != absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", name, "' is not a records file (binary content); records are JSON lines"));
  }
  LoadedRecords out;
  std::string first_error;
  int line_no = 0, bad = 0;
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  const bool unterminated = !text.empty() && text.back() != '\n';
  for (size_t i = 0; i < lines.size(); ++i) {
    ++line_no;
    absl::string_view line = lines[i];
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == absl::string_view::npos) continue;
    auto r = RecordFromJson(line);
    if (r.ok()) {
      out.records.push_back(*std::move(r));
      continue;
    }
    if (r.status().code() == absl::StatusCode::kFailedPrecondition) {  // another format
      return absl::FailedPreconditionError(
          absl::StrCat(name, ":", line_no, ": ", r.status().message()));
    }
    ++bad;
    const bool last_unterminated = unterminated && i + 1 == lines.size();
    std::string where = absl::StrCat(name, ":", line_no, ": ",
                                     last_unterminated ? "truncated last line (a writer stopped "
                                                         "mid-line?): "
                                                       : "",
                                     r.status().message());
    if (first_error.empty()) first_error = where;
    if (strict) return absl::InvalidArgumentError(absl::StrCat(where, " (--strict-records)"));
    out.warnings.push_back(where);
  }
  if (out.records.empty() && bad > 0) {
    return absl::InvalidArgumentError(absl::StrCat("'", name, "' is not a records file: ",
                                                   first_error));
  }
  return out;
}

absl::StatusOr<LoadedRecords> LoadRecords(const std::string& path, bool strict) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open records file '", path, "'"));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) return absl::InvalidArgumentError(absl::StrCat("cannot read '", path, "'"));
  if (size > kMaxFileBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("records file '", path, "' has ", size, " bytes, over the 1 GiB limit"));
  }
  in.seekg(0);
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), size);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read '", path, "'"));
  return ParseRecords(text, path, strict);
}

absl::Status AppendRecord(const std::string& path, const Record& record) {
  const std::string line = RecordToJson(record) + "\n";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open records file '", path, "' for appending: ", std::strerror(errno)));
  }
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      return absl::InternalError(absl::StrCat("writing '", path, "': ", std::strerror(err)));
    }
    done += static_cast<size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  return absl::OkStatus();
}

}  // namespace qnnc::tuning
