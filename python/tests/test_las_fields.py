"""Every field of every LAS point format (0-10) and the extra bytes: pcv.read gives them with
their own types, and pcv.write writes them back in the same point format, from LAS, LAZ and
COPC alike. The files are made here, record by record, from the specification's layouts."""

import os
import struct
import subprocess

import numpy as np
import pytest

import pcv

POINTS = 240
SCALE, OFFSET = 0.001, (500000.0, 5000000.0, 100.0)
EXTENDED_BYTES = {6: 30, 7: 36, 8: 38, 9: 59, 10: 67}
LEGACY_BYTES = {0: 20, 1: 28, 2: 26, 3: 34, 4: 57, 5: 63}
HAS_GPS = {1, 3, 4, 5, 6, 7, 8, 9, 10}
HAS_RGB = {2, 3, 5, 7, 8, 10}
HAS_NIR = {8, 10}
HAS_WAVE = {4, 5, 9, 10}
WAVE_FIELDS = ["wave_packet_index", "wave_packet_offset", "wave_packet_size",
               "return_point_location", "x_t", "y_t", "z_t"]

# The extra bytes: (name, VLR type code, struct code, options, scale, no-data).
EXTRAS = [
    ("reflectance", 4, "h", 0, None, None),    # int16
    ("range", 5, "I", 8, 0.001, None),          # uint32 scaled to metres
    ("amplitude", 9, "f", 0, None, None),       # float32
    ("echo_width", 1, "B", 1, None, 255),       # uint8, 255 meaning "no value"
]


def make_fields(point_format, seed):
    """Random values of every field `point_format` has, and of the extra bytes."""
    rng = np.random.default_rng(seed)
    n = POINTS
    extended = point_format >= 6
    f = {
        # x apart by 0.5 m identifies each point whatever order a reader gives them in.
        "index": np.arange(n),
        "xyz": np.column_stack([OFFSET[0] + 0.5 * np.arange(n),
                                OFFSET[1] + rng.integers(0, 100000, n) * SCALE,
                                OFFSET[2] + rng.integers(0, 100000, n) * SCALE]),
        "intensity": rng.integers(0, 65536, n).astype(np.uint16),
        "return_number": rng.integers(1, 16 if extended else 8, n).astype(np.uint8),
        "number_of_returns": rng.integers(1, 16 if extended else 8, n).astype(np.uint8),
        "classification": rng.integers(0, 256 if extended else 32, n).astype(np.uint8),
        "synthetic": rng.integers(0, 2, n).astype(np.uint8),
        "key_point": rng.integers(0, 2, n).astype(np.uint8),
        "withheld": rng.integers(0, 2, n).astype(np.uint8),
        "scan_direction": rng.integers(0, 2, n).astype(np.uint8),
        "edge_of_flight_line": rng.integers(0, 2, n).astype(np.uint8),
        "user_data": rng.integers(0, 256, n).astype(np.uint8),
        "point_source_id": rng.integers(0, 65536, n).astype(np.uint16),
        "scan_angle_raw": rng.integers(-30000, 30001, n) if extended else rng.integers(-90, 91, n),
        "rgb8": rng.integers(0, 256, (n, 3)).astype(np.uint8),
        "nir": rng.integers(0, 65536, n).astype(np.uint16),
        # Microseconds at 3e8 s: a float32 would lose whole seconds.
        "gps_time": 3e8 + rng.integers(0, 10**12, n) * 1e-6,
        "reflectance": rng.integers(-32768, 32768, n).astype(np.int16),
        "range_raw": rng.integers(0, 2**32, n, dtype=np.uint64),
        "amplitude": rng.standard_normal(n).astype(np.float32),
        "echo_width_raw": rng.integers(0, 256, n).astype(np.uint8),
        # The wave packet descriptor: where each point's waveform lies, and its return on it.
        "wave_packet_index": rng.integers(0, 256, n).astype(np.uint8),
        "wave_packet_offset": rng.integers(0, 2**40, n, dtype=np.uint64),
        "wave_packet_size": rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32),
        "return_point_location": rng.standard_normal(n).astype(np.float32),
        "x_t": rng.standard_normal(n).astype(np.float32),
        "y_t": rng.standard_normal(n).astype(np.float32),
        "z_t": rng.standard_normal(n).astype(np.float32),
    }
    f["rgb8"][0] = 255  # a full-range channel: colours are 16-bit
    # The file's 16 bits: within half a step of the 8-bit colour times 257, so the colour read
    # is rgb8, while the channels read as fields keep every bit.
    f["rgb16"] = np.clip(f["rgb8"].astype(np.int64) * 257 + rng.integers(-128, 129, (n, 3)),
                         0, 65535).astype(np.uint16)
    f["echo_width_raw"][:5] = 255  # some without a value
    if extended:
        f["overlap"] = rng.integers(0, 2, n).astype(np.uint8)
        f["scanner_channel"] = rng.integers(0, 4, n).astype(np.uint8)
    return f


def expected_attributes(point_format, f):
    """What pcv.read should give for the fields of make_fields, by name."""
    extended = point_format >= 6
    names = ["intensity", "return_number", "number_of_returns", "classification", "synthetic",
             "key_point", "withheld", "scan_direction", "edge_of_flight_line", "user_data",
             "point_source_id"]
    if extended:
        names += ["overlap", "scanner_channel"]
    out = {name: f[name] for name in names}
    angle = f["scan_angle_raw"] * (0.006 if extended else 1.0)
    out["scan_angle"] = angle.astype(np.float32)
    if point_format in HAS_GPS:
        out["gps_time"] = f["gps_time"]
    if point_format in HAS_NIR:
        out["nir"] = f["nir"]
    if point_format in HAS_RGB:
        for c, name in enumerate(["red", "green", "blue"]):
            out[name] = f["rgb16"][:, c]
    if point_format in HAS_WAVE:
        for name in WAVE_FIELDS:
            out[name] = f[name]
    out["reflectance"] = f["reflectance"]
    out["range"] = f["range_raw"] * 0.001
    out["amplitude"] = f["amplitude"]
    width = f["echo_width_raw"].astype(np.float64)
    width[f["echo_width_raw"] == 255] = np.nan
    out["echo_width"] = width
    return out


def extra_bytes_vlr():
    payload = bytearray()
    for name, code, _, options, scale, no_data in EXTRAS:
        d = bytearray(192)
        d[2], d[3] = code, options
        d[4:4 + len(name)] = name.encode()
        if no_data is not None:
            d[40:48] = struct.pack("<Q", no_data)
        if scale is not None:
            d[112:120] = struct.pack("<d", scale)
        payload += d
    header = struct.pack("<H16sHH32s", 0, b"LASF_Spec", 4, len(payload), b"extra bytes")
    return header + payload


def record(point_format, f, i):
    extended = point_format >= 6
    out = bytearray()
    ints = [int(round((f["xyz"][i, a] - OFFSET[a]) / SCALE)) for a in range(3)]
    out += struct.pack("<3iH", *ints, int(f["intensity"][i]))
    flags = (int(f["synthetic"][i]) | int(f["key_point"][i]) << 1 | int(f["withheld"][i]) << 2)
    if extended:
        flags |= int(f["overlap"][i]) << 3
        out += struct.pack("<BBBBhH",
                           int(f["return_number"][i]) | int(f["number_of_returns"][i]) << 4,
                           flags | int(f["scanner_channel"][i]) << 4
                           | int(f["scan_direction"][i]) << 6
                           | int(f["edge_of_flight_line"][i]) << 7,
                           int(f["classification"][i]), int(f["user_data"][i]),
                           int(f["scan_angle_raw"][i]), int(f["point_source_id"][i]))
    else:
        out += struct.pack("<BBbBH",
                           int(f["return_number"][i]) | int(f["number_of_returns"][i]) << 3
                           | int(f["scan_direction"][i]) << 6
                           | int(f["edge_of_flight_line"][i]) << 7,
                           int(f["classification"][i]) | flags << 5,
                           int(f["scan_angle_raw"][i]), int(f["user_data"][i]),
                           int(f["point_source_id"][i]))
    if point_format in HAS_GPS:
        out += struct.pack("<d", f["gps_time"][i])
    if point_format in HAS_RGB:
        out += struct.pack("<3H", *(int(c) for c in f["rgb16"][i]))
    if point_format in HAS_NIR:
        out += struct.pack("<H", int(f["nir"][i]))
    if point_format in HAS_WAVE:
        out += struct.pack("<BQIffff", *(f[name][i] for name in WAVE_FIELDS))
    out += struct.pack("<hIfB", int(f["reflectance"][i]), int(f["range_raw"][i]),
                       float(f["amplitude"][i]), int(f["echo_width_raw"][i]))
    return out


def write_las14(path, point_format, f):
    """A LAS 1.4 file of `point_format` with every field of make_fields and the extra bytes."""
    vlr = extra_bytes_vlr()
    length = (EXTENDED_BYTES if point_format >= 6 else LEGACY_BYTES)[point_format] + 2 + 4 + 4 + 1
    n = POINTS
    xyz = f["xyz"]
    header = bytearray()
    header += b"LASF" + struct.pack("<HH", 7, 16 if point_format >= 6 else 0) + bytes(16)
    header += bytes([1, 4]) + b"pcv test".ljust(32, b"\0") + b"pcv".ljust(32, b"\0")
    header += struct.pack("<HHHIIBHI", 1, 2026, 375, 375 + len(vlr), 1, point_format, length,
                          0 if point_format >= 6 else n)
    header += struct.pack("<5I", 0, 0, 0, 0, 0)
    header += struct.pack("<3d", SCALE, SCALE, SCALE) + struct.pack("<3d", *OFFSET)
    high, low = xyz.max(axis=0), xyz.min(axis=0)
    header += struct.pack("<6d", high[0], low[0], high[1], low[1], high[2], low[2])
    header += struct.pack("<QQIQ", 0, 0, 0, n) + bytes(15 * 8)
    assert len(header) == 375
    with open(path, "wb") as out:
        out.write(header + vlr + b"".join(record(point_format, f, i) for i in range(n)))
    return path


def in_input_order(cloud):
    """The cloud's arrays reordered as the input's records (x names the record)."""
    index = np.rint((cloud["xyz"][:, 0] - OFFSET[0]) / 0.5).astype(np.int64)
    order = np.argsort(index)
    assert np.array_equal(index[order], np.arange(POINTS))
    return {name: (value[order] if isinstance(value, np.ndarray) and value.ndim >= 1
                   and len(value) == POINTS else value)
            for name, value in cloud.items()}


def check_fields(cloud, point_format, f, what):
    cloud = in_input_order(cloud)
    assert cloud["point_format"] == point_format, what
    np.testing.assert_allclose(cloud["xyz"], f["xyz"], rtol=0, atol=2e-3, err_msg=what)
    for name, values in expected_attributes(point_format, f).items():
        assert name in cloud, f"{what}: no {name}"
        assert cloud[name].dtype == values.dtype, f"{what}: {name} is {cloud[name].dtype}"
        np.testing.assert_array_equal(cloud[name], values, err_msg=f"{what}: {name}")
    if point_format in HAS_RGB:
        np.testing.assert_array_equal(cloud["rgb"], f["rgb8"], err_msg=what)
    else:
        assert "rgb" not in cloud


def converted(pcv_executable, source, target):
    subprocess.run([pcv_executable, "convert", "-q", str(source), str(target)], check=True,
                   capture_output=True)
    return target


@pytest.mark.parametrize("point_format", range(11))
@pytest.mark.parametrize("kind", ["las", "laz"])
def test_every_field_reads_and_writes_back(pcv_executable, tmp_path, point_format, kind):
    f = make_fields(point_format, seed=point_format)
    source = write_las14(tmp_path / "in.las", point_format, f)
    if kind == "laz":
        source = converted(pcv_executable, source, tmp_path / "in.laz")
    cloud = pcv.read(source)
    check_fields(cloud, point_format, f, f"{kind} {point_format} read")
    out = tmp_path / f"out.{kind}"
    assert pcv.write(out, cloud) == POINTS
    check_fields(pcv.read(out), point_format, f, f"{kind} {point_format} written")


@pytest.mark.parametrize("point_format", [6, 7, 8])
def test_every_field_of_copc_reads_and_writes_back(pcv_executable, tmp_path, point_format):
    f = make_fields(point_format, seed=20 + point_format)
    source = converted(pcv_executable, write_las14(tmp_path / "in.las", point_format, f),
                       tmp_path / "in.copc.laz")
    cloud = pcv.read(source)
    check_fields(cloud, point_format, f, f"copc {point_format} read")
    out = tmp_path / "out.copc.laz"
    assert pcv.write(out, cloud) == POINTS
    check_fields(pcv.read(out), point_format, f, f"copc {point_format} written")


def test_only_the_fields_asked_for_are_read(pcv_executable, tmp_path):
    f = make_fields(6, seed=3)
    source = converted(pcv_executable, write_las14(tmp_path / "in.las", 6, f),
                       tmp_path / "in.laz")
    cloud = in_input_order(pcv.read(source, fields=["gps_time", "point_source_id"]))
    np.testing.assert_array_equal(cloud["gps_time"], f["gps_time"])
    np.testing.assert_array_equal(cloud["point_source_id"], f["point_source_id"])
    assert "intensity" not in cloud and "classification" not in cloud


def test_a_float_colour_in_0_to_1_is_scaled(tmp_path):
    xyz = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    path = tmp_path / "colours.las"
    pcv.write(path, xyz, rgb=np.array([[1.0, 0.5, 0.0], [0.25, 0.75, 1.0]]))
    again = pcv.read(path)
    np.testing.assert_array_equal(again["rgb"], [[255, 128, 0], [64, 191, 255]])
    pcv.write(path, xyz, rgb=np.array([[65535, 0, 257], [0, 0, 0]], dtype=np.uint16))
    np.testing.assert_array_equal(pcv.read(path)["rgb"], [[255, 0, 1], [0, 0, 0]])


def test_a_float_colour_outside_0_to_1_is_refused(tmp_path):
    xyz = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    with pytest.raises(ValueError):
        pcv.write(tmp_path / "colours.las", xyz, rgb=np.array([[255.0, 0, 0], [0, 0, 0]]))
    assert list(tmp_path.iterdir()) == []


def test_attributes_of_a_dict_keep_their_types(tmp_path):
    xyz = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    data = {"xyz": xyz, "classification": np.array([2, 17], dtype=np.uint8),
            "gps_time": np.array([3e8 + 0.000001, 3e8 + 7.5]),
            "my_count": np.array([-5, 70000], dtype=np.int32)}
    path = tmp_path / "typed.las"
    pcv.write(path, data)
    again = pcv.read(path)
    assert again["point_format"] == 1
    np.testing.assert_array_equal(again["classification"], data["classification"])
    np.testing.assert_array_equal(again["gps_time"], data["gps_time"])
    assert again["my_count"].dtype == np.int32
    np.testing.assert_array_equal(again["my_count"], data["my_count"])


CORPUS = os.path.join(os.environ.get("PCV_TEST_DATA_DIR") or os.path.join(
    os.path.dirname(__file__), "..", "..", "..", "shared", "data"), "laz-corpus")


@pytest.mark.parametrize("name", ["extrabytes", "point-time"])
def test_corpus_las_and_laz_give_the_same_fields(name):
    las, laz = (os.path.join(CORPUS, name + ext) for ext in (".las", ".laz"))
    if not (os.path.exists(las) and os.path.exists(laz)):
        pytest.skip("../shared/data/laz-corpus is not here")
    a, b = pcv.read(las), pcv.read(laz)
    assert a["point_format"] == b["point_format"]
    names = {k for k in a if k not in ("xyz", "offsets", "origin", "rgb", "point_format")}
    assert names == {k for k in b if k not in ("xyz", "offsets", "origin", "rgb", "point_format")}
    if a["point_format"] in HAS_GPS:
        assert a["gps_time"].dtype == np.float64
    for key in names:
        assert a[key].dtype == b[key].dtype, key
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_render_colours_by_a_field_beyond_the_default_ones(tmp_path):
    path = write_las14(tmp_path / "in.las", 3, make_fields(3, seed=5))
    image = pcv.render(path, size=(32, 24), backend="cpu", color="point_source_id")
    assert image.shape == (24, 32, 4)
    renderer = pcv.Renderer(size=(32, 24), backend="cpu")
    renderer.add(path, color="gps_time")
    assert renderer.render().shape == (24, 32, 4)
