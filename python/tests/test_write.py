"""pcv.write: arrays to LAS, LAZ and COPC that pcv (and any LAS reader) reads back."""

import numpy as np
import pytest

import pcv


@pytest.mark.parametrize("name", ["out.las", "out.laz", "out.copc.laz"])
def test_a_read_cloud_written_reads_back_the_same(utm_las, tmp_path, name):
    cloud = pcv.read(utm_las["path"])
    path = tmp_path / name
    assert pcv.write(path, cloud) == 500
    again = pcv.read(path)
    # COPC orders points by octree node: compare as sets of rows, sorted the same way.
    order, order_again = np.lexsort(cloud["xyz"].T), np.lexsort(again["xyz"].T)
    # Positions land on a grid as fine as pcv's float offsets: far below a millimetre.
    np.testing.assert_allclose(again["xyz"][order_again], cloud["xyz"][order], rtol=0, atol=1e-5)
    np.testing.assert_array_equal(again["rgb"][order_again], cloud["rgb"][order])
    for field in ("intensity", "classification", "return_number"):
        np.testing.assert_array_equal(again[field][order_again], cloud[field][order])
    info = pcv.info(path)
    assert info["point_count"] == 500
    assert ("COPC" in info["format"] + info["details"]) == name.endswith(".copc.laz")


def test_an_array_without_colours_is_written(tmp_path):
    xyz = np.array([[1.0, 2.0, 3.0], [4.25, 5.5, 6.75], [-1.0, 0.0, 1.0]])
    path = tmp_path / "points.las"
    pcv.write(path, xyz)
    again = pcv.read(path)
    np.testing.assert_allclose(again["xyz"], xyz, rtol=0, atol=1e-6)
    assert "rgb" not in again


def test_an_unknown_kind_raises_input_error_and_writes_nothing(tmp_path):
    with pytest.raises(pcv.InputError):
        pcv.write(tmp_path / "points.ply", [[0.0, 0.0, 0.0]])
    assert list(tmp_path.iterdir()) == []
