"""Calibration and the QDQ quantizer: a float model quantized the way ONNX
Runtime's quantize_static(QuantFormat.QDQ, per_channel=True, MinMax) does."""
import collections
import copy

import numpy as np
import onnx
from onnx import helper, numpy_helper

from zoo.evaluator import attrs_of, run_graph

OWN_PARAMS_OPS = {"Conv", "Gemm", "MatMul", "Add", "Mul", "Concat", "GlobalAveragePool", "Sigmoid",
                  "HardSigmoid", "HardSwish", "Resize"}
SAME_AS_INPUT_OPS = {"MaxPool", "AveragePool", "Pad", "Reshape", "Transpose", "Flatten", "Squeeze",
                     "Unsqueeze", "Slice", "Split"}


def activation_params(lo, hi):
    """u8 asymmetric, as ORT's compute_scale_zp: range widened to hold 0."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi == lo:
        return np.float32(1.0), np.uint8(0)
    scale = np.float32((hi - lo) / 255.0)
    return scale, np.uint8(np.clip(round(-lo / float(scale)), 0, 255))


def quantize_qdq(model, ranges):
    """QDQ model from a simplified float model; ranges: tensor -> (min, max)."""
    g = copy.deepcopy(model.graph)
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    graph_inputs = {i.name for i in g.input}
    graph_outputs = [o.name for o in g.output]
    nodes = list(g.node)

    def consumers(name):
        return [n for n in nodes if name in n.input]

    # 1. Remove Relu after a single-consumer tensor (ORT's QDQRemovableActivation).
    for relu in [n for n in nodes if n.op_type == "Relu"]:
        src = relu.input[0]
        if len(consumers(src)) == 1 and src not in graph_inputs and src not in graph_outputs:
            producer = next(n for n in nodes if src in n.output)
            producer.output[list(producer.output).index(src)] = relu.output[0]
            nodes.remove(relu)

    # 2. Tensors quantized with their own calibrated parameters.
    is_act = lambda t: t and t not in inits  # noqa: E731
    params = {}

    def own(t):  # params[t] = (scale, zero point, tensor whose initializers hold them)
        if is_act(t) and t not in params:
            params[t] = activation_params(*ranges[t]) + (t,)

    for n in nodes:
        if n.op_type in OWN_PARAMS_OPS:
            data_inputs = n.input[:1] if n.op_type in ("Conv", "Gemm") else n.input
            for t in list(data_inputs) + list(n.output):
                own(t)
        elif n.op_type == "Relu":  # kept Relu (its input feeds other nodes too)
            own(n.input[0])
            own(n.output[0])
    for t in graph_outputs:
        own(t)
    # 3. Data-movement outputs take their input's parameters (in graph order,
    # so chains such as Reshape -> Transpose -> Reshape propagate).
    for n in nodes:
        if n.op_type in SAME_AS_INPUT_OPS and n.input[0] in params:
            for t in n.output:
                params[t] = params[n.input[0]]

    new_inits, new_nodes = [], []
    count = collections.Counter()

    def init(array, name):
        new_inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def dq(q, scale, zp, out, axis=None):
        count["DequantizeLinear"] += 1
        kw = {} if axis is None else {"axis": axis}
        new_nodes.append(helper.make_node("DequantizeLinear", [q, scale, zp], [out],
                                          name=f"{out}_DequantizeLinear", **kw))
        return out

    # 4. Weights and biases: int8 per-channel symmetric, int32 bias.
    for n in nodes:
        if n.op_type not in ("Conv", "Gemm") or n.input[1] not in inits:
            continue
        w = inits[n.input[1]]
        axis = 1 if n.op_type == "Gemm" and not attrs_of(n).get("transB", 0) else 0
        absmax = np.abs(np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)).max(axis=1)
        w_scale = np.where(absmax > 0, absmax / 127.0, 1.0).astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        wq = np.clip(np.rint(w / w_scale.reshape(shape)), -127, 127).astype(np.int8)
        base = n.name or n.output[0]
        wname = base + "_weight"
        init(wq, wname + "_quantized")
        init(w_scale, wname + "_scale")
        init(np.zeros(w.shape[axis], np.int8), wname + "_zero_point")
        n.input[1] = dq(wname + "_quantized", wname + "_scale", wname + "_zero_point", wname, axis)
        if len(n.input) > 2 and n.input[2]:
            b = inits[n.input[2]]
            b_scale = (params[n.input[0]][0] * w_scale).astype(np.float32)
            bq = np.clip(np.rint(b / b_scale), -2**31, 2**31 - 1).astype(np.int32)
            bname = base + "_bias"
            init(bq, bname + "_quantized")
            init(b_scale, bname + "_scale")
            init(np.zeros_like(bq), bname + "_zero_point")
            n.input[2] = dq(bname + "_quantized", bname + "_scale", bname + "_zero_point", bname, 0)

    # 5. QuantizeLinear -> DequantizeLinear on every marked activation.
    renamed_outputs = {}
    for t in params:
        if t in graph_outputs:
            renamed_outputs[t] = t + "_float"
    for n in nodes:
        n.output[:] = [renamed_outputs.get(o, o) for o in n.output]
    qdq_nodes = {}  # producer tensor -> nodes to insert right after it
    for t, (scale, zp, owner) in params.items():
        src = renamed_outputs.get(t, t)
        deq = t if t in renamed_outputs else t + "_DequantizeLinear_Output"
        sname, zname = owner + "_scale", owner + "_zero_point"
        if t == owner:
            init(scale, sname)
            init(zp, zname)
        qdq_nodes[src] = [
            helper.make_node("QuantizeLinear", [src, sname, zname], [t + "_QuantizeLinear_Output"],
                             name=t + "_QuantizeLinear"),
            helper.make_node("DequantizeLinear", [t + "_QuantizeLinear_Output", sname, zname], [deq],
                             name=t + "_DequantizeLinear"),
        ]
        if t not in renamed_outputs:
            for n in nodes:
                n.input[:] = [deq if i == t else i for i in n.input]

    # Weight DequantizeLinear first, then graph order with Q/DQ after producers.
    ordered = list(new_nodes)
    for t in g.input:
        ordered += qdq_nodes.get(t.name, [])
    for n in nodes:
        ordered.append(n)
        for o in n.output:
            ordered += qdq_nodes.get(o, [])
    kept = [i for i in g.initializer if any(i.name in n.input for n in ordered)]
    graph = helper.make_graph(ordered, g.name, g.input, g.output, kept + new_inits)
    out = helper.make_model(graph, opset_imports=model.opset_import, producer_name="qnnc scripts/make_zoo_models.py")
    onnx.checker.check_model(out, full_check=True)
    return out


def calibrate(model, inputs):
    ranges = {}

    def observe(name, value):
        if value.dtype == np.float32 and value.size:
            lo, hi = float(value.min()), float(value.max())
            old = ranges.get(name, (lo, hi))
            ranges[name] = (min(lo, old[0]), max(hi, old[1]))

    for x in inputs:
        observe(model.graph.input[0].name, x)
        run_graph(model, {model.graph.input[0].name: x}, observe)
    return ranges
