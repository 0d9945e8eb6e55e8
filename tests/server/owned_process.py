"""A child process a test helper owns: ended (terminate, then kill) when the helper stops or
leaves its `with` block."""

import subprocess


class OwnedProcess:
    """Base of the helpers that run a process in `self.process`."""

    process: subprocess.Popen

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
