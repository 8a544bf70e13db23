# Sourced by the shell tests that start qnnc's binaries. On the host's own
# architecture a binary starts as it is; under --config=aarch64 the test
# script runs on the x86-64 host and each AArch64 binary starts under
# $QNNC_TARGET_EXEC (qemu-user, set by //toolchains/aarch64:qemu_run).
#
#   COMPILE=$(target_binary "$TEST_SRCDIR/qnnc/tools/compile")
target_binary() {
  if [ -z "${QNNC_TARGET_EXEC:-}" ]; then
    echo "$1"
    return
  fi
  local dir="${TEST_TMPDIR:-/tmp}/target_binaries"
  local wrapper
  mkdir -p "$dir"
  wrapper="$dir/$(basename "$1")"
  printf '#!/bin/sh\nexec %s %s "$@"\n' "$QNNC_TARGET_EXEC" "$1" >"$wrapper"
  chmod +x "$wrapper"
  echo "$wrapper"
}
