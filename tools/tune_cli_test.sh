#!/usr/bin/env bash
# //tools:tune, //tools:records and compile --records end to end: tune
# MobileNetV2 with a tiny budget, compile with the records (--require-tuned
# passes, the output still matches ONNX Runtime's), two implementations of
# different legalizations chosen by records, kill -9 and --resume, shards
# merged, and bad input (exit 2, a clear message, nothing written).
set -uo pipefail

source "$TEST_SRCDIR/qnnc/toolchains/target_binary.sh"
TUNE=$(target_binary "$TEST_SRCDIR/qnnc/tools/tune")
RECORDS=$(target_binary "$TEST_SRCDIR/qnnc/tools/records")
COMPILE_BIN=$(target_binary "$TEST_SRCDIR/qnnc/tools/compile")
# One warm run per check (the default times about a second of runs).
compile_once() { "$COMPILE_BIN" --runs=1 "$@"; }
COMPILE=compile_once
BAD="$TEST_SRCDIR/qnnc/testdata/bad"
T="$TEST_TMPDIR"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# run CODE PATTERN CMD...: exit code CODE and PATTERN in stdout+stderr.
run() {
  local code=$1 pattern=$2
  shift 2
  "$@" >"$T/log" 2>&1
  local rc=$?
  if [ "$rc" -ne "$code" ]; then fail "exit $rc, expected $code: $*"; cat "$T/log"; return; fi
  if ! grep -qE -- "$pattern" "$T/log"; then fail "no /$pattern/ in output of: $*"; cat "$T/log"; fi
}
lines() { grep -c . "$1" 2>/dev/null || echo 0; }

# A tiny tune of the whole model, then compile with its records.
run 0 "measured: +[0-9]+ candidates" "$TUNE" --records="$T/r.jsonl" --trials=2 --repeats=1 \
  --early-stopping=0 --tuner=random --confirm=false
n=$(lines "$T/r.jsonl")
[ "$n" -gt 10 ] || fail "only $n records written"
run 0 "best .* GOPS" "$RECORDS" show "$T/r.jsonl"
run 0 "match: +logits: match" "$COMPILE" --records="$T/r.jsonl" --require-tuned --report="$T/tuned.json"
grep -q '"decision": "tuned"' "$T/tuned.json" || fail "no tuned decision in the report"
grep -q '"decision": "fallback"' "$T/tuned.json" && fail "a fallback decision remains under --require-tuned"
# The plan written from a tuned compile keeps its decisions (a text plan,
# to read them).
run 0 "match: +logits: match" "$COMPILE" --records="$T/r.jsonl" --out="$T/tuned.plan" --plan-format=text \
  --output="$T/direct.npy"
grep -q 'tuned = 1' "$T/tuned.plan" || fail "the tuned plan records no tuned decision"
run 0 "match: +logits: match" "$COMPILE" --plan="$T/tuned.plan" \
  --input="$TEST_SRCDIR/qnnc/testdata/models/mobilenet_v2_qdq.input.f32" \
  --expect="$TEST_SRCDIR/qnnc/testdata/models/mobilenet_v2_qdq.ort_output.f32"
# Without records the same compile is all fallback.
run 2 "no tuning record" "$COMPILE" --require-tuned

# The summary's best is the records' best, the fallback (measured first)
# included. With the default tuner, which does not measure the fallback
# again, the summary once left it out: it named the classifier's reference
# kernel best at cap avx2, and printed no line where the fallback was the
# only candidate (cap scalar).
run 0 "measured: +[0-9]+ candidates" "$TUNE" --records="$T/d.jsonl" --trials=2 --repeats=1 \
  --early-stopping=0 --confirm=false
summary_best=$(awk '/^\/classifier\/1\/QuantizeLinear +x1 +best / {print $4}' "$T/log")
[ -n "$summary_best" ] || fail "no summary line for the classifier"
"$RECORDS" show "$T/d.jsonl" >"$T/show" 2>&1
# Every implementation marked best (two can tie on a time of a few
# microseconds measured once).
records_best=$(awk '/^qnn\.dense/ {d = 1; next} /^qnn\./ {d = 0} d && /<- best/ {print $1}' "$T/show")
grep -qxF -- "$summary_best" <<<"$records_best" ||
  fail "the summary's best for the classifier is '$summary_best', the records' '${records_best//$'\n'/ or }'"

if [ "${1:-x86_64}" = aarch64 ]; then
  # kernels/xnnpack/variant.h: XNNPACK's qu8 rounds ties upward on AArch64,
  # and its qs8 and qc8 take i8 data, which no bundled model has.
  echo "SKIP: two kinds of implementation: on AArch64 XNNPACK takes only i8 data and weights (qs8, qc8), which no bundled model has"
else
# Two shards, each restricted to another kind of implementation: merged,
# the records give one model XNNPACK layers (zero points kept) and spatial-
# pack layers (u8s8 or int16), each legalized its own way.
run 0 "shard 0/2" "$TUNE" --records="$T/s0.jsonl" --shard=0/2 --trials=1 --repeats=1 --implementations=xnnpack \
  --confirm=false
run 0 "shard 1/2" "$TUNE" --records="$T/s1.jsonl" --shard=1/2 --trials=1 --repeats=1 --implementations=spatial_pack \
  --confirm=false
run 0 "merge: .* written" "$RECORDS" merge --out="$T/merged.jsonl" "$T/s0.jsonl" "$T/s1.jsonl" "$T/s0.jsonl"
[ "$(lines "$T/merged.jsonl")" -eq $(($(lines "$T/s0.jsonl") + $(lines "$T/s1.jsonl"))) ] ||
  fail "merge did not drop the repeated shard's duplicate lines"
run 0 "best: .* written" "$RECORDS" best --out="$T/best.jsonl" "$T/merged.jsonl"
run 0 "match: +logits: match" "$COMPILE" --records="$T/merged.jsonl" --report="$T/two.json"
legalizations=$(grep -o '"legalization": "[a-z0-9_]*"' "$T/two.json" | sort -u | wc -l)
[ "$legalizations" -ge 2 ] || fail "records chose only $legalizations legalization(s): $(grep -o '"legalization": "[a-z0-9_]*"' "$T/two.json" | sort -u)"
grep -q '"implementation": "xnnpack' "$T/two.json" || fail "no XNNPACK layer chosen by records"
grep -q '"implementation": "[a-z0-9]*\.spatial_pack' "$T/two.json" || fail "no spatial-pack layer chosen by records"

# In-model confirmation: the stem tuned over the reference kernel alone (so
# its per-op winner is not the fallback, at every level) at 2 threads; the
# whole model is timed with it and with the fallback, both recorded, and
# compile at 2 threads follows the model's verdict.
run 0 "confirmed: [01] of 1 " "$TUNE" --records="$T/c.jsonl" --trials=1 --repeats=1 --threads=2 \
  --workloads='"weight":"i8\[32,3,3,3\]"' --implementations='^reference$' --confirm-seconds=0.05
verdict=$(sed -n 's/^confirm: .*: \(kept\|fallback stays\)$/\1/p' "$T/log")
[ "$(grep -c '"scope":"model"' "$T/c.jsonl")" -eq 2 ] || fail "not two whole-model records: $(cat "$T/c.jsonl")"
grep -q '"threads":2' "$T/c.jsonl" || fail "the records do not carry the tune's thread count"
run 0 "match: +logits: match" "$COMPILE" --records="$T/c.jsonl" --threads=2 --report="$T/c.json"
# The stem is the report's first op with a decision (the field before its
# implementation).
stem_impl=$(grep -A1 '"decision"' "$T/c.json" | grep -o '"implementation": "[a-z0-9_.]*"' | head -1)
case "$verdict" in
  kept) [[ "$stem_impl" == *'"reference"' ]] || fail "the model kept the reference kernel, compile chose $stem_impl" ;;
  "fallback stays") [[ "$stem_impl" != *'"reference"' ]] || fail "the fallback stays, compile chose $stem_impl" ;;
  *) fail "no verdict in the tune's output: $(cat "$T/log")" ;;
esac
# records best keeps both whole-model records, so it decides the same.
run 0 "best: .* written" "$RECORDS" best --out="$T/c_best.jsonl" "$T/c.jsonl"
[ "$(grep -c '"scope":"model"' "$T/c_best.jsonl")" -eq 2 ] || fail "records best dropped a whole-model record"
fi

# Killed at any moment, the file stays valid JSON lines (at most the line in
# flight lost) and --resume carries on.
"$TUNE" --records="$T/k.jsonl" --trials=4 --repeats=3 --early-stopping=0 --tuner=grid --confirm=false \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  [ "$(lines "$T/k.jsonl")" -ge 5 ] && break
  sleep 0.1
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
before=$(lines "$T/k.jsonl")
[ "$before" -ge 5 ] || fail "the killed tune wrote only $before records"
"$RECORDS" show "$T/k.jsonl" >"$T/log" 2>&1 || fail "the killed tune left an unreadable file: $(cat "$T/log")"
[ "$(grep -c warning "$T/log")" -le 1 ] || fail "more than the line in flight is damaged: $(cat "$T/log")"
run 0 "[1-9][0-9]* from earlier records" "$TUNE" --records="$T/k.jsonl" --trials=4 --repeats=3 \
  --early-stopping=0 --tuner=grid --resume --confirm=false
run 0 "match: +logits: match" "$COMPILE" --records="$T/k.jsonl" --require-tuned

# Bad input: exit 2, the file named, nothing appended or written.
printf 'not a record\n{"format":1}\n' >"$T/junk.jsonl"
run 2 "junk.jsonl' is not a records file" "$COMPILE" --records="$T/junk.jsonl"
run 2 "not a records file" "$COMPILE" --records="$BAD/garbage.onnx"
run 2 "junk.jsonl' is not a records file" "$TUNE" --records="$T/junk.jsonl" --trials=1
[ "$(lines "$T/junk.jsonl")" -eq 2 ] || fail "tune appended to a foreign file"
sed 's/"format":1/"format":7/' "$T/r.jsonl" >"$T/v7.jsonl"
run 2 "v7.jsonl:1: records of format 7" "$COMPILE" --records="$T/v7.jsonl"
{ cat "$T/r.jsonl"; echo '{"broken'; } >"$T/mixed.jsonl"
run 0 "warning: --records: .*mixed.jsonl:$((n + 1)):" "$COMPILE" --records="$T/mixed.jsonl"
run 2 "mixed.jsonl:$((n + 1)):" "$COMPILE" --records="$T/mixed.jsonl" --strict-records
run 2 "unknown tuner 'annealing'" "$TUNE" --records="$T/x.jsonl" --tuner=annealing
run 2 "--shard: expected I/N" "$TUNE" --records="$T/x.jsonl" --shard=2/2
run 2 "--workloads: bad pattern" "$TUNE" --records="$T/x.jsonl" --workloads='('
run 2 "--records=PATH is required" "$TUNE"
run 2 "--records does not apply" "$COMPILE" --plan="$T/tuned.plan" --records="$T/r.jsonl"
run 2 "merge needs --out" "$RECORDS" merge "$T/r.jsonl"
[ ! -e "$T/x.jsonl" ] || fail "a refused tune created its records file"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all tune CLI checks passed"
