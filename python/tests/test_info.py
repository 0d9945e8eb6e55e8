"""pcv.info: the header's figures, without decoding points."""

import pcv

from conftest import write_las


def test_describes_a_las_file_from_its_header(utm_las):
    info = pcv.info(utm_las["path"])
    assert info["format"] == "LAS"
    assert info["point_count"] == 500
    low, high = info["bounds"]
    assert low == tuple(utm_las["xyz"].min(axis=0))
    assert high == tuple(utm_las["xyz"].max(axis=0))
    assert info["has_color"] is True
    assert {"intensity", "classification", "return_number"} <= set(info["attributes"])


def test_header_count_is_what_the_header_says(tmp_path):
    # The header is believed as it is: the records are never read.
    path = write_las(tmp_path / "one.las", [[1.0, 2.0, 3.0]])
    data = bytearray(path.read_bytes())
    data[107:111] = (1_000_000_000).to_bytes(4, "little")  # legacy point count
    path.write_bytes(bytes(data))
    assert pcv.info(path)["point_count"] == 1_000_000_000


def test_text_files_declare_no_count(tmp_path):
    path = tmp_path / "points.xyz"
    path.write_text("1 2 3\n")
    info = pcv.info(path)
    assert info["point_count"] is None
