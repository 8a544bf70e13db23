#!/usr/bin/env bash
# What deploying a model costs, qnnc beside ONNX Runtime (npm
# onnxruntime-node), one thread, each figure the median of --runs processes:
# - compile: //tools:compile --no-run from ONNX (its `compile:` line);
# - plan: the binary plan's size against the weights (the compiled graph's
#   constants, --report's constant_bytes);
# - load: //tools:compile --plan (its `load:` line: mapped, checked, kernels
#   bound over the packed weights), against ORT's session creation;
# - memory: the peak RSS of running the plan 10 times, against the weights
#   plus the arena plus 20 MiB, and against ORT's peak over what its Node
#   process held before the session (bench/peers/ort_session_cost.js).
# Models: the bundled MobileNetV2 and ResNet-18, and a QDQ ResNet-50 of
# torchvision's layout with random weights (//bench:resnet_model, 25.5 MB of
# weights). Prints a Markdown table.
#
#   bench/deploy_cost.sh [--runs=5] [--isa=LEVEL]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 isa_flag=()
for arg in "$@"; do
  case "$arg" in
    --runs=*) runs="${arg#--runs=}" ;;
    --isa=*) isa_flag=("$arg") ;;
    -h | --help) sed -n 2,16p "$0"; exit 0 ;;
    *) echo "deploy_cost.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "deploy_cost.sh: --runs takes a positive integer" >&2; exit 2; }
command -v node >/dev/null || { echo "deploy_cost.sh: needs Node.js (>= 18) and npm" >&2; exit 2; }
if [ ! -d bench/peers/node_modules/onnxruntime-node ]; then
  (cd bench/peers && npm install --ignore-scripts --no-audit --no-fund >&2)
fi
source bench/bench_lib.sh
bench_setup //tools:compile //bench:resnet_model
# field FILE PATTERN: the number after PATTERN in FILE.
field() { sed -n "s/^.*$2 *\([0-9.]*\).*/\1/p" "$1" | head -1; }

"$bin/bench/resnet_model" --depth=50 --out="$work/resnet50.onnx" 2>/dev/null
/usr/bin/python3 -c 'import random, struct, sys
random.seed(1)
n = 3 * 224 * 224
sys.stdout.buffer.write(struct.pack("<%df" % n, *[random.uniform(-1, 1) for _ in range(n)]))' >"$work/resnet50.input.f32"

echo "| model | weights | compile | plan | load | ORT session | load / ORT | peak RSS running | weights + arena + 20 MiB | ORT's own RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for spec in "$PWD/testdata/models/mobilenet_v2_qdq:1,3,224,224" "$PWD/testdata/models/resnet18_qdq:1,3,224,224" \
  "$work/resnet50:1,3,224,224"; do
  base="${spec%%:*}" shape="${spec##*:}"
  name=$(basename "$base")
  for ((i = 0; i < runs; i++)); do
    "$bin/tools/compile" --model="$base.onnx" --no-run "${isa_flag[@]}" --out="$work/p.qplan" \
      --report="$work/r.json" >"$work/c.log" 2>&1
    field "$work/c.log" "compile:" >>"$work/compile"
    "$bin/tools/compile" --plan="$work/p.qplan" --input="$base.input.f32" --runs=10 >"$work/l.log" 2>&1
    field "$work/l.log" "load:" >>"$work/load"
    field "$work/l.log" "peak RSS" >>"$work/rss"
    (cd bench/peers && node ort_session_cost.js "$base.onnx" "$base.input.f32" --shape="$shape") >"$work/o.json"
    sed -n 's/.*"create_ms":\([0-9.]*\).*/\1/p' "$work/o.json" >>"$work/ort_create"
    sed -n 's/.*"net_rss_mib":\([0-9.]*\).*/\1/p' "$work/o.json" >>"$work/ort_rss"
  done
  weights=$(grep -oE '"constant_bytes": [0-9]+' "$work/r.json" | grep -oE '[0-9]+$')
  arena=$(field "$work/l.log" "arena of")
  plan=$(stat -c %s "$work/p.qplan")
  compile=$(median <"$work/compile") load=$(median <"$work/load") rss=$(median <"$work/rss")
  ort_create=$(median <"$work/ort_create") ort_rss=$(median <"$work/ort_rss")
  awk -v n="$name" -v w="$weights" -v c="$compile" -v p="$plan" -v l="$load" -v oc="$ort_create" \
    -v r="$rss" -v a="$arena" -v orss="$ort_rss" 'BEGIN {
      mib = w / 1048576
      printf "| %s | %.2f MiB | %.0f ms | %.2f MiB (%.2fx) | %.1f ms | %.0f ms | 1/%.0f | %.1f MiB | %.1f MiB | %.1f MiB |\n",
        n, mib, c, p / 1048576, p / w, l, oc, oc / l, r, mib + a + 20, orss }'
  rm -f "$work"/{compile,load,rss,ort_create,ort_rss}
done
