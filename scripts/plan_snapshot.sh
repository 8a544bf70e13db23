#!/usr/bin/env bash
# Compiles every bundled and zoo model (testdata/models, testdata/zoo) at
# every x86-64 instruction-set level to a text plan in OUT_DIR, named
# MODEL.LEVEL.plan. Two snapshots of two builds compare with `diff -r`: a
# refactoring that must not change behaviour leaves them byte-identical.
#   scripts/plan_snapshot.sh OUT_DIR [COMPILE_BINARY]
# (default binary: bazel-bin/tools/compile of this workspace, built first.)
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: scripts/plan_snapshot.sh OUT_DIR [COMPILE_BINARY]}
compile=${2:-}
if [ -z "$compile" ]; then
  bazel build //tools:compile >/dev/null 2>&1 || { echo "plan_snapshot: build failed" >&2; exit 1; }
  compile="$(bazel info bazel-bin 2>/dev/null)/tools/compile"
fi
[ -x "$compile" ] || { echo "plan_snapshot: no compile binary at '$compile'" >&2; exit 2; }
mkdir -p "$out"
levels=(scalar avx2 avxvnni avx512bw avx512vnni)
status=0
for model in testdata/models/*.onnx testdata/zoo/*.onnx; do
  name=$(basename "$model" .onnx)
  for level in "${levels[@]}"; do
    target="x86_64"
    case "$level" in
      scalar) target="x86_64" ;;
      *) target="x86_64+$level" ;;
    esac
    if ! "$compile" --model="$model" --target="$target" --isa="$level" --no-run \
        --out="$out/$name.$level.plan" --plan-format=text >"$out/$name.$level.log" 2>&1; then
      echo "plan_snapshot: $name at $level failed (see $out/$name.$level.log)" >&2
      status=1
    fi
  done
done
echo "plan_snapshot: $(ls "$out"/*.plan 2>/dev/null | wc -l) plans in $out"
exit $status
