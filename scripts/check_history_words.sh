#!/usr/bin/env bash
# Fails when a tracked text file speaks of the work that produced qnnc instead
# of qnnc itself (docs/DESIGN.md, "Conventions"): a numbered work session
# ("session N", "sessions N-M"), an issue number ("issue N", "issue #N"), a
# numbered turn ("turn N"), or an ISO date in prose (YYYY-MM-DD; a timestamp
# such as YYYY-MM-DDThh:mm:ssZ in a record is data and passes).
#
#   scripts/check_history_words.sh [DIR]
#
# DIR: a directory inside a git work tree (default: the repository holding
# this script, found through its real path, so it also works from Bazel's
# runfiles). Checks the files `git ls-files` lists under DIR, case-insensitive
# and word-bounded, skipping binary files, model and input data (.onnx, .pb,
# .npy, .f32, .plan, .textproto) and the fuzz corpora (fuzz/seeds,
# fuzz/regressions). Prints FILE:LINE:TEXT for each hit.
# Exit 0: no hit; 1: hits; 2: bad usage or DIR not in a git work tree.
set -euo pipefail

usage() { sed -n 2,16p "$0" | sed 's/^# \{0,1\}//'; }

case "${1:-}" in
  -h | --help) usage; exit 0 ;;
esac
if [ $# -gt 1 ]; then
  usage >&2
  exit 2
fi
whole=false
if [ $# -eq 1 ]; then
  dir=$1
else
  dir=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
  whole=true
fi
[ -d "$dir" ] || { echo "check_history_words: $dir is not a directory" >&2; exit 2; }
top=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null) ||
  { echo "check_history_words: $dir is not inside a git work tree" >&2; exit 2; }
prefix=""
$whole || prefix=$(git -C "$dir" rev-parse --show-prefix)
cd "$top"

# The words, case-insensitive (grep -i), each starting at a word boundary.
# None of these patterns matches its own text here (each needs a digit where
# this file has a bracket or a quantifier), so the script passes its own check.
words='\bsessions? #?[0-9]'
words+='|\bissues? #?[0-9]'
words+='|\bturns? #?[0-9]'
# An ISO date standing alone: no letter or digit right after it (so a
# timestamp's "T" keeps it out).
words+='|\b(19|20)[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])\b'

# Data, not prose: models, tensors, plans and fuzz inputs.
data='\.(onnx|pb|npy|f32|plan|textproto)$|^fuzz/(seeds|regressions)/'

hits=$(git ls-files -z -- "${prefix:-.}" |
  { grep -zvE "$data" || true; } |
  xargs -0 -r grep -sHnIiE -e "$words" -- || true)

if [ -n "$hits" ]; then
  printf '%s\n' "$hits"
  echo "check_history_words: $(printf '%s\n' "$hits" | wc -l) line(s) speak of the work, not of qnnc:" \
    "say it in the present tense as a fact about qnnc, or leave it to git log" >&2
  exit 1
fi
exit 0
