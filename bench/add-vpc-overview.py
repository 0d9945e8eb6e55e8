#!/usr/bin/env python3
"""Gives a VPC of LAS tiles an overview as `pdal_wrench build_vpc --overview` does: every 1000th
point of every tile (its filters.decimation step) in one file beside the VPC, named
NAME-overview.copc.laz, and an asset {"href": "./NAME-overview.copc.laz", "roles": ["overview"]}
on every item. Writes the points as NAME-overview.las (LAS 1.2, point format 2, the tiles' scale)
for `pcv convert` to make the COPC file. Standard library only.

usage: add-vpc-overview.py VPC
"""
import json
import os
import struct
import sys

STEP = 1000
HEADER = 227


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    vpc_path = sys.argv[1]
    folder = os.path.dirname(os.path.abspath(vpc_path))
    stem = os.path.splitext(os.path.basename(vpc_path))[0]
    with open(vpc_path) as f:
        vpc = json.load(f)
    records, low, high, scale, offset = bytearray(), [float('inf')] * 3, [-float('inf')] * 3, None, None
    length = None
    for item in vpc['features']:
        path = os.path.normpath(os.path.join(folder, item['assets']['data']['href']))
        with open(path, 'rb') as f:
            data = f.read()
        first = struct.unpack_from('<I', data, 96)[0]
        length = struct.unpack_from('<H', data, 105)[0]
        count = struct.unpack_from('<I', data, 107)[0]
        tile_scale = struct.unpack_from('<3d', data, 131)
        tile_offset = struct.unpack_from('<3d', data, 155)
        if scale is None:
            scale, offset = tile_scale, tile_offset
        for i in range(0, count, STEP):
            at = first + i * length
            ints = struct.unpack_from('<3i', data, at)
            world = [ints[a] * tile_scale[a] + tile_offset[a] for a in range(3)]
            moved = [round((world[a] - offset[a]) / scale[a]) for a in range(3)]
            records += struct.pack('<3i', *moved) + data[at + 12:at + length]
            for a in range(3):
                low[a], high[a] = min(low[a], world[a]), max(high[a], world[a])
    count = len(records) // length
    header = bytearray(HEADER)
    header[0:4] = b'LASF'
    header[24], header[25] = 1, 2
    struct.pack_into('<HHHIIBHI', header, 90, 1, 2026, HEADER, HEADER, 0, 2, length, count)
    struct.pack_into('<5I', header, 111, count, 0, 0, 0, 0)
    struct.pack_into('<3d3d', header, 131, *scale, *offset)
    struct.pack_into('<6d', header, 179, high[0], low[0], high[1], low[1], high[2], low[2])
    with open(os.path.join(folder, stem + '-overview.las'), 'wb') as out:
        out.write(header)
        out.write(records)
    for item in vpc['features']:
        item['assets']['overview'] = {'href': './' + stem + '-overview.copc.laz',
                                      'roles': ['overview']}
    with open(vpc_path, 'w') as f:
        json.dump(vpc, f)
    print(f'{count} overview points of {len(vpc["features"])} tiles')


if __name__ == '__main__':
    main()
