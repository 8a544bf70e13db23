#!/usr/bin/env bash
# //:layering_test: each *_forbidden_deps genquery (top-level BUILD) lists the
# dependencies its packages may not have; all must be empty.
set -uo pipefail
failures=0
for f in "$TEST_SRCDIR"/qnnc/*_forbidden_deps; do
  name=$(basename "$f" _forbidden_deps)
  if [ -s "$f" ]; then
    echo "FAIL: $name depends on what the layering forbids:"
    sed 's/^/  /' "$f"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
done
checked=$(ls "$TEST_SRCDIR"/qnnc/*_forbidden_deps 2>/dev/null | wc -l)
[ "$checked" -eq 9 ] || { echo "FAIL: expected 9 layering checks, found $checked"; failures=$((failures + 1)); }
[ "$failures" -eq 0 ]
