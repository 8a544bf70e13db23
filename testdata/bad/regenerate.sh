#!/usr/bin/env bash
# Regenerates the binary bad inputs from their sources (protoc from Debian's
# protobuf-compiler; the truncated model from the bundled MobileNetV2):
#   NAME.textproto        -> NAME.onnx  (onnx.ModelProto)
#   NAME.tensor.textproto -> NAME.pb    (onnx.TensorProto)
#   make_npy.py           -> the .npy files and input_wrong_size.f32
# MANIFEST.tsv lists every file with how it is used and the expected error;
# //tools:bad_inputs_test checks them.
set -euo pipefail
cd "$(dirname "$0")"
for t in *.textproto; do
  case "$t" in
    *.tensor.textproto)
      protoc --encode=onnx.TensorProto -I/usr/include onnx/onnx.proto < "$t" > "${t%.tensor.textproto}.pb" ;;
    *)
      protoc --encode=onnx.ModelProto -I/usr/include onnx/onnx.proto < "$t" > "${t%.textproto}.onnx" ;;
  esac
done
head -c 4096 ../models/mobilenet_v2_qdq.onnx > truncated.onnx
head -c 100 ../models/mobilenet_v2_qdq.onnx > truncated_header.onnx
: > empty.onnx
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
# A TensorProto cut in the middle of its data.
protoc --encode=onnx.TensorProto -I/usr/include onnx/onnx.proto <<< 'name: "x" data_type: 1 dims: 1 dims: 3 dims: 2 dims: 2 raw_data: "0123456789abcdef0123456789abcdef0123456789abcdef"' | head -c 30 > input_truncated.pb
python3 make_npy.py
