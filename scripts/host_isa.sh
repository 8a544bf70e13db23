#!/usr/bin/env bash
# Prints this host's CPU model and the x86-64 instruction-set level qnnc
# detects on it (the rule of kernels/cpu/isa.cc, read here from
# /proc/cpuinfo), and the cap when QNNC_ISA is set.
set -euo pipefail

model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | sed 's/^model name[[:space:]]*:[[:space:]]*//')
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | sed 's/^flags[[:space:]]*:[[:space:]]*//') "
has() { for f in "$@"; do [[ "$flags" == *" $f "* ]] || return 1; done; }

level=scalar
# (LZCNT, which qnnc also requires, is not always listed here: "abm".)
if has avx2 fma bmi1 bmi2 f16c movbe; then
  level=avx2
  if has avx512f avx512bw avx512cd avx512dq avx512vl; then
    level=avx512bw
    has avx512_vnni && level=avx512vnni
  elif has avx_vnni; then
    level=avxvnni
  fi
fi
# AVX-VNNI beside AVX-512 (Sapphire Rapids, Zen 5): the avxvnni cap runs it.
extra=""
[[ "$level" == avx512* ]] && has avx_vnni && extra=" (and AVX-VNNI)"
echo "host: ${model:-unknown CPU} ($(uname -m), $(nproc) cores); instruction-set level ${level}${extra}${QNNC_ISA:+, capped by QNNC_ISA=$QNNC_ISA}"
