"""The Python module against the C++ session's results and messages.

MobileNetV2's output must equal, bit for bit, the checked-in output every
qnnc build reproduces (the C++ session test checks the same file); inputs and
outputs are described as ONNX Runtime describes them; bad input raises
ValueError with //tools:compile's message; threads share one session.
"""
import os
import tempfile
import threading
import unittest

import numpy as np

import qnnc

MODEL = "testdata/models/mobilenet_v2_qdq"


def read_f32(path, shape):
    return np.fromfile(path, dtype=np.float32).reshape(shape)


class InferenceSessionTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.session = qnnc.InferenceSession(MODEL + ".onnx", threads=2)
        cls.x = read_f32(MODEL + ".input.f32", (1, 3, 224, 224))
        cls.expected = read_f32(MODEL + ".qnnc_output.f32", (1, 1000))

    def test_describes_inputs_and_outputs_as_ort_does(self):
        [inp] = self.session.get_inputs()
        [out] = self.session.get_outputs()
        self.assertEqual(inp.name, "input")
        self.assertEqual(inp.shape, [1, 3, 224, 224])
        self.assertEqual(inp.type, "tensor(float)")
        self.assertEqual(out.shape, [1, 1000])
        self.assertEqual(out.type, "tensor(float)")

    def test_output_equals_the_cpp_one(self):
        [y] = self.session.run(None, {"input": self.x})
        self.assertEqual(y.dtype, np.float32)
        self.assertEqual(y.shape, (1, 1000))
        np.testing.assert_array_equal(y, self.expected)
        # By name, and from a non-contiguous array of the same values.
        [y2] = self.session.run([self.session.get_outputs()[0].name],
                                {"input": np.asfortranarray(self.x)})
        np.testing.assert_array_equal(y2, self.expected)
        # Each call returns arrays of its own.
        y[...] = 0
        [y3] = self.session.run(None, {"input": self.x})
        np.testing.assert_array_equal(y3, self.expected)
        self.assertFalse(y.any())

    def test_bad_input_raises_value_error_naming_it(self):
        cases = [
            ({"input": self.x.astype(np.float64)}, "input 'input' must be f32[1,3,224,224]"),
            ({"input": self.x[:, :2]}, "got float32[1,2,224,224]"),
            ({"image": self.x}, "no input 'image' (its inputs: input)"),
            ({}, "input 'input' missing"),
            ({"input": [1, 2, 3]}, "must be a numpy array"),
        ]
        for feed, message in cases:
            with self.assertRaises(ValueError) as raised:
                self.session.run(None, feed)
            self.assertIn(message, str(raised.exception))
        with self.assertRaises(ValueError) as raised:
            self.session.run(["probabilities"], {"input": self.x})
        self.assertIn("no output 'probabilities'", str(raised.exception))

    def test_bad_model_or_option_raises_the_cli_message(self):
        with self.assertRaises(ValueError) as raised:
            qnnc.InferenceSession("testdata/models/missing.onnx")
        self.assertIn("missing.onnx", str(raised.exception))
        with self.assertRaises(ValueError) as raised:
            qnnc.InferenceSession(MODEL + ".onnx", target="sparc")
        self.assertTrue(str(raised.exception).startswith("--target: "), raised.exception)
        with self.assertRaises(ValueError) as raised:
            qnnc.InferenceSession(MODEL + ".onnx", threads=0)
        self.assertEqual(str(raised.exception), "--threads must be 1..256")
        with self.assertRaises(ValueError):
            qnnc.InferenceSession(b"not a model")
        with self.assertRaises(ValueError) as raised:
            qnnc.InferenceSession(MODEL + ".onnx", records=["no_such_records.jsonl"])
        self.assertTrue(str(raised.exception).startswith("--records: "), raised.exception)

    def test_plan_saves_and_loads(self):
        with tempfile.TemporaryDirectory(dir=os.environ.get("TEST_TMPDIR")) as tmp:
            plan = os.path.join(tmp, "m.plan")
            self.session.save_plan(plan)
            loaded = qnnc.load_plan(plan, threads=1)
            self.assertEqual(loaded.target, self.session.target)
            [y] = loaded.run(None, {"input": self.x})
            np.testing.assert_array_equal(y, self.expected)
            with self.assertRaises(RuntimeError) as raised:
                self.session.save_plan(os.path.join(tmp, "no", "such", "m.plan"))
            self.assertIn("cannot write", str(raised.exception))
            self.assertEqual(os.listdir(tmp), ["m.plan"])

    def test_compiles_from_bytes(self):
        with open(MODEL + ".onnx", "rb") as f:
            session = qnnc.compile(f.read())
        [y] = session.run(None, {"input": self.x})
        np.testing.assert_array_equal(y, self.expected)

    def test_outputs_outlive_the_session(self):
        session = qnnc.InferenceSession(MODEL + ".onnx")
        [y] = session.run(None, {"input": self.x})
        del session
        np.testing.assert_array_equal(y, self.expected)

    def test_threads_share_one_session(self):
        session = qnnc.InferenceSession(MODEL + ".onnx", threads=1)
        inputs = [self.x, self.x * 0.5, self.x[:, ::-1].copy()]
        serial = [session.run(None, {"input": x})[0] for x in inputs]
        mismatches = []

        def work(t):
            for r in range(20):
                k = (t + r) % len(inputs)
                [y] = session.run(None, {"input": inputs[k]})
                if not np.array_equal(y, serial[k]):
                    mismatches.append((t, r))

        threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(mismatches, [])

    def test_several_inputs_by_name(self):
        session = qnnc.InferenceSession("testdata/ir/dense_matmul.qnnir")
        names = [i.name for i in session.get_inputs()]
        self.assertEqual(len(names), 3)
        rng = np.random.default_rng(7)
        feed = {}
        for i in session.get_inputs():
            if i.type == "tensor(float)":
                feed[i.name] = rng.standard_normal(i.shape).astype(np.float32)
            else:
                feed[i.name] = rng.integers(0, 256, i.shape).astype(np.uint8)
        a = session.run(None, feed)
        b = session.run(None, dict(reversed(list(feed.items()))))
        self.assertEqual(len(a), len(session.get_outputs()))
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
        # Outputs by name, in the order asked.
        out = [o.name for o in session.get_outputs()]
        self.assertEqual(len(out), 2)
        c = session.run(list(reversed(out)), feed)
        np.testing.assert_array_equal(c[0], a[1])
        np.testing.assert_array_equal(c[1], a[0])
        self.assertEqual(c[0].dtype, a[1].dtype)


if __name__ == "__main__":
    unittest.main()
