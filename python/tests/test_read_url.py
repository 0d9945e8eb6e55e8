"""pcv.read of a URL: the file read by HTTP range requests from a server on loopback gives the
same points as the file on disk; a missing URL raises pcv.InputError."""

import http.server
import threading

import numpy as np
import pytest

import pcv


class RangeHandler(http.server.BaseHTTPRequestHandler):
    """Serves the files of `server.files` (name -> bytes), honouring one byte range."""

    def do_GET(self):
        data = self.server.files.get(self.path.lstrip("/"))
        if data is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        first, last = 0, len(data) - 1
        wanted = self.headers.get("Range", "")
        if wanted.startswith("bytes="):
            start, _, end = wanted[6:].partition("-")
            first = int(start)
            last = min(last, int(end)) if end else last
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {first}-{last}/{len(data)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(last - first + 1))
        self.send_header("ETag", '"1"')
        self.end_headers()
        self.wfile.write(data[first:last + 1])

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RangeHandler)
    httpd.files = {}
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def test_a_url_reads_as_the_file(utm_las, tmp_path, server):
    path = tmp_path / "tile.copc.laz"
    pcv.write(path, pcv.read(utm_las["path"]))
    server.files["tile.copc.laz"] = path.read_bytes()
    url = f"http://127.0.0.1:{server.server_address[1]}/tile.copc.laz"
    local, remote = pcv.read(path), pcv.read(url)
    np.testing.assert_array_equal(np.sort(remote["xyz"], axis=0), np.sort(local["xyz"], axis=0))
    assert pcv.info(url)["point_count"] == len(local["xyz"])


def test_a_missing_url_raises_input_error(server):
    with pytest.raises(pcv.InputError):
        pcv.read(f"http://127.0.0.1:{server.server_address[1]}/missing.laz")
