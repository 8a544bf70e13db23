"""A small numpy evaluator of ONNX graphs: enough ops for the zoo's float
and QDQ models. Calibrates, folds constants and checks the quantized graph."""
import numpy as np
from onnx import helper, numpy_helper


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
