"""Type stub of the pcv package (the extension module pcv._pcv, re-exported)."""

import os
from typing import Any, Literal, Sequence, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

class Error(RuntimeError):
    """Base of every error pcv raises; the message says what, where and why."""

class InputError(Error, ValueError):
    """A file or argument is malformed: the message names the file, the byte offset or line."""

class OutOfMemoryError(Error, MemoryError):
    """Not enough host or GPU memory for what was asked; the message names the sizes."""

class UnavailableError(Error):
    """A capability is missing on this machine or in this build (no CUDA device ...)."""

PathLike = Union[str, os.PathLike[str]]

class LengthUnit(TypedDict):
    name: str  # "metre", "US survey foot", "foot", "degree", ...
    symbol: str  # "m", "ftUS", "ft", "deg", ...
    metres: float | None  # metres per unit; None for degrees

class CoordinateSystem(TypedDict):
    label: str
    name: str | None
    wkt: str
    epsg: int | None
    vertical_epsg: int | None
    horizontal_unit: LengthUnit | None
    vertical_unit: LengthUnit | None

class FileInfo(TypedDict):
    format: str
    details: str
    point_count: int | None
    bounds: tuple[tuple[float, float, float], tuple[float, float, float]] | None
    origin: tuple[float, float, float]
    has_color: bool
    attributes: list[str]
    notes: list[str]
    warnings: list[str]
    crs: CoordinateSystem | None

def read(
    path: PathLike,
    *,
    fields: Sequence[str] | None = None,
    scan: int | None = None,
    bounds: tuple[Sequence[float], Sequence[float]] | None = None,
    resolution: float | None = None,
    decode: Literal["auto", "cuda", "cpu"] = "auto",
) -> dict[str, Any]:
    """A point cloud file as NumPy arrays: "xyz" (N x 3 float64, world), "origin" (3 float64),
    "offsets" (N x 3 float32 view), "rgb" (N x 3 uint8 view) when the file has colours, one
    array per attribute of the field's own type ("classification" uint8, "gps_time" float64,
    ...), and "point_format" (int) for LAS, LAZ and COPC files."""

def info(path: PathLike) -> FileInfo:
    """What the file's header declares, without decoding a point."""

RenderSource = Union[
    PathLike,
    Sequence[PathLike],
    dict[str, npt.NDArray[Any]],
    npt.ArrayLike,
    Any,  # an array in CUDA memory: __cuda_array_interface__ or __dlpack__ (drawn on the GPU)
]

def render(
    source: RenderSource,
    rgb: npt.ArrayLike | None = None,
    *,
    size: tuple[int, int] = (1280, 720),
    eye: tuple[float, float, float] | None = None,
    yaw: float = 0.0,
    pitch: float = 0.0,
    up: Literal["z", "y"] = "z",
    fov: float = 60.0,
    near: float | None = None,
    far: float | None = None,
    backend: Literal["auto", "cuda", "cpu"] = "auto",
    method: str | None = None,
    color: str = "rgb",
    color_map: Literal["viridis", "turbo", "grey", "gray"] | None = None,
    color_range: tuple[float, float] | None = None,
    point_size: int = 1,
    point_shape: Literal["square", "round"] = "square",
    world_size: float = 0.0,
    fill_holes: int = 0,
    edl: Literal["auto", "on", "off"] = "auto",
    edl_strength: float = 1.0,
    edl_radius: int = 1,
    hq: bool = False,
    background: tuple[int, int, int] = (0, 0, 0),
    background_top: tuple[int, int, int] | None = None,
    scan: int | None = None,
    point_budget: int = 0,
    in_core: bool = False,
    time_limit: float = 600.0,
) -> npt.NDArray[np.uint8]:
    """An (height, width, 4) uint8 RGBA image of the source, top row first, as `pcv render`
    draws it."""

def write(
    path: PathLike,
    data: dict[str, Any] | npt.ArrayLike,
    rgb: npt.ArrayLike | None = None,
) -> int:
    """Writes LAS, LAZ or COPC (by the name: *.las, *.laz, *.copc.laz) keeping the dict's
    "point_format" and every attribute (LAS fields in place, others as extra bytes); colours
    uint8, uint16 or floats in 0..1. Returns the points written."""

def classify(
    xyz: dict[str, Any] | npt.ArrayLike,
    *,
    ground: bool = True,
    noise: bool = True,
    cell: float = 1.0,
    slope: float = 0.15,
    window: float = 18.0,
    threshold: float = 0.5,
    scalar: float = 1.25,
    noise_radius: float = 2.0,
    noise_neighbours: int = 2,
) -> npt.NDArray[np.uint8]:
    """LAS classes of the points (N x 3 world positions, or pcv.read's dict): 2 ground (SMRF),
    7 isolated points (noise), 1 the rest; the same points in any order get the same classes."""

class Renderer:
    """A renderer kept across frames: sets added once, drawn from any camera."""

    def __init__(
        self, size: tuple[int, int] = (1280, 720), backend: Literal["auto", "cuda", "cpu"] = "auto"
    ) -> None: ...
    def add(
        self,
        source: RenderSource,
        rgb: npt.ArrayLike | None = None,
        *,
        color: str = "rgb",
        color_map: Literal["viridis", "turbo", "grey", "gray"] | None = None,
        color_range: tuple[float, float] | None = None,
    ) -> int:
        """Adds a set (read, coloured, laid out); returns its id."""
    def remove(self, set: int) -> None: ...
    def clear(self) -> None: ...
    @property
    def sets(self) -> list[int]: ...
    @property
    def point_count(self) -> int: ...
    @property
    def backend(self) -> str: ...
    @property
    def size(self) -> tuple[int, int]: ...
    @property
    def bounds(self) -> tuple[tuple[float, float, float], tuple[float, float, float]] | None: ...
    @property
    def last_timings(self) -> dict[str, float]:
        """Milliseconds of the last render() by stage: "frame", then "copy" (cuda)."""
    def render(
        self,
        *,
        eye: tuple[float, float, float] | None = None,
        yaw: float = 0.0,
        pitch: float = 0.0,
        up: Literal["z", "y"] = "z",
        fov: float = 60.0,
        near: float | None = None,
        far: float | None = None,
        method: str | None = None,
        point_size: int = 1,
        point_shape: Literal["square", "round"] = "square",
        world_size: float = 0.0,
        fill_holes: int = 0,
        edl: Literal["auto", "on", "off"] = "auto",
        edl_strength: float = 1.0,
        edl_radius: int = 1,
        hq: bool = False,
        background: tuple[int, int, int] = (0, 0, 0),
        background_top: tuple[int, int, int] | None = None,
    ) -> npt.NDArray[np.uint8]:
        """An (height, width, 4) uint8 RGBA image of every set, top row first."""

class Server:
    """A running `pcv serve` (pcv.serve): its URL; stop() ends it; inline in Jupyter."""

    url: str
    def stop(self) -> None: ...
    def __enter__(self) -> Server: ...
    def __exit__(self, *exc: object) -> None: ...
    def _repr_html_(self, height: int = 480) -> str: ...

def serve(
    source: RenderSource | None = None,
    rgb: npt.ArrayLike | None = None,
    *,
    port: int = 0,
    bind: str = "127.0.0.1",
    backend: Literal["auto", "cuda", "vulkan", "cpu"] | None = None,
    token_file: str | os.PathLike[str] | None = None,
    args: Sequence[str] = (),
) -> Server:
    """Serves files or points to web browsers (`pcv serve`); returns the running server."""

def view(
    source: RenderSource | None = None,
    rgb: npt.ArrayLike | None = None,
    *,
    size: tuple[int, int] | None = None,
    eye: tuple[float, float, float] | None = None,
    yaw: float | None = None,
    pitch: float | None = None,
    backend: Literal["auto", "cuda", "cpu"] | None = None,
    args: Sequence[str] = (),
    wait: bool = True,
) -> Any:
    """Opens pcv's window (pcv-view) on files or points; with wait, returns its exit status."""

def backends() -> list[str]:
    """The backends that can render here: "cuda" (with a usable GPU) and "cpu"."""
