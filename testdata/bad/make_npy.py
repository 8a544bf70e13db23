#!/usr/bin/env python3
"""Writes the hostile .npy files (and a short raw input) of testdata/bad."""
import struct


def npy(header, data=b'', magic=b'\x93NUMPY', version=(1, 0), hlen=None):
    h = header.encode()
    h += b' ' * ((64 - (10 + len(h) + 1) % 64) % 64) + b'\n'
    n = len(h) if hlen is None else hlen
    return magic + bytes(version) + struct.pack('<H', n) + h + data


def header(descr='<f4', fortran='False', shape='(1, 3, 2, 2)'):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)


f32 = struct.pack('<12f', *range(12))
FILES = {
    # The header claims 1x3x224x224 floats, the file holds 12.
    'npy_header_lies.npy': npy(header(shape='(1, 3, 224, 224)'), f32),
    'npy_bad_magic.npy': npy(header(), f32, magic=b'\x93NUMPZ'),
    'npy_unsupported_dtype.npy': npy(header(descr='<f8'), f32 * 2),
    'npy_fortran_order.npy': npy(header(fortran='True'), f32),
    # The header length field points 60000 bytes into a 128-byte file.
    'npy_header_too_long.npy': npy(header(), b'', hlen=60000),
    'npy_negative_shape.npy': npy(header(shape='(-1, 12)'), f32),
    'npy_overflowing_shape.npy': npy(header(shape='(4294967296, 4294967296, 4294967296)'), f32),
    'npy_version_9.npy': npy(header(), f32, version=(9, 0)),
    'npy_wrong_dtype.npy': npy(header(descr='|u1'), bytes(12)),
    'npy_wrong_shape.npy': npy(header(shape='(1, 2, 2, 2)'), f32[:32]),
    # Raw: 40 bytes for an input of 48.
    'input_wrong_size.f32': f32[:40],
}

for name, data in FILES.items():
    with open(name, 'wb') as f:
        f.write(data)
