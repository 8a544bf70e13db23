#!/usr/bin/python3
"""How much of a QDQ model's convolutions AVX2's one-pass vpmaddubsw could run
exactly: as is, after reordering input channels, and with corrections.

vpmaddubsw adds the products of input channels 2m and 2m+1 in int16,
saturating: with u8 data up to 255 it is exact when, per output channel and
tap, the same-signed weights of the pair add up to at most 128 in magnitude
(kernels/spatial_pack/weight_pairs.h). This script's unit of work is a
dword of 4 input channels (2 pairs) times 8 output channels at one tap; a
unit with any bad pair needs a correction step.

Per dense convolution (channels multiples of 16 in and 8 out) this prints
the fraction of units with a bad pair
  natural   channels in their order
  permuted  after a search for a channel order within each 16-channel block,
            one order for all taps (what a packing copy could apply)
A correction step costs at least one step of the one-pass kernel, whose
limit is about 1.14x the int16 kernel's on Zen 5 (docs/performance.md,
"Instruction limits"): a correcting kernel runs in about (1 + f) / 1.14 of
the int16 time for a fraction f of units corrected, before the cost of its
irregular loop and of the reordering copy. Weighted by work: ResNet-18
f = 0.21 natural, 0.15 permuted (no gain by this estimate); MobileNetV2
f = 0.088 natural, 0.007 permuted (about 0.88 of the int16 time).

The plan modelled here is simpler than the kernel's (one order per layer,
units of 8 output channels, no flipped channels); the kernel plans an order
per 16 output channels, flips channels and corrects by the half step, and
its own counts are the kernel descriptions' `corrected=N/M` (half steps) in
a compile report.

Needs Debian's python3-onnx and python3-numpy.
Usage: scripts/weight_pairs.py MODEL.onnx [--iterations=600]
"""
import argparse

import numpy as np
import onnx
import onnx.shape_inference
from onnx import numpy_helper

MAX_PAIR_SUM = 128


def constants(model):
    vals = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    for n in model.graph.node:
        if n.op_type == 'Constant':
            for a in n.attribute:
                if a.name == 'value':
                    vals[n.output[0]] = numpy_helper.to_array(a.t)
    return vals


def output_pixels(model):
    """Value name -> H * W of its 4-D inferred shape (1 when unknown)."""
    inferred = onnx.shape_inference.infer_shapes(model)
    pixels = {}
    for v in list(inferred.graph.value_info) + list(inferred.graph.output):
        dims = [d.dim_value for d in v.type.tensor_type.shape.dim]
        if len(dims) == 4 and dims[2] > 0 and dims[3] > 0:
            pixels[v.name] = dims[2] * dims[3]
    return pixels


def conv_weights(model):
    """(name, int32 OIHW weights minus their zero points, output pixels) of
    each dense QDQ Conv."""
    vals = constants(model)
    pixels = output_pixels(model)
    producer = {o: n for n in model.graph.node for o in n.output}
    for n in model.graph.node:
        if n.op_type != 'Conv':
            continue
        if any(a.name == 'group' and a.i != 1 for a in n.attribute):
            continue
        dq = producer.get(n.input[1])
        if dq is None or dq.op_type != 'DequantizeLinear' or dq.input[0] not in vals:
            continue
        w = vals[dq.input[0]].astype(np.int32)
        if len(dq.input) > 2 and dq.input[2] in vals:
            zp = vals[dq.input[2]].astype(np.int32)
            w = w - (zp.reshape(-1, 1, 1, 1) if zp.ndim == 1 else zp)
        yield n.name, w, pixels.get(n.output[0], 1)


def bad_units(w, order):
    """Units (8 output channels x dword x tap) of a 16-channel block `w`
    (O, 16, taps) with a pair that could saturate, channels in `order`."""
    wp = w[:, order, :]
    a, b = wp[:, 0::2, :], wp[:, 1::2, :]
    pos = np.maximum(a, 0) + np.maximum(b, 0)
    neg = np.maximum(-a, 0) + np.maximum(-b, 0)
    bad = np.maximum(pos, neg) > MAX_PAIR_SUM  # O, 8 pairs, taps
    o = w.shape[0]
    return bad.reshape(o // 8, 8, 4, 2, -1).any(axis=(1, 3))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('model')
    parser.add_argument('--iterations', type=int, default=600,
                        help='swaps tried per 16-channel block (local search)')
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    total = [0, 0, 0]  # natural, permuted, all units, each weighted by output pixels
    print('conv | OIHW | units with a bad pair: natural | permuted')
    for name, w, pix in conv_weights(onnx.load(args.model)):
        o, c, kh, kw = w.shape
        if o % 8 or c % 16:
            print(f'{name} | {o}x{c}x{kh}x{kw} | skipped: channels not a multiple of 16 in, 8 out')
            continue
        w = w.reshape(o, c, kh * kw)
        natural = permuted = units = 0
        for block in range(c // 16):
            wb = w[:, 16 * block:16 * block + 16, :]
            order = np.arange(16)
            start = bad_units(wb, order).sum()
            best = start
            for _ in range(args.iterations):
                i, j = rng.integers(0, 16, 2)
                if i // 2 == j // 2:
                    continue
                order[i], order[j] = order[j], order[i]
                now = bad_units(wb, order).sum()
                if now <= best:
                    best = now
                else:
                    order[i], order[j] = order[j], order[i]
            natural += start
            permuted += best
            units += bad_units(wb, order).size
        total = [total[0] + pix * natural, total[1] + pix * permuted, total[2] + pix * units]
        print(f'{name} | {o}x{c}x{kh}x{kw} | {natural / units:.3f} | {permuted / units:.3f}')
    if total[2]:
        # Every unit of a layer does the same work, output pixels times its MACs.
        print(f'all, by work | | {total[0] / total[2]:.3f} | {total[1] / total[2]:.3f}')
    else:
        print('no dense QDQ convolution (DequantizeLinear of constant weights, group 1) '
              'with channels multiples of 16 in and 8 out')


if __name__ == '__main__':
    main()
