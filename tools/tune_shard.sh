#!/usr/bin/env bash
# One shard of a qnnc_tune_test (tools/tune.bzl): //tools:tune over this
# shard's slice of the workloads, records to the test's undeclared outputs
# (records.jsonl in bazel-testlogs/<test>/shard_<i>_of_<n>/test.outputs/,
# zipped into outputs.zip by Bazel 4).
# Usage: tune_shard.sh TUNE_BINARY TUNE_FLAGS...
set -euo pipefail
tune=$1
shift
index=${TEST_SHARD_INDEX:-0}
total=${TEST_TOTAL_SHARDS:-1}
# Tell Bazel this test understands sharding.
[ -n "${TEST_SHARD_STATUS_FILE:-}" ] && touch "$TEST_SHARD_STATUS_FILE"
out=${TEST_UNDECLARED_OUTPUTS_DIR:-$PWD}
exec "$tune" --shard="$index/$total" --records="$out/records.jsonl" "$@"
