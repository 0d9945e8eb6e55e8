"""pcv.view: pcv's window (pcv-view) on files or on points held in arrays."""

import subprocess

from ._sources import find_executable, source_arguments


def _viewer():
    """pcv-view: $PCV_VIEW, else on PATH, else beside the package in a build tree."""
    return find_executable("pcv-view", "PCV_VIEW", __file__,
                           ": pcv was built without its viewer, or it is not on PATH")


def view(source=None, rgb=None, *, size=None, eye=None, yaw=None, pitch=None, backend=None,
         args=(), wait=True):
    """Opens pcv's window on files or points, as `pcv view` does.

    Args:
        source: a path, a list of paths, a dict as pcv.read returns it, or an N x 3 array of
            positions (with rgb, N x 3 uint8 colours); None shows the seed's cylinders.
            Points in arrays are written to a temporary LAZ file the window opens.
        size: (width, height) of the window. eye, yaw, pitch, backend: as for pcv.render.
        args: more pcv-view options, as on its command line (["--color", "intensity"]).
        wait: True returns the window's exit status once it is closed (the GIL is free
            meanwhile); False returns the running subprocess.Popen at once.

    Raises:
        pcv.UnavailableError: pcv-view cannot be found.
    """
    command = [_viewer()]
    if size is not None:
        command += ["--size", f"{int(size[0])}x{int(size[1])}"]
    if eye is not None:
        command += ["--eye", ",".join(repr(float(v)) for v in eye)]
    if yaw is not None:
        command += ["--yaw", repr(float(yaw))]
    if pitch is not None:
        command += ["--pitch", repr(float(pitch))]
    if backend is not None:
        command += ["--backend", str(backend)]
    command += [str(a) for a in args]
    sources, scratch = source_arguments(source, rgb, "pcv-view-")
    command += sources
    if not wait:
        process = subprocess.Popen(command)
        process.pcv_scratch = scratch  # removed when the Popen object goes
        return process
    try:
        return subprocess.run(command, check=False).returncode
    finally:
        if scratch is not None:
            scratch.cleanup()
