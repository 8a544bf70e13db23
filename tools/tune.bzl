"""qnnc_tune_test: tuning a model as a sharded Bazel test.

Each shard runs //tools:tune --shard=I/N (from TEST_SHARD_INDEX and
TEST_TOTAL_SHARDS) and writes its records to TEST_UNDECLARED_OUTPUTS_DIR, so
`bazel test` spreads the workloads over whatever executors it has, remote
execution included. Join the shards with `records merge` (docs/tuning.md).
"""

def qnnc_tune_test(name, model, shard_count = 4, trials = 32, tuner = "xgb", args = [], **kwargs):
    """A sharded test that tunes `model` (a label of an .onnx or .qnnir file).

    Args:
      name: the test's name.
      model: the model's label.
      shard_count: how many slices of the workload list run in parallel.
      trials: measurements per workload at most.
      tuner: grid, random or xgb.
      args: more //tools:tune flags.
      **kwargs: passed to sh_test (tags, size, timeout, ...).
    """
    # Labels of this repository, whichever workspace loads the macro.
    tune = str(Label("//tools:tune"))
    native.sh_test(
        name = name,
        srcs = [str(Label("//tools:tune_shard.sh"))],
        data = [tune, model],
        args = [
            "$(rootpath %s)" % tune,
            "--model=$(rootpath %s)" % model,
            "--trials=%d" % trials,
            "--tuner=" + tuner,
        ] + args,
        shard_count = shard_count,
        **kwargs
    )
