#!/usr/bin/env bash
# Regenerates the binary bad inputs from their sources (protoc from Debian's
# protobuf-compiler; the truncated model from the bundled MobileNetV2).
set -euo pipefail
cd "$(dirname "$0")"
for t in *.textproto; do
  protoc --encode=onnx.ModelProto -I/usr/include onnx/onnx.proto < "$t" > "${t%.textproto}.onnx"
done
head -c 4096 ../models/mobilenet_v2_qdq.onnx > truncated.onnx
# Deterministic garbage: bytes of a fixed LCG.
python3 -c "
import sys
s = 7
out = bytearray()
for _ in range(3000):
    s = (s * 1103515245 + 12345) % 2**31
    out.append(s >> 16 & 255)
sys.stdout.buffer.write(bytes(out))" > garbage.onnx
head -c 1000 ../models/mobilenet_v2_qdq.input.f32 > short_input.f32
