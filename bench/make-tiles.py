#!/usr/bin/env python3
"""Writes a tiled dataset for the dataset benchmarks: COLS x ROWS LAS 1.2 tiles (point format 2,
100 x 100 units each at UTM-like coordinates) of a wavy terrain coloured by height, POINTS random
points per tile, headers stating their bounds as real tiles' do. Standard library only.

usage: make-tiles.py OUTDIR COLS ROWS POINTS
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


def write_tile(path, column, row, count, rng):
    body = bytearray()
    low, high = [math.inf] * 3, [-math.inf] * 3
    for _ in range(count):
        x = TILE * (column + rng.random())
        y = TILE * (row + rng.random())
        z = 100 + 20 * math.sin(x / 150) * math.cos(y / 110) + rng.random()
        ix, iy, iz = round(x / SCALE), round(y / SCALE), round(z / SCALE)
        t = min(max((z - 80) / 40, 0.0), 1.0)
        body += RECORD.pack(ix, iy, iz, 0, 9, 2, 0, 0, 0, int(t * 65535), int((1 - t) * 50000),
                            20000)
        for axis, value in enumerate((ix * SCALE + EAST, iy * SCALE + NORTH, iz * SCALE)):
            low[axis] = min(low[axis], value)
            high[axis] = max(high[axis], value)
    header = bytearray(227)
    header[0:4] = b'LASF'
    header[24], header[25] = 1, 2
    struct.pack_into('<HHHIIBHI', header, 90, 1, 2026, 227, 227, 0, 2, RECORD.size, count)
    struct.pack_into('<5I', header, 111, count, 0, 0, 0, 0)
    struct.pack_into('<3d3d', header, 131, SCALE, SCALE, SCALE, EAST, NORTH, 0.0)
    struct.pack_into('<6d', header, 179, high[0], low[0], high[1], low[1], high[2], low[2])
    with open(path, 'wb') as out:
        out.write(header)
        out.write(body)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    outdir, columns, rows, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(1)
    for column in range(columns):
        for row in range(rows):
            write_tile(os.path.join(outdir, f't_{column:03d}_{row:03d}.las'), column, row, count, rng)


if __name__ == '__main__':
    main()
