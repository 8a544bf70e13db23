// The tools' flags are spelled with dashes (--test-data); absl flags are
// declared with underscores. Rewrites "--a-b=c" to "--a_b=c" in place.
#ifndef QNNC_TOOLS_FLAG_NAMES_H_
#define QNNC_TOOLS_FLAG_NAMES_H_

#include <cstring>

namespace qnnc::tools {

inline void DashesToUnderscores(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    char* arg = argv[i];
    if (std::strncmp(arg, "--", 2) != 0 || arg[2] == '\0') continue;
    for (char* p = arg + 2; *p != '\0' && *p != '='; ++p) {
      if (*p == '-') *p = '_';
    }
  }
}

}  // namespace qnnc::tools

#endif  // QNNC_TOOLS_FLAG_NAMES_H_
