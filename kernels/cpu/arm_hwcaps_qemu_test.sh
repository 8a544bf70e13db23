#!/usr/bin/env bash
# The AArch64 probe (arm_hwcaps.h) built with Debian's cross compiler and run
# under qemu-user at three CPU models must find each one's level (NEON only
# on cortex-a72, the dot product on neoverse-n1, i8mm as well on max) and its
# core from MIDR_EL1 (qemu's max has an implementer of 0, no core of Arm's).
# Needs g++-aarch64-linux-gnu and qemu-user (scripts/setup.sh installs them).
set -uo pipefail

SRC="$TEST_SRCDIR/qnnc"
source "$SRC/kernels/testing/cross_aarch64.sh"

work="${TEST_TMPDIR:-$(mktemp -d)}/arm_level"
mkdir -p "$work"
if ! "$CXX" -std=c++17 -O2 -static -I"$SRC" "$SRC/kernels/cpu/testing/arm_level_main.cc" \
    -o "$work/arm_level" 2>"$work/cxx.log"; then
  echo "FAIL: the aarch64 build failed:"
  cat "$work/cxx.log"
  exit 1
fi

fail=0
for want in "cortex-a72 neon neon=1 dotprod=0 i8mm=0 core=cortex-a72" \
            "neoverse-n1 dotprod neon=1 dotprod=1 i8mm=0 core=neoverse-n1" \
            "max i8mm neon=1 dotprod=1 i8mm=1 core="; do
  cpu=${want%% *}
  expected=${want#* }
  got=$("$QEMU" -cpu "$cpu" "$work/arm_level") || { echo "FAIL: $cpu: the probe did not run"; fail=1; continue; }
  if [ "$got" = "$expected" ]; then
    echo "ok: $cpu: $got"
  else
    echo "FAIL: $cpu: got '$got', want '$expected'"
    fail=1
  fi
done
exit "$fail"
