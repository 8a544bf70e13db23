#!/usr/bin/env bash
# Compile time against weight size: QDQ stacks of 3x3 convolutions
# (//bench:scaled_conv_model) whose weights are 1x, 2x and 4x the first's
# (channels x sqrt(2) per doubling), each compiled by //tools:compile -c opt
# --no-run (median of --runs) and written as a binary plan (median load time
# of --runs). Prints a Markdown table: weights, compile ms, ms per MB of
# weights and its ratio to 1x (1.00 everywhere: linear), plan size and load.
#
#   bench/compile_scaling.sh [--channels=256] [--layers=8] [--runs=5] [--isa=LEVEL]
set -euo pipefail
cd "$(dirname "$0")/.."
channels=256 layers=8 runs=5 isa_flag=()
for arg in "$@"; do
  case "$arg" in
    --channels=*) channels="${arg#--channels=}" ;;
    --layers=*) layers="${arg#--layers=}" ;;
    --runs=*) runs="${arg#--runs=}" ;;
    --isa=*) isa_flag=("$arg") ;;
    -h | --help) sed -n 2,9p "$0"; exit 0 ;;
    *) echo "compile_scaling.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
source bench/bench_lib.sh
bench_setup //tools:compile //bench:scaled_conv_model
echo "| weights | model | compile ms | ms per MB | per MB vs 1x | plan MB | plan load ms |"
echo "|---|---|---|---|---|---|---|"
base=""
for scale in 1 2 4; do
  c=$(awk -v c="$channels" -v s="$scale" 'BEGIN {printf "%d", c * sqrt(s) + 0.5}')
  model="$work/conv${layers}x$c.onnx"
  "$bin/bench/scaled_conv_model" --channels="$c" --layers="$layers" --out="$model"
  mb=$(awk -v c="$c" -v l="$layers" 'BEGIN {printf "%.2f", c * c * 9 * l / 1048576}')
  compile_ms=$(for ((i = 0; i < runs; i++)); do
    "$bin/tools/compile" --model="$model" --no-run "${isa_flag[@]}" 2>&1 | sed -n 's/^compile: *\([0-9.]*\) ms.*/\1/p'
  done | median)
  "$bin/tools/compile" --model="$model" --no-run "${isa_flag[@]}" --out="$work/plan" >/dev/null 2>&1
  plan_mb=$(awk -v b="$(stat -c %s "$work/plan")" 'BEGIN {printf "%.2f", b / 1048576}')
  load_ms=$(for ((i = 0; i < runs; i++)); do
    "$bin/tools/compile" --plan="$work/plan" --no-run "${isa_flag[@]}" 2>&1 | sed -n 's/^load: *\([0-9.]*\) ms.*/\1/p'
  done | median)
  per_mb=$(awk -v t="$compile_ms" -v m="$mb" 'BEGIN {printf "%.2f", t / m}')
  [ -z "$base" ] && base=$per_mb
  ratio=$(awk -v p="$per_mb" -v b="$base" 'BEGIN {printf "%.2f", p / b}')
  echo "| ${scale}x ($mb MB) | $layers x 3x3, $c channels | $compile_ms | $per_mb | $ratio | $plan_mb | $load_ms |"
done
