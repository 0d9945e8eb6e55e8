"""Arrays given through DLPack or __cuda_array_interface__: host DLPack arrays draw as NumPy
arrays do; arrays in CUDA memory draw on the GPU with the pixels their NumPy copies give (on a
machine with an NVIDIA GPU and numba; skipped elsewhere)."""

import numpy as np
import pytest

import pcv

SIZE = (96, 64)


class HostDLPack:
    """An array that offers only DLPack (as a PyTorch CPU tensor does), not the buffer protocol."""

    def __init__(self, array):
        self._array = np.ascontiguousarray(array)

    def __dlpack__(self, stream=None):
        return self._array.__dlpack__()

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


class FakeCudaArray:
    """Says it lies in CUDA memory at an address that is no CUDA memory."""

    def __init__(self, shape, typestr):
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "data": (0x1000, True), "version": 3,
            "strides": None}


def points(count=5000, seed=11):
    rng = np.random.default_rng(seed)
    xyz = rng.uniform(-1.0, 1.0, size=(count, 3))
    rgb = rng.integers(0, 256, size=(count, 3), dtype=np.uint8)
    return xyz, rgb


def test_host_dlpack_arrays_render_as_numpy_arrays():
    xyz, rgb = points()
    expected = pcv.render(xyz, rgb, size=SIZE, backend="cpu")
    image = pcv.render(HostDLPack(xyz), HostDLPack(rgb), size=SIZE, backend="cpu")
    assert np.array_equal(image, expected)


def test_a_cuda_array_that_cannot_be_read_is_an_error_not_a_crash():
    with pytest.raises(pcv.Error):
        pcv.render(FakeCudaArray((10, 3), "<f4"), size=SIZE, backend="cpu")


def test_a_cuda_array_of_the_wrong_shape_or_type_is_an_error():
    with pytest.raises(pcv.Error):
        pcv.render(FakeCudaArray((10, 2), "<f4"), size=SIZE, backend="cpu")
    with pytest.raises(pcv.Error):
        pcv.render(FakeCudaArray((10, 3), "<i4"), size=SIZE, backend="cpu")


def cuda_or_skip():
    if not hasattr(np, "row_stack"):  # numba releases that predate NumPy 2 still call it
        np.row_stack = np.vstack
    numba = pytest.importorskip("numba")
    from numba import cuda
    if not cuda.is_available():
        pytest.skip("no CUDA device: arrays in GPU memory need one")
    return cuda


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cuda_arrays_render_the_pixels_of_their_host_copies(dtype):
    cuda = cuda_or_skip()
    xyz, rgb = points()
    xyz = xyz.astype(dtype) + 500000.0 * (dtype == np.float64)  # UTM-sized in float64
    expected = pcv.render(xyz, rgb, size=SIZE, backend="cuda")
    image = pcv.render(cuda.to_device(xyz), cuda.to_device(rgb), size=SIZE, backend="cuda")
    assert np.array_equal(image, expected)


def test_cuda_arrays_without_colours_are_coloured_as_host_arrays_are():
    cuda = cuda_or_skip()
    xyz, _ = points()
    expected = pcv.render(xyz, size=SIZE, backend="cuda")
    assert np.array_equal(pcv.render(cuda.to_device(xyz), size=SIZE, backend="cuda"), expected)


def test_strided_cuda_views_and_the_renderer_take_cuda_arrays():
    cuda = cuda_or_skip()
    xyz, rgb = points()
    fields = np.concatenate([xyz, np.zeros((len(xyz), 1))], axis=1)  # x, y, z, unused
    on_gpu = cuda.to_device(fields)[:, :3]  # a view with a row stride of 4 doubles
    expected = pcv.render(xyz, rgb, size=SIZE, backend="cuda")
    assert np.array_equal(pcv.render(on_gpu, cuda.to_device(rgb), size=SIZE, backend="cuda"),
                          expected)
    renderer = pcv.Renderer(size=SIZE, backend="cuda")
    renderer.add(cuda.to_device(xyz), cuda.to_device(rgb))
    assert renderer.point_count == len(xyz)
    assert np.array_equal(renderer.render(), expected)


def test_cuda_arrays_on_the_cpu_backend_are_copied_down():
    cuda = cuda_or_skip()
    xyz, rgb = points()
    expected = pcv.render(xyz, rgb, size=SIZE, backend="cpu")
    assert np.array_equal(
        pcv.render(cuda.to_device(xyz), cuda.to_device(rgb), size=SIZE, backend="cpu"), expected)
