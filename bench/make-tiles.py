#!/usr/bin/env python3
"""Writes a tiled dataset for the dataset benchmarks: COLS x ROWS LAS 1.2 tiles (point format 2,
100 x 100 units each at UTM-like coordinates) of a wavy terrain coloured by height, POINTS random
points per tile, headers stating their bounds as real tiles' do. Standard library only.

The terrain repeats every tile, so a few tile bodies (VARIANTS, default 4, each with its own
colour ramp) are made once and every tile is one of them placed by its header's offsets: 1 000
tiles of 100 000 points (100 M points) are written in the time the disk takes.

usage: make-tiles.py OUTDIR COLS ROWS POINTS [VARIANTS]
"""
import math
import os
import random
import struct
import sys

TILE = 100.0
SCALE = 0.01
EAST, NORTH = 500000.0, 5000000.0
RECORD = struct.Struct('<iiiHBBbBHHHH')  # x y z intensity flags class angle user source r g b
RAMPS = [(65535, 50000, 20000), (20000, 65535, 30000), (30000, 40000, 65535), (65535, 30000, 60000)]


def make_body(count, ramp, rng):
    """One tile's records as offsets from its corner, and their bounds (low, high) in those."""
    body = bytearray()
    low, high = [math.inf] * 3, [-math.inf] * 3
    for _ in range(count):
        x, y = TILE * rng.random(), TILE * rng.random()
        # Periodic in the tile size: neighbouring tiles meet without a step.
        z = 100 + 8 * math.sin(2 * math.pi * x / TILE) * math.cos(2 * math.pi * y / TILE) + rng.random()
        ix, iy, iz = round(x / SCALE), round(y / SCALE), round(z / SCALE)
        t = min(max((z - 92) / 17, 0.0), 1.0)
        body += RECORD.pack(ix, iy, iz, 0, 9, 2, 0, 0, 0, int(t * ramp[0]), int((1 - t) * ramp[1]),
                            ramp[2])
        for axis, value in enumerate((ix * SCALE, iy * SCALE, iz * SCALE)):
            low[axis] = min(low[axis], value)
            high[axis] = max(high[axis], value)
    return bytes(body), low, high


def write_tile(path, column, row, count, body, low, high):
    east, north = EAST + TILE * column, NORTH + TILE * row
    header = bytearray(227)
    header[0:4] = b'LASF'
    header[24], header[25] = 1, 2
    struct.pack_into('<HHHIIBHI', header, 90, 1, 2026, 227, 227, 0, 2, RECORD.size, count)
    struct.pack_into('<5I', header, 111, count, 0, 0, 0, 0)
    struct.pack_into('<3d3d', header, 131, SCALE, SCALE, SCALE, east, north, 0.0)
    struct.pack_into('<6d', header, 179, high[0] + east, low[0] + east, high[1] + north,
                     low[1] + north, high[2], low[2])
    with open(path, 'wb') as out:
        out.write(header)
        out.write(body)


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    outdir, columns, rows, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    variants = int(sys.argv[5]) if len(sys.argv) == 6 else 4
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(1)
    bodies = [make_body(count, RAMPS[v % len(RAMPS)], rng) for v in range(max(1, variants))]
    for column in range(columns):
        for row in range(rows):
            body, low, high = bodies[(column * 7 + row * 3) % len(bodies)]
            write_tile(os.path.join(outdir, f't_{column:03d}_{row:03d}.las'), column, row, count,
                       body, low, high)


if __name__ == '__main__':
    main()
