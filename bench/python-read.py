#!/usr/bin/env python3
"""pcv.read against the CLI's in-core load of the same file: the target "pcv.read of a 100 M-point
LAS or LAZ runs at the CLI's load rate".

The CLI's figure is the read time `pcv render --in-core --report -` gives for the file
(files[0].readSeconds: the file decoded into memory, before the points are laid out for
drawing); pcv.read's is the whole call as Python sees it (the same read, then the arrays:
"xyz" in float64 world units is computed, the rest are views of pcv's memory). Both read every
field. Median of --runs after one untimed read of each (the file in the page cache).

    python3 bench/python-read.py FILE [FILE ...] [--pcv build/app/pcv] [--runs 5]
Needs the pcv module (PYTHONPATH=build/python) and a built pcv.
"""

import argparse
import json
import os
import statistics
import subprocess
import time

import pcv


def cli_read_seconds(pcv_path, path):
    """The CLI's read time of `path`, from its run report."""
    result = subprocess.run([pcv_path, "render", path, "--in-core", "--backend", "cpu",
                             "--size", "8x8", "--out", os.devnull, "--report", "-"],
                            check=True, capture_output=True, text=True)
    files = json.loads(result.stdout)["files"]
    return files[0]["readSeconds"], files[0]["points"]


def pcv_read_seconds(path):
    start = time.perf_counter()
    cloud = pcv.read(path)
    seconds = time.perf_counter() - start
    return seconds, len(cloud["xyz"])


def median_of(runs, measure):
    measure()  # warm: the file in the page cache, the first allocations made
    results = [measure() for _ in range(runs)]
    return statistics.median(seconds for seconds, _ in results), results[0][1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--pcv", default=os.environ.get("PCV_EXECUTABLE", "build/app/pcv"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"median of {args.runs} runs, {os.cpu_count()} cores")
    print(f"{'file':<28} {'points':>12} {'CLI read':>10} {'pcv.read':>10} "
          f"{'CLI M/s':>8} {'py M/s':>8} {'py/CLI':>7}")
    for path in args.files:
        cli, points = median_of(args.runs, lambda: cli_read_seconds(args.pcv, path))
        python, read_points = median_of(args.runs, lambda: pcv_read_seconds(path))
        if read_points != points:
            raise SystemExit(f"{path}: pcv.read gave {read_points} points, the CLI {points}")
        print(f"{os.path.basename(path):<28} {points:>12} {cli * 1000:>8.0f}ms "
              f"{python * 1000:>8.0f}ms {points / cli / 1e6:>8.1f} {points / python / 1e6:>8.1f} "
              f"{python / cli:>7.2f}")


if __name__ == "__main__":
    main()
