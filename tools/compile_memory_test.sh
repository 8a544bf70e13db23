#!/usr/bin/env bash
# Weights are held once while compiling: //tools:compile on a QDQ model of
# 18 MiB of weights (//bench:scaled_conv_model), writing its binary plan,
# peaks at no more than its weights (the larger of the int8 constants and
# the kernels' packed form) plus the arena plus 32 MiB, and so does running
# that plan. Reading the file whole, the importer keeping its protobuf copy,
# folded weights kept for reuse, every constant kept until all kernels are
# packed or the plan assembled in memory before it is written would each
# add a full copy (18 MiB or more).
set -uo pipefail

if [ -n "${QNNC_TARGET_EXEC:-}" ]; then
  echo "SKIP: under qemu-user the peak RSS is the emulator's"
  exit 0
fi
if [ -n "${QNNC_SANITIZER:-}" ]; then
  echo "SKIP: under the $QNNC_SANITIZER sanitizer freed memory is held in its quarantine"
  exit 0
fi
COMPILE="$TEST_SRCDIR/qnnc/tools/compile"
GENERATE="$TEST_SRCDIR/qnnc/bench/scaled_conv_model"
model="$TEST_TMPDIR/stack.onnx"
"$GENERATE" --channels=512 --layers=8 --out="$model" || { echo "FAIL: cannot generate the model"; exit 1; }
"$COMPILE" --model="$model" --no-run --out="$TEST_TMPDIR/p.qplan" --report="$TEST_TMPDIR/r.json" \
  >"$TEST_TMPDIR/log" 2>&1 || { echo "FAIL: compile failed"; cat "$TEST_TMPDIR/log"; exit 1; }
"$COMPILE" --plan="$TEST_TMPDIR/p.qplan" --runs=1 --report="$TEST_TMPDIR/run.json" >"$TEST_TMPDIR/log" 2>&1 ||
  { echo "FAIL: running the plan failed"; cat "$TEST_TMPDIR/log"; exit 1; }
field() { grep -oE "\"$1\": [0-9]+" "${2:-$TEST_TMPDIR/r.json}" | grep -oE '[0-9]+$'; }
constants=$(field constant_bytes) packed=$(field packed_bytes) arena=$(field arena_bytes)
peak=$(field peak_rss_bytes)
weights=$((constants > packed ? constants : packed))
bound=$((weights + arena + (32 << 20)))
mib() { awk -v b="$1" 'BEGIN {printf "%.1f MiB", b / 1048576}'; }
echo "constants $(mib "$constants"), packed $(mib "$packed"), arena $(mib "$arena"): peak RSS $(mib "$peak"), bound $(mib "$bound")"
if [ "$packed" -lt $((constants / 2)) ]; then
  echo "FAIL: the kernels hold $(mib "$packed") packed of $(mib "$constants") of weights: the model should be packed whole"
  exit 1
fi
if [ "$peak" -gt "$bound" ]; then
  echo "FAIL: compiling peaked at $(mib "$peak"), over the weights plus the arena plus 32 MiB"
  exit 1
fi
run_peak=$(field peak_rss_bytes "$TEST_TMPDIR/run.json")
echo "running the plan: peak RSS $(mib "$run_peak")"
if [ "$run_peak" -gt "$bound" ]; then
  echo "FAIL: running the plan peaked at $(mib "$run_peak"), over the weights plus the arena plus 32 MiB"
  exit 1
fi
echo "PASS"
