#!/usr/bin/python3
"""The Python module's cost and the session's throughput under threads.

  bazel build //python:qnnc
  PYTHONPATH=$(bazel info bazel-bin)/python /usr/bin/python3 bench/python_session.py [--ort] [--rounds=N] [MODEL]

Prints, for MODEL (default: the bundled MobileNetV2) on this host:
- over 1,000 calls of `run` from Python, the median of the call and of the
  C++ Session::Run inside it, and the median of each call's difference:
  what the Python layer adds (the call, argument checks, the input borrowed
  or copied, the GIL released and taken back, the output array, the result
  freed), measured on one call at a time so that the model's own
  run-to-run spread cancels; in each of N rounds (default 3), and the
  median of the rounds;
- requests per second with 1 and 2 Python threads each running its own
  requests on one session (threads=1 per call), and their ratio;
- with --ort, ONNX Runtime's in the same setting beside it
  (bench/peers/ort_throughput.js: a worker per thread, each with its own
  session, since Node cannot share one between workers).
"""
import json
import os
import subprocess
import statistics
import sys
import threading
import time

import numpy as np

import qnnc


def overhead(session, feed, calls=1000):
    py_ms, native_ms, added_ms = [], [], []
    for _ in range(calls):
        start = time.perf_counter()
        session.run(None, feed)
        elapsed = (time.perf_counter() - start) * 1e3
        native = session._last_run_ms()
        py_ms.append(elapsed)
        native_ms.append(native)
        added_ms.append(elapsed - native)
    return statistics.median(py_ms), statistics.median(native_ms), statistics.median(added_ms)


def throughput(session, feed, threads, seconds=3.0):
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def work(t):
        while time.perf_counter() < stop:
            session.run(None, feed)
            counts[t] += 1

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - start)


def main():
    rounds = 3
    args = []
    for a in sys.argv[1:]:
        if a.startswith("--rounds="):
            rounds = int(a.split("=", 1)[1])
        elif a != "--ort":
            args.append(a)
    model = args[0] if args else "testdata/models/mobilenet_v2_qdq.onnx"
    session = qnnc.InferenceSession(model, threads=1)
    rng = np.random.default_rng(0)
    feed = {}
    for i in session.get_inputs():
        if i.type == "tensor(float)":
            feed[i.name] = rng.standard_normal(i.shape).astype(np.float32)
        else:
            feed[i.name] = rng.integers(0, 256, i.shape).astype(np.uint8)
    for _ in range(20):
        session.run(None, feed)
    print(f"model: {model}, target {session.target}")
    added = []
    for r in range(rounds):
        py, native, a = overhead(session, feed)
        added.append(a)
        print(f"round {r + 1}: run from Python: median {py * 1e3:.1f} us; C++ Session::Run: {native * 1e3:.1f} us; "
              f"Python adds {a * 1e3:.1f} us (median of the calls' differences)")
    print(f"Python adds {statistics.median(added) * 1e3:.1f} us (median of {rounds} rounds)")
    one = throughput(session, feed, 1)
    two = throughput(session, feed, 2)
    print(f"throughput, threads=1 per call: 1 thread {one:.1f}/s, 2 threads {two:.1f}/s, "
          f"ratio {two / one:.2f}")
    if "--ort" in sys.argv:
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers", "ort_throughput.js")
        ort = json.loads(subprocess.run(["node", script, model], check=True, capture_output=True,
                                        text=True).stdout)["workers"]
        print(f"ONNX Runtime, a worker per thread: 1 {ort['1']:.1f}/s, 2 {ort['2']:.1f}/s; "
              f"qnnc/ORT {one / ort['1']:.2f} and {two / ort['2']:.2f}")


if __name__ == "__main__":
    main()
