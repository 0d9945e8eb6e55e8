"""pcv.serve: `pcv serve` on files or points, for browsers and notebooks."""

import html
import os
import subprocess
import threading

from ._pcv import Error, UnavailableError
from ._sources import find_executable, source_arguments


class Server:
    """A running `pcv serve`: its `url`, and `stop()`. In Jupyter the object shows the view
    inline (an iframe of the page). Stops when closed, used as a context manager, or collected."""

    def __init__(self, process, url, scratch):
        self.process = process
        self.url = url
        self._scratch = scratch

    def stop(self):
        """Stops the server and waits for it; removes the points written for it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def __del__(self):
        try:
            self.stop()
        except Exception:  # interpreter shutdown: nothing left to tidy
            pass

    def __repr__(self):
        return f"pcv.Server({self.url!r})"

    def _repr_html_(self, height=480):
        return (f'<iframe src="{html.escape(self.url)}" width="100%" height="{int(height)}" '
                'style="border:0" allow="clipboard-write"></iframe>')


def serve(source=None, rgb=None, *, port=0, bind="127.0.0.1", backend=None, token_file=None,
          args=()):
    """Serves files or points to web browsers, drawn on this machine's GPU (`pcv serve`).

    Args:
        source: a path, a list of paths (files, folders, .vpc, URLs), a dict as pcv.read returns
            it, or an N x 3 array of positions (with rgb, N x 3 uint8 colours); None serves the
            seed's cylinders. Points in arrays are written to a temporary LAZ file.
        port: TCP port; 0 takes a free one. bind: the address listened on (any but loopback
            requires a token, which the URL carries). token_file: the token to require.
        backend: as for pcv.render. args: more `pcv serve` options (["--points", "1000000"]).

    Returns:
        a pcv.Server: `url` to open; `stop()`. In Jupyter, the object shows the view inline.

    Raises:
        pcv.UnavailableError: pcv, or its serve command, cannot be found.
        pcv.Error: the server did not start (its message says why).
    """
    pcv = find_executable("pcv", "PCV_EXECUTABLE", __file__)
    # A pcv without the command would take "serve" for a file to view: ask its help first.
    commands = subprocess.run([pcv, "--help"], capture_output=True, text=True).stdout
    if not any(line.split()[:1] == ["serve"] for line in commands.splitlines()):
        raise UnavailableError(f"{pcv} was built without its serve command (Boost, OpenSSL)")
    command = [pcv, "serve", "--port", str(int(port)), "--bind", str(bind)]
    if backend is not None:
        command += ["--backend", str(backend)]
    if token_file is not None:
        command += ["--token-file", os.fspath(token_file)]
    command += [str(a) for a in args]
    sources, scratch = source_arguments(source, rgb, "pcv-serve-")
    command += sources
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    # The URL is the first line pcv serve prints, once it listens.
    url = process.stdout.readline().strip()
    if not url.startswith(("http://", "https://")):
        errors = process.stderr.read() if process.poll() is not None else ""
        process.kill()
        process.wait()
        if scratch is not None:
            scratch.cleanup()
        raise Error("pcv serve did not start: " + (errors.strip() or "no URL printed"))
    # The server's report goes on; read it away so a full pipe never blocks the server.
    for stream in (process.stdout, process.stderr):
        _drain(stream)
    return Server(process, url, scratch)


def _drain(stream):
    """Reads `stream` to its end on a thread of its own."""

    def read_all():
        for _ in stream:
            pass

    threading.Thread(target=read_all, daemon=True).start()
