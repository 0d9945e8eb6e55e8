"""Helpers of the pcv Python tests: small point files written on the spot, and PNG decoding to
compare pcv.render with `pcv render`."""

import os
import struct
import zlib

import numpy as np
import pytest


def write_las(path, xyz, *, rgb=None, intensity=None, classification=None, return_number=None,
              scale=0.01, offset=(0.0, 0.0, 0.0), vlrs=()):
    """A LAS 1.2 file of point format 2 (with colours) or 0, and true header bounds; `vlrs` are
    (user id, record id, payload bytes) records put before the points."""
    xyz = np.asarray(xyz, dtype=np.float64)
    count = len(xyz)
    point_format = 2 if rgb is not None else 0
    record_length = 26 if rgb is not None else 20
    header = bytearray()
    header += b"LASF" + bytes(20)
    header += bytes([1, 2])
    header += b"pcv test".ljust(32, b"\0") + b"pcv".ljust(32, b"\0")
    records_of_vlrs = b"".join(
        struct.pack("<H16sHH32s", 0, user.encode(), record, len(payload), b"") + payload
        for user, record, payload in vlrs)
    header += struct.pack("<HHHIIBHI", 1, 2026, 227, 227 + len(records_of_vlrs), len(vlrs),
                          point_format, record_length, count)
    header += struct.pack("<5I", count, 0, 0, 0, 0)
    header += struct.pack("<3d", scale, scale, scale)
    header += struct.pack("<3d", *offset)
    high, low = xyz.max(axis=0), xyz.min(axis=0)
    header += struct.pack("<6d", high[0], low[0], high[1], low[1], high[2], low[2])
    assert len(header) == 227
    records = bytearray()
    for i in range(count):
        ints = [int(round((xyz[i, a] - offset[a]) / scale)) for a in range(3)]
        records += struct.pack("<3i", *ints)
        records += struct.pack("<H", int(intensity[i]) if intensity is not None else 0)
        flags = (int(return_number[i]) if return_number is not None else 1) | 0x08
        records += struct.pack("<BB", flags, int(classification[i]) if classification is not None else 0)
        records += bytes(4)  # scan angle, user data, point source id
        if rgb is not None:
            records += struct.pack("<3H", *(int(c) * 257 for c in rgb[i]))
    with open(path, "wb") as out:
        out.write(header + records_of_vlrs + records)
    return path


def decode_png(path):
    """An 8-bit RGBA or RGB, non-interlaced PNG as an (h, w, channels) uint8 array."""
    with open(path, "rb") as file:
        data = file.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat, width = 8, b"", 0
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and colour_type in (2, 6)
            channels = 4 if colour_type == 6 else 3
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, 1 + width * channels)
    image = np.zeros((height, width * channels), dtype=np.int32)
    previous = np.zeros(width * channels, dtype=np.int32)
    for row in range(height):
        kind, line = raw[row, 0], raw[row, 1:].astype(np.int32)
        out = np.zeros_like(line)
        for i in range(len(line)):
            left = out[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 0:
                predictor = 0
            elif kind == 1:
                predictor = left
            elif kind == 2:
                predictor = up
            elif kind == 3:
                predictor = (left + up) // 2
            else:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else up_left
            out[i] = (line[i] + predictor) & 0xFF
        image[row] = out
        previous = out
    return image.reshape(height, width, channels).astype(np.uint8)


@pytest.fixture
def pcv_executable():
    """The headless pcv built beside the module (CTest says where), or a skip."""
    path = os.environ.get("PCV_EXECUTABLE")
    if not path or not os.path.exists(path):
        pytest.skip("PCV_EXECUTABLE is not set to a built pcv")
    return path


@pytest.fixture
def utm_las(tmp_path):
    """A coloured LAS tile at UTM-sized coordinates, with intensity, class and return number."""
    rng = np.random.default_rng(7)
    count = 500
    xyz = np.column_stack([
        500000.0 + np.round(rng.uniform(0, 40, count), 2),
        5000000.0 + np.round(rng.uniform(0, 30, count), 2),
        100.0 + np.round(rng.uniform(0, 5, count), 2),
    ])
    rgb = rng.integers(0, 256, size=(count, 3), dtype=np.uint8)
    intensity = rng.integers(0, 65536, size=count)
    classification = rng.integers(0, 32, size=count)
    return_number = rng.integers(1, 6, size=count)
    path = write_las(tmp_path / "tile.las", xyz, rgb=rgb, intensity=intensity,
                     classification=classification, return_number=return_number,
                     offset=(500000.0, 5000000.0, 0.0))
    return {"path": path, "xyz": xyz, "rgb": rgb, "intensity": intensity,
            "classification": classification, "return_number": return_number}
