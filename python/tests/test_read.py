"""pcv.read: files into NumPy arrays, as views of pcv's memory where pcv holds them."""

import gc

import numpy as np
import pytest

import pcv


def test_reads_world_positions_colours_and_attributes(utm_las):
    cloud = pcv.read(utm_las["path"])
    assert cloud["xyz"].dtype == np.float64 and cloud["xyz"].shape == (500, 3)
    # Centimetres survive UTM-sized coordinates: the origin is double, the offsets small floats.
    np.testing.assert_allclose(cloud["xyz"], utm_las["xyz"], rtol=0, atol=1e-6)
    assert cloud["rgb"].dtype == np.uint8
    np.testing.assert_array_equal(cloud["rgb"], utm_las["rgb"])
    np.testing.assert_array_equal(cloud["intensity"], utm_las["intensity"])
    np.testing.assert_array_equal(cloud["classification"], utm_las["classification"])
    np.testing.assert_array_equal(cloud["return_number"], utm_las["return_number"])


def test_offsets_and_colours_view_one_buffer_that_outlives_the_dict(utm_las):
    cloud = pcv.read(utm_las["path"])
    offsets, rgb, origin = cloud["offsets"], cloud["rgb"], cloud["origin"]
    assert offsets.dtype == np.float32 and offsets.shape == (500, 3)
    # Both view pcv's 16-byte points (x, y, z floats, then R, G, B, A bytes), not copies.
    address = offsets.__array_interface__["data"][0]
    assert rgb.__array_interface__["data"][0] == address + 12
    assert offsets.strides == (16, 4) and rgb.strides == (16, 1)
    np.testing.assert_allclose(offsets + origin, cloud["xyz"], rtol=0, atol=1e-6)
    expected = cloud["xyz"].copy()
    del cloud
    gc.collect()
    # The capsule behind the views keeps the points alive without the dict.
    np.testing.assert_allclose(offsets + origin, expected, rtol=0, atol=1e-6)
    np.testing.assert_array_equal(rgb, utm_las["rgb"])


def test_fields_keep_only_what_is_asked(utm_las):
    cloud = pcv.read(utm_las["path"], fields=["intensity"])
    assert set(cloud) == {"xyz", "origin", "offsets", "intensity", "point_format"}
    np.testing.assert_array_equal(cloud["intensity"], utm_las["intensity"])


def test_asking_for_a_field_the_file_lacks_raises_input_error(utm_las):
    with pytest.raises(pcv.InputError) as raised:
        pcv.read(utm_las["path"], fields=["gps_time"])
    assert "gps_time" in str(raised.value)


def test_reads_text_files(tmp_path):
    path = tmp_path / "points.xyz"
    path.write_text("1 2 3\n4 5 6\n-7.5 8 9.25\n")
    cloud = pcv.read(path)
    np.testing.assert_array_equal(cloud["xyz"], [[1, 2, 3], [4, 5, 6], [-7.5, 8, 9.25]])
    assert "rgb" not in cloud


def test_accepts_path_objects_and_strings_alike(utm_las):
    from_path = pcv.read(utm_las["path"])
    from_text = pcv.read(str(utm_las["path"]))
    np.testing.assert_array_equal(from_path["xyz"], from_text["xyz"])


def test_decode_chooses_where_laz_chunks_are_decoded(utm_las, tmp_path):
    path = tmp_path / "cloud.laz"
    pcv.write(path, pcv.read(utm_las["path"]))
    cpu = pcv.read(path, decode="cpu")
    for name, values in pcv.read(path).items():  # auto takes the CPU
        np.testing.assert_array_equal(values, cpu[name])
    try:
        gpu = pcv.read(path, decode="cuda")
    except pcv.UnavailableError:
        # Without a usable device a clear error, never the CPU's points: and then the renderer
        # finds no device either.
        with pytest.raises(pcv.UnavailableError):
            pcv.render(cpu["xyz"], size=(8, 8), backend="cuda")
    else:
        for name, values in gpu.items():  # bit-exact with the CPU decoder
            np.testing.assert_array_equal(values, cpu[name])
    with pytest.raises(pcv.InputError):
        pcv.read(path, decode="gpu")
