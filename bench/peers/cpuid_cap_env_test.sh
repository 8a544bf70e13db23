#!/usr/bin/env bash
# cpuid_cap_env.sh end to end on this host, by CPUID faulting or by a patched
# libcpuinfo (whichever the host allows): cpuinfo, as XNNPACK reads it, then
# reports nothing above the level, and the same as uncapped at the level.
set -uo pipefail
unset LD_PRELOAD QNNC_PEER_ISA QNNC_PEER_CPUID
root="$TEST_SRCDIR/qnnc"
probe="$root/bench/peers/cpuid_probe"
source "$root/bench/peers/cap_checks.sh"
if [ "$(uname -m)" != x86_64 ]; then echo "SKIP: CPUID is x86-64's"; exit 0; fi
# ldd's output whole, whatever its exit status: `ldd | grep -q` could stop
# reading early, and under pipefail ldd's SIGPIPE then failed the pipe (and
# the skip: once, under ASan in CI).
case "$(ldd "$probe" 2>/dev/null)" in
  *libasan*) echo "SKIP: under ASan the preload order differs"; exit 0 ;;
esac
source "$root/bench/peers/cpuid_cap_env.sh"
uncapped=$("$probe" --cpuinfo)
for level in avx2 scalar; do
  work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/cap.XXXXXX")
  cpuid_cap_env "$level" "$root" "$probe" "$work"
  echo "$level: $CAP_HOW"
  check "$level: a cap" "$(( ${#QNNC_CAP_ENV[@]} > 0 ))" 1
  [ ${#QNNC_CAP_ENV[@]} -gt 0 ] || continue
  seen=$("${QNNC_CAP_ENV[@]}" "$probe" --cpuinfo); rc=$?
  check "$level: exit" "$rc" 0
  check "$level: cpuinfo avx512f" "$(feature cpuinfo_avx512f "$seen")" 0
  check "$level: cpuinfo avx512vnni" "$(feature cpuinfo_avx512vnni "$seen")" 0
  if [ "$level" = avx2 ]; then
    check "avx2: cpuinfo avx2 as uncapped" "$(feature cpuinfo_avx2 "$seen")" "$(feature cpuinfo_avx2 "$uncapped")"
  else
    check "scalar: cpuinfo avx2" "$(feature cpuinfo_avx2 "$seen")" 0
  fi
done
[ "$fail" -eq 0 ]
