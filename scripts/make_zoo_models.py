#!/usr/bin/python3
"""Builds small QDQ-quantized ONNX models from torchvision's quantizable model
family, for testdata/zoo: the quantized models users actually have.

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
import os
import subprocess

import numpy as np
import onnx
import torch

from zoo.builder import build_torch_model, export
from zoo.evaluator import run_graph
from zoo.models import MODELS
from zoo.quantize import calibrate, quantize_qdq
from zoo.report import compare, histogram, write_readme
from zoo.simplify import simplify

OPSETS = (13, 17)
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORT_OUTPUT_JS = os.path.join(REPO, "bench", "peers", "ort_output.js")


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


if __name__ == "__main__":
    main()
