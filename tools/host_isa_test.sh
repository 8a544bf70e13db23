#!/usr/bin/env bash
# //tools:host_isa names the host's level, and the cap when QNNC_ISA sets one;
# a QNNC_ISA that is no level is exit 2 naming the valid ones. $1 names the
# architecture the binary is built for (x86_64 or aarch64).
set -uo pipefail
source "$TEST_SRCDIR/qnnc/toolchains/target_binary.sh"
bin=$(target_binary "$TEST_SRCDIR/qnnc/tools/host_isa")
fail() { echo "FAIL: $*"; exit 1; }
case "${1:-x86_64}" in
  aarch64) levels="scalar, neon, dotprod, i8mm" ;;
  *) levels="scalar, avx2, avxvnni, avx512bw, avx512vnni" ;;
esac
level_re="(${levels//, /|})"
line=$(env -u QNNC_ISA "$bin") || fail "exit $? uncapped"
[[ "$line" =~ ^host:\ .*\ cores\)\;\ instruction-set\ level\ $level_re ]] ||
  fail "unexpected line: $line"
[[ "$line" != *capped* ]] || fail "capped without QNNC_ISA: $line"
line=$(QNNC_ISA=scalar "$bin") || fail "exit $? at QNNC_ISA=scalar"
[[ "$line" == *", capped at scalar (qnnc's own code runs scalar)" ]] || fail "no cap in: $line"
err=$(QNNC_ISA=avx3 "$bin" 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] || fail "QNNC_ISA=avx3: exit $rc, want 2"
[[ "$err" == *"unknown instruction-set level 'avx3' (valid: $levels)"* ]] ||
  fail "QNNC_ISA=avx3: $err"
echo "ok: $line"
