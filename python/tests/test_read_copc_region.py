"""pcv.read with bounds and resolution: parts of a COPC file, decoding only the nodes needed."""

import numpy as np
import pytest

import pcv


@pytest.fixture(scope="module")
def copc(tmp_path_factory):
    """A COPC file of 300 000 points, enough for an octree of several levels."""
    rng = np.random.default_rng(11)
    xyz = np.column_stack([
        500000.0 + rng.uniform(0, 100, 300_000),
        5000000.0 + rng.uniform(0, 100, 300_000),
        rng.uniform(0, 10, 300_000),
    ])
    path = tmp_path_factory.mktemp("copc") / "area.copc.laz"
    pcv.write(path, xyz)
    return path, pcv.read(path)["xyz"]


def assert_same_points(part, expected):
    """The same points in any order, within the float offsets' precision (a node decoded alone
    and the whole file read have different origins): equal counts, and each coordinate's sorted
    values agree (sorting moves no value further than the points differ)."""
    assert len(part) == len(expected)
    np.testing.assert_allclose(np.sort(part, axis=0), np.sort(expected, axis=0), rtol=0, atol=1e-5)


def test_bounds_return_exactly_the_points_inside(copc):
    path, every = copc
    low, high = (500010.0, 5000020.0, 2.0), (500030.0, 5000050.0, 8.0)
    part = pcv.read(path, bounds=(low, high))["xyz"]
    inside = every[np.all((every >= low) & (every <= high), axis=1)]
    assert 0 < len(part) < len(every)
    assert_same_points(part, inside)


def test_bounds_without_heights_keep_every_height(copc):
    path, every = copc
    part = pcv.read(path, bounds=((500000.0, 5000000.0), (500050.0, 5000100.0)))["xyz"]
    inside = every[every[:, 0] <= 500050.0]
    assert_same_points(part, inside)


def test_a_coarse_resolution_reads_the_upper_levels_only(copc):
    path, every = copc
    overview = pcv.read(path, resolution=1000.0)["xyz"]  # coarser than the root: the root alone
    assert 0 < len(overview) < len(every)
    finest = pcv.read(path, resolution=1e-9)["xyz"]
    assert len(finest) == len(every)


def test_bounds_on_a_file_that_is_not_copc_raise_input_error(utm_las):
    with pytest.raises(pcv.InputError):
        pcv.read(utm_las["path"], bounds=((0, 0), (1, 1)))


def test_malformed_bounds_raise_input_error(copc):
    path, _ = copc
    with pytest.raises(pcv.InputError):
        pcv.read(path, bounds=((0, 0, 0), (1, 1)))
    with pytest.raises(pcv.InputError):
        pcv.read(path, bounds=((5, 5), (1, 1)))  # min above max
