# Sourced by the bench/peers shell tests: their checks, and what a probe
# capped at avx2 must print.
fail=0
check() { if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', want '$3'"; fail=1; else echo "ok: $1"; fi; }
# feature NAME PROBE_OUTPUT: the 0 or 1 cpuid_probe printed for NAME.
feature() { grep "^$1=" <<<"$2" | cut -d= -f2; }
# check_avx2_view LABEL PROBE_OUTPUT UNCAPPED_OUTPUT: nothing above AVX2,
# and AVX2 as the CPU has it.
check_avx2_view() {
  local f
  for f in avx512f avx512bw avx512vnni avxvnni amx_int8; do
    check "$1: $f" "$(feature $f "$2")" 0
  done
  check "$1: avx2 as uncapped" "$(feature avx2 "$2")" "$(feature avx2 "$3")"
}
