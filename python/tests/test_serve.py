"""pcv.serve: a running `pcv serve` on files or points, its URL, its page, and its end."""

import urllib.error
import urllib.request

import numpy as np
import pytest

import pcv


def _serve_or_skip(*args, **kwargs):
    try:
        return pcv.serve(*args, **kwargs)
    except pcv.UnavailableError as error:
        pytest.skip(str(error))


def test_the_cylinders_are_served_at_the_url_until_stopped():
    server = _serve_or_skip(args=["--points", "20000", "--backend", "cpu"])
    with server:
        assert server.url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(server.url, timeout=10) as answer:
            assert answer.status == 200
            assert b"<canvas" in answer.read()
        assert server.url in server._repr_html_()
    assert server.process.poll() is not None  # stopped
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(server.url, timeout=5)


def test_points_in_arrays_are_served_and_their_file_removed_after():
    rng = np.random.default_rng(3)
    xyz = rng.uniform(0.0, 10.0, size=(5000, 3))
    server = _serve_or_skip(xyz, args=["--backend", "cpu"])
    scratch = server._scratch.name
    with server:
        with urllib.request.urlopen(server.url, timeout=10) as answer:
            assert answer.status == 200
    import os
    assert not os.path.exists(scratch)


def test_a_token_file_is_required_of_every_request(tmp_path):
    token = tmp_path / "token"
    token.write_text("abcdefghijklmnop-0123\n")
    server = _serve_or_skip(args=["--points", "20000", "--backend", "cpu"], token_file=token)
    with server:
        assert server.url.endswith("?token=abcdefghijklmnop-0123")
        bare = server.url.split("?")[0]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bare, timeout=10)
        assert refused.value.code == 401
        with urllib.request.urlopen(server.url, timeout=10) as answer:
            assert answer.status == 200


def test_a_server_that_cannot_start_says_why(tmp_path):
    with pytest.raises(pcv.Error):
        _serve_or_skip(str(tmp_path / "missing.laz"), args=["--backend", "cpu"])


def test_https_with_a_certificate_and_its_key(tmp_path):
    import shutil
    import ssl
    import subprocess
    if not shutil.which("openssl"):
        pytest.skip("no openssl command to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server = _serve_or_skip(args=["--points", "20000", "--backend", "cpu", "--cert", str(cert),
                                  "--key", str(key)])
    with server:
        assert server.url.startswith("https://127.0.0.1:")
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False  # the certificate names the address, not a host name
        with urllib.request.urlopen(server.url, timeout=10, context=context) as answer:
            assert answer.status == 200
            assert b"<canvas" in answer.read()
        # Plain HTTP to the TLS port gets no page.
        with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
            urllib.request.urlopen(server.url.replace("https://", "http://"), timeout=5).read()


def test_a_key_without_its_certificate_is_refused(tmp_path):
    key = tmp_path / "key.pem"
    key.write_text("not a key")
    with pytest.raises(pcv.Error):
        _serve_or_skip(args=["--points", "20000", "--backend", "cpu", "--key", str(key)])
