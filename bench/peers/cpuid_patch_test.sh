#!/usr/bin/env bash
# cpuid_patch and QNNC_PEER_CPUID=patched end to end, on any x86-64 host (no
# CPUID faulting needed): a patched probe sees the cap, the unpatched one does
# not, a patched CPUID without the handler dies, crashes stay crashes, and bad
# inputs fail with a message and no output file.
set -uo pipefail
unset LD_PRELOAD QNNC_PEER_ISA QNNC_PEER_CPUID
dir="$TEST_SRCDIR/qnnc/bench/peers"
lib="$dir/libcpuid_cap_preload.so" probe="$dir/cpuid_probe" patch="$dir/cpuid_patch"
asan_rt=$(ldd "$probe" 2>/dev/null | awk '/libasan/ { print $3 }')
[ -n "$asan_rt" ] && lib="$asan_rt $lib"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
source "$dir/cap_checks.sh"
if [ "$(uname -m)" != x86_64 ]; then echo "SKIP: CPUID is x86-64's"; exit 0; fi

out=$("$patch" "$probe" "$tmp/probe" 2>&1); rc=$?
check "patching the probe: exit" "$rc" 0
check "patching the probe: it says how many" "$(grep -cE '^cpuid_patch: [1-9][0-9]* CPUID instructions' <<<"$out")" 1
check "the patch keeps the mode" "$(stat -c %a "$tmp/probe")" "$(stat -L -c %a "$probe")"
check "only two bytes per site change" \
  "$(cmp -l "$probe" "$tmp/probe" | awk '$2 == 17 && $3 == 364 || $2 == 242 && $3 == 220' | wc -l)" \
  "$(cmp -l "$probe" "$tmp/probe" | wc -l)"
# (Under ASan its own SIGSEGV handler would report and exit 1: not here.)
ASAN_OPTIONS=handle_segv=0 "$tmp/probe" >/dev/null 2>&1; rc=$?
check "a patched CPUID without the handler dies of SIGSEGV" "$rc" 139

uncapped=$("$probe")
for flags in "" "--reset-segv"; do
  avx2=$(LD_PRELOAD="$lib" QNNC_PEER_ISA=avx2 QNNC_PEER_CPUID=patched "$tmp/probe" $flags); rc=$?
  check "avx2 $flags: exit" "$rc" 0
  check_avx2_view "avx2 $flags" "$avx2" "$uncapped"
done
check "scalar: avx2" "$(feature avx2 "$(LD_PRELOAD="$lib" QNNC_PEER_ISA=scalar QNNC_PEER_CPUID=patched "$tmp/probe")")" 0
check "avx512vnni: as uncapped" "$(LD_PRELOAD="$lib" QNNC_PEER_ISA=avx512vnni QNNC_PEER_CPUID=patched "$tmp/probe")" \
  "$uncapped"
check "the unpatched probe is not capped" \
  "$(LD_PRELOAD="$lib" QNNC_PEER_ISA=avx2 QNNC_PEER_CPUID=patched "$probe")" "$uncapped"
LD_PRELOAD="$lib" QNNC_PEER_ISA=avx2 QNNC_PEER_CPUID=patched "$tmp/probe" --reset-segv --crash >/dev/null 2>&1; rc=$?
check "a store to an inaccessible page still dies of SIGSEGV" "$rc" 139
out=$(LD_PRELOAD="$lib" QNNC_PEER_ISA=avx2 QNNC_PEER_CPUID=bogus "$tmp/probe" 2>&1); rc=$?
check "a bad QNNC_PEER_CPUID exits 2" "$rc" 2
check "a bad QNNC_PEER_CPUID names itself" "$(grep -c 'QNNC_PEER_CPUID=bogus' <<<"$out")" 1

out=$("$patch" "$tmp/probe" "$tmp/twice" 2>&1); rc=$?
check "no CPUID left to patch: exit 1" "$rc" 1
check "no CPUID left to patch: says so" "$(grep -c 'has no CPUID instruction' <<<"$out")" 1
check "no CPUID left to patch: no output" "$(ls "$tmp" | grep -c '^twice')" 0

printf 'not an ELF file\n' >"$tmp/text"
out=$("$patch" "$tmp/text" "$tmp/text.out" 2>&1); rc=$?
check "not ELF: exit 1" "$rc" 1
check "not ELF: says so" "$(grep -c "$tmp/text: not an ELF file" <<<"$out")" 1
check "not ELF: no output" "$(ls "$tmp" | grep -c '^text\.out')" 0
head -c 3000 "$probe" >"$tmp/truncated"
out=$("$patch" "$tmp/truncated" "$tmp/truncated.out" 2>&1); rc=$?
check "a truncated ELF: exit 1" "$rc" 1
check "a truncated ELF: names it" "$(grep -c "^cpuid_patch: $tmp/truncated: " <<<"$out")" 1
check "a truncated ELF: no output" "$(ls "$tmp" | grep -c '^truncated\.out')" 0
out=$("$patch" "$tmp/missing" "$tmp/missing.out" 2>&1); rc=$?
check "missing input: exit 1" "$rc" 1
check "missing input: says so" "$(grep -c 'cannot read' <<<"$out")" 1
out=$("$patch" "$probe" 2>&1); rc=$?
check "one argument: exit 2 with usage" "$rc$(grep -c usage <<<"$out")" 21
[ "$fail" -eq 0 ]
