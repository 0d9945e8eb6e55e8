"""What pcv.view and pcv.serve hand their executable: paths as they are, points as a file."""

import os
import tempfile
from pathlib import Path

from ._pcv import write


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
