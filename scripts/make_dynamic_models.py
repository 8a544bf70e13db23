#!/usr/bin/env python3
"""Builds dynamically quantized test models the way ONNX Runtime's
quantize_dynamic does, for testdata/models.

Each float Conv becomes
    DynamicQuantizeLinear(x) -> ConvInteger(xq, wq, x_zp, w_zp) -> Cast(f32)
    -> Mul(x_scale * w_scale) -> Add(bias)
and each MatMul the same with MatMulInteger: per-tensor u8 activations
quantized at run time, weights quantized per tensor here.

Models (random weights from a fixed seed; He-scaled so activations keep
their size through the layers):
  mobilenet_v2_dynamic   MobileNetV2 (torchvision's layer table) at 224x224,
                         ReLU6 as Clip; weights u8 with a zero point.
  unet_dynamic_SIZE      a small U-Net-like segmentation net (two
                         down-steps by MaxPool, two up-steps by Resize, skip
                         Concats) at SIZExSIZE, 2 classes; weights u8.
Weights are u8 (asymmetric): ONNX Runtime's ConvInteger takes u8 x u8 only.

Also writes NAME.input.f32 (1x3xHxW, raw little-endian float32 from the seed).
ONNX Runtime's outputs come from bench/peers/ort_output.js.

Needs Debian's python3-onnx and python3-numpy (not the project's build):
    apt-get install python3-onnx python3-numpy
Usage: scripts/make_dynamic_models.py OUTDIR [--unet-size=256]
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Builder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.n = 0

    def name(self, prefix):
        self.n += 1
        return f"{prefix}_{self.n}"

    def const(self, array, prefix):
        name = self.name(prefix)
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(self, op, inputs, outputs=1, **attrs):
        outs = [self.name(op.lower()) for _ in range(outputs)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=self.name(op), **attrs))
        return outs[0] if outputs == 1 else outs

    # Weights quantized per tensor to u8 with a zero point, as quantize_dynamic
    # does for QUInt8 (asymmetric over [min(w, 0), max(w, 0)]).
    def quantize_weight(self, w):
        lo, hi = min(float(w.min()), 0.0), max(float(w.max()), 0.0)
        scale = (hi - lo) / 255.0 if hi > lo else 1.0
        zp = int(np.clip(round(-lo / scale), 0, 255))
        q = np.clip(np.round(w / scale) + zp, 0, 255).astype(np.uint8)
        return q, np.float32(scale), np.uint8(zp)

    def dynamic_quantize(self, x):
        return self.node("DynamicQuantizeLinear", [x], outputs=3)

    def conv(self, x, cin, cout, k, stride=1, groups=1, act=None, gain=2.0):
        fan_in = cin // groups * k * k
        w = self.rng.normal(0.0, np.sqrt(gain / fan_in), (cout, cin // groups, k, k)).astype(np.float32)
        b = self.rng.normal(0.0, 0.05, (cout,)).astype(np.float32)
        q, scale, zp = self.quantize_weight(w)
        xq, xs, xzp = self.dynamic_quantize(x)
        acc = self.node("ConvInteger", [xq, self.const(q, "w"), xzp, self.const(zp, "w_zp")],
                        kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4, group=groups)
        accf = self.node("Cast", [acc], to=TensorProto.FLOAT)
        s = self.node("Mul", [xs, self.const(scale, "w_scale")])
        y = self.node("Mul", [accf, s])
        y = self.node("Add", [y, self.const(b.reshape(1, cout, 1, 1), "bias")])
        if act == "relu6":
            y = self.node("Clip", [y, self.const(np.float32(0), "lo"), self.const(np.float32(6), "hi")])
        elif act == "relu":
            y = self.node("Relu", [y])
        return y

    def dense(self, x, cin, cout):
        w = self.rng.normal(0.0, np.sqrt(1.0 / cin), (cin, cout)).astype(np.float32)
        b = self.rng.normal(0.0, 0.05, (cout,)).astype(np.float32)
        q, scale, zp = self.quantize_weight(w)
        xq, xs, xzp = self.dynamic_quantize(x)
        acc = self.node("MatMulInteger", [xq, self.const(q, "w"), xzp, self.const(zp, "w_zp")])
        accf = self.node("Cast", [acc], to=TensorProto.FLOAT)
        s = self.node("Mul", [xs, self.const(scale, "w_scale")])
        return self.node("Add", [self.node("Mul", [accf, s]), self.const(b, "bias")])

    def model(self, name, inputs, outputs):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="qnnc scripts/make_dynamic_models.py")
        onnx.checker.check_model(m)
        return m


def mobilenet_v2(seed):
    b = Builder(seed)
    x = "input"
    y = b.conv(x, 3, 32, 3, stride=2, act="relu6")
    cin = 32
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                       (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            stride = s if i == 0 else 1
            h = y
            hidden = cin * t
            if t != 1:
                h = b.conv(h, cin, hidden, 1, act="relu6")
            h = b.conv(h, hidden, hidden, 3, stride=stride, groups=hidden, act="relu6")
            h = b.conv(h, hidden, c, 1, gain=1.0)  # linear bottleneck
            y = b.node("Add", [y, h]) if stride == 1 and cin == c else h
            cin = c
    y = b.conv(y, cin, 1280, 1, act="relu6")
    y = b.node("GlobalAveragePool", [y])
    y = b.node("Flatten", [y], axis=1)
    logits = b.dense(y, 1280, 1000)
    b.nodes[-1].output[0] = "logits"
    return b.model("mobilenet_v2_dynamic",
                   [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
                   [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])])


def unet(seed, size):
    b = Builder(seed)
    x = "input"
    e1 = b.conv(b.conv(x, 3, 16, 3, act="relu"), 16, 16, 3, act="relu")
    p1 = b.node("MaxPool", [e1], kernel_shape=[2, 2], strides=[2, 2])
    e2 = b.conv(b.conv(p1, 16, 32, 3, act="relu"), 32, 32, 3, act="relu")
    p2 = b.node("MaxPool", [e2], kernel_shape=[2, 2], strides=[2, 2])
    mid = b.conv(b.conv(p2, 32, 64, 3, act="relu"), 64, 64, 3, act="relu")
    scales = b.const(np.array([1, 1, 2, 2], np.float32), "scales")
    u2 = b.node("Resize", [mid, "", scales], mode="linear", coordinate_transformation_mode="half_pixel")
    d2 = b.conv(b.conv(b.node("Concat", [u2, e2], axis=1), 96, 32, 3, act="relu"), 32, 32, 3, act="relu")
    u1 = b.node("Resize", [d2, "", scales], mode="nearest", coordinate_transformation_mode="asymmetric",
                nearest_mode="floor")
    d1 = b.conv(b.node("Concat", [u1, e1], axis=1), 48, 16, 3, act="relu")
    b.conv(d1, 16, 2, 1, gain=1.0)
    b.nodes[-1].output[0] = "mask_logits"
    return b.model(f"unet_dynamic_{size}",
                   [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])],
                   [helper.make_tensor_value_info("mask_logits", TensorProto.FLOAT, [1, 2, size, size])])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--unet-size", type=int, default=256)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    rng = np.random.default_rng(2026)
    for name, model, shape in [
        ("mobilenet_v2_dynamic", mobilenet_v2(13), (1, 3, 224, 224)),
        (f"unet_dynamic_{args.unet_size}", unet(14, args.unet_size), (1, 3, args.unet_size, args.unet_size)),
    ]:
        onnx.save(model, os.path.join(args.outdir, name + ".onnx"))
        rng.uniform(-1.0, 1.0, shape).astype("<f4").tofile(os.path.join(args.outdir, name + ".input.f32"))
        print(f"wrote {name}.onnx ({len(model.graph.node)} nodes) and {name}.input.f32")


if __name__ == "__main__":
    main()
