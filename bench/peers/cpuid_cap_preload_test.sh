#!/usr/bin/env bash
# libcpuid_cap_preload.so end to end: each level's probe output, the cap surviving a
# program that resets SIGSEGV (as Node.js does), a real crash still crashing,
# and a bad level failing loudly. Skips where CPUID cannot be faulted.
set -uo pipefail
# Not itself under a cap (.ci/run runs the capped suites with one).
unset LD_PRELOAD QNNC_PEER_ISA QNNC_PEER_CPUID
dir="$TEST_SRCDIR/qnnc/bench/peers"
lib="$dir/libcpuid_cap_preload.so" probe="$dir/cpuid_probe"
# Under --config=asan both are linked with the ASan runtime, which must be
# the first library of the process: preload it ahead of the cap.
asan_rt=$(ldd "$probe" 2>/dev/null | awk '/libasan/ { print $3 }')
[ -n "$asan_rt" ] && lib="$asan_rt $lib"
source "$dir/cap_checks.sh"

out=$(LD_PRELOAD="$lib" QNNC_PEER_ISA=bogus "$probe" 2>&1); rc=$?
check "bad level exits 2" "$rc" 2
check "bad level names itself" "$(grep -c 'QNNC_PEER_ISA=bogus is not one of' <<<"$out")" 1
out=$(LD_PRELOAD="$lib" "$probe"); rc=$?
check "no QNNC_PEER_ISA: the probe runs as it is" "$rc" 0
check "no QNNC_PEER_ISA: same features" "$out" "$("$probe")"

if [ "$(uname -m)" != x86_64 ] || ! grep -qw cpuid_fault /proc/cpuinfo; then
  echo "SKIP: the rest needs an x86-64 CPU and kernel that can fault CPUID (cpuid_fault)"
  [ "$fail" -eq 0 ]; exit
fi
uncapped=$("$probe")
for flags in "" "--reset-segv"; do
  avx2=$(LD_PRELOAD="$lib" QNNC_PEER_ISA=avx2 "$probe" $flags); rc=$?
  check "avx2 $flags: exit" "$rc" 0
  check_avx2_view "avx2 $flags" "$avx2" "$uncapped"
done
plain=$(LD_PRELOAD="$lib" QNNC_PEER_ISA=scalar "$probe")
check "scalar: avx" "$(feature avx "$plain")" 0
check "scalar: avx2" "$(feature avx2 "$plain")" 0
vnni=$(LD_PRELOAD="$lib" QNNC_PEER_ISA=avxvnni "$probe")
check "avxvnni: avx512f" "$(feature avx512f "$vnni")" 0
check "avxvnni: avxvnni as uncapped" "$(feature avxvnni "$vnni")" "$(feature avxvnni "$uncapped")"
bw=$(LD_PRELOAD="$lib" QNNC_PEER_ISA=avx512bw "$probe")
check "avx512bw: avx512bw as uncapped" "$(feature avx512bw "$bw")" "$(feature avx512bw "$uncapped")"
check "avx512bw: avx512vnni" "$(feature avx512vnni "$bw")" 0
LD_PRELOAD="$lib" QNNC_PEER_ISA=avx2 "$probe" --reset-segv --crash >/dev/null 2>&1; rc=$?
check "a store to an inaccessible page still dies of SIGSEGV" "$rc" 139
[ "$fail" -eq 0 ]
