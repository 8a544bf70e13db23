"""What make_zoo_models.py prints and writes besides the models: op-type
histograms, output comparisons and OUTDIR/README.md."""
import collections
import os

import numpy as np


def histogram(model):
    return sorted(collections.Counter(n.op_type for n in model.graph.node).items())


def compare(a, b):
    a, b = a.ravel().astype(np.float64), b.ravel().astype(np.float64)
    return f"max|diff| {np.abs(a - b).max():.3g}, corr {np.corrcoef(a, b)[0, 1]:.6f}"


def write_readme(outdir, rows):
    lines = [
        "# Quantized model zoo",
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
