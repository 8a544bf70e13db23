#!/usr/bin/env bash
# After `bazel test`: the test cases that skipped themselves (GTEST_SKIP, or
# "SKIP:" lines of the shell tests), which Bazel's summary counts as passed.
# Usage: scripts/skipped_cases.sh LABEL
set -uo pipefail
label=${1:-}
logs=$(bazel info bazel-testlogs 2>/dev/null) || exit 0
[ -d "$logs" ] || exit 0
names=$(find "$logs" -name test.log -print0 2>/dev/null |
  xargs -0 -r grep -hE '^\[  SKIPPED \] [A-Za-z_/.0-9]+|^SKIP:' 2>/dev/null |
  grep -v 'listed below' | sed -E 's/^\[  SKIPPED \] //; s/ \([0-9]+ ms\)$//' | sort -u)
n=$(printf '%s' "$names" | grep -c . || true)
echo "skipped cases ($label): $n"
[ -n "$names" ] && printf '%s\n' "$names" | sed 's/^/  /'
exit 0
