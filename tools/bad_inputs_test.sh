#!/usr/bin/env bash
# The catalogue of bad inputs (testdata/bad/MANIFEST.tsv) through
# //tools:compile: for every entry, exit 2 with the expected text, no output
# or report file left behind, nothing written anywhere, and (with strace)
# nothing opened but the named files and system files. Each case runs in an
# empty folder, with HOME and TMPDIR empty folders too, which must stay empty.
set -uo pipefail

source "$TEST_SRCDIR/qnnc/toolchains/target_binary.sh"
COMPILE=$(target_binary "$TEST_SRCDIR/qnnc/tools/compile")
BAD="$TEST_SRCDIR/qnnc/testdata/bad"
MANIFEST="$BAD/MANIFEST.tsv"
failures=0
cases=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

STRACE=""
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
  STRACE=strace
else
  echo "note: strace is missing or cannot trace here; the file-access check is skipped"
fi

# Under --config=aarch64 qemu-user starts the binary through a wrapper
# (toolchains/target_binary.sh), reads the binary and the cross libraries
# (.../aarch64-linux-gnu/...) as a loader would, and the host's NUMA nodes.
runner_files=""
runner_re=""
if [ -n "${QNNC_TARGET_EXEC:-}" ]; then
  runner_files="$COMPILE $TEST_SRCDIR/qnnc/tools/compile"
  runner_re="/aarch64-linux-gnu/|^/sys/devices/system/node(/|$)"
fi

snapshot() { (cd "$BAD" && ls -la) ; }
before=$(snapshot)

# The architecture the binary is built for ($1): a plan for it is no
# foreign plan (each architecture's foreign plan is the other's).
ARCH="${1:-x86_64}"
n=0
while IFS=$'\t' read -r file use expected extra; do
  [ -z "$file" ] || [ "${file:0:1}" = "#" ] && continue
  if [ "$use" = plan ] && [[ "$file" == plan_foreign_* ]] && head -1 "$BAD/$file" | grep -q "target=$ARCH"; then
    echo "SKIP: $file: a plan for this build's own architecture"
    continue
  fi
  n=$((n + 1))
  cases=$((cases + 1))
  [ -e "$BAD/$file" ] || { fail "$file: listed in MANIFEST.tsv but missing"; continue; }
  case "$use" in
    model) named=("$BAD/$file"); args=(--model="$BAD/$file") ;;
    plan) named=("$BAD/$file"); args=(--plan="$BAD/$file") ;;
    input) named=("$BAD/input_model.qnnir" "$BAD/$file")
           args=(--model="$BAD/input_model.qnnir" --input="$BAD/$file") ;;
    *) fail "$file: unknown use '$use'"; continue ;;
  esac
  # shellcheck disable=SC2206
  [ -n "${extra:-}" ] && args+=($extra)
  work="$TEST_TMPDIR/case$n"
  mkdir -p "$work/home" "$work/tmp"
  args+=(--output="$work/out.npy" --report="$work/report.json")
  (cd "$work" && HOME="$work/home" TMPDIR="$work/tmp" "$COMPILE" "${args[@]}") >"$TEST_TMPDIR/log" 2>&1
  rc=$?
  if [ "$rc" -ne 2 ]; then fail "$file: exit $rc, expected 2"; cat "$TEST_TMPDIR/log"; fi
  if ! grep -qF -- "$expected" "$TEST_TMPDIR/log"; then
    fail "$file: the error lacks: $expected"; cat "$TEST_TMPDIR/log"
  fi
  if [ "$(ls -A "$work")" != "$(printf 'home\ntmp')" ] || [ -n "$(ls -A "$work/home" "$work/tmp" | grep -v ':$' | grep -v '^$')" ]; then
    fail "$file: files left behind: $(cd "$work" && find . -mindepth 1 | tr '\n' ' ')"
  fi
  if [ -n "$STRACE" ]; then
    trace="$TEST_TMPDIR/trace$n"
    # LeakSanitizer cannot run under a tracer; the leak check is the run above.
    (cd "$work" && HOME="$work/home" TMPDIR="$work/tmp" ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
      strace -f -qq -o "$trace" \
      -e trace=open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,truncate,link,linkat,symlink,symlinkat \
      "$COMPILE" "${args[@]}") >/dev/null 2>&1
    # One awk per case: each traced call must be a read of a named or a
    # system file (or the dynamic loader probing for a library, or loading
    # what LD_PRELOAD names: .ci/run's capped suites preload the CPUID cap).
    awk -v named=" ${named[*]} ${LD_PRELOAD:-} $runner_files " -v runner="$runner_re" '
      !/^[0-9]+ +[a-z0-9_]+\(/ { next }
      {
        call = $2; sub(/\(.*/, "", call)
        path = $0; sub(/^[^"]*"/, "", path); sub(/".*/, "", path)
        if (call != "open" && call != "openat") { print call ": " $0; next }
        if ($0 ~ /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/) { print "opened for writing: " $0; next }
        if ($0 ~ /ENOENT/ && path ~ /\.so/) next
        if (path ~ /^(\/lib\/|\/lib64\/|\/usr\/lib\/|\/usr\/lib64\/|\/proc\/|\/sys\/devices\/system\/cpu\/)/ || path == "/etc/ld.so.cache") next
        if (index(named, " " path " ") > 0) next
        if (runner != "" && path ~ runner) next
        print "opened a file it was not given: " $0
      }' "$trace" >"$trace.bad"
    if [ -s "$trace.bad" ]; then fail "$file: $(cat "$trace.bad")"; fi
  fi
done <"$MANIFEST"

[ "$(snapshot)" = "$before" ] || fail "testdata/bad changed during the test"
# Every file of the catalogue is in the manifest (sources and scripts aside).
for f in "$BAD"/*; do
  b=$(basename "$f")
  case "$b" in
    *.textproto|*.sh|*.py|MANIFEST.tsv|BUILD|input_model.qnnir) continue ;;
  esac
  grep -qP "^\Q$b\E\t" "$MANIFEST" || fail "$b is not in MANIFEST.tsv"
done

if [ "$cases" -lt 30 ]; then fail "only $cases cases"; fi
if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s) in $cases cases"
  exit 1
fi
echo "all $cases bad inputs rejected cleanly"
