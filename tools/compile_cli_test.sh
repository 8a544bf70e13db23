#!/usr/bin/env bash
# //tools:compile end to end: the default run, --test-data, outputs and
# reports, and bad input (exit 2, a clear message, no partial output file).
set -uo pipefail

source "$TEST_SRCDIR/qnnc/toolchains/target_binary.sh"
COMPILE=$(target_binary "$TEST_SRCDIR/qnnc/tools/compile")
BAD="$TEST_SRCDIR/qnnc/testdata/bad"
MODELS="$TEST_SRCDIR/qnnc/testdata/models"
NODE="$TEST_SRCDIR/onnx_node_testdata"
# The architecture the binary is built for ($1): its first level above
# scalar, and a target of the other architecture, which it cannot run.
ARCH="${1:-x86_64}"
case "$ARCH" in
  aarch64) FIRST_LEVEL=neon; OTHER_TARGET=x86_64+avx2 ;;
  *) FIRST_LEVEL=avx2; OTHER_TARGET=aarch64+neon ;;
esac
OUT="$TEST_TMPDIR/out"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN ARGS...: exit code CODE, PATTERN in stderr+stdout. One
# warm run unless ARGS say --runs (the default times about a second of runs).
expect() {
  local code=$1 pattern=$2
  shift 2
  rm -rf "$OUT" && mkdir -p "$OUT"
  local log="$TEST_TMPDIR/log"
  "$COMPILE" --runs=1 "$@" >"$log" 2>&1
  local rc=$?
  if [ "$rc" -ne "$code" ]; then fail "exit $rc, expected $code: $*"; cat "$log"; return; fi
  if ! grep -qE -- "$pattern" "$log"; then fail "no /$pattern/ in output of: $*"; cat "$log"; fi
}

# expect_clean: bad input left nothing behind in $OUT.
expect_clean() {
  if [ -n "$(ls -A "$OUT")" ]; then fail "partial output left: $(ls -A "$OUT")"; fi
}

# The default run: the bundled MobileNetV2 against ONNX Runtime's output.
expect 0 "match: +logits: match" --report="$OUT/report.json" --output="$OUT/logits.npy"
grep -q '"implementation"' "$OUT/report.json" || fail "report has no per-op implementation"
grep -q '"workload"' "$OUT/report.json" || fail "report has no workload keys"
grep -q '"decision": "fallback"' "$OUT/report.json" || fail "report has no fallback decision"
grep -q '"legalization"' "$OUT/report.json" || fail "report has no legalization"
[ -s "$OUT/logits.npy" ] || fail "no output written"

# Timing by default (--runs=0): a cold first run on its own line, then warm
# runs filling about a second, at least 10, and the command that times ONNX
# Runtime beside qnnc.
expect 0 "latency: +[0-9.]+ ms \(median of [0-9]+ warm runs, 1 thread\)" --runs=0
warm=$(sed -n 's/^latency: .*median of \([0-9]*\) warm runs.*/\1/p' "$TEST_TMPDIR/log")
[ "${warm:-0}" -ge 10 ] || fail "the default timed $warm warm runs, fewer than 10"
grep -qE "^first: +[0-9.]+ ms \(the first run, cold" "$TEST_TMPDIR/log" || fail "no cold first run line"
grep -q "^compare: bench/models.sh --models=mobilenet_v2_qdq" "$TEST_TMPDIR/log" || fail "no compare command"
expect 2 "--runs must be at least 0" --runs=-1

# The import clean-up is part of the one pipeline: --time-passes and
# --print-ir-after see its passes.
expect 0 "pass FuseQdq " --no-run --time-passes
expect 0 "# IR after FoldConstantKeepDequantize" --no-run --print-ir-after=FoldConstantKeepDequantize

# A target this machine cannot run: compile and report only.
for level in dotprod i8mm; do
  expect 0 "run: +skipped" --target=aarch64+$level --no-run --report="$OUT/arm.json"
  grep -q "arm.spatial_pack.u8s8.$level" "$OUT/arm.json" ||
    fail "aarch64+$level report lacks its u8s8 implementation"
done
expect 0 "run: +skipped" --target=aarch64+neon --no-run --report="$OUT/arm.json"
grep -q 'arm.spatial_pack.int16' "$OUT/arm.json" || fail "aarch64+neon report lacks the int16 implementation"

# Compiled plans: --out writes the compiled graph with its decisions; --plan
# runs it without import or passes, and gives the same output bit for bit.
expect 0 "match: +logits: match" --out="$OUT/mbv2.plan" --plan-format=text --output="$OUT/direct.npy"
# How many ops the plan for this host has (it depends on the host's target).
plan_ops=$(grep -oE "^ops: +[0-9]+" "$TEST_TMPDIR/log" | grep -oE "[0-9]+")
[ -n "$plan_ops" ] || fail "the direct run printed no op count"
head -1 "$OUT/mbv2.plan" | grep -q "^# qnnc plan v1 target=" || fail "the plan has no header"
grep -q 'qnn.conv2d_requantize(.*impl = "' "$OUT/mbv2.plan" || fail "the plan records no decisions"
cp "$OUT/mbv2.plan" "$OUT/direct.npy" "$TEST_TMPDIR/"
expect 0 "match: +logits: match" --plan="$TEST_TMPDIR/mbv2.plan" --threads=2 \
  --input="$MODELS/mobilenet_v2_qdq.input.f32" --expect="$MODELS/mobilenet_v2_qdq.ort_output.f32" \
  --output="$OUT/plan.npy"
cmp -s "$TEST_TMPDIR/direct.npy" "$OUT/plan.npy" || fail "the plan's output differs from the direct run's"
# The binary plan (the default format): the same graph, loaded by mapping
# the file; its output is the direct run's bit for bit, and it is little
# bigger than the constants it stands for (below).
expect 0 "match: +logits: match" --out="$OUT/mbv2.qplan" --report="$OUT/r.json"
head -c 8 "$OUT/mbv2.qplan" | grep -q "qnncplan" || fail "the binary plan has no 'qnncplan' magic"
cp "$OUT/mbv2.qplan" "$TEST_TMPDIR/"
# Its spatial-pack convolutions' kernels hold their weights packed in the
# plan:
# loading makes each of them from those, packing nothing. The depthwise
# kernels hold theirs as their microkernel reads them (int32 at VNNI: 1.15x
# on MobileNetV2), and u8s8.avx2's pairing (a 4-byte step number per 64-byte
# step of weights, its corrections) makes its plans up to 20% larger.
constant_bytes=$(grep -oE '"constant_bytes": [0-9]+' "$OUT/r.json" | grep -oE '[0-9]+$')
plan_bytes=$(stat -c %s "$TEST_TMPDIR/mbv2.qplan")
packed_kernels=$(grep -cE '"kernel": "spatial_pack (u8(s8|i16)|int16)\.' "$OUT/r.json")
percent=115
grep -q '"kernel": "spatial_pack u8s8.avx2.dense' "$OUT/r.json" && percent=120
[ "$plan_bytes" -le $((constant_bytes * percent / 100)) ] ||
  fail "the binary plan is $plan_bytes bytes for $constant_bytes bytes of constants"
expect 0 "load: +[0-9.]+ ms \(the plan loaded, until the kernels bound; $packed_kernels from the plan's packed weights\)" \
  --plan="$TEST_TMPDIR/mbv2.qplan" --input="$MODELS/mobilenet_v2_qdq.input.f32" --output="$OUT/binary.npy"
cmp -s "$TEST_TMPDIR/direct.npy" "$OUT/binary.npy" || fail "the binary plan's output differs from the direct run's"
expect 2 "--plan-format: unknown plan format 'json' \\(valid: binary, text\\)" --plan-format=json
# A damaged binary plan is refused naming the file and what is wrong.
head -c 100000 "$TEST_TMPDIR/mbv2.qplan" >"$TEST_TMPDIR/cut.qplan"
expect 2 "cut.qplan' is truncated" --plan="$TEST_TMPDIR/cut.qplan"
cp "$TEST_TMPDIR/mbv2.qplan" "$TEST_TMPDIR/flipped.qplan"
printf '\x5a' | dd of="$TEST_TMPDIR/flipped.qplan" bs=1 seek=$((plan_bytes - 10)) conv=notrunc 2>/dev/null
expect 2 "flipped.qplan' is corrupt: its checksum" --plan="$TEST_TMPDIR/flipped.qplan"
# The picture of the compiled graph: one DOT node per op, each with its
# implementation and decision, times, the slowest shaded, layout transforms
# marked; Graphviz parses it and --svg renders it.
expect 0 "match: +logits: match" --dot="$OUT/g.dot" --runs=3
dot_nodes=$(grep -cE '^  n[0-9]+ \[label=' "$OUT/g.dot")
[ "$dot_nodes" = "$plan_ops" ] || fail "the DOT has $dot_nodes nodes for $plan_ops ops"
grep -q '(fallback)' "$OUT/g.dot" || fail "the DOT shows no decision"
grep -qE '[0-9]+\.[0-9]{3} ms \(' "$OUT/g.dot" || fail "the DOT shows no times"
if grep -q 'layout_transform' "$TEST_TMPDIR/mbv2.plan"; then
  grep -q 'style="dashed,filled", color="#e66101"' "$OUT/g.dot" || fail "the DOT marks no layout transform"
fi
# (Not `grep -q` at the end of a pipe: under pipefail an early exit could
# fail the pipe by the writer's SIGPIPE.)
grep -E '^  n[0-9]+ \[' "$OUT/g.dot" | grep -v 'fillcolor="#ffffff"' | grep 'fillcolor="#' >/dev/null ||
  fail "the DOT shades no op"
if command -v dot >/dev/null; then
  dot -Tsvg "$OUT/g.dot" -o "$TEST_TMPDIR/check.svg" || fail "Graphviz cannot read the DOT"
  expect 0 "match: +logits: match" --svg="$OUT/g.svg"
  svg_nodes=$(grep -c 'class="node"' "$OUT/g.svg")
  [ "$svg_nodes" = "$plan_ops" ] || fail "the SVG has $svg_nodes nodes for $plan_ops ops"
else
  echo "SKIP: Graphviz's dot is not installed (scripts/setup.sh installs it): the DOT was not parsed, --svg not run"
fi
# --svg without dot: exit 2 naming it, and nothing written (not even --dot's).
rm -rf "$OUT" && mkdir -p "$OUT"
env PATH=/nonexistent "$COMPILE" --runs=1 --dot="$OUT/g.dot" --svg="$OUT/g.svg" >"$TEST_TMPDIR/log" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "--svg without dot: exit $rc, expected 2"
grep -q "needs Graphviz's dot" "$TEST_TMPDIR/log" || { fail "--svg without dot: no message"; cat "$TEST_TMPDIR/log"; }
expect_clean
expect 0 "run: +skipped" --target="$OTHER_TARGET" --no-run --out="$OUT/other.plan" --plan-format=text
head -1 "$OUT/other.plan" | grep -q "target=${OTHER_TARGET%%+*}" || fail "the $OTHER_TARGET plan names another target"
cp "$OUT/other.plan" "$TEST_TMPDIR/"

# Cross-compilation: a plan for every x86 level and for Arm, written on any
# host. The cap (--isa=scalar) makes this host one that runs none of the
# x86 kernels, so the path that checks and describes kernels without
# creating them runs everywhere.
for t in x86_64 x86_64+avx2 x86_64+avxvnni x86_64+avx512vnni aarch64+neon aarch64+dotprod aarch64+i8mm; do
  expect 0 "run: +skipped" --isa=scalar --target="$t" --no-run --out="$OUT/cross.plan" \
    --plan-format=text --report="$OUT/cross.json"
  # The header spells the target canonically (implied features added).
  want="target=${t%%+*}\+.*${t#*+}"
  [ "$t" = "${t#*+}" ] && want="target=$t\$"
  head -1 "$OUT/cross.plan" | grep -qE "$want" ||
    fail "the $t plan names another target: $(head -1 "$OUT/cross.plan")"
  grep -q '"kernel"' "$OUT/cross.json" || fail "the $t report names no kernels"
  cp "$OUT/cross.plan" "$TEST_TMPDIR/cross_$t.plan"
  cp "$OUT/cross.json" "$TEST_TMPDIR/cross_$t.json"
done
grep -q '"kernel": "spatial_pack u8s8.avx512vnni' "$TEST_TMPDIR/cross_x86_64+avx512vnni.json" ||
  fail "the avx512vnni plan written under --isa=scalar does not describe its VNNI kernels"
grep -q '"kernel": "spatial_pack u8s8.avx2' "$TEST_TMPDIR/cross_x86_64+avx2.json" ||
  fail "the avx2 plan written under --isa=scalar does not describe its AVX2 kernels"
# AVX-VNNI hosts: vpdpbusd on ymm for the dense layers (any weights), the
# AVX2 int16 kernel for the depthwise ones.
grep -q '"kernel": "spatial_pack u8s8.avxvnni.dense' "$TEST_TMPDIR/cross_x86_64+avxvnni.json" ||
  fail "the avxvnni plan does not describe its AVX-VNNI kernels"
grep -q '"kernel": "spatial_pack u8s8.avx2.depthwise' "$TEST_TMPDIR/cross_x86_64+avxvnni.json" ||
  fail "the avxvnni plan does not run its depthwise layers on the AVX2 kernel"
# Arm: the dot products decide dense and depthwise layers (NEON depthwise
# rows), the int16 kernel everything without them.
for level in dotprod i8mm; do
  for kind in dense depthwise; do
    grep -q "\"kernel\": \"spatial_pack u8s8.$level.$kind" "$TEST_TMPDIR/cross_aarch64+$level.json" ||
      fail "the aarch64+$level plan does not describe its $kind $level kernels"
  done
done
grep -q '"kernel": "spatial_pack int16' "$TEST_TMPDIR/cross_aarch64+neon.json" ||
  fail "the aarch64+neon plan does not describe its int16 kernels"
# The report says why a better-ranked kernel did not decide: some of
# MobileNetV2's dense layers need more than 2% of vpmaddubsw's steps
# corrected (u8s8.avx2), so the fallback runs u8i16.avx2 there; on VNNI the
# best-ranked kernel decides them all.
grep -qE '"passed_over": "x86.spatial_pack.u8s8.avx2: not the fallback where more than 2% .* got [0-9]+' \
  "$TEST_TMPDIR/cross_x86_64+avx2.json" ||
  fail "the avx2 report does not say why u8s8.avx2 was passed over"
grep -q 'passed_over = "x86.spatial_pack.u8s8.avx2' "$TEST_TMPDIR/cross_x86_64+avx2.plan" ||
  fail "the avx2 plan does not keep why u8s8.avx2 was passed over"
if grep -q '"passed_over"' "$TEST_TMPDIR/cross_x86_64+avx512vnni.json"; then
  fail "the avx512vnni report passes over a kernel: $(grep -m1 '"passed_over"' "$TEST_TMPDIR/cross_x86_64+avx512vnni.json")"
fi
if [ "$ARCH" = x86_64 ]; then
# Such a plan on a host that cannot run it: exit 2 naming what is missing.
# (A CPU that reports no AVX2, as under .ci/run's CPUID cap, needs it too.)
expect 2 "cannot run on this machine: it needs (avx2, )?avx512bw, avx512vnni \\(" --isa=avx2 \
  --plan="$TEST_TMPDIR/cross_x86_64+avx512vnni.plan"
expect 2 "cannot run on this machine: it needs avx2" --isa=scalar \
  --plan="$TEST_TMPDIR/cross_x86_64+avx2.plan"
# And where the host can run it, it runs and matches ONNX Runtime.
host_isa=$("$COMPILE" --no-run 2>/dev/null | sed -n 's/^host: *\([a-z0-9]*\).*/\1/p')
echo "host instruction-set level: $host_isa"
[ -n "$host_isa" ] || fail "compile --no-run printed no host line"
for t in x86_64 x86_64+avx2 x86_64+avx512vnni; do
  case "$t:$host_isa" in
    x86_64+avx2:scalar | x86_64+avx512vnni:scalar | x86_64+avx512vnni:avx2 | x86_64+avx512vnni:avx512bw | \
    x86_64+avx512vnni:avxvnni)
      echo "SKIP: running the $t plan needs an instruction set this host ($host_isa) lacks"
      continue ;;
  esac
  expect 0 "match: +logits: match" --plan="$TEST_TMPDIR/cross_$t.plan" \
    --input="$MODELS/mobilenet_v2_qdq.input.f32" --expect="$MODELS/mobilenet_v2_qdq.ort_output.f32"
done
# The AVX-VNNI plan: an AVX-512 VNNI level does not say whether the CPU has
# AVX-VNNI (Sapphire Rapids does, Cascade Lake does not), so the plan's own
# check decides: it runs and matches, or exits 2 naming what is missing.
"$COMPILE" --runs=1 --plan="$TEST_TMPDIR/cross_x86_64+avxvnni.plan" --input="$MODELS/mobilenet_v2_qdq.input.f32" \
  --expect="$MODELS/mobilenet_v2_qdq.ort_output.f32" >"$TEST_TMPDIR/log" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -qE "cannot run on this machine: it needs .*avxvnni" "$TEST_TMPDIR/log"; then
  echo "SKIP: running the x86_64+avxvnni plan needs AVX-VNNI, which this host (or the cap) lacks"
elif [ "$rc" -ne 0 ] || ! grep -qE "match: +logits: match" "$TEST_TMPDIR/log"; then
  fail "the x86_64+avxvnni plan: exit $rc"
  cat "$TEST_TMPDIR/log"
else
  echo "ran the x86_64+avxvnni plan: $(grep -m1 -E 'match: +logits' "$TEST_TMPDIR/log")"
fi
fi  # x86_64

# ONNX node test folders.
expect 0 "exact match" --model="$NODE/test_qlinearconv/model.onnx" --test-data="$NODE/test_qlinearconv/test_data_set_0"
expect 0 "match" --model="$NODE/test_basic_conv_with_padding/model.onnx" --test-data="$NODE/test_basic_conv_with_padding/test_data_set_0"

# A mismatch exits 1 and says where.
expect 1 "MISMATCH.*worst at" --expect="$MODELS/resnet18_qdq.ort_output.f32"

# Bad input: exit 2, a clear message, no partial output.
bad() {
  local pattern=$1
  shift
  expect 2 "$pattern" "$@" --output="$OUT/y.npy" --report="$OUT/r.json"
  expect_clean
}
bad "not a valid ONNX model" --model="$BAD/truncated.onnx"
bad "not a valid ONNX model" --model="$BAD/garbage.onnx"
bad "'w'" --model="$BAD/missing_tensor.onnx"
bad "has 1000 bytes" --input="$BAD/short_input.f32"
bad "node .my_lstm. \(LSTM\)" --model="$BAD/unsupported_op.onnx"
bad "node .my_einsum. \(Einsum\)" --model="$BAD/unsupported_op.onnx"
bad "opset 9" --model="$BAD/opset_too_old.onnx"
bad "opset 18" --model="$BAD/opset_too_new.onnx"
bad "negative|-3" --model="$BAD/negative_dim.onnx"
bad "overflow|too large|too many" --model="$BAD/overflowing_dims.onnx"
bad "bad_conv" --model="$BAD/type_error.qnnir"
bad "syntax_error.qnnir:3:3" --model="$BAD/syntax_error.qnnir"
bad "no such|cannot open|not found" --model="$OUT/does_not_exist.onnx"
bad "unknown architecture .sparc.*valid: host, generic, x86_64, aarch64" --target=sparc
bad "unknown feature .neon. for x86_64" --target=x86_64+neon
bad "cannot run on this machine.*--no-run" --target="$OTHER_TARGET"
bad "no tuning record" --require-tuned
bad "threads" --threads=0
bad "--isa: unknown instruction-set level 'avx3' \(valid: scalar, $FIRST_LEVEL" --isa=avx3
rm -rf "$OUT" && mkdir -p "$OUT"
QNNC_ISA=avx3 "$COMPILE" --output="$OUT/y.npy" >"$TEST_TMPDIR/log" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "QNNC_ISA=avx3: exit $rc, expected 2"
grep -q "QNNC_ISA: unknown instruction-set level 'avx3'" "$TEST_TMPDIR/log" || fail "QNNC_ISA=avx3: $(cat "$TEST_TMPDIR/log")"
expect_clean
bad "no input 'nope'" --input="nope=$MODELS/mobilenet_v2_qdq.input.f32"
bad "--expect needs --input" --model="$MODELS/resnet18_qdq.onnx" --expect="$MODELS/resnet18_qdq.ort_output.f32"
bad "--model does not apply" --plan="$TEST_TMPDIR/mbv2.plan" --model="$MODELS/resnet18_qdq.onnx"
bad "--target does not apply" --plan="$TEST_TMPDIR/mbv2.plan" --target=x86_64
bad "cannot run on this machine" --plan="$TEST_TMPDIR/other.plan"
head -c 200000 "$TEST_TMPDIR/mbv2.plan" >"$TEST_TMPDIR/truncated.plan"
bad "truncated.plan:[0-9]+:[0-9]+" --plan="$TEST_TMPDIR/truncated.plan"
bad "--time-passes does not apply" --plan="$TEST_TMPDIR/mbv2.plan" --time-passes
# A plan is text IR whatever its name, and a CRLF header line still reads.
cp "$TEST_TMPDIR/mbv2.plan" "$TEST_TMPDIR/named.onnx"
expect 0 "ops: +$plan_ops " --plan="$TEST_TMPDIR/named.onnx" --no-run
{ printf '%s\r\n' "$(head -1 "$TEST_TMPDIR/mbv2.plan")"; tail -n +2 "$TEST_TMPDIR/mbv2.plan"; } >"$TEST_TMPDIR/crlf.plan"
expect 0 "ops: +$plan_ops " --plan="$TEST_TMPDIR/crlf.plan" --no-run
# Files are written last and together: a report that cannot be written
# leaves no plan and no output behind.
rm -rf "$OUT" && mkdir -p "$OUT/report_is_a_dir/x"
"$COMPILE" --runs=1 --out="$OUT/p.plan" --output="$OUT/y.npy" --report="$OUT/report_is_a_dir" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "--out with an unwritable --report: exit $rc, expected 2"
[ "$(ls -A "$OUT")" = "report_is_a_dir" ] || fail "a failed report write left: $(ls -A "$OUT")"

# Outputs are written to a temporary name and renamed: a failed or killed
# run leaves nothing under the real names.
rm -rf "$OUT" && mkdir -p "$OUT/report_is_a_dir/x"
"$COMPILE" --runs=1 --output="$OUT/y.npy" --report="$OUT/report_is_a_dir" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "an unwritable --report: exit $rc, expected 2"
[ "$(ls -A "$OUT")" = "report_is_a_dir" ] || fail "a failed report write left: $(ls -A "$OUT")"
for sig in TERM KILL; do
  rm -rf "$OUT" && mkdir -p "$OUT"
  "$COMPILE" --runs=100000 --output="$OUT/y.npy" --report="$OUT/r.json" >/dev/null 2>&1 &
  pid=$!
  sleep 2
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ ! -e "$OUT/y.npy" ] && [ ! -e "$OUT/r.json" ] || fail "SIG$sig left an output under its real name"
done
# --max-memory-mb: checked before anything is allocated, the size in the message.
expect 2 "needs [0-9]+ bytes .* over the memory limit of 1.0 MiB" --max-memory-mb=1
expect 2 "max-memory-mb must be" --max-memory-mb=0

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all compile CLI checks passed"
