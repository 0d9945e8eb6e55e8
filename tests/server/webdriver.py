"""A small WebDriver client: chromedriver's HTTP JSON API over urllib, headless Chromium.

Only what the browser tests need (sessions, navigation, scripts, pointer actions, clicks), so
the tests run with the standard library and Debian's chromium and chromium-driver packages.
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

from owned_process import OwnedProcess

ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"  # the W3C name of an element reference
TAB = "\ue004"  # WebDriver's code of the Tab key
HOME = "\ue011"


def find_browser():
    """Paths of chromium and chromedriver, or None where either is missing."""
    chromium = os.environ.get("PCV_CHROMIUM") or next(
        (p for p in ("/usr/lib/chromium/chromium", shutil.which("chromium"),
                     shutil.which("chromium-browser"), shutil.which("google-chrome"))
         if p and os.access(p, os.X_OK)), None)
    driver = os.environ.get("PCV_CHROMEDRIVER") or shutil.which("chromedriver")
    if not all(p and os.access(p, os.X_OK) for p in (chromium, driver)):
        return None
    return chromium, driver


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriverError(RuntimeError):
    pass


def _request(method, url, body=None, timeout=60):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        # WebDriver answers failures with a JSON body: {"value": {"error", "message"}}
        detail = json.loads(error.read() or b"{}").get("value", {})
        raise WebDriverError(f"{method} {url}: {detail.get('error')}: {detail.get('message')}")


class ChromeDriver(OwnedProcess):
    """A chromedriver process on a loopback port; sessions are headless Chromium windows."""

    def __init__(self, chromium, driver):
        self.chromium = chromium
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen([driver, f"--port={self.port}"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                if _request("GET", self.url + "/status", timeout=2)["value"]["ready"]:
                    break
            except (OSError, WebDriverError, KeyError):
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise WebDriverError("chromedriver did not start")
            time.sleep(0.1)

    def session(self, width=800, height=600, scale=1):
        return Session(self, width, height, scale)



class Session:
    """One browser window."""

    def __init__(self, driver, width, height, scale):
        args = ["--headless=new", "--no-sandbox", "--disable-gpu",
                f"--window-size={width},{height}",
                f"--force-device-scale-factor={scale}", "--force-color-profile=srgb",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions"]
        capabilities = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": driver.chromium, "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}}
        answer = _request("POST", driver.url + "/session", capabilities)
        self.url = f"{driver.url}/session/{answer['value']['sessionId']}"

    def _call(self, method, path, body=None):
        return _request(method, self.url + path, body)["value"]

    def get(self, url):
        self._call("POST", "/url", {"url": url})

    def execute(self, script, *args):
        """Runs a function body in the page and returns what it returns (JSON-able)."""
        return self._call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def execute_async(self, script, *args):
        """As execute; the script ends by calling arguments[arguments.length - 1](result)."""
        return self._call("POST", "/execute/async", {"script": script, "args": list(args)})

    def resize(self, width, height):
        """Sets the window's outer size in CSS pixels."""
        self._call("POST", "/window/rect", {"width": width, "height": height})

    def find(self, css):
        return self._call("POST", "/element", {"using": "css selector", "value": css})[ELEMENT_KEY]

    def click(self, css):
        self._call("POST", f"/element/{self.find(css)}/click", {})

    def drag(self, x, y, dx, dy, button=0, steps=10):
        """Presses a mouse button at viewport (x, y), moves by (dx, dy) in steps, releases."""
        moves = [{"type": "pointerMove", "duration": 20, "origin": "pointer",
                  "x": round(dx * (i + 1) / steps) - round(dx * i / steps),
                  "y": round(dy * (i + 1) / steps) - round(dy * i / steps)} for i in range(steps)]
        self._call("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": "viewport",
                         "x": x, "y": y},
                        {"type": "pointerDown", "button": button}, *moves,
                        {"type": "pointerUp", "button": button}]}]})
        self._call("DELETE", "/actions")

    def screenshot(self):
        """The window's pixels as PNG bytes."""
        return base64.b64decode(self._call("GET", "/screenshot"))

    def console(self):
        """The page's console messages and uncaught errors since the last call:
        [{level, message}]."""
        return self._call("POST", "/se/log", {"type": "browser"})

    def touch(self, fingers, steps=10):
        """Touches the screen with one finger per (x, y, dx, dy): down at (x, y), moved by
        (dx, dy) in steps, lifted; the fingers move together."""
        sources = []
        for index, (x, y, dx, dy) in enumerate(fingers):
            moves = [{"type": "pointerMove", "duration": 20, "origin": "viewport",
                      "x": round(x + dx * (i + 1) / steps), "y": round(y + dy * (i + 1) / steps)}
                     for i in range(steps)]
            sources.append({
                "type": "pointer", "id": f"finger{index}", "parameters": {"pointerType": "touch"},
                "actions": [{"type": "pointerMove", "duration": 0, "origin": "viewport",
                             "x": x, "y": y},
                            {"type": "pointerDown", "button": 0}, *moves,
                            {"type": "pointerUp", "button": 0}]})
        self._call("POST", "/actions", {"actions": sources})
        self._call("DELETE", "/actions")

    def click_at(self, x, y):
        """A left click at viewport (x, y)."""
        self.drag(x, y, 0, 0, steps=0)

    def double_click_at(self, x, y):
        """Two left clicks at viewport (x, y), quickly enough to be a double-click."""
        click = [{"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]
        self._call("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": "viewport",
                         "x": x, "y": y}, *click, *click]}]})
        self._call("DELETE", "/actions")

    def scroll(self, x, y, delta_y):
        """The wheel at viewport (x, y); negative delta_y scrolls up (towards the scene)."""
        self._call("POST", "/actions", {"actions": [{
            "type": "wheel", "id": "wheel", "actions": [{
                "type": "scroll", "origin": "viewport", "x": x, "y": y,
                "deltaX": 0, "deltaY": delta_y, "duration": 0}]}]})

    def press(self, key, hold_s=0.0):
        """Presses and releases a key (a character, or a WebDriver code such as TAB)."""
        self._keys([{"type": "keyDown", "value": key},
                    {"type": "pause", "duration": int(hold_s * 1000)},
                    {"type": "keyUp", "value": key}])

    def key_down(self, key):
        """Presses a key and leaves it down (release_actions lets it go)."""
        self._keys([{"type": "keyDown", "value": key}])

    def release_actions(self):
        """Releases every key and button the actions left down."""
        self._call("DELETE", "/actions")

    def _keys(self, actions):
        self._call("POST", "/actions", {"actions": [
            {"type": "key", "id": "keyboard", "actions": actions}]})

    def quit(self):
        try:
            _request("DELETE", self.url, timeout=30)
        except (OSError, WebDriverError):
            pass  # the browser is gone already
