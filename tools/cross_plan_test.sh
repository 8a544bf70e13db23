#!/usr/bin/env bash
# Plans compiled for Arm on x86-64 run on AArch64 with x86's output. For
# each Arm level, `compile --target=aarch64+LEVEL --no-run --out` must write
# exactly the plan x86-64 qnnc writes (testdata/cross/*.plans.sha256, made by
# scripts/make_qnnc_references.sh on x86-64), so the AArch64 build, running
# the plan it wrote, runs x86's. Run there (under qemu in the suite), each
# plan's output must equal x86-64 qnnc's (testdata/zoo/*.qnnc_output.f32);
# levels the CPU lacks are refused (exit 2) and skipped, saying so.
set -uo pipefail

source "$TEST_SRCDIR/qnnc/toolchains/target_binary.sh"
COMPILE=$(target_binary "$TEST_SRCDIR/qnnc/tools/compile")
CROSS="$TEST_SRCDIR/qnnc/testdata/cross"
ZOO="$TEST_SRCDIR/qnnc/testdata/zoo"
ARCH="${1:-x86_64}"
MODEL=shufflenet_v2_op13
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for level in neon dotprod i8mm; do
  plan="$TEST_TMPDIR/$level.plan"
  if ! "$COMPILE" --model="$ZOO/$MODEL.onnx" --target="aarch64+$level" --no-run --out="$plan" \
    >"$TEST_TMPDIR/log" 2>&1; then
    fail "compiling for aarch64+$level:"
    cat "$TEST_TMPDIR/log"
    continue
  fi
  got=$(sha256sum "$plan" | cut -d' ' -f1)
  want=$(awk -v t="aarch64+$level" '$2 == t { print $1 }' "$CROSS/$MODEL.plans.sha256")
  if [ "$got" != "$want" ]; then
    fail "the aarch64+$level plan written on $ARCH is not the one x86-64 writes ($got, want $want;" \
      "after a change to the passes, scripts/make_qnnc_references.sh on x86-64 writes the new digests)"
  fi
  [ "$ARCH" = aarch64 ] || continue
  "$COMPILE" --plan="$plan" --input="$ZOO/$MODEL.input.f32" --runs=1 --output="$TEST_TMPDIR/$level.out" >"$TEST_TMPDIR/log" 2>&1
  rc=$?
  if [ "$rc" -eq 2 ] && grep -q "cannot run on this machine" "$TEST_TMPDIR/log"; then
    echo "SKIP: the aarch64+$level plan needs $level, which this CPU (or the cap) lacks: $(grep -m1 'cannot run' "$TEST_TMPDIR/log")"
    continue
  fi
  if [ "$rc" -ne 0 ]; then
    fail "running the aarch64+$level plan: exit $rc"
    cat "$TEST_TMPDIR/log"
    continue
  fi
  cmp -s "$TEST_TMPDIR/$level.out" "$ZOO/$MODEL.qnnc_output.f32" ||
    fail "the aarch64+$level plan's output differs from x86-64 qnnc's"
  echo "ok: aarch64+$level plan run here, output identical to x86-64 qnnc's"
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "PASS"
