"""pcv.render: images of arrays and files, the same as `pcv render` draws."""

import subprocess

import numpy as np
import pytest

import pcv

from conftest import decode_png

SIZE = (96, 64)
BLACK = np.array([0, 0, 0, 255], dtype=np.uint8)


def drawn(image):
    """Pixels that are not the black background."""
    return np.any(image != BLACK, axis=2)


def cube_points(count=4000, seed=3):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=(count, 3))


def test_renders_an_array_as_an_rgba_image():
    image = pcv.render(cube_points(), size=SIZE, backend="cpu")
    assert image.dtype == np.uint8 and image.shape == (64, 96, 4)
    assert np.all(image[:, :, 3] == 255)
    assert 0.05 < drawn(image).mean() < 0.95  # framed: the points fill part of the view


def test_the_default_view_centres_the_data_and_fills_the_image():
    # Flat ground with a bare corner towards the camera and trees along the far edge: its box
    # is mostly empty, and fitted to the box the ground filled only the top of the image.
    i, j = np.meshgrid(np.arange(121), np.arange(61), indexing="ij")
    keep = ~((i < 40) & (j < 25))
    ground = np.stack([i[keep] * 10.0, j[keep] * 10.0, (i[keep] + j[keep]) % 3], axis=1)
    trees = ground[(ground[:, 1] >= 570) & (ground[:, 0] % 30 == 0)] + [0, 0, 30]
    points = np.concatenate([ground, trees]) + [500000.0, 5000000.0, 100.0]
    image = pcv.render(points, size=(320, 180), backend="cpu", edl="off")
    rows, columns = np.nonzero(drawn(image))
    assert len(rows) > 0
    left, right = columns.min(), columns.max()
    top, bottom = rows.min(), rows.max()
    assert abs(left - (319 - right)) <= 16  # centred across
    assert abs(top - (179 - bottom)) <= 9  # and up and down
    assert right - left > 0.8 * 320
    assert bottom - top > 0.6 * 180


def test_given_colours_are_the_colours_drawn():
    points = cube_points()
    colours = np.tile(np.array([[200, 40, 10]], dtype=np.uint8), (len(points), 1))
    image = pcv.render(points, colours, size=SIZE, backend="cpu")
    shown = image[drawn(image)][:, :3]
    assert len(shown) > 0
    assert np.all(shown == [200, 40, 10])  # colours of its own: no eye-dome shading


def test_a_camera_looking_away_draws_nothing():
    points = cube_points() + [10.0, 0.0, 0.0]
    towards = pcv.render(points, size=SIZE, eye=(0.0, 0.0, 0.0), yaw=0.0, backend="cpu")
    away = pcv.render(points, size=SIZE, eye=(0.0, 0.0, 0.0), yaw=180.0, backend="cpu")
    assert drawn(towards).any()
    assert not drawn(away).any()


def test_top_row_comes_first():
    # Points above the horizon only, seen level: they land in the top half of the image.
    points = cube_points() * [1.0, 1.0, 0.2] + [10.0, 0.0, 1.5]
    image = pcv.render(points, size=SIZE, eye=(0.0, 0.0, 0.0), backend="cpu")
    rows = np.nonzero(drawn(image).any(axis=1))[0]
    assert len(rows) > 0 and rows.max() < SIZE[1] // 2


def test_renders_a_file_as_the_cli_does(utm_las, pcv_executable, tmp_path):
    out = tmp_path / "cli.png"
    subprocess.run([pcv_executable, "render", str(utm_las["path"]), "--backend", "cpu",
                    "--size", f"{SIZE[0]}x{SIZE[1]}", "--out", str(out)],
                   check=True, capture_output=True)
    image = pcv.render(utm_las["path"], size=SIZE, backend="cpu")
    assert 0.05 < drawn(image).mean() < 0.95  # the default framing: the tile fills the view
    np.testing.assert_array_equal(image, decode_png(out))


def test_a_placed_camera_matches_the_cli(utm_las, pcv_executable, tmp_path):
    out = tmp_path / "cli.png"
    eye = (500020.0, 4999960.0, 140.0)
    subprocess.run([pcv_executable, "render", str(utm_las["path"]), "--backend", "cpu",
                    "--size", f"{SIZE[0]}x{SIZE[1]}", "--eye", ",".join(map(str, eye)),
                    "--yaw", "90", "--pitch", "-35", "--point-size", "2", "--out", str(out)],
                   check=True, capture_output=True)
    image = pcv.render(utm_las["path"], size=SIZE, eye=eye, yaw=90, pitch=-35, point_size=2,
                       backend="cpu")
    assert drawn(image).any()
    np.testing.assert_array_equal(image, decode_png(out))


def test_a_read_cloud_renders_as_its_file(utm_las):
    # The dict's offsets and origin are the very floats the file gave: the same image.
    from_file = pcv.render(utm_las["path"], size=SIZE, backend="cpu")
    from_arrays = pcv.render(pcv.read(utm_las["path"]), size=SIZE, backend="cpu")
    np.testing.assert_array_equal(from_arrays, from_file)


def test_colours_by_an_attribute_of_the_arrays(utm_las):
    cloud = pcv.read(utm_las["path"])
    by_rgb = pcv.render(cloud, size=SIZE, backend="cpu")
    by_class = pcv.render(cloud, size=SIZE, backend="cpu", color="classification")
    assert np.array_equal(drawn(by_rgb), drawn(by_class))
    assert not np.array_equal(by_rgb, by_class)
    with pytest.raises(pcv.InputError):
        pcv.render(cloud, size=SIZE, backend="cpu", color="no_such_attribute")


def test_a_list_of_files_is_merged(utm_las, tmp_path):
    from conftest import write_las
    shifted = write_las(tmp_path / "shifted.las", utm_las["xyz"] + [100.0, 0.0, 0.0],
                        rgb=utm_las["rgb"])
    one = pcv.render(utm_las["path"], size=SIZE, backend="cpu")
    both = pcv.render([utm_las["path"], shifted], size=SIZE, backend="cpu")
    assert not np.array_equal(one, both)
    assert drawn(both).any()


def test_auto_backend_renders_without_a_gpu():
    image = pcv.render(cube_points(), size=SIZE)  # cuda where usable, else cpu
    assert drawn(image).any()


def test_cuda_draws_the_cpus_image(utm_las):
    if "cuda" not in pcv.backends():
        pytest.skip("no usable CUDA device here")
    for source in (utm_las["path"], cube_points()):
        on_cpu = pcv.render(source, size=SIZE, backend="cpu", method="compact")
        on_cuda = pcv.render(source, size=SIZE, backend="cuda", method="compact")
        assert drawn(on_cuda).any()
        np.testing.assert_array_equal(on_cuda, on_cpu)


def test_cuda_draws_the_clis_image_top_row_first(utm_las, pcv_executable, tmp_path):
    if "cuda" not in pcv.backends():
        pytest.skip("no usable CUDA device here")
    out = tmp_path / "cli.png"
    subprocess.run([pcv_executable, "render", str(utm_las["path"]), "--backend", "cuda",
                    "--size", f"{SIZE[0]}x{SIZE[1]}", "--out", str(out)],
                   check=True, capture_output=True)
    image = pcv.render(utm_las["path"], size=SIZE, backend="cuda")
    assert drawn(image).any()
    np.testing.assert_array_equal(image, decode_png(out))
