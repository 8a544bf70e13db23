#!/usr/bin/python3
"""The Python module's cost and the session's throughput under threads.

  bazel build //python:qnnc
  PYTHONPATH=$(bazel info bazel-bin)/python /usr/bin/python3 bench/python_session.py [MODEL.onnx]

Prints, for MODEL (default: the bundled MobileNetV2) on this host:
- the median of `run` from Python and of the C++ Session::Run on the same
  input, over 1,000 calls each in alternating blocks, and their difference:
  what the Python layer adds (argument conversion, the input's copy into
  padded storage, the output array);
- requests per second with 1 and 2 Python threads each running its own
  requests on one session (threads=1 per call), and their ratio.
"""
import statistics
import sys
import threading
import time

import numpy as np

import qnnc


def overhead(session, feed, calls=1000, block=50):
    py_ms, native_ms = [], []
    for _ in range(calls // block):
        for _ in range(block):
            start = time.perf_counter()
            session.run(None, feed)
            py_ms.append((time.perf_counter() - start) * 1e3)
        native_ms += session._time_native_runs(feed, block)
    return statistics.median(py_ms), statistics.median(native_ms)


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
    model = sys.argv[1] if len(sys.argv) > 1 else "testdata/models/mobilenet_v2_qdq.onnx"
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
    py, native = overhead(session, feed)
    print(f"model: {model}, target {session.target}")
    print(f"run from Python: median {py * 1e3:.1f} us; C++ Session::Run: {native * 1e3:.1f} us; "
          f"Python adds {(py - native) * 1e3:.1f} us")
    one = throughput(session, feed, 1)
    two = throughput(session, feed, 2)
    print(f"throughput, threads=1 per call: 1 thread {one:.1f}/s, 2 threads {two:.1f}/s, "
          f"ratio {two / one:.2f}")


if __name__ == "__main__":
    main()
