"""pcv: read, describe and render point clouds from Python.

    import pcv
    cloud = pcv.read("tile.laz")              # dict of NumPy arrays: xyz, rgb, intensity ...
    pcv.info("tile.laz")["point_count"]       # from the header alone
    image = pcv.render("tile.laz", size=(800, 600))   # (600, 800, 4) uint8 RGBA
    image = pcv.render(cloud["xyz"], cloud.get("rgb"))
    pcv.write("copy.copc.laz", cloud)             # LAS, LAZ or COPC by the name
    classes = pcv.classify(cloud["xyz"])          # 2 ground, 7 noise, 1 the rest (uint8)
    renderer = pcv.Renderer(size=(800, 600))      # sets added once, frames from any camera
    pcv.view(cloud)                               # pcv's window (pcv-view) on the points
    server = pcv.serve("tiles/")                  # browsers see it at server.url (inline in Jupyter)

The module binds pcv's C++ session layer: the same readers, scene and renderer as the `pcv`
command, on the CUDA backend when a GPU is usable and on the CPU otherwise.
"""

from ._pcv import (
    Error,
    InputError,
    OutOfMemoryError,
    Renderer,
    UnavailableError,
    __version__,
    backends,
    classify,
    info,
    read,
    render,
    write,
)
from ._serve import Server, serve
from ._view import view

__all__ = [
    "Error",
    "InputError",
    "OutOfMemoryError",
    "Renderer",
    "Server",
    "UnavailableError",
    "__version__",
    "backends",
    "classify",
    "info",
    "read",
    "render",
    "serve",
    "view",
    "write",
]
