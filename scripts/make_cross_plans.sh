#!/usr/bin/env bash
# Writes testdata/cross/: the digests of the plans x86-64 qnnc compiles for
# each Arm level from a zoo model, and its output of that model on x86-64
# (which every level's plan must reproduce on AArch64: //tools:cross_plan_test).
# Run on x86-64 after a change to the passes or the plan format.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -m)" = x86_64 ] || { echo "run on x86-64: the digests are x86-64 qnnc's" >&2; exit 1; }
MODEL=shufflenet_v2_op13
bazel build //tools:compile
COMPILE="$(bazel info bazel-bin)/tools/compile"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for level in neon dotprod i8mm; do
  "$COMPILE" --model="testdata/zoo/$MODEL.onnx" --target="aarch64+$level" --no-run --out="$TMP/$level.plan" >/dev/null
  echo "$(sha256sum "$TMP/$level.plan" | cut -d' ' -f1) aarch64+$level"
done >"$TMP/digests"
"$COMPILE" --model="testdata/zoo/$MODEL.onnx" --runs=1 --output="$TMP/out.f32" >/dev/null
mv "$TMP/digests" "testdata/cross/$MODEL.plans.sha256"
mv "$TMP/out.f32" "testdata/cross/$MODEL.qnnc_output.f32"
echo "wrote testdata/cross/$MODEL.plans.sha256 and $MODEL.qnnc_output.f32"
