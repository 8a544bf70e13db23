// RETURN_IF_ERROR / ASSIGN_OR_RETURN: Debian's Abseil 20220623 has no status
// macros, so qnnc defines the two it needs, once.
#ifndef QNNC_UTIL_STATUS_MACROS_H_
#define QNNC_UTIL_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define QNNC_CONCAT_INNER_(a, b) a##b
#define QNNC_CONCAT_(a, b) QNNC_CONCAT_INNER_(a, b)

#define RETURN_IF_ERROR(expr)                          \
  do {                                                 \
    ::absl::Status qnnc_status_ = (expr);              \
    if (!qnnc_status_.ok()) return qnnc_status_;       \
  } while (0)

#define ASSIGN_OR_RETURN(lhs, expr) \
  QNNC_ASSIGN_OR_RETURN_IMPL_(QNNC_CONCAT_(qnnc_statusor_, __LINE__), lhs, expr)

#define QNNC_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()

#endif  // QNNC_UTIL_STATUS_MACROS_H_
