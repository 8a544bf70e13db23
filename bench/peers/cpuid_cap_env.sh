# Sourced by bench/models.sh and bench/tuned.sh (bench/compare.js does the
# same in JavaScript):
#   cpuid_cap_env LEVEL BAZEL_BIN QNNC_BINARY WORKDIR [ort|no-ort]
# sets ORT_CAP_ENV and QNNC_CAP_ENV (arrays: `env VAR=... ` prefixes that run
# ONNX Runtime, and a qnnc binary's XNNPACK, with CPUID capped at LEVEL) and
# CAP_HOW (how, or why there is no cap: then both arrays are empty). Needs
# //bench/peers:libcpuid_cap_preload.so, :cpuid_probe and :cpuid_patch in
# BAZEL_BIN, run from the workspace root. With no-ort, ORT_CAP_ENV stays
# empty (no copy of ORT's 45 MB library is patched).
#
# With CPUID faulting, the preload caps every CPUID of the process. Without
# it (most VMs), copies of ONNX Runtime's library and of the cpuinfo library
# QNNC_BINARY's XNNPACK reads CPUID through, with their CPUIDs patched to trap
# (cpuid_patch), are preloaded in WORKDIR under QNNC_PEER_CPUID=patched.
# The features a cpuid_probe output lists as present ("no AVX" if none).
cpuid_cap_features() {
  local list
  list=$(grep -E '=1$' <<<"$1" | cut -d= -f1 | paste -sd' ')
  echo "${list:-no AVX}"
}

cpuid_cap_env() {
  local level=$1 bazel_bin=$2 qnnc_binary=$3 work=$4 with_ort=${5:-ort}
  local preload="$bazel_bin/bench/peers/libcpuid_cap_preload.so" peers="$bazel_bin/bench/peers" probe
  ORT_CAP_ENV=() QNNC_CAP_ENV=()
  if probe=$(LD_PRELOAD="$preload" QNNC_PEER_ISA="$level" "$peers/cpuid_probe" 2>&1); then
    ORT_CAP_ENV=(env LD_PRELOAD="$preload" QNNC_PEER_ISA="$level")
    QNNC_CAP_ENV=("${ORT_CAP_ENV[@]}")
    CAP_HOW="CPUID faulting; CPUID reports: $(cpuid_cap_features "$probe")"
    return
  fi
  local fault_error=${probe//$'\n'/ } ort_lib cpuinfo_lib
  # (|| true: callers run under set -e, and a failed lookup is reported below.)
  cpuinfo_lib=$(ldd "$qnnc_binary" 2>/dev/null | awk '/libcpuinfo/ { print $3 }') || true
  if [ -z "$cpuinfo_lib" ]; then
    CAP_HOW="none: $fault_error; and $qnnc_binary has no shared libcpuinfo to patch"
    return
  fi
  local patched_cpuinfo="$work/$(basename "$cpuinfo_lib")" out
  if ! out=$({ "$peers/cpuid_patch" "$cpuinfo_lib" "$patched_cpuinfo" &&
    "$peers/cpuid_patch" "$peers/cpuid_probe" "$work/cpuid_probe" &&
    LD_PRELOAD="$preload" QNNC_PEER_ISA="$level" QNNC_PEER_CPUID=patched "$work/cpuid_probe"; } 2>&1); then
    CAP_HOW="none: $fault_error; patching: $(tail -1 <<<"$out")"
    return
  fi
  QNNC_CAP_ENV=(env LD_PRELOAD="$preload $patched_cpuinfo" QNNC_PEER_ISA="$level" QNNC_PEER_CPUID=patched)
  CAP_HOW="no CPUID faulting here: libcpuinfo"
  ort_lib=$(ls bench/peers/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/libonnxruntime.so.1 2>/dev/null |
    head -1) || true
  if [ "$with_ort" = ort ] && [ -n "$ort_lib" ] &&
    "$peers/cpuid_patch" "$ort_lib" "$work/libonnxruntime.so.1" >/dev/null; then
    ORT_CAP_ENV=(env LD_PRELOAD="$preload $work/libonnxruntime.so.1" QNNC_PEER_ISA="$level" QNNC_PEER_CPUID=patched)
    CAP_HOW+=" and ORT's library"
  fi
  CAP_HOW+=" preloaded with CPUIDs patched to trap; CPUID reports: $(cpuid_cap_features "$out")"
}
