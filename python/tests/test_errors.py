"""pcv's errors as Python exceptions: a class per kind, the message kept."""

import pytest

import pcv


def test_input_error_is_a_value_error_and_a_pcv_error():
    assert issubclass(pcv.InputError, ValueError)
    assert issubclass(pcv.InputError, pcv.Error)
    assert issubclass(pcv.OutOfMemoryError, MemoryError)
    assert issubclass(pcv.UnavailableError, pcv.Error)


def test_truncated_file_raises_input_error_naming_the_file(tmp_path):
    path = tmp_path / "truncated.las"
    path.write_bytes(b"LASF" + bytes(40))
    with pytest.raises(pcv.InputError) as raised:
        pcv.read(path)
    assert str(path) in str(raised.value)
    with pytest.raises(ValueError):
        pcv.info(path)


def test_missing_file_raises_input_error(tmp_path):
    with pytest.raises(pcv.InputError):
        pcv.read(tmp_path / "absent.las")


def test_unknown_backend_raises_input_error():
    with pytest.raises(pcv.InputError) as raised:
        pcv.render([[0.0, 0.0, 0.0]], backend="metal")
    assert "cpu" in str(raised.value)  # the known names are listed


def test_cuda_without_a_gpu_raises_unavailable_error():
    if "cuda" in pcv.backends():
        pytest.skip("a CUDA device is usable here")
    with pytest.raises(pcv.UnavailableError):
        pcv.render([[0.0, 0.0, 0.0]], backend="cuda")


@pytest.mark.parametrize("arguments", [
    {"size": (0, 10)},
    {"near": 2.0, "far": 1.0},
    {"edl": "sometimes"},
    {"point_size": 99},
    {"background": (0, 0, 300)},
])
def test_bad_render_arguments_raise_input_error(arguments):
    with pytest.raises(pcv.InputError):
        pcv.render([[0.0, 0.0, 0.0]], backend="cpu", **arguments)


def test_positions_of_the_wrong_shape_raise_input_error():
    with pytest.raises(pcv.InputError):
        pcv.render([[0.0, 0.0]], backend="cpu")
    with pytest.raises(pcv.InputError):
        pcv.render([[0.0, 0.0, 0.0]], rgb=[[1, 2, 3], [4, 5, 6]], backend="cpu")
