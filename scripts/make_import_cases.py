#!/usr/bin/python3
"""Writes the golden import cases of testdata/import: one small
ONNX model per case, built with onnx.helper (Debian's python3-onnx), for the
ops real exports use and the importer turns into IR. The expected IR of each
case (<case>.expected.qnnir) is qnnc's import, reviewed by hand and checked by
//frontend/onnx:golden_import_test; regenerate it with

  bazel run //tools:opt -- --passes=InferTypes $PWD/testdata/import/CASE.onnx

Usage: scripts/make_import_cases.py [OUT_DIR (default testdata/import)]
Deterministic: the same bytes on every run (fixed values, no random seed).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F32, U8, I8, I32, I64 = TensorProto.FLOAT, TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32, TensorProto.INT64


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def const(name, values, dtype):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def model(name, doc, nodes, inputs, outputs, inits=(), opset=13, ms=False):
    imports = [helper.make_opsetid("", opset)]
    if ms:
        imports.append(helper.make_opsetid("com.microsoft", 1))
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=imports, producer_name="qnnc make_import_cases")
    m.ir_version = 8
    m.doc_string = doc
    onnx.checker.check_model(m)
    return m


def qparams(prefix, scale, zp, dtype=np.uint8):
    return [const(prefix + "_scale", scale, np.float32), const(prefix + "_zp", zp, dtype)]


def cases():
    x4 = vi("x", F32, [1, 4, 3, 3])
    y = lambda shape, elem=F32: vi("y", elem, shape)  # noqa: E731
    w = np.arange(4 * 4 * 3 * 3, dtype=np.float32).reshape(4, 4, 3, 3) % 7 - 3
    yield model(
        "batchnorm_fold", "BatchNormalization after a float Conv with constant weights folds into it.",
        [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
         helper.make_node("BatchNormalization", ["c", "g", "b", "m", "v"], ["y"], epsilon=1e-5)],
        [x4], [y([1, 4, 3, 3])],
        [const("w", w, np.float32), const("g", [1, 2, 0.5, 1], np.float32), const("b", [0, 1, -1, 0.5], np.float32),
         const("m", [0.5, 0, 1, -1], np.float32), const("v", [1, 4, 0.25, 1], np.float32)])
    yield model(
        "batchnorm_alone", "BatchNormalization of a graph input: a per-channel scale and shift.",
        [helper.make_node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"], epsilon=0.0)],
        [x4], [y([1, 4, 3, 3])],
        [const("g", [1, 2, 0.5, 1], np.float32), const("b", [0, 1, -1, 0.5], np.float32),
         const("m", [0.5, 0, 1, -1], np.float32), const("v", [1, 4, 0.25, 1], np.float32)])
    yield model(
        "dropout_identity", "Dropout (inference) and Identity vanish.",
        [helper.make_node("Dropout", ["x"], ["d"]), helper.make_node("Identity", ["d"], ["i"]),
         helper.make_node("Relu", ["i"], ["y"])],
        [x4], [y([1, 4, 3, 3])])
    yield model(
        "pad_slice_split", "Pad (constant), Slice with negative and clamped bounds and a step, Split in two.",
        [helper.make_node("Pad", ["x", "pads", "pv"], ["p"], mode="constant"),
         helper.make_node("Slice", ["p", "starts", "ends", "axes", "steps"], ["s"]),
         helper.make_node("Split", ["s", "split"], ["a", "b"], axis=1)],
        [x4], [vi("a", F32, [1, 1, 5, 2]), vi("b", F32, [1, 3, 5, 2])],
        [const("pads", [0, 0, 1, 1, 0, 0, 1, 1], np.int64), const("pv", 0.5, np.float32),
         const("starts", [0, -100], np.int64), const("ends", [4, 100], np.int64), const("axes", [1, 3], np.int64),
         const("steps", [1, 3], np.int64), const("split", [1, 3], np.int64)])
    yield model(
        "gather_expand", "Gather of channels (a vector of indices, one negative) and Expand to a batch of 2.",
        [helper.make_node("Gather", ["x", "idx"], ["g"], axis=1), helper.make_node("Expand", ["g", "shape"], ["y"])],
        [x4], [y([2, 3, 3, 3])],
        [const("idx", [3, 0, -1], np.int64), const("shape", [2, 1, 1, 1], np.int64)])
    yield model(
        "activations", "Tanh, LeakyRelu, HardSigmoid, HardSwish and Softmax (opset 13: one axis).",
        [helper.make_node("Tanh", ["x"], ["t"]), helper.make_node("LeakyRelu", ["t"], ["l"], alpha=0.1),
         helper.make_node("HardSigmoid", ["l"], ["h"], alpha=0.25, beta=0.4),
         helper.make_node("HardSwish", ["h"], ["s"]), helper.make_node("Softmax", ["s"], ["y"], axis=1)],
        [x4], [y([1, 4, 3, 3])], opset=14)
    yield model(
        "reduce_mean_resize", "ReduceMean over H and W kept, then Resize (linear, half_pixel) by 2.",
        [helper.make_node("ReduceMean", ["x"], ["r"], axes=[2, 3], keepdims=1),
         helper.make_node("Resize", ["r", "", "scales"], ["y"], mode="linear",
                          coordinate_transformation_mode="half_pixel")],
        [x4], [y([1, 4, 2, 2])], [const("scales", [1, 1, 2, 2], np.float32)])

    # QDQ forms (u8 per-tensor activations).
    q = lambda src, dst, p: helper.make_node("QuantizeLinear", [src, p + "_scale", p + "_zp"], [dst])  # noqa: E731
    dq = lambda src, dst, p: helper.make_node("DequantizeLinear", [src, p + "_scale", p + "_zp"], [dst])  # noqa: E731
    qa, qb, qo = qparams("qa", 0.05, 128), qparams("qb", 0.1, 10), qparams("qo", 0.2, 100)
    xa, xb = vi("xa", U8, [1, 4, 3, 3]), vi("xb", U8, [1, 2, 3, 3])
    yield model(
        "qdq_concat", "DequantizeLinear -> Concat -> QuantizeLinear: one qnn.concat.",
        [dq("xa", "fa", "qa"), dq("xb", "fb", "qb"), helper.make_node("Concat", ["fa", "fb"], ["c"], axis=1),
         q("c", "y", "qo")],
        [xa, xb], [y([1, 6, 3, 3], U8)], qa + qb + qo)
    xb4 = vi("xb", U8, [1, 4, 3, 3])
    yield model(
        "qdq_add_mul", "DequantizeLinear pairs -> Add / Mul -> QuantizeLinear: qnn.add and qnn.mul.",
        [dq("xa", "fa", "qa"), dq("xb", "fb", "qb"), helper.make_node("Add", ["fa", "fb"], ["s"]),
         q("s", "sq", "qo"), dq("sq", "sf", "qo"), helper.make_node("Mul", ["sf", "fb"], ["m"]), q("m", "y", "qa")],
        [xa, xb4], [y([1, 4, 3, 3], U8)], qa + qb + qo)
    yield model(
        "qdq_pools", "QDQ MaxPool (ceil mode) keeps the u8 data; AveragePool and GlobalAveragePool run in float.",
        [dq("xa", "fa", "qa"), helper.make_node("MaxPool", ["fa"], ["mp"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
         q("mp", "mq", "qa"), dq("mq", "mf", "qa"),
         helper.make_node("AveragePool", ["mf"], ["ap"], kernel_shape=[2, 2], pads=[1, 1, 1, 1], count_include_pad=0),
         q("ap", "aq", "qo"), dq("aq", "af", "qo"), helper.make_node("GlobalAveragePool", ["af"], ["g"]),
         q("g", "y", "qo")],
        [xa], [y([1, 4, 1, 1], U8)], qa + qo)
    yield model(
        "qdq_sigmoid_resize", "QDQ Sigmoid keeps its float op between a dequantize and a quantize (FuseLookup "
        "tabulates it later). A nearest Resize whose dequantize and quantize share their parameters runs on the "
        "u8 data; a linear one stays in float.",
        [dq("xa", "fa", "qa"), helper.make_node("Sigmoid", ["fa"], ["s"]), q("s", "sq", "qo"), dq("sq", "sf", "qo"),
         helper.make_node("Resize", ["sf", "", "scales"], ["r"], mode="nearest",
                          coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
         q("r", "rq", "qo"), dq("rq", "rf", "qo"),
         helper.make_node("Resize", ["rf", "", "scales"], ["l"], mode="linear"), q("l", "y", "qo")],
        [xa], [y([1, 4, 12, 12], U8)], qa + qo + [const("scales", [1, 1, 2, 2], np.float32)])

    # com.microsoft QOperator forms, as ONNX Runtime's quantizer writes them.
    msp = lambda p: [p + "_scale", p + "_zp"]  # noqa: E731
    yield model(
        "ms_qlinear_add_mul_concat", "com.microsoft QLinearAdd, QLinearMul and QLinearConcat.",
        [helper.make_node("QLinearAdd", ["xa"] + msp("qa") + ["xb"] + msp("qb") + msp("qo"), ["s"],
                          domain="com.microsoft"),
         helper.make_node("QLinearMul", ["s"] + msp("qo") + ["xb"] + msp("qb") + msp("qa"), ["m"],
                          domain="com.microsoft"),
         helper.make_node("QLinearConcat", msp("qo") + ["m"] + msp("qa") + ["xb"] + msp("qb"), ["y"], axis=1,
                          domain="com.microsoft")],
        [xa, xb4], [y([1, 8, 3, 3], U8)], qa + qb + qo, ms=True)
    yield model(
        "ms_qlinear_activations_pools", "com.microsoft QLinearSigmoid, QLinearLeakyRelu, QLinearAveragePool and "
        "QLinearGlobalAveragePool: dequantize, the float op, quantize.",
        [helper.make_node("QLinearSigmoid", ["xa"] + msp("qa") + msp("qo"), ["s"], domain="com.microsoft"),
         helper.make_node("QLinearLeakyRelu", ["s"] + msp("qo") + msp("qb"), ["l"], alpha=0.2,
                          domain="com.microsoft"),
         helper.make_node("QLinearAveragePool", ["l"] + msp("qb") + msp("qa"), ["a"], kernel_shape=[2, 2],
                          domain="com.microsoft"),
         helper.make_node("QLinearGlobalAveragePool", ["a"] + msp("qa") + msp("qo"), ["y"], channels_last=0,
                          domain="com.microsoft")],
        [xa], [y([1, 4, 1, 1], U8)], qa + qb + qo, ms=True)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "testdata", "import")
    os.makedirs(out, exist_ok=True)
    for m in cases():
        path = os.path.join(out, m.graph.name + ".onnx")
        onnx.save(m, path)
        print(path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
