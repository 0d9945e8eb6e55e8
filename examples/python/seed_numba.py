#!/usr/bin/env python3
"""The seed demo on pcv's C++ core: the seed's own numba.cuda kernels (point generation, clear,
depth pass, colour pass) draw 10 M cylinder points into pcv's screen buffer, through pcv's GL
buffers mapped into CUDA (pcv.window), and pcv blits the image to its window.

    python3 examples/python/seed_numba.py                      # a window: W A S D fly
    python3 examples/python/seed_numba.py --headless --frames 10 --out seed.png

Needs an NVIDIA GPU and numba with CUDA. The kernels are the seed's, unchanged but for the
matrix (NumPy instead of PyGLM) and the screen buffer's layout (pcv maps it as (h, w, 3) bytes,
viewed here as the seed's Vec3b records).
"""

import argparse
import math
import random
import sys
import time

import numpy as np

if not hasattr(np, "row_stack"):  # numba releases that predate NumPy 2 still call it
    np.row_stack = np.vstack
from numba import cuda
import numba.cuda.random  # noqa: F401  (cuda.random is a submodule newer numba does not import)

from pcv.window import GlBuffer, ScreenBuffer, Window

Vec3f = np.dtype([("x", np.float32), ("y", np.float32), ("z", np.float32)])
Vec3b = np.dtype([("x", np.uint8), ("y", np.uint8), ("z", np.uint8)])
Point = np.dtype([("position", Vec3f), ("color", Vec3b), ("padding", np.uint8)])
Cylinder = np.dtype([("center", Vec3f), ("axisX", Vec3f), ("axisY", Vec3f), ("axisZ", Vec3f),
                     ("radius", np.float32), ("height", np.float32), ("color", Vec3f)])

KEY_A, KEY_D, KEY_S, KEY_W = 65, 68, 83, 87


@cuda.jit(device=True)
def clamp(x, l, r):
    return min(max(x, l), r)


@cuda.jit
def generatePointCloud_kernel(cylinders, rngStates, points):
    globalIdx = cuda.grid(1)
    if globalIdx >= points.size:
        return
    cylIdx = int(math.floor(globalIdx * cylinders.size / points.size))
    u = cuda.random.xoroshiro128p_uniform_float32(rngStates, globalIdx) * math.pi * 2
    v = 2.0 * cuda.random.xoroshiro128p_uniform_float32(rngStates, globalIdx) - 1.0
    lx = math.cos(u)
    ly = math.sin(u)
    ctr = cylinders[cylIdx].center
    axisX = cylinders[cylIdx].axisX
    axisY = cylinders[cylIdx].axisY
    axisZ = cylinders[cylIdx].axisZ
    radius = cylinders[cylIdx].radius
    height = cylinders[cylIdx].height
    col = cylinders[cylIdx].color
    points[globalIdx].position.x = ctr.x + radius * (axisX.x * lx + axisY.x * ly) + height * (axisZ.x * v)
    points[globalIdx].position.y = ctr.y + radius * (axisX.y * lx + axisY.y * ly) + height * (axisZ.y * v)
    points[globalIdx].position.z = ctr.z + radius * (axisX.z * lx + axisY.z * ly) + height * (axisZ.z * v)
    dr = (2 * cuda.random.xoroshiro128p_uniform_float32(rngStates, globalIdx) - 1) * 0.1
    dg = (2 * cuda.random.xoroshiro128p_uniform_float32(rngStates, globalIdx) - 1) * 0.1
    db = (2 * cuda.random.xoroshiro128p_uniform_float32(rngStates, globalIdx) - 1) * 0.1
    points[globalIdx].color.x = round(255.0 * clamp(col.x + dr, 0.0, 1.0))
    points[globalIdx].color.y = round(255.0 * clamp(col.y + dg, 0.0, 1.0))
    points[globalIdx].color.z = round(255.0 * clamp(col.z + db, 0.0, 1.0))


@cuda.jit
def clearBuffers_kernel(depthBuffer, colorBuffer):
    (x, y) = cuda.grid(2)
    (ny, nx) = depthBuffer.shape
    if x >= nx or y >= ny:
        return
    depthBuffer[y][x] = 1.0
    colorBuffer[y][x].x = 0
    colorBuffer[y][x].y = 0
    colorBuffer[y][x].z = 0


@cuda.jit(device=True)
def transformPoint(worldPos, mvp, screenShape):
    cposX = mvp[0][0] * worldPos.x + mvp[1][0] * worldPos.y + mvp[2][0] * worldPos.z + mvp[3][0]
    cposY = mvp[0][1] * worldPos.x + mvp[1][1] * worldPos.y + mvp[2][1] * worldPos.z + mvp[3][1]
    cposZ = mvp[0][2] * worldPos.x + mvp[1][2] * worldPos.y + mvp[2][2] * worldPos.z + mvp[3][2]
    cposW = mvp[0][3] * worldPos.x + mvp[1][3] * worldPos.y + mvp[2][3] * worldPos.z + mvp[3][3]
    if max(abs(cposX), abs(cposY), abs(cposZ)) >= cposW:
        return -1, -1, -1
    invW = 1.0 / cposW
    sx = (((cposX * invW) + 1.0) * 0.5) * screenShape[1]
    sy = (((cposY * invW) + 1.0) * 0.5) * screenShape[0]
    depth = (((cposZ * invW) + 1.0) * 0.5)
    return np.uint32(math.floor(sx)), np.uint32(math.floor(sy)), np.float32(depth)


@cuda.jit
def generateDepthBuffer_kernel(depthBuffer, pointsBuffer, mvp):
    idx = cuda.grid(1)
    if idx >= pointsBuffer.size:
        return
    pos = pointsBuffer[idx].position
    pres = transformPoint(pos, mvp, depthBuffer.shape)
    if pres[2] < 0.0:
        return
    cuda.atomic.min(depthBuffer, (pres[1], pres[0]), pres[2])


@cuda.jit
def generateColorBuffer_kernel(depthBuffer, pointsBuffer, colorBuffer, mvp):
    idx = cuda.grid(1)
    if idx >= pointsBuffer.size:
        return
    pos = pointsBuffer[idx].position
    pres = transformPoint(pos, mvp, depthBuffer.shape)
    if pres[2] < 0:
        return
    if pres[2] != depthBuffer[pres[1]][pres[0]]:
        return
    colorBuffer[pres[1]][pres[0]] = pointsBuffer[idx].color


def renderPointCloud(pointsBuffer, depthBuffer, colorBuffer, mvp):
    numBlocks = (math.ceil(depthBuffer.shape[1] / 16), math.ceil(depthBuffer.shape[0] / 16))
    clearBuffers_kernel[numBlocks, (16, 16)](depthBuffer, colorBuffer)
    blocks = math.ceil(pointsBuffer.size / 256)
    generateDepthBuffer_kernel[blocks, 256](depthBuffer, pointsBuffer, mvp)
    generateColorBuffer_kernel[blocks, 256](depthBuffer, pointsBuffer, colorBuffer, mvp)
    cuda.synchronize()


def generatePointCloud(points, seed):
    """The seed's ten random cylinders (its own sampling of frames, radii, heights, colours)."""
    rng = random.Random(seed)
    cylinders = np.empty(10, dtype=Cylinder)
    for c in range(cylinders.size):
        center = np.array([rng.uniform(-1.0, 1.0) for _ in range(3)])
        while True:
            axisX = np.array([rng.uniform(-1.0, 1.0) for _ in range(3)])
            axisX /= np.linalg.norm(axisX)
            axisY = np.array([rng.uniform(-1.0, 1.0) for _ in range(3)])
            axisY -= np.dot(axisX, axisY) * axisX
            if np.linalg.norm(axisY) < 0.3:
                continue
            axisY /= np.linalg.norm(axisY)
            break
        cylinders[c]["center"] = tuple(center)
        cylinders[c]["axisX"] = tuple(axisX)
        cylinders[c]["axisY"] = tuple(axisY)
        cylinders[c]["axisZ"] = tuple(np.cross(axisX, axisY))
        cylinders[c]["radius"] = rng.uniform(0.1, 0.2)
        cylinders[c]["height"] = rng.uniform(0.5, 1.0)
        cylinders[c]["color"] = tuple(rng.uniform(0.3, 1.0) for _ in range(3))
    states = cuda.random.create_xoroshiro128p_states(points.size, rng.getrandbits(64))
    generatePointCloud_kernel[math.ceil(points.size / 256), 256](cylinders, states, points)
    cuda.synchronize()


def perspective(fovy, aspect, near, far):
    """glm.perspective (right-handed, depth -1..1) as a column-major array m[column][row]."""
    f = 1.0 / math.tan(fovy / 2.0)
    m = np.zeros((4, 4), dtype=np.float32)
    m[0][0] = f / aspect
    m[1][1] = f
    m[2][2] = -(far + near) / (far - near)
    m[2][3] = -1.0
    m[3][2] = -(2.0 * far * near) / (far - near)
    return m


def look_at(eye, center, up):
    """glm.lookAt, column-major m[column][row]."""
    f = (center - eye) / np.linalg.norm(center - eye)
    s = np.cross(f, up)
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.identity(4, dtype=np.float32)
    for i in range(3):
        m[i][0], m[i][1], m[i][2] = s[i], u[i], -f[i]
    m[3][0], m[3][1], m[3][2] = -np.dot(s, eye), -np.dot(u, eye), np.dot(f, eye)
    return m


def view_projection(eye, yaw, pitch, aspect):
    forward = np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw),
                        math.sin(pitch)])
    up = np.array([math.cos(pitch + math.pi / 2) * math.cos(yaw),
                   math.cos(pitch + math.pi / 2) * math.sin(yaw), math.sin(pitch + math.pi / 2)])
    view = look_at(eye, eye + forward * (np.linalg.norm(eye) + 1), up)
    # projection * view in column-major form: m[c] = sum_k view[c][k] * proj[k]
    mvp = view @ perspective(math.pi / 3, aspect, 1.0e-2, 100.0)
    return np.ascontiguousarray(mvp, dtype=np.float32), forward, up


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=10_000_000)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--headless", action="store_true", help="EGL, no window")
    parser.add_argument("--frames", type=int, default=0, help="stop after N frames (0: run on)")
    parser.add_argument("--out", help="write the last frame as a PNG (needs pcv's writer)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.split("x"))

    with Window(size=(width, height), title="pcv: the seed's numba kernels",
                headless=args.headless) as window:
        points_gl = GlBuffer(window, args.points * Point.itemsize)
        screen = ScreenBuffer(window, (width, height), channels=3)
        depth = cuda.device_array((height, width), dtype=np.float32)
        points = cuda.as_cuda_array(points_gl.map("uint8")).view(Point)
        generatePointCloud(points, args.seed)
        points_gl.unmap()

        eye, yaw, pitch = np.array([-3.0, 0.0, 0.0]), 0.0, 0.0
        frame, frame_time, last = 0, 0.0, time.perf_counter()
        frame_times, render_times = [], []  # seconds; the seed's kernels alone by CUDA events
        start_event, end_event = cuda.event(), cuda.event()
        while not window.should_close and (args.frames == 0 or frame < args.frames):
            window.poll_events()
            mvp, forward, up = view_projection(eye, yaw, pitch, width / height)
            df = window.key_down(KEY_W) - window.key_down(KEY_S)
            dr = window.key_down(KEY_D) - window.key_down(KEY_A)
            eye = eye + (forward * df + np.cross(forward, up) * dr) * frame_time * 3.0
            points = cuda.as_cuda_array(points_gl.map("uint8")).view(Point)
            pixels = cuda.as_cuda_array(screen.map()).reshape((height, width * 3)).view(Vec3b)
            start_event.record()
            renderPointCloud(points, depth, pixels, mvp)
            end_event.record()
            end_event.synchronize()
            render_times.append(cuda.event_elapsed_time(start_event, end_event) / 1000.0)
            points_gl.unmap()
            screen.blit()  # unmaps the pixels, then PBO -> texture -> window
            window.swap_buffers()
            now = time.perf_counter()
            frame_time, last, frame = now - last, now, frame + 1
            frame_times.append(frame_time)
        # Medians after the first three frames (numba compiles the kernels on their first call).
        steady = slice(3, None) if frame > 3 else slice(None)
        print(f"{frame} frames; median frame {np.median(frame_times[steady]) * 1000.0:.2f} ms, "
              f"of which the seed's kernels {np.median(render_times[steady]) * 1000.0:.2f} ms "
              f"({window.description})")
        if args.out:
            write_png(args.out, screen.read())
    return 0


def write_png(path, rgba):
    """An (h, w, 4) uint8 image as an 8-bit RGBA PNG (zlib, no filter)."""
    import struct
    import zlib

    height, width = rgba.shape[:2]
    rows = b"".join(b"\0" + rgba[y].tobytes() for y in range(height))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                  + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
