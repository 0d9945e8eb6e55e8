"""pcv.view: pcv's window on arrays and files, under Xvfb (skipped without it or the viewer)."""

import os
import shutil
import subprocess

import numpy as np
import pytest

import pcv

from conftest import decode_png


@pytest.fixture
def display(tmp_path, monkeypatch):
    """An Xvfb server on a display it picks itself; DISPLAY points at it."""
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        pytest.skip("Xvfb is not installed")
    if not os.environ.get("PCV_VIEW"):
        pytest.skip("PCV_VIEW does not name a built pcv-view")
    read_end, write_end = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write_end), "-screen", "0", "800x600x24",
                               "-nolisten", "tcp"], pass_fds=(write_end,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    number = b""
    with os.fdopen(read_end, "rb") as pipe:
        while not number.endswith(b"\n"):
            chunk = pipe.read(1)
            if not chunk:
                break
            number += chunk
    if not number.strip():
        server.kill()
        pytest.skip("Xvfb did not start")
    monkeypatch.setenv("DISPLAY", ":" + number.decode().strip())
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    yield
    server.terminate()
    server.wait(timeout=10)


def test_views_arrays_in_the_window(display, tmp_path):
    points = np.random.default_rng(2).uniform(-1.0, 1.0, size=(5000, 3))
    colours = np.tile(np.array([[0, 200, 0]], dtype=np.uint8), (len(points), 1))
    shot = tmp_path / "shot.png"
    script = tmp_path / "script.txt"
    script.write_text(f"0.1 screenshot {shot}\n0.2 quit\n")
    status = pcv.view(points, colours, size=(320, 240), backend="cpu",
                      args=["--frame-dt", "0.02", "--frames", "200", "--script", str(script)])
    assert status == 0
    image = decode_png(shot)
    shown = image[np.any(image[:, :, :3] != 0, axis=2)][:, :3]
    assert len(shown) > 0
    assert np.all(shown == [0, 200, 0])  # the array's own colours reached the window


def test_a_missing_viewer_raises_unavailable_error(monkeypatch):
    monkeypatch.setenv("PCV_VIEW", "")
    monkeypatch.setenv("PATH", "")
    import pcv._view
    monkeypatch.setattr(pcv._view, "__file__", "/nonexistent/a/b/_view.py")
    with pytest.raises(pcv.UnavailableError):
        pcv.view([[0.0, 0.0, 0.0]])
