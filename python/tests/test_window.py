"""pcv.window, the seed's pieces: a headless window (EGL), a screen buffer that pixels go
through to its texture, GL buffers, errors after close; mapping into CUDA on a machine with an
NVIDIA GPU (skipped elsewhere), where a numba kernel writes the mapped pixels in place."""

import numpy as np
import pytest

import pcv

window_module = pytest.importorskip("pcv.window", reason="pcv was built without the viewer (GLFW)")


def headless_window(size=(64, 48)):
    try:
        return window_module.Window(size=size, headless=True)
    except pcv.UnavailableError as error:
        pytest.skip(f"no headless OpenGL: {error}")


@pytest.mark.parametrize("channels,dtype", [(3, "uint8"), (4, "uint8"), (4, "float32")])
def test_pixels_uploaded_reach_the_texture(channels, dtype):
    with headless_window() as window:
        screen = window_module.ScreenBuffer(window, (64, 48), channels=channels, dtype=dtype)
        pixels = np.zeros((48, 64, channels), dtype=dtype)
        full = 255 if dtype == "uint8" else 1.0
        pixels[:, :, 0] = full
        pixels[0, 5, 1] = full  # row 0 is the bottom row, as GL has it
        screen.upload(pixels)
        screen.blit()
        image = screen.read()  # top row first
        assert image.shape == (48, 64, 4)
        assert np.all(image[:, :, 0] == 255)
        assert image[47, 5, 1] == 255 and image[46, 5, 1] == 0 and image[47, 6, 1] == 0


def test_wrong_shapes_and_formats_are_input_errors():
    with headless_window() as window:
        with pytest.raises(pcv.InputError):
            window_module.ScreenBuffer(window, (64, 48), channels=2)
        screen = window_module.ScreenBuffer(window, (64, 48), channels=3)
        with pytest.raises(pcv.InputError):
            screen.upload(np.zeros((48, 64, 4), dtype=np.uint8))
        with pytest.raises(pcv.InputError):
            window_module.GlBuffer(window, 0)


def test_objects_outliving_their_window_say_it_is_closed():
    with headless_window() as window:
        screen = window_module.ScreenBuffer(window, (16, 16))
        buffer = window_module.GlBuffer(window, 1024)
        assert buffer.id != 0 and buffer.bytes == 1024
    with pytest.raises(pcv.InputError):
        screen.read()
    with pytest.raises(pcv.InputError):
        buffer.map()


def test_mapping_without_a_cuda_device_is_unavailable():
    if "cuda" in pcv.backends() and pcv_cuda_usable():
        pytest.skip("a CUDA device is present")
    with headless_window() as window:
        with pytest.raises(pcv.UnavailableError):
            window_module.GlBuffer(window, 64).map()


def pcv_cuda_usable():
    try:
        pcv.render(np.zeros((1, 3)), size=(4, 4), backend="cuda")
        return True
    except pcv.Error:
        return False


def test_a_numba_kernel_writes_the_mapped_screen_buffer():
    if not hasattr(np, "row_stack"):  # numba releases that predate NumPy 2 still call it
        np.row_stack = np.vstack
    numba = pytest.importorskip("numba")
    from numba import cuda
    if not cuda.is_available():
        pytest.skip("no CUDA device")

    @cuda.jit
    def fill(pixels):
        y, x = cuda.grid(2)
        if y < pixels.shape[0] and x < pixels.shape[1]:
            pixels[y, x, 0] = x
            pixels[y, x, 1] = y
            pixels[y, x, 2] = 7

    with headless_window(size=(80, 60)) as window:
        screen = window_module.ScreenBuffer(window, (80, 60), channels=3)
        mapped = screen.map()
        assert mapped.__cuda_array_interface__["shape"] == (60, 80, 3)
        # cuda.grid(2)'s first index runs over the grid's first dimension: 4 blocks of 16 cover
        # the 60 rows, 5 the 80 columns.
        fill[(4, 5), (16, 16)](cuda.as_cuda_array(mapped))
        cuda.synchronize()
        screen.blit()
        image = screen.read()[::-1]  # row 0 at the bottom again
        xs, ys = np.meshgrid(np.arange(80), np.arange(60))
        assert np.array_equal(image[:, :, 0], xs) and np.array_equal(image[:, :, 1], ys)
        assert np.all(image[:, :, 2] == 7)
