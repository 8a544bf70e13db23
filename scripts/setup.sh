#!/usr/bin/env bash
# Installs the Debian 12 packages qnnc builds and tests with, if missing.
# Safe to run again: it installs nothing when everything is present.
#   scripts/setup.sh            the x86-64 build and its tests
#   scripts/setup.sh --aarch64  also the AArch64 cross build (--config=aarch64):
#                               the arm64 sysroot (scripts/aarch64_sysroot.sh)
#   scripts/setup.sh --mca      also llvm-19, whose llvm-mca-19 models the Arm
#                               cores for bench/arm_mca.py (not needed by tests)
set -euo pipefail

aarch64=0
mca=0
for arg in "$@"; do
  case "$arg" in
    --aarch64) aarch64=1 ;;
    --mca) mca=1 ;;
    *) echo "setup: unknown argument '$arg' (valid: --aarch64, --mca)" >&2; exit 2 ;;
  esac
done

PACKAGES=(
  # Build: Bazel 4.2.3 and its rules, from Debian.
  bazel-bootstrap bazel-rules-cc bazel-rules-java bazel-skylib
  g++ pkg-config
  # Libraries.
  libabsl-dev libre2-dev libgtest-dev libgmock-dev libbenchmark-dev
  libxnnpack-dev libpthreadpool-dev libcpuinfo-dev
  libonnx-dev libprotobuf-dev protobuf-compiler nlohmann-json3-dev
  # The binary plan: FlatBuffers (flatc and its headers), xxHash's checksum.
  flatbuffers-compiler libflatbuffers-dev libxxhash-dev
  # The tuner's cost model; unzip for the records of sharded tuning tests.
  libxgboost-dev unzip
  # Test data: the ONNX backend node tests.
  libonnx-testdata
  # Reliability (README): libFuzzer targets with clang, the file-access
  # check of //tools:bad_inputs_test.
  clang-14 libclang-rt-14-dev libfuzzer-14-dev strace
  # The AArch64 probe built for aarch64 and run under qemu
  # (//kernels/cpu:arm_hwcaps_qemu_test); the cross build (--aarch64).
  g++-aarch64-linux-gnu qemu-user
  # compile --svg renders the graph picture with Graphviz's dot.
  graphviz
  # The Python module (//python): Debian's Python headers, numpy, pybind11.
  python3-dev python3-numpy python3-pybind11
  # //:house_rules_test and //:history_words_test read the checkout through git.
  python3 git
)

if [ "$mca" -eq 1 ]; then PACKAGES+=(llvm-19); fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || echo "setup: apt-get update failed; trying with the current package lists"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "$aarch64" -eq 1 ]; then
  "$(dirname "$0")/aarch64_sysroot.sh"
fi
