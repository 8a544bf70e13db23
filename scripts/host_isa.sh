#!/usr/bin/env bash
# Prints this host's CPU model and the x86-64 instruction-set level qnnc
# detects on it, and the cap when QNNC_ISA is set: asks //tools:host_isa
# (kernels/cpu/isa.h, the one probe), built quietly first.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! bazel build //tools:host_isa >/dev/null 2>&1; then
  echo "host_isa: could not build //tools:host_isa (run scripts/setup.sh first)" >&2
  exit 1
fi
exec "$(bazel info bazel-bin 2>/dev/null)/tools/host_isa"
