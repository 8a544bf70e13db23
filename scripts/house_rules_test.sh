#!/usr/bin/env bash
# //:house_rules_test: the size rules of docs/DESIGN.md ("Conventions") over
# the tracked files of this checkout, found through this script's real path
# (Bazel's runfiles link to the source tree).
set -euo pipefail
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
exec /usr/bin/python3 "$here/house_rules.py" "$here/.."
