#!/usr/bin/env bash
# The test runner of --config=aarch64 (--run_under): an AArch64 test binary
# runs under qemu-user, as the CPU that QEMU_CPU names (default max: NEON,
# dot product and i8mm; cortex-a72 has NEON only, neoverse-n1 adds the dot
# product). A test that is a script runs on the host and starts the AArch64
# binaries it tests through $QNNC_TARGET_EXEC.
set -euo pipefail
# Where qemu finds the dynamic loader, libc and libstdc++ of the cross
# compiler; the toolchain's rpath finds the sysroot's libraries.
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
export QEMU_CPU="${QEMU_CPU:-max}"
if ! command -v qemu-aarch64 >/dev/null; then
  echo "FAIL: qemu-aarch64 is missing: install qemu-user (scripts/setup.sh --aarch64)" >&2
  exit 1
fi
if [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = "7f454c46" ]; then
  exec qemu-aarch64 "$@"
fi
# (By its full path: a test may run its binary with another PATH.)
export QNNC_TARGET_EXEC="$(command -v qemu-aarch64)"
exec "$@"
