"""pcv.info: the header's figures, without decoding points."""

import struct

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


UTM33_WKT = (
    'PROJCS["WGS 84 / UTM zone 33N",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,'
    '298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],'
    'PROJECTION["Transverse_Mercator"],UNIT["metre",1],AUTHORITY["EPSG","32633"]]')


def geo_keys(*keys):
    """A GeoTIFF key directory payload: (key id, value) pairs held in their entries."""
    words = [1, 1, 0, len(keys)]
    for key, value in keys:
        words += [key, 0, 1, value]
    return struct.pack("<%dH" % len(words), *words)


def test_names_the_coordinate_system_of_a_wkt_record(tmp_path):
    path = write_las(tmp_path / "utm.las", [[500000.0, 5000000.0, 1.0]],
                     vlrs=[("LASF_Projection", 2112, UTM33_WKT.encode() + b"\0")])
    crs = pcv.info(path)["crs"]
    assert crs["name"] == "WGS 84 / UTM zone 33N"
    assert crs["epsg"] == 32633
    assert crs["horizontal_unit"] == {"name": "metre", "symbol": "m", "metres": 1.0}
    assert crs["vertical_unit"] is None


def test_units_of_geo_keys_in_us_feet(tmp_path):
    # User-defined projection (32767) in US survey feet (9003), heights in feet (9002).
    keys = geo_keys((3072, 32767), (3076, 9003), (4099, 9002))
    path = write_las(tmp_path / "feet.las", [[1.0, 2.0, 3.0]],
                     vlrs=[("LASF_Projection", 34735, keys)])
    crs = pcv.info(path)["crs"]
    assert crs["epsg"] is None
    assert crs["horizontal_unit"]["name"] == "US survey foot"
    assert abs(crs["horizontal_unit"]["metres"] - 1200 / 3937) < 1e-12
    assert crs["vertical_unit"]["symbol"] == "ft"


def test_no_coordinate_system_is_none(tmp_path):
    assert pcv.info(write_las(tmp_path / "bare.las", [[1.0, 2.0, 3.0]]))["crs"] is None
