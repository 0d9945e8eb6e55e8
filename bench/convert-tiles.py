#!/usr/bin/env python3
"""Times `pcv convert --tiles` on a tiled dataset: the tiles converted one COPC each against the
single-file COPC conversion of the same points, both on all cores; and, where pcv was built with
MPI, 2 ranks x (cores/2) threads against 1 process x cores. Makes COLS x ROWS LAS tiles of the
terrain make-tiles.py writes (same layout and header; numpy writes them, as 20 M points through
make-tiles.py's per-point loop take minutes), or reuses them. Prints the figures.

usage: convert-tiles.py PCV WORKDIR [--points N] [--tiles COLS ROWS] [--cores C]
                        [--memory SIZE] [--repeat R] [--laz]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np

TILE = 100.0
SCALE = 0.01
EAST, NORTH = 500000.0, 5000000.0
RECORD = np.dtype([('x', '<i4'), ('y', '<i4'), ('z', '<i4'), ('intensity', '<u2'), ('flags', 'u1'),
                   ('cls', 'u1'), ('angle', 'i1'), ('user', 'u1'), ('source', '<u2'),
                   ('r', '<u2'), ('g', '<u2'), ('b', '<u2')])


def write_tile(path, column, row, count, rng):
    """A LAS 1.2 tile (point format 2) as make-tiles.py writes it."""
    import struct
    x = TILE * (column + rng.random(count))
    y = TILE * (row + rng.random(count))
    z = 100 + 20 * np.sin(x / 150) * np.cos(y / 110) + rng.random(count)
    records = np.zeros(count, RECORD)
    records['x'], records['y'], records['z'] = (np.round(x / SCALE), np.round(y / SCALE),
                                                np.round(z / SCALE))
    t = np.clip((z - 80) / 40, 0.0, 1.0)
    records['flags'], records['cls'] = 9, 2
    records['r'], records['g'], records['b'] = (t * 65535).astype(int), ((1 - t) * 50000).astype(
        int), 20000
    low = [records[a].min() * SCALE + o for a, o in (('x', EAST), ('y', NORTH), ('z', 0.0))]
    high = [records[a].max() * SCALE + o for a, o in (('x', EAST), ('y', NORTH), ('z', 0.0))]
    header = bytearray(227)
    header[0:4] = b'LASF'
    header[24], header[25] = 1, 2
    struct.pack_into('<HHHIIBHI', header, 90, 1, 2026, 227, 227, 0, 2, RECORD.itemsize, count)
    struct.pack_into('<5I', header, 111, count, 0, 0, 0, 0)
    struct.pack_into('<3d3d', header, 131, SCALE, SCALE, SCALE, EAST, NORTH, 0.0)
    struct.pack_into('<6d', header, 179, high[0], low[0], high[1], low[1], high[2], low[2])
    with open(path, 'wb') as out:
        out.write(header)
        out.write(records.tobytes())


def make_tiles(folder, columns, rows, points, pcv, laz):
    marker = os.path.join(folder, f'.made-{columns}x{rows}-{points}-{int(laz)}')
    if os.path.exists(marker):
        return
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    rng = np.random.default_rng(1)
    per_tile = points // (columns * rows)
    for column in range(columns):
        for row in range(rows):
            path = os.path.join(folder, f't_{column:03d}_{row:03d}.las')
            write_tile(path, column, row, per_tile, rng)
            if laz:
                subprocess.run([pcv, 'convert', '-q', path, path[:-4] + '.laz'], check=True,
                               stdout=subprocess.DEVNULL)
                os.remove(path)
    open(marker, 'w').close()


def timed(command, env, report):
    """Seconds the command took, and its --report figures."""
    start = time.perf_counter()
    subprocess.run(command + ['--report', report], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    with open(report) as text:
        return seconds, json.load(text)


def best(runs, make):
    """The fastest of `runs` runs of make() (fresh outputs each time)."""
    results = [make() for _ in range(runs)]
    return min(results, key=lambda r: r[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('pcv')
    parser.add_argument('workdir')
    parser.add_argument('--points', type=int, default=20_000_000)
    parser.add_argument('--tiles', type=int, nargs=2, default=(10, 10), metavar=('COLS', 'ROWS'))
    parser.add_argument('--cores', type=int, default=os.cpu_count())
    parser.add_argument('--memory', default='4G')
    parser.add_argument('--repeat', type=int, default=1)
    parser.add_argument('--laz', action='store_true', help='LAZ tiles instead of LAS')
    args = parser.parse_args()
    pcv = os.path.abspath(args.pcv)
    work = os.path.abspath(args.workdir)
    columns, rows = args.tiles
    tiles = os.path.join(work, 'tiles')
    start = time.perf_counter()
    make_tiles(tiles, columns, rows, args.points, pcv, args.laz)
    inputs = sorted(os.path.join(tiles, f) for f in os.listdir(tiles) if not f.startswith('.'))
    points = (args.points // (columns * rows)) * columns * rows
    print(f'{len(inputs)} {"LAZ" if args.laz else "LAS"} tiles, {points / 1e6:.1f} M points '
          f'(made or found in {time.perf_counter() - start:.1f} s); {args.cores} cores, '
          f'--memory {args.memory}')

    def env_with(threads):
        env = dict(os.environ)
        env['PCV_THREADS'] = str(threads)
        return env

    def fresh(name):
        path = os.path.join(work, name)
        shutil.rmtree(path, ignore_errors=True)
        return path

    def single():
        output = os.path.join(fresh('single'), 'all.copc.laz')
        os.makedirs(os.path.dirname(output))
        return timed([pcv, 'convert', '-q', '--sort', 'cpu', '--memory', args.memory] + inputs +
                     [output], env_with(args.cores), os.path.join(work, 'single.json'))

    def tiled(ranks):
        output = fresh(f'tiles-{ranks}')
        command = [pcv, 'convert', '--tiles', '-q', '--memory', args.memory, tiles, output]
        env = env_with(max(1, args.cores // ranks))
        if ranks > 1:
            env.update(OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
                       OMPI_MCA_btl='self,tcp', OMPI_MCA_btl_tcp_if_include='lo',
                       OMPI_MCA_oob_tcp_if_include='lo')
            command = ['mpirun', '-n', str(ranks), '--oversubscribe', '--bind-to', 'none', '-x',
                       'PCV_THREADS'] + command
        return timed(command, env, os.path.join(work, f'tiles-{ranks}.json'))

    figures = {}
    seconds, _ = best(args.repeat, single)
    figures['single'] = seconds
    print(f'single COPC, 1 x {args.cores} threads: {seconds:7.2f} s  '
          f'{points / seconds / 1e6:6.2f} M points/s')
    seconds, report = best(args.repeat, lambda: tiled(1))
    figures['tiles'] = seconds
    lanes = report['convertTiles']['perRank'][0]['lanes']
    print(f'--tiles, 1 x {args.cores} threads:      {seconds:7.2f} s  '
          f'{points / seconds / 1e6:6.2f} M points/s  ({lanes} tiles at once; '
          f'{figures["single"] / seconds:.2f}x the single file)')
    if shutil.which('mpirun'):
        try:
            seconds, report = best(args.repeat, lambda: tiled(2))
        except subprocess.CalledProcessError as error:
            print(f'--tiles under mpirun failed ({error}); is pcv built with MPI?')
            return 1
        if report['convertTiles']['ranks'] != 2:
            print('--tiles under mpirun ran as one process: pcv was built without MPI')
            return 1
        figures['ranks'] = seconds
        print(f'--tiles, 2 x {max(1, args.cores // 2)} threads (mpirun): {seconds:7.2f} s  '
              f'{points / seconds / 1e6:6.2f} M points/s  '
              f'({figures["tiles"] / seconds:.2f}x 1 x {args.cores})')
    else:
        print('no mpirun: 2 ranks not measured')
    return 0


if __name__ == '__main__':
    sys.exit(main())
