"""The seed's two reusable pieces, for your own realtime software rendering from Python.

    from pcv.window import Window, ScreenBuffer, GlBuffer
    with Window(size=(1280, 720)) as window:             # GLFW, or headless=True (EGL)
        screen = ScreenBuffer(window, (1280, 720), channels=3)
        while not window.should_close:
            window.poll_events()
            pixels = screen.map()                       # __cuda_array_interface__, (h, w, 3)
            my_kernel(numba.cuda.as_cuda_array(pixels))  # or cupy.asarray(pixels) ...
            screen.blit()                               # unmaps, then PBO -> texture -> window
            window.swap_buffers()

`GlBuffer(window, bytes).map(dtype, shape)` maps any GL buffer into CUDA the same way (the seed's
OpenglBufferInCuda), mapped only until `unmap()`, so GL never reads it while CUDA writes.
examples/python/seed_numba.py runs the seed's own numba kernels on these pieces.
"""

from ._window import GlBuffer, MappedArray, ScreenBuffer, Window

__all__ = ["GlBuffer", "MappedArray", "ScreenBuffer", "Window"]
