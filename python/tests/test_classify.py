"""pcv.classify on synthetic terrain with known classes (a sloped plane with a hill, buildings,
trees, noise above and below), its independence of the points' order, its errors, and the same
classes from `pcv classify` on a file, every other field kept."""

import subprocess

import numpy as np
import pytest

import pcv

GROUND, BUILDING, TREE, NOISE = 0, 1, 2, 3


def terrain_height(x, y):
    return 0.04 * x + 0.02 * y + 10.0 * np.exp(-((x - 60.0) ** 2 + (y - 50.0) ** 2) / (2 * 20.0**2))


def synthetic_terrain(seed, side=120.0, origin=(0.0, 0.0, 0.0)):
    """(xyz, truth): 2 points per square metre of ground or roof, trees, 12 noise points."""
    rng = np.random.default_rng(seed)
    count = int(2 * side * side)
    x, y = rng.uniform(0, side, count), rng.uniform(0, side, count)
    z = terrain_height(x, y) + rng.uniform(-0.025, 0.025, count)
    truth = np.full(count, GROUND)
    for x0, y0, x1, y1, height in [(10, 10, 30, 25, 8), (70, 80, 92, 100, 12), (95, 20, 107, 40, 6)]:
        inside = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
        z[inside] = terrain_height(x1, y1) + height
        truth[inside] = BUILDING
    crowns = []
    for _ in range(25):
        cx, cy = rng.uniform(5, side - 5, 2)
        top = rng.uniform(3, 15)
        angle, radius = rng.uniform(0, 2 * np.pi, 40), 2 * np.sqrt(rng.uniform(0, 1, 40))
        px, py = cx + radius * np.cos(angle), cy + radius * np.sin(angle)
        crowns.append(np.column_stack([px, py, terrain_height(px, py) + top - rng.uniform(0, 2, 40)]))
    crowns = np.concatenate(crowns)
    nx, ny = rng.uniform(10, side - 10, 12), rng.uniform(10, side - 10, 12)
    offsets = np.where(np.arange(12) % 2 == 1, rng.uniform(40, 80, 12), -rng.uniform(20, 40, 12))
    noise = np.column_stack([nx, ny, terrain_height(nx, ny) + offsets])
    xyz = np.concatenate([np.column_stack([x, y, z]), crowns, noise]) + np.asarray(origin)
    truth = np.concatenate([truth, np.full(len(crowns), TREE), np.full(len(noise), NOISE)])
    order = rng.permutation(len(xyz))
    return xyz[order], truth[order]


def check_against_truth(classes, truth):
    ground = truth == GROUND
    objects = (truth == BUILDING) | (truth == TREE)
    assert np.mean(classes[ground] == 2) >= 0.97
    assert np.mean(classes[objects] != 2) >= 0.97
    assert np.all(classes[truth == NOISE] == 7)
    assert not np.any(classes[ground] == 7)


def test_classes_match_the_truth():
    xyz, truth = synthetic_terrain(1, origin=(420000.0, 5100000.0, 200.0))
    classes = pcv.classify(xyz)
    assert classes.dtype == np.uint8 and classes.shape == (len(xyz),)
    assert set(np.unique(classes)) <= {1, 2, 7}
    check_against_truth(classes, truth)


def test_filters_and_parameters_reach_the_classes():
    xyz, truth = synthetic_terrain(2)
    ground_only = pcv.classify(xyz, noise=False)
    assert not np.any(ground_only == 7)
    noise_only = pcv.classify({"xyz": xyz}, ground=False)
    assert set(np.unique(noise_only)) == {1, 7}
    # A window narrower than the roofs keeps most of them as ground.
    narrow = pcv.classify(xyz, noise=False, window=2.0)
    assert np.mean(narrow[truth == BUILDING] == 2) > 0.5
    assert np.all(pcv.classify(xyz, ground=False, noise_radius=200.0) == 1)


def test_same_classes_in_any_order():
    xyz, _ = synthetic_terrain(3, side=80.0)
    classes = pcv.classify(xyz)
    order = np.random.default_rng(4).permutation(len(xyz))
    np.testing.assert_array_equal(pcv.classify(xyz[order]), classes[order])


def test_the_gpu_gives_the_cpus_classes():
    xyz, _ = synthetic_terrain(6, side=100.0, origin=(300000.0, 4000000.0, 50.0))
    on_cpu = pcv.classify(xyz, device="cpu")
    try:
        on_gpu = pcv.classify(xyz, device="cuda")
    except pcv.UnavailableError:
        # No CUDA device here: auto takes the CPU.
        np.testing.assert_array_equal(pcv.classify(xyz, device="auto"), on_cpu)
        return
    np.testing.assert_array_equal(on_gpu, on_cpu)


@pytest.mark.parametrize("arguments", [
    dict(cell=0.0), dict(cell=-1.0), dict(window=0.5), dict(slope=-0.1), dict(threshold=-1.0),
    dict(noise_radius=0.0), dict(noise_neighbours=0), dict(ground=False, noise=False),
    dict(device="tpu"),
])
def test_bad_parameters_are_input_errors(arguments):
    xyz, _ = synthetic_terrain(5, side=20.0)
    with pytest.raises(pcv.InputError):
        pcv.classify(xyz, **arguments)


def test_empty_and_misshapen_points_are_input_errors():
    with pytest.raises(pcv.InputError):
        pcv.classify(np.zeros((0, 3)))
    with pytest.raises(pcv.InputError):
        pcv.classify(np.zeros((10, 2)))
    with pytest.raises(pcv.InputError):
        pcv.classify({"rgb": np.zeros((10, 3))})


def test_command_writes_the_same_classes_and_keeps_every_other_field(pcv_executable, tmp_path):
    xyz, truth = synthetic_terrain(6, side=100.0)
    rng = np.random.default_rng(8)
    count = len(xyz)
    source = {
        "xyz": xyz,
        "intensity": rng.integers(0, 65536, count).astype(np.uint16),
        "classification": rng.choice([1, 2, 5, 7, 9], count).astype(np.uint8),
        "gps_time": rng.uniform(0, 1e6, count),
        "point_source_id": rng.integers(0, 65536, count).astype(np.uint16),
        "user_data": rng.integers(0, 256, count).astype(np.uint8),
        "point_format": 6,
    }
    pcv.write(tmp_path / "a.las", source)
    subprocess.run([pcv_executable, "classify", str(tmp_path / "a.las"), str(tmp_path / "b.laz"),
                    "--ground", "--noise"], check=True, capture_output=True)
    before, after = pcv.read(tmp_path / "a.las"), pcv.read(tmp_path / "b.laz")
    assert set(before) == set(after)
    for name in before:
        if name != "classification":
            np.testing.assert_array_equal(after[name], before[name], err_msg=name)
    found = pcv.classify(before["xyz"])
    previous = before["classification"]
    expected = np.where((found == 2) | (found == 7), found,
                        np.where((previous == 2) | (previous == 7), 1, previous))
    np.testing.assert_array_equal(after["classification"], expected)
    check_against_truth(after["classification"], truth)


def test_copc_in_place_keeps_the_points_and_sets_their_classes(pcv_executable, tmp_path):
    xyz, truth = synthetic_terrain(9, side=80.0)
    pcv.write(tmp_path / "a.las", {"xyz": xyz, "classification": np.full(len(xyz), 5, np.uint8),
                                   "point_format": 6})
    copc = tmp_path / "a.copc.laz"
    subprocess.run([pcv_executable, "convert", "-q", str(tmp_path / "a.las"), str(copc)],
                   check=True, capture_output=True)
    before = pcv.read(copc)
    subprocess.run([pcv_executable, "classify", str(copc), "--in-place", "--ground", "--noise"],
                   check=True, capture_output=True)
    after = pcv.read(copc)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.copc.laz", "a.las"]
    # COPC orders the points by node: compare them as sets of (x, y, z, class).
    found = pcv.classify(before["xyz"])
    expected = np.where((found == 2) | (found == 7), found, 5)
    key = lambda xyz, classes: sorted(zip(map(tuple, np.round(xyz, 3)), classes.tolist()))
    assert key(after["xyz"], after["classification"]) == key(before["xyz"], expected)
