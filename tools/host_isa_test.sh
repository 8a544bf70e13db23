#!/usr/bin/env bash
# //tools:host_isa names the host's level, and the cap when QNNC_ISA sets one;
# a QNNC_ISA that is no level is exit 2 naming the valid ones.
set -uo pipefail
bin="$TEST_SRCDIR/qnnc/tools/host_isa"
fail() { echo "FAIL: $*"; exit 1; }
line=$(env -u QNNC_ISA "$bin") || fail "exit $? uncapped"
[[ "$line" =~ ^host:\ .*\ cores\)\;\ instruction-set\ level\ (scalar|avx2|avxvnni|avx512bw|avx512vnni) ]] ||
  fail "unexpected line: $line"
[[ "$line" != *capped* ]] || fail "capped without QNNC_ISA: $line"
line=$(QNNC_ISA=scalar "$bin") || fail "exit $? at QNNC_ISA=scalar"
[[ "$line" == *", capped at scalar (qnnc's own code runs scalar)" ]] || fail "no cap in: $line"
err=$(QNNC_ISA=avx3 "$bin" 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] || fail "QNNC_ISA=avx3: exit $rc, want 2"
[[ "$err" == *"unknown instruction-set level 'avx3' (valid: scalar, avx2, avxvnni, avx512bw, avx512vnni)"* ]] ||
  fail "QNNC_ISA=avx3: $err"
echo "ok: $line"
