"""pcv.Renderer: sets kept across frames, added and removed, drawn from moving cameras."""

import numpy as np
import pytest

import pcv

SIZE = (96, 64)
BLACK = np.array([0, 0, 0, 255], dtype=np.uint8)


def drawn(image):
    return np.any(image != BLACK, axis=2)


def cube(centre, count=3000, seed=5):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=(count, 3)) + centre


def test_frames_match_pcv_render_of_the_same_points(utm_las):
    renderer = pcv.Renderer(size=SIZE, backend="cpu")
    renderer.add(utm_las["path"])
    assert renderer.point_count == 500 and renderer.backend == "cpu"
    framed = renderer.render()
    np.testing.assert_array_equal(framed, pcv.render(utm_las["path"], size=SIZE, backend="cpu"))
    eye = (500020.0, 4999960.0, 140.0)
    placed = renderer.render(eye=eye, yaw=90, pitch=-35, point_size=2)
    expected = pcv.render(utm_las["path"], size=SIZE, backend="cpu", eye=eye, yaw=90, pitch=-35,
                          point_size=2)
    np.testing.assert_array_equal(placed, expected)


def test_sets_are_added_and_removed_between_frames():
    renderer = pcv.Renderer(size=SIZE, backend="cpu")
    red = np.tile(np.array([[255, 0, 0]], dtype=np.uint8), (3000, 1))
    blue = np.tile(np.array([[0, 0, 255]], dtype=np.uint8), (3000, 1))
    left = renderer.add(cube([10.0, 3.0, 0.0]), red)
    right = renderer.add(cube([10.0, -3.0, 0.0]), blue)
    assert renderer.sets == [left, right] and renderer.point_count == 6000
    view = {"eye": (0.0, 0.0, 0.0)}
    both = renderer.render(**view)
    colours = {tuple(c) for c in both[drawn(both)][:, :3]}
    assert colours == {(255, 0, 0), (0, 0, 255)}
    renderer.remove(left)
    only_blue = renderer.render(**view)
    assert {tuple(c) for c in only_blue[drawn(only_blue)][:, :3]} == {(0, 0, 255)}
    with pytest.raises(pcv.InputError):
        renderer.remove(left)
    renderer.clear()
    assert renderer.sets == [] and renderer.bounds is None
    assert not drawn(renderer.render(**view)).any()


def test_sets_far_apart_share_one_origin():
    # A second set in UTM coordinates beside a first one: both drawn where they are.
    renderer = pcv.Renderer(size=SIZE, backend="cpu")
    renderer.add(cube([500000.0, 5000000.0, 100.0]))
    renderer.add(cube([500010.0, 5000000.0, 100.0]))
    low, high = renderer.bounds
    assert low[0] == pytest.approx(499999.0, abs=0.01)
    assert high[0] == pytest.approx(500011.0, abs=0.01)
    image = renderer.render(eye=(500005.0, 4999980.0, 100.0), yaw=90)
    columns = np.nonzero(drawn(image).any(axis=0))[0]
    assert columns.min() < SIZE[0] // 2 < columns.max()  # one cube each side of the centre


def test_threads_sharing_a_renderer_draw_what_one_thread_draws():
    from concurrent.futures import ThreadPoolExecutor
    renderer = pcv.Renderer(size=SIZE, backend="cpu")
    renderer.add(cube([0.0, 0.0, 0.0]))
    views = [{"eye": (-4.0, 0.0, 0.0), "yaw": 0.0}, {"eye": (0.0, -4.0, 0.0), "yaw": 90.0}] * 4
    serial = [renderer.render(**view) for view in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda view: renderer.render(**view), views))
    for one, other in zip(serial, parallel):
        np.testing.assert_array_equal(one, other)


def backends_here():
    return ["cpu"] + (["cuda"] if "cuda" in pcv.backends() else [])


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
def test_frames_are_the_pixels_and_row_order_of_the_cli(utm_las, pcv_executable, tmp_path,
                                                        backend):
    # Drawn top row first straight into the array's memory: the PNG `pcv render` writes, row
    # for row, on each backend.
    if backend not in backends_here():
        pytest.skip("no usable CUDA device here")
    import subprocess
    from conftest import decode_png
    eye = (500020.0, 4999960.0, 140.0)
    out = tmp_path / "cli.png"
    subprocess.run([pcv_executable, "render", str(utm_las["path"]), "--backend", backend,
                    "--method", "compact", "--size", f"{SIZE[0]}x{SIZE[1]}",
                    "--eye", ",".join(map(str, eye)), "--yaw", "90", "--pitch", "-35",
                    "--out", str(out)], check=True, capture_output=True)
    renderer = pcv.Renderer(size=SIZE, backend=backend)
    renderer.add(utm_las["path"])
    image = renderer.render(eye=eye, yaw=90, pitch=-35, method="compact")
    assert drawn(image).any()
    np.testing.assert_array_equal(image, decode_png(out))


@pytest.mark.parametrize("backend", ["cpu", "cuda"])
def test_each_frame_is_an_array_of_its_own(backend):
    # Frames come from a pool of reused buffers: one is reused only once its array is freed,
    # so an image kept stays as it was drawn, and outlives its renderer.
    if backend not in backends_here():
        pytest.skip("no usable CUDA device here")
    renderer = pcv.Renderer(size=SIZE, backend=backend)
    renderer.add(cube([10.0, 0.0, 0.0]))
    towards = renderer.render(eye=(0.0, 0.0, 0.0), yaw=0.0)
    kept = towards.copy()
    frames = [renderer.render(eye=(0.0, 0.0, 0.0), yaw=180.0) for _ in range(8)]
    del renderer
    np.testing.assert_array_equal(towards, kept)
    assert drawn(towards).any() and not any(drawn(frame).any() for frame in frames)
    assert towards.flags.c_contiguous and towards.flags.writeable
    assert towards.shape == (SIZE[1], SIZE[0], 4) and towards.dtype == np.uint8
    towards[:] = 0  # the caller's to change
    addresses = {frame.__array_interface__["data"][0] for frame in frames + [towards]}
    assert len(addresses) == 9


def test_last_timings_name_the_frame():
    renderer = pcv.Renderer(size=SIZE, backend="cpu")
    assert renderer.last_timings == {}
    renderer.add(cube([10.0, 0.0, 0.0]))
    renderer.render(eye=(0.0, 0.0, 0.0))
    timings = renderer.last_timings
    assert len(timings) > 0 and all(ms >= 0.0 for ms in timings.values())


def test_the_default_view_is_framed_as_pcv_render_frames_it():
    # Ground with a bare corner and trees along the far edge: framed on the points, not the box.
    i, j = np.meshgrid(np.arange(121), np.arange(61), indexing="ij")
    keep = ~((i < 40) & (j < 25))
    ground = np.stack([i[keep] * 10.0, j[keep] * 10.0, (i[keep] + j[keep]) % 3], axis=1)
    trees = ground[(ground[:, 1] >= 570) & (ground[:, 0] % 30 == 0)] + [0, 0, 30]
    points = np.concatenate([ground, trees]) + [500000.0, 5000000.0, 100.0]
    renderer = pcv.Renderer(size=(320, 180), backend="cpu")
    renderer.add(points)
    framed = renderer.render(edl="off")
    assert np.array_equal(framed, pcv.render(points, size=(320, 180), backend="cpu", edl="off"))
