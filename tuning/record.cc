#include "tuning/record.h"

#include <cmath>
#include <ctime>

#include "absl/strings/str_cat.h"
#include "kernels/spatial_pack/variants.h"
#include "nlohmann/json.hpp"
#include "util/config_json.h"

namespace qnnc::tuning {
namespace {

constexpr MeasureError kAllErrors[] = {
    MeasureError::kNone,         MeasureError::kInvalidConfig, MeasureError::kCompileError,
    MeasureError::kRuntimeError, MeasureError::kWrongAnswer,   MeasureError::kTimeout,
    MeasureError::kCrash};

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("bad record: ", what));
}

// "threads", "scope" and "fallback", absent from lines written before
// records carried them (then 1 thread, scope op).
absl::Status ReadThreadsAndScope(const nlohmann::json& j, Record* r) {
  if (auto threads = j.find("threads"); threads != j.end()) {
    if (!threads->is_number_integer() || threads->get<int64_t>() < 1 || threads->get<int64_t>() > 256) {
      return Bad("'threads' must be an integer in 1..256");
    }
    r->threads = threads->get<int>();
  }
  if (auto scope = j.find("scope"); scope != j.end()) {
    if (!scope->is_string() || (*scope != "op" && *scope != "model")) {
      return Bad("'scope' must be \"op\" or \"model\"");
    }
    r->scope = *scope == "model" ? RecordScope::kModel : RecordScope::kOp;
  }
  if (auto fallback = j.find("fallback"); fallback != j.end()) {
    if (!fallback->is_boolean()) return Bad("'fallback' must be true or false");
    r->fallback = fallback->get<bool>();
  }
  return absl::OkStatus();
}

}  // namespace

const char* MeasureErrorName(MeasureError e) {
  switch (e) {
    case MeasureError::kNone: return "none";
    case MeasureError::kInvalidConfig: return "invalid_config";
    case MeasureError::kCompileError: return "compile_error";
    case MeasureError::kRuntimeError: return "runtime_error";
    case MeasureError::kWrongAnswer: return "wrong_answer";
    case MeasureError::kTimeout: return "timeout";
    case MeasureError::kCrash: return "crash";
  }
  return "?";
}

const char* RecordScopeName(RecordScope scope) {
  return scope == RecordScope::kModel ? "model" : "op";
}

absl::StatusOr<MeasureError> ParseMeasureError(absl::string_view name) {
  for (MeasureError e : kAllErrors) {
    if (name == MeasureErrorName(e)) return e;
  }
  return Bad(absl::StrCat("unknown error code '", name,
                          "' (valid: none, invalid_config, compile_error, runtime_error, "
                          "wrong_answer, timeout, crash)"));
}

std::string RecordToJson(const Record& r) {
  nlohmann::json j;
  j["format"] = r.format;
  j["qnnc"] = r.qnnc_version;
  j["target"] = r.target;
  j["cpu"] = r.cpu;
  j["workload"] = r.workload;
  j["impl"] = r.implementation;
  j["config"] = nlohmann::json::object();
  for (const auto& [k, v] : r.config) j["config"][k] = v;
  j["config_index"] = r.config_index;
  j["threads"] = r.threads;
  j["scope"] = RecordScopeName(r.scope);
  j["fallback"] = r.fallback;
  nlohmann::json res;
  res["error"] = MeasureErrorName(r.result.error);
  res["median_s"] = r.result.median_s;
  res["repeats_s"] = r.result.repeats_s;
  res["wall_s"] = r.result.wall_s;
  if (!r.result.message.empty()) res["message"] = r.result.message;
  j["result"] = res;
  j["timestamp"] = r.timestamp;
  // Invalid UTF-8 (from an error message) is replaced, never thrown.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

absl::StatusOr<Record> RecordFromJson(absl::string_view line) {
  nlohmann::json j = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
  if (j.is_discarded()) return Bad("not JSON");
  if (!j.is_object()) return Bad("not a JSON object");
  auto str = [&](const nlohmann::json& o, const char* key, std::string* out) -> absl::Status {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return Bad(absl::StrCat("'", key, "' must be a string"));
    *out = it->get<std::string>();
    return absl::OkStatus();
  };
  auto num = [&](const nlohmann::json& o, const char* key, double* out) -> absl::Status {
    auto it = o.find(key);
    if (it == o.end() || !it->is_number() || !std::isfinite(it->get<double>()) ||
        it->get<double>() < 0) {
      return Bad(absl::StrCat("'", key, "' must be a finite number >= 0"));
    }
    *out = it->get<double>();
    return absl::OkStatus();
  };
  Record r;
  auto format = j.find("format");
  if (format == j.end() || !format->is_number_integer()) return Bad("'format' must be an integer");
  r.format = format->get<int>();
  if (r.format != kRecordFormat) {
    return absl::FailedPreconditionError(absl::StrCat("records of format ", r.format,
                                                      " are not readable by this qnnc (format ",
                                                      kRecordFormat, "); re-tune, or use the qnnc that wrote them"));
  }
  absl::Status s;
  if (!(s = str(j, "qnnc", &r.qnnc_version)).ok() || !(s = str(j, "target", &r.target)).ok() ||
      !(s = str(j, "cpu", &r.cpu)).ok() || !(s = str(j, "workload", &r.workload)).ok() ||
      !(s = str(j, "impl", &r.implementation)).ok() ||
      !(s = str(j, "timestamp", &r.timestamp)).ok()) {
    return s;
  }
  if (r.workload.empty() || r.implementation.empty() || r.target.empty()) {
    return Bad("'workload', 'impl' and 'target' must not be empty");
  }
  // Records of a renamed implementation count for it under its new name.
  r.implementation = std::string(kernels::spatial_pack::CurrentImplementationName(r.implementation));
  auto config = j.find("config");
  if (config == j.end() || !config->is_object()) return Bad("'config' must be an object");
  absl::StatusOr<util::Config> knobs = util::ConfigFromJson(config->dump());
  if (!knobs.ok()) return Bad(std::string(knobs.status().message()));
  r.config = *std::move(knobs);
  auto index = j.find("config_index");
  if (index == j.end() || !index->is_number_integer()) return Bad("'config_index' must be an integer");
  r.config_index = index->get<int64_t>();
  if (absl::Status s = ReadThreadsAndScope(j, &r); !s.ok()) return s;
  auto res = j.find("result");
  if (res == j.end() || !res->is_object()) return Bad("'result' must be an object");
  std::string error;
  if (!(s = str(*res, "error", &error)).ok()) return s;
  auto code = ParseMeasureError(error);
  if (!code.ok()) return code.status();
  r.result.error = *code;
  if (!(s = num(*res, "median_s", &r.result.median_s)).ok() ||
      !(s = num(*res, "wall_s", &r.result.wall_s)).ok()) {
    return s;
  }
  auto repeats = res->find("repeats_s");
  if (repeats == res->end() || !repeats->is_array()) return Bad("'repeats_s' must be an array");
  for (const auto& v : *repeats) {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0) {
      return Bad("'repeats_s' must hold finite numbers >= 0");
    }
    r.result.repeats_s.push_back(v.get<double>());
  }
  auto message = res->find("message");
  if (message != res->end() && message->is_string()) r.result.message = message->get<std::string>();
  if (r.result.error == MeasureError::kNone && (r.result.median_s <= 0 || r.result.repeats_s.empty())) {
    return Bad("a successful measurement needs a median_s > 0 and its repeats");
  }
  return r;
}

std::string UtcTimestamp() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace qnnc::tuning
