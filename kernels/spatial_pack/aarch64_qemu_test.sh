#!/usr/bin/env bash
# The portable kernels (u8s8 scalar microkernels, the int16 path: the Arm
# default) built for aarch64 with Debian's cross compiler (-O3: GCC
# vectorizes them with NEON) and run under qemu-user must print exactly what
# the host build prints (testing/portable_cases_main.cc): the same bits on
# Arm as on x86, where conv2d_test checks them against the reference.
# Needs g++-aarch64-linux-gnu and qemu-user (scripts/setup.sh installs them).
set -uo pipefail

SRC="$TEST_SRCDIR/qnnc"
HOST_BIN="$SRC/kernels/spatial_pack/portable_cases"
source "$SRC/kernels/testing/cross_aarch64.sh"

work="$TEST_TMPDIR/aarch64"
mkdir -p "$work/include"
# pthreadpool's header is plain C and the same for every architecture; only
# it is taken from the host's /usr/include (the cross compiler has its own).
cp /usr/include/pthreadpool.h "$work/include/"

if ! "$CXX" -std=c++17 -O3 -static -I"$SRC" -I"$work/include" \
    "$SRC/kernels/spatial_pack/testing/portable_cases_main.cc" \
    "$SRC/kernels/spatial_pack/testing/serial_pthreadpool.cc" \
    "$SRC/kernels/spatial_pack/internal/int16.cc" \
    "$SRC/kernels/spatial_pack/internal/scalar.cc" \
    -o "$work/portable_cases" 2>"$work/cxx.log"; then
  echo "FAIL: the aarch64 build failed:"
  cat "$work/cxx.log"
  exit 1
fi

"$HOST_BIN" >"$work/host.txt" || { echo "FAIL: the host build failed to run"; exit 1; }
"$QEMU" "$work/portable_cases" >"$work/arm.txt" || { echo "FAIL: the aarch64 build failed under $QEMU"; exit 1; }

cases=$(wc -l <"$work/host.txt")
if [ "$cases" -lt 12 ]; then
  echo "FAIL: the host build printed $cases cases, expected 12"
  cat "$work/host.txt"
  exit 1
fi
if ! diff -u "$work/host.txt" "$work/arm.txt"; then
  echo "FAIL: aarch64 (qemu) and host results differ (above)"
  exit 1
fi
echo "aarch64 under qemu matches the host on all $cases cases"
