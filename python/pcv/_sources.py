"""What pcv.view and pcv.serve run and hand it: the executable, paths as they are, points as a
file."""

import os
import shutil
import tempfile
from pathlib import Path

from ._pcv import UnavailableError, write


def find_executable(name, variable, module_file, why_missing=""):
    """`name` (pcv, pcv-view): $`variable`, else on PATH, else beside the package whose module
    `module_file` is, in a build tree (build/python/pcv/x.py: build/app/`name`).

    Raises pcv.UnavailableError, with `why_missing` added, when none is found.
    """
    named = os.environ.get(variable)
    if named:
        return named
    found = shutil.which(name)
    if found:
        return found
    beside = Path(module_file).resolve().parents[2] / "app" / name
    if beside.exists():
        return str(beside)
    raise UnavailableError(f"{name} is not installed (nor named by ${variable}){why_missing}")


def _is_path(item):
    return isinstance(item, (str, os.PathLike))


def source_arguments(source, rgb, prefix):
    """The command-line arguments naming `source`, and the temporary directory holding the file
    written for points in arrays (None for paths; the caller removes it with cleanup()).

    source: None (no argument: the cylinders), a path, a list of paths, a dict as pcv.read
    returns it, or an N x 3 array of positions (with rgb, N x 3 uint8 colours).
    """
    if source is None:
        return [], None
    if _is_path(source):
        return [os.fspath(source)], None
    if isinstance(source, (list, tuple)) and source and all(_is_path(s) for s in source):
        return [os.fspath(s) for s in source], None
    scratch = tempfile.TemporaryDirectory(prefix=prefix)
    points = Path(scratch.name) / "points.laz"
    write(points, source, rgb)
    return [str(points)], scratch
