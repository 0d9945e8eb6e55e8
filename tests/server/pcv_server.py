"""Runs `pcv serve` for a test: loopback only, stops by itself when idle, killed at the end."""

import queue
import subprocess
import threading
import urllib.parse

from owned_process import OwnedProcess


class PcvServer(OwnedProcess):
    """`pcv serve ARGS...`; its URL is the first line it prints. Use as a context manager."""

    def __init__(self, pcv, *args, port=0, points=200000, startup_s=120):
        command = [pcv, "serve", "--port", str(port), "--exit-when-idle", "20"]
        if points:
            command += ["--points", str(points)]
        self.process = subprocess.Popen(command + list(args), stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.output = []  # everything it printed, for the failure message
        lines = queue.Queue()
        # Both pipes are read to the end, so a chatty server never blocks on a full pipe.
        for stream in (self.process.stdout, self.process.stderr):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()
        try:
            self.url = lines.get(timeout=startup_s).strip()
        except queue.Empty:
            self.stop()
            raise RuntimeError(f"pcv serve printed no URL in {startup_s} s: {self.log()}")
        if not self.url.startswith("http"):
            self.stop()
            raise RuntimeError(f"pcv serve did not start: {self.log()}")
        parts = urllib.parse.urlsplit(self.url)
        self.origin = f"{parts.scheme}://{parts.netloc}"  # http://127.0.0.1:PORT
        self.host, self.port = parts.hostname, parts.port
        self.token = urllib.parse.parse_qs(parts.query).get("token", [None])[0]

    def _read(self, stream, lines):
        for line in stream:
            self.output.append(line)
            if stream is self.process.stdout:
                lines.put(line)
        if stream is self.process.stdout:
            lines.put("")  # ended without a URL: the constructor reports the output

    def log(self):
        return "".join(self.output)[-4000:]
