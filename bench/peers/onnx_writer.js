'use strict';
// A minimal protobuf writer for the few ONNX messages a one-node model needs
// (field numbers from onnx/onnx.proto). Written for this benchmark only: no
// dependency, no reading, non-negative integers only.

const WIRE_VARINT = 0;
const WIRE_LEN = 2;

function varint(n) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`varint: unsupported value ${n}`);
  const out = [];
  while (n > 0x7f) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

const key = (field, wire) => varint(field * 8 + wire);

// Each helper returns a Buffer holding one encoded field.
const int = (field, n) => Buffer.concat([key(field, WIRE_VARINT), varint(n)]);
const bytes = (field, buf) => Buffer.concat([key(field, WIRE_LEN), varint(buf.length), buf]);
const str = (field, s) => bytes(field, Buffer.from(s, 'utf8'));
const msg = (field, parts) => bytes(field, Buffer.concat(parts));

// onnx.TensorProto.DataType
const DataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6 };

// TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9.
function tensor(field, name, dataType, dims, raw) {
  return msg(field, [
    ...dims.map((d) => int(1, d)),
    int(2, dataType),
    str(8, name),
    bytes(9, Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)),
  ]);
}

// ValueInfoProto{name = 1, type = 2}; TypeProto{tensor_type = 1};
// TypeProto.Tensor{elem_type = 1, shape = 2}; TensorShapeProto{dim = 1};
// Dimension{dim_value = 1}.
function valueInfo(field, name, elemType, dims) {
  const shape = msg(2, dims.map((d) => msg(1, [int(1, d)])));
  return msg(field, [str(1, name), msg(2, [msg(1, [int(1, elemType), shape])])]);
}

// AttributeProto: name = 1, i = 3, ints = 8, type = 20 (INT = 2, INTS = 7).
const attrInt = (name, v) => msg(5, [str(1, name), int(3, v), int(20, 2)]);
const attrInts = (name, vs) => msg(5, [str(1, name), ...vs.map((v) => int(8, v)), int(20, 7)]);

// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5.
function node(inputs, outputs, name, opType, attrs) {
  return msg(1, [...inputs.map((s) => str(1, s)), ...outputs.map((s) => str(2, s)), str(3, name),
    str(4, opType), ...attrs]);
}

// ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8
// (OperatorSetIdProto{domain = 1, version = 2}). GraphProto: node = 1,
// name = 2, initializer = 5, input = 11, output = 12.
function model({ nodes, name, initializers, inputs, outputs, opset }) {
  const graph = msg(7, [...nodes, str(2, name), ...initializers, ...inputs, ...outputs]);
  return Buffer.concat([int(1, 8), str(2, 'qnnc-bench'), graph, msg(8, [str(1, ''), int(2, opset)])]);
}

module.exports = { DataType, tensor, valueInfo, attrInt, attrInts, node, model };
