// FUZZ_CHECK: the property a fuzz target checks; on violation it prints what
// and aborts (a finding for libFuzzer, a failure for the replay tests).
#ifndef QNNC_FUZZ_FUZZ_CHECK_H_
#define QNNC_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond, detail)                                                        \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: %s\n", __FILE__, __LINE__, #cond, \
                   std::string(detail).c_str());                                        \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)

#endif  // QNNC_FUZZ_FUZZ_CHECK_H_
