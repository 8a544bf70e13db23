#!/usr/bin/env bash
# Writes what x86-64 qnnc computes, for the tests that hold every level of
# either architecture to it:
#   testdata/models/M.qnnc_output.f32, testdata/zoo/M.qnnc_output.f32
#       its output of each bundled and zoo model on its input: every kernel
#       is exact, so each level of x86-64 and AArch64 must give these bits
#       (//tools:model_test, //tools:zoo_model_test);
#   testdata/cross/shufflenet_v2_op13.plans.sha256
#       the digests of the plans it compiles for each Arm level, which the
#       AArch64 build must write too and run (//tools:cross_plan_test).
# Run on x86-64 after a change to the models, or to the passes or the plan
# format (the digests).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -m)" = x86_64 ] || { echo "run on x86-64: these are x86-64 qnnc's results" >&2; exit 1; }
bazel build //tools:compile
COMPILE="$(bazel info bazel-bin)/tools/compile"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for model in testdata/models/*_qdq.onnx testdata/zoo/*.onnx; do
  base="${model%.onnx}"
  "$COMPILE" --model="$model" --input="$base.input.f32" --runs=1 --output="$TMP/out.f32" >/dev/null
  mv "$TMP/out.f32" "$base.qnnc_output.f32"
  echo "wrote $base.qnnc_output.f32"
done
MODEL=shufflenet_v2_op13
for level in neon dotprod i8mm; do
  "$COMPILE" --model="testdata/zoo/$MODEL.onnx" --target="aarch64+$level" --no-run --out="$TMP/$level.plan" >/dev/null
  echo "$(sha256sum "$TMP/$level.plan" | cut -d' ' -f1) aarch64+$level"
done >"$TMP/digests"
mv "$TMP/digests" "testdata/cross/$MODEL.plans.sha256"
echo "wrote testdata/cross/$MODEL.plans.sha256"
