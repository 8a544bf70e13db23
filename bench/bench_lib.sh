# Sourced by the bench scripts (from the repository's root).
#
# bench_setup TARGET...: builds the targets -c opt, sets $bin (their
# bazel-bin) and $work (a temporary folder removed on exit), and prints the
# host and its instruction-set level.
bench_setup() {
  bazel build -c opt "$@" >&2
  bin="$(bazel info -c opt bazel-bin 2>/dev/null)"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  scripts/host_isa.sh
}

# median: the median of the numbers on stdin, one per line.
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
