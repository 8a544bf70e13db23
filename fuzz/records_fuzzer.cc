// libFuzzer target: tuning records files (tuning/records_file.h). Any bytes
// either load or give an error, never a crash; what loads serializes and
// parses back to the same lines, and a records dispatch context built from
// it answers lookups.
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_check.h"
#include "target/target.h"
#include "tuning/records_dispatch_context.h"
#include "tuning/records_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (bool strict : {false, true}) {
    auto loaded = qnnc::tuning::ParseRecords(bytes, "fuzz", strict);
    if (!loaded.ok()) continue;
    std::string text;
    for (const auto& r : loaded->records) {
      absl::StrAppend(&text, qnnc::tuning::RecordToJson(r), "\n");
    }
    auto again = qnnc::tuning::ParseRecords(text, "again", true);
    FUZZ_CHECK(again.ok(), again.status().message());
    FUZZ_CHECK(again->records.size() == loaded->records.size(), "records lost in a round trip");
    for (size_t i = 0; i < again->records.size(); ++i) {
      FUZZ_CHECK(qnnc::tuning::RecordToJson(again->records[i]) ==
                     qnnc::tuning::RecordToJson(loaded->records[i]),
                 "a record changed in a round trip");
    }
    qnnc::tuning::RecordsDispatchContext ctx(loaded->records, "fuzz cpu");
    for (const auto& r : loaded->records) {
      for (const char* t : {"generic", "x86_64+avx2", "x86_64+avx512vnni", "aarch64+dotprod"}) {
        (void)ctx.LookupAll(r.workload, *qnnc::target::ParseTarget(t));
      }
    }
  }
  return 0;
}
