#!/usr/bin/python3
"""Builds small QDQ-quantized ONNX models from torchvision's quantizable model
family, for testdata/zoo (issue #14: the quantized models users actually have).

Models (torchvision.models.quantization classes, float mode, random weights
from a fixed seed, 100 classes; BatchNorm affine parameters randomized, mostly
positive, and its statistics re-estimated on random inputs so activations
neither collapse nor blow up, then eval mode):
  mobilenet_v3_large  QuantizableMobileNetV3, width_mult=0.5, 1x3x112x112:
                      HardSwish (opset 13: HardSigmoid + Mul), squeeze-excite
                      (GlobalAveragePool, HardSigmoid, Mul), residual Add.
  inception_v3        QuantizableInception3 with every convolution's channel
                      counts divided by 4, aux_logits=False, without its last
                      block (Mixed_7c): stem, Mixed_5b..7b (InceptionA x3, B,
                      C x4, D, E), 1x3x107x107: Concat of branches, Pad +
                      AveragePool, MaxPool, 1x7/7x1/1x3/3x1 kernels.
  shufflenet_v2       QuantizableShuffleNetV2 x0.5, 1x3x112x112: channel
                      shuffle (Reshape, Transpose, Reshape), chunk (Slice),
                      Concat, ReduceMean.
  resnext_block       QuantizableResNet with QuantizableBottleneck, 32 groups
                      x 4 channels (ResNeXt-50 32x4d's first stages): stem,
                      two bottlenecks at 64->256 and one strided at 256->512,
                      grouped 3x3 convolutions, residual Add; 1x3x96x96.
Each is exported by torch.onnx.export (BatchNorm folded into Conv by
do_constant_folding) at opset 13 and 17, then cleaned (Identity removed,
Constant nodes and shape arithmetic folded from the static input shape).

Then each float model is quantized to QDQ the way ONNX Runtime's
quantize_static(QuantFormat.QDQ, per_channel=True, MinMax calibration) does,
written here with onnx + numpy (ONNX Runtime's python package is not
available):
  - Conv/Gemm weights: per-channel symmetric int8 in [-127, 127], stored as
    int8 initializers -> DequantizeLinear(axis=0; axis=1 for Gemm transB=0).
  - Conv/Gemm biases: int32 with scale x_scale * w_scale[c], zero point 0,
    -> DequantizeLinear(axis=0).
  - Activations: u8, per-tensor, asymmetric over [min(lo, 0), max(hi, 0)] of
    the tensor's calibrated range: QuantizeLinear -> DequantizeLinear on the
    inputs and outputs of Conv, Gemm, MatMul, Add, Mul, Concat,
    GlobalAveragePool, Sigmoid, HardSigmoid, HardSwish, Resize, and on the
    model's outputs.
  - Data-movement ops (MaxPool, AveragePool, Pad, Reshape, Transpose,
    Flatten, Squeeze, Unsqueeze, Slice, Split) whose input is quantized get a
    Q/DQ pair on their output with their input's scale and zero point.
  - A Relu whose input feeds nothing else is removed, as ORT does: its
    producer writes the Relu's output directly, whose calibrated range starts
    at 0, so the u8 QuantizeLinear with zero point 0 does the clamping.
  - Everything else (ReduceMean here) stays float between DQ and Q.
Calibration runs the float ONNX graph with a small numpy evaluator (also used
to fold constants and to check the quantized graph) on the test input and
three more random inputs.

Beside each NAME.onnx: NAME.input.f32 (uniform in [-1, 1] from the seed, raw
little-endian float32) and NAME.ort_output.f32, ONNX Runtime's output from
bench/peers/ort_output.js (skipped with --no-ort or when
bench/peers/node_modules is missing; install it with
`cd bench/peers && npm install --ignore-scripts --no-audit --no-fund`).
Also writes OUTDIR/README.md with each model's op-type histogram.

Needs Debian 12's packages (torch 1.13, torchvision 0.14, onnx 1.12), not
the project's build:
    apt-get install python3-torch python3-torchvision python3-onnx python3-numpy
Usage: /usr/bin/python3 scripts/make_zoo_models.py OUTDIR [--seed=14] [--no-ort]
"""
import argparse
import collections
import copy
import io
import os
import subprocess
import warnings

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import helper, numpy_helper, shape_inference
from torchvision.models import quantization as tq
from torchvision.models.quantization import inception as tq_inception
from torchvision.models.quantization import resnet as tq_resnet

NUM_CLASSES = 100
OPSETS = (13, 17)
# BatchNorm gamma ~ U(BN_GAMMA), beta ~ N(BN_BETA): mostly positive
# pre-activations keep these random nets from amplifying small perturbations
# (quantization noise, rounding differences) the way zero-mean ones do.
BN_GAMMA = (0.5, 1.0)
BN_BETA = (0.5, 0.5)
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORT_OUTPUT_JS = os.path.join(REPO, "bench", "peers", "ort_output.js")


# ---------------------------------------------------------------- models --

def mobilenet_v3_large():
    return tq.mobilenet_v3_large(weights=None, quantize=False, width_mult=0.5, num_classes=NUM_CLASSES)


def inception_v3(divisor=4):
    # Inception3's channel counts are hard-coded in its blocks; every block
    # builds its convolutions through QuantizableBasicConv2d, so a subclass
    # swapped in while the network is built divides them all (all of
    # Inception-v3's counts are multiples of 4; the 3 input channels stay).
    base = tq_inception.QuantizableBasicConv2d

    class SlimBasicConv2d(base):
        def __init__(self, cin, cout, **kwargs):
            super().__init__(cin if cin == 3 else cin // divisor, cout // divisor, **kwargs)

    tq_inception.QuantizableBasicConv2d = SlimBasicConv2d
    try:
        model = tq_inception.QuantizableInception3(num_classes=NUM_CLASSES, aux_logits=False, init_weights=True)
    finally:
        tq_inception.QuantizableBasicConv2d = base
    model.Mixed_7c = nn.Identity()  # the last InceptionE (the largest block): keeps the file under 1.5 MB
    model.fc = nn.Linear(2048 // divisor, NUM_CLASSES)
    return model


def shufflenet_v2():
    return tq.shufflenet_v2_x0_5(weights=None, quantize=False, num_classes=NUM_CLASSES)


def resnext_block():
    # ResNeXt-50 32x4d's stem, layer1 cut to two bottlenecks, layer2 to one.
    model = tq_resnet.QuantizableResNet(tq_resnet.QuantizableBottleneck, [2, 1, 1, 1], groups=32,
                                        width_per_group=4, num_classes=NUM_CLASSES)
    model.layer3 = nn.Identity()
    model.layer4 = nn.Identity()
    model.fc = nn.Linear(512, NUM_CLASSES)
    return model


MODELS = [  # name, builder, input shape, description for README.md
    ("mobilenet_v3_large", mobilenet_v3_large, (1, 3, 112, 112), "MobileNetV3-Large, width_mult=0.5"),
    ("inception_v3", inception_v3, (1, 3, 107, 107),
     "Inception-v3, channels / 4, without its last block Mixed_7c"),
    ("shufflenet_v2", shufflenet_v2, (1, 3, 112, 112), "ShuffleNetV2 x0.5"),
    ("resnext_block", resnext_block, (1, 3, 96, 96),
     "ResNeXt-50 32x4d's stem + 3 bottlenecks (64->256 x2, 256->512 strided)"),
]


def build_torch_model(builder, shape, seed):
    """Random weights (Linear ~ N(0, 1/fan_in)); BatchNorm gamma/beta
    randomized and running statistics re-estimated on random batches
    (cumulative average), then eval mode."""
    torch.manual_seed(seed)
    model = builder()
    for m in model.modules():
        if isinstance(m, nn.Linear):  # torchvision's inits give logits of ~0.01
            nn.init.normal_(m.weight, 0.0, m.in_features ** -0.5)
            nn.init.normal_(m.bias, 0.0, 0.1)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.uniform_(m.weight, *BN_GAMMA)
            nn.init.normal_(m.bias, *BN_BETA)
            m.reset_running_stats()
            m.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.rand((8,) + shape[1:]) * 2 - 1)
    return model.eval()


def export(model, shape, opset):
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, torch.zeros(shape), buf, opset_version=opset, do_constant_folding=True,
                          input_names=["input"], output_names=["output"])
    return onnx.load_from_string(buf.getvalue())


# ------------------------------------------------------ numpy evaluator --

def attrs_of(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _windows(x, kernel, strides, dilations):
    """x: N,C,H,W (padded) -> N,C,OH,OW,KH,KW."""
    (kh, kw), (dh, dw) = kernel, dilations
    win = np.lib.stride_tricks.sliding_window_view(x, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(2, 3))
    return win[:, :, ::strides[0], ::strides[1], ::dh, ::dw]


def _check_auto_pad(a):
    assert a.get("auto_pad", b"NOTSET") in (b"NOTSET", "NOTSET"), "auto_pad not supported"
    assert not a.get("ceil_mode", 0), "ceil_mode not supported"


def op_conv(a, x, w, b=None):
    _check_auto_pad(a)
    g = a.get("group", 1)
    m, cg, kh, kw = w.shape
    p = a.get("pads", [0, 0, 0, 0])
    x = np.pad(x, ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    win = _windows(x, (kh, kw), a.get("strides", [1, 1]), a.get("dilations", [1, 1]))
    n, _, oh, ow = win.shape[:4]
    win = win.reshape(n, g, cg, oh, ow, kh, kw)
    y = np.einsum("ngchwij,gocij->ngohw", win, w.reshape(g, m // g, cg, kh, kw), optimize=True)
    y = y.reshape(n, m, oh, ow)
    if b is not None:
        y = y + b.reshape(1, m, 1, 1)
    return y.astype(np.float32)


def op_pool(a, x, kind):
    _check_auto_pad(a)
    kh, kw = a["kernel_shape"]
    p = a.get("pads", [0, 0, 0, 0])
    pad = ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3]))
    strides = a.get("strides", [1, 1])
    if kind == "max":
        win = _windows(np.pad(x, pad, constant_values=-np.inf), (kh, kw), strides, a.get("dilations", [1, 1]))
        return win.max(axis=(4, 5))
    s = _windows(np.pad(x, pad), (kh, kw), strides, (1, 1)).sum(axis=(4, 5), dtype=np.float32)
    if a.get("count_include_pad", 0):
        return (s / (kh * kw)).astype(np.float32)
    ones = np.pad(np.ones((1, 1) + x.shape[2:], np.float32), pad)
    return (s / _windows(ones, (kh, kw), strides, (1, 1)).sum(axis=(4, 5))).astype(np.float32)


def op_slice(x, starts, ends, axes=None, steps=None):
    axes = range(len(starts)) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * x.ndim
    for s, e, ax, st in zip(starts, ends, axes, steps):
        index[int(ax)] = slice(int(s), int(e), int(st))
    return x[tuple(index)]


def op_split(a, x, split=None, n_out=1):
    axis = a.get("axis", 0)
    split = a.get("split", split)
    if split is None:
        split = [x.shape[axis] // n_out] * n_out
    return np.split(x, np.cumsum(split)[:-1], axis=axis)


def op_quantize(a, x, scale, zp=None):
    zp = np.uint8(0) if zp is None else zp
    shape = [1] * x.ndim
    if scale.ndim:
        shape[a.get("axis", 1)] = -1
    info = np.iinfo(zp.dtype)
    q = np.rint(x / scale.reshape(shape)) + zp.reshape(shape).astype(np.int32)
    return np.clip(q, info.min, info.max).astype(zp.dtype)


def op_dequantize(a, x, scale, zp=None):
    shape = [1] * x.ndim
    if scale.ndim:
        shape[a.get("axis", 1)] = -1
    zp = np.zeros_like(scale, np.int64) if zp is None else zp
    return ((x.astype(np.int64) - zp.reshape(shape).astype(np.int64)) * scale.reshape(shape)).astype(np.float32)


def op_gemm(a, x, w, b=None):
    x = x.T if a.get("transA", 0) else x
    w = w.T if a.get("transB", 0) else w
    y = a.get("alpha", 1.0) * (x @ w)
    if b is not None:
        y = y + a.get("beta", 1.0) * b
    return y.astype(np.float32)


def op_div(x, y):
    if np.issubdtype(x.dtype, np.integer):
        return (np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))).astype(x.dtype)
    return x / y


def op_reshape(x, shape):
    shape = [x.shape[i] if d == 0 else int(d) for i, d in enumerate(shape)]
    return x.reshape(shape)


def op_reduce_mean(a, x, axes=None):
    axes = a.get("axes", axes)
    return x.mean(axis=None if axes is None else tuple(int(i) for i in axes), keepdims=bool(a.get("keepdims", 1)))


def hard_sigmoid(x, alpha=0.2, beta=0.5):
    return np.clip(alpha * x + beta, 0.0, 1.0).astype(np.float32)


OPS = {
    "Conv": lambda a, *i: op_conv(a, *i),
    "Relu": lambda a, x: np.maximum(x, 0),
    "Clip": lambda a, x, lo=None, hi=None: np.clip(x, -np.inf if lo is None else lo, np.inf if hi is None else hi),
    "Sigmoid": lambda a, x: (1 / (1 + np.exp(-x))).astype(np.float32),
    "HardSigmoid": lambda a, x: hard_sigmoid(x, a.get("alpha", 0.2), a.get("beta", 0.5)),
    "HardSwish": lambda a, x: x * hard_sigmoid(x, 1 / 6, 0.5),
    "Add": lambda a, x, y: x + y,
    "Sub": lambda a, x, y: x - y,
    "Mul": lambda a, x, y: x * y,
    "Div": lambda a, x, y: op_div(x, y),
    "GlobalAveragePool": lambda a, x: x.mean(axis=(2, 3), keepdims=True),
    "MaxPool": lambda a, x: op_pool(a, x, "max"),
    "AveragePool": lambda a, x: op_pool(a, x, "avg"),
    "Pad": lambda a, x, pads, value=None: np.pad(
        x, [(int(pads[i]), int(pads[i + x.ndim])) for i in range(x.ndim)],
        constant_values=0 if value is None else value.item()),
    "Concat": lambda a, *xs: np.concatenate(xs, axis=a["axis"]),
    "Reshape": lambda a, x, shape: op_reshape(x, shape),
    "Flatten": lambda a, x: x.reshape(int(np.prod(x.shape[:a.get("axis", 1)])), -1),
    "Transpose": lambda a, x: x.transpose(a.get("perm")),
    "Slice": lambda a, x, *i: op_slice(x, *i),
    "Gemm": lambda a, *i: op_gemm(a, *i),
    "MatMul": lambda a, x, y: x @ y,
    "ReduceMean": lambda a, *i: op_reduce_mean(a, *i),
    "Shape": lambda a, x: np.array(x.shape, np.int64),
    "Gather": lambda a, x, i: np.take(x, i, axis=a.get("axis", 0)),
    "Unsqueeze": lambda a, x, axes=None: np.expand_dims(x, tuple(int(i) for i in a.get("axes", axes))),
    "Squeeze": lambda a, x, axes=None: np.squeeze(x, tuple(int(i) for i in a.get("axes", axes))),
    "Cast": lambda a, x: x.astype(helper.tensor_dtype_to_np_dtype(a["to"])),
    "Identity": lambda a, x: x,
    "QuantizeLinear": lambda a, *i: op_quantize(a, *i),
    "DequantizeLinear": lambda a, *i: op_dequantize(a, *i),
}


def eval_node(node, inputs):
    a = attrs_of(node)
    if node.op_type == "Split":
        return op_split(a, *inputs, n_out=len(node.output))
    if node.op_type == "Constant":
        return [numpy_helper.to_array(a["value"])]
    inputs = list(inputs)
    while inputs and inputs[-1] is None:
        inputs.pop()
    return [OPS[node.op_type](a, *inputs)]


def run_graph(model, feeds, observe=None):
    """Evaluates a topologically sorted graph; calls observe(name, value) for
    every tensor computed. Returns the graph outputs."""
    env = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    env.update(feeds)
    for node in model.graph.node:
        outs = eval_node(node, [env[i] if i else None for i in node.input])
        for name, value in zip(node.output, outs):
            env[name] = value
            if observe:
                observe(name, value)
    return [env[o.name] for o in model.graph.output]


# ------------------------------------------------------------- cleaning --

def simplify(model):
    """Removes Identity, turns Constant nodes into initializers and folds every
    node whose inputs are constants (Shape of statically shaped tensors
    included), then drops unused initializers."""
    inferred = shape_inference.infer_shapes(model)
    static = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output):
        dims = vi.type.tensor_type.shape.dim
        if dims and all(d.HasField("dim_value") for d in dims):
            static[vi.name] = [d.dim_value for d in dims]
    g = model.graph
    consts = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    outputs = {o.name for o in g.output}
    alias, nodes = {}, []
    for node in g.node:
        node.input[:] = [alias.get(i, i) for i in node.input]
        if node.op_type == "Identity" and node.output[0] not in outputs:
            alias[node.output[0]] = node.input[0]
        elif node.op_type == "Shape" and node.input[0] in static:
            consts[node.output[0]] = np.array(static[node.input[0]], np.int64)
        elif all(i == "" or i in consts for i in node.input):
            for name, value in zip(node.output, eval_node(node, [consts[i] if i else None for i in node.input])):
                consts[name] = np.asarray(value)
        else:
            nodes.append(node)
    used = {i for n in nodes for i in n.input}
    inits = [numpy_helper.from_array(consts[name], name) for name in sorted(used & consts.keys())]
    graph = helper.make_graph(nodes, g.name, g.input, g.output, inits)
    out = helper.make_model(graph, opset_imports=model.opset_import, producer_name="qnnc scripts/make_zoo_models.py")
    onnx.checker.check_model(out)
    return out


# ------------------------------------------------------------ quantizer --

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


# ----------------------------------------------------------------- main --

def histogram(model):
    return sorted(collections.Counter(n.op_type for n in model.graph.node).items())


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


def compare(a, b):
    a, b = a.ravel().astype(np.float64), b.ravel().astype(np.float64)
    return f"max|diff| {np.abs(a - b).max():.3g}, corr {np.corrcoef(a, b)[0, 1]:.6f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--no-ort", action="store_true", help="do not write NAME.ort_output.f32")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    torch.set_num_threads(1)
    ort = not args.no_ort and os.path.isdir(os.path.join(REPO, "bench", "peers", "node_modules"))
    if not args.no_ort and not ort:
        print("bench/peers/node_modules is missing: skipping ONNX Runtime outputs")
    rows = []
    for index, (name, builder, shape, desc) in enumerate(MODELS):
        seed = args.seed * 100 + index
        torch_model = build_torch_model(builder, shape, seed)
        rng = np.random.default_rng(seed)
        x = rng.uniform(-1.0, 1.0, shape).astype(np.float32)
        calib = [x] + [rng.uniform(-1.0, 1.0, shape).astype(np.float32) for _ in range(3)]
        with torch.no_grad():
            torch_out = torch_model(torch.from_numpy(x)).numpy()
        for opset in OPSETS:
            stem = f"{name}_op{opset}"
            path = os.path.join(args.outdir, stem + ".onnx")
            fmodel = simplify(export(torch_model, shape, opset))
            float_out = run_graph(fmodel, {"input": x})[0]
            qmodel = quantize_qdq(fmodel, calibrate(fmodel, calib))
            q_out = run_graph(qmodel, {"input": x})[0]
            onnx.save(qmodel, path)
            x.astype("<f4").tofile(os.path.join(args.outdir, stem + ".input.f32"))
            hist = histogram(qmodel)
            size = os.path.getsize(path)
            print(f"{stem}.onnx: {size} bytes, opset {opset}, input {'x'.join(map(str, shape))}")
            print(f"  float ops: {', '.join(f'{k} {v}' for k, v in histogram(fmodel))}")
            print(f"  QDQ ops:   {', '.join(f'{k} {v}' for k, v in hist)}")
            print(f"  numpy float vs torch: {compare(float_out, torch_out)}")
            print(f"  numpy QDQ vs float:   {compare(q_out, float_out)}")
            if ort:
                out_path = os.path.join(args.outdir, stem + ".ort_output.f32")
                subprocess.run(["node", ORT_OUTPUT_JS, path, os.path.join(args.outdir, stem + ".input.f32"),
                                out_path, "--shape=" + ",".join(map(str, shape))], check=True)
                ort_out = np.fromfile(out_path, "<f4")
                print(f"  ORT QDQ vs numpy QDQ: {compare(ort_out, q_out)}")
                print(f"  ORT QDQ vs float:     {compare(ort_out, float_out)}")
            rows.append((stem + ".onnx", desc, opset, shape, size, hist))
    write_readme(args.outdir, rows)


def write_readme(outdir, rows):
    lines = [
        "# Quantized model zoo (issue #14)",
        "",
        "Small QDQ-quantized versions of torchvision's quantizable models with random weights, built by",
        "`scripts/make_zoo_models.py` (its docstring has the details):",
        "",
        "    /usr/bin/python3 scripts/make_zoo_models.py testdata/zoo",
        "",
        "Float models exported by `torch.onnx.export` (torch 1.13, BatchNorm folded), then quantized the way",
        "ONNX Runtime's `quantize_static` (QDQ, per-channel) does: int8 per-channel symmetric weights and int32",
        "biases behind DequantizeLinear, u8 per-tensor activations calibrated on random inputs, QuantizeLinear ->",
        "DequantizeLinear around Conv, Gemm, Add, Mul, Concat, pooling, HardSigmoid, HardSwish and the output;",
        "Relu folded into the following u8 QuantizeLinear (zero point 0); data-movement ops (MaxPool, AveragePool,",
        "Pad, Reshape, Transpose, Flatten, Slice) requantize with their input's scale and zero point; ReduceMean",
        "stays float between DQ and Q. 100 classes.",
        "",
        "As torch 1.13 exports them: HardSwish is HardSigmoid + Mul at opset 13 and HardSwish at 17; the other",
        "three graphs are the same at both opsets. Inception's count_include_pad average pooling is Pad +",
        "AveragePool; ShuffleNet's channel shuffle is Reshape -> Transpose -> Reshape and its chunk two Slices",
        "(the exporter's shape arithmetic folded by the script).",
        "",
        "Beside each model: `NAME.input.f32` (uniform in [-1, 1], raw little-endian float32, the shape below)",
        "and `NAME.ort_output.f32` (ONNX Runtime 1.30, one thread, from `node bench/peers/ort_output.js`;",
        "shape 1x100).",
        "",
        "| file | network | opset | input | size | op types (count) |",
        "|---|---|---|---|---|---|",
    ]
    for file, desc, opset, shape, size, hist in rows:
        ops = ", ".join(f"{k} {v}" for k, v in hist)
        lines.append(f"| {file} | {desc} | {opset} | {'x'.join(map(str, shape))} | {size / 1024:.0f} KiB | {ops} |")
    with open(os.path.join(outdir, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
