"""What the browser tests read from and do to the page of `pcv serve`: its state (window.pcv),
the canvas pixels, the address, its form controls; waits with timeouts that fail the test.
"""

import base64
import json
import shlex
import time
from array import array


class TestFailure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise TestFailure(message)


def wait_for(session, expression, what, timeout_s=60):
    """Polls a JavaScript expression in the page until it is truthy; returns its value."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = session.execute(f"return {expression};")
        if value:
            return value
        if time.monotonic() > deadline:
            raise TestFailure(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(0.05)


def wait_until(predicate, what, timeout_s=30):
    """Polls a Python predicate (slower ones than wait_for's JavaScript) until it holds."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise TestFailure(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(0.2)


def final_frame(session, after=0, where=None, what="", timeout_s=60):
    """The frame shown (window.pcv.shown: frame, width, height, format, final, status) once it
    is a still view's final frame of the size the page asked for, newer than frame `after`, for
    which `where(frame)` holds."""
    deadline = time.monotonic() + timeout_s
    while True:
        shown, size = session.execute(
            "return window.pcv ? [pcv.shown, pcv.viewSize] : [null, null];")
        if (shown and shown["final"] and shown["frame"] > after and shown["status"]
                and size and (shown["width"], shown["height"]) == (size["width"], size["height"])
                and (where is None or where(shown))):
            return shown
        if time.monotonic() > deadline:
            raise TestFailure(f"timed out after {timeout_s} s waiting for a final frame after "
                              f"frame {after} {what}; shown: {shown}")
        time.sleep(0.05)


def current_final_frame(session):
    """The frame shown once it is final: the still view before an action."""
    return final_frame(session, 0)


def camera_of(frame):
    return frame["status"]["camera"]


def canvas_pixels(session):
    """(width, height, RGBA bytes) of the canvas, read back through getImageData."""
    answer = session.execute("""
        const canvas = document.getElementById('view');
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let text = '';
        for (let i = 0; i < data.length; i += 0x8000) {
          text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
        }
        return [canvas.width, canvas.height, btoa(text)];""")
    return answer[0], answer[1], base64.b64decode(answer[2])


def drawn_fraction(rgba):
    """The fraction of pixels that differ from the top-left one (the background)."""
    words = array("I", rgba)
    background = words[0]
    return sum(1 for w in words if w != background) / max(1, len(words))


def page_errors(session):
    """Uncaught errors and failed loads the page logged (its own console, level SEVERE)."""
    return [entry["message"] for entry in session.console() if entry.get("level") == "SEVERE"]


def wait_for_view_in_address(session, camera):
    """Waits until the address ends in the #view of `camera`; returns the address."""
    numbers = camera["eye"] + [camera["yaw"], camera["pitch"], camera["fov"]]
    return wait_for(session, f"location.hash.startsWith('#view=') && "
                             f"location.hash.slice(6).split(',').map(Number).join() === "
                             f"{json.dumps(numbers)}.join() && location.href",
                    f"the view {numbers} in the address")


def command_option(frame, name):
    """The value of option `name` in the frame's `pcv render` command, or None."""
    command = shlex.split(frame["status"]["command"])
    return command[command.index(name) + 1] if name in command else None


def drawn_pixels(width, height, rgba, x_limit, count):
    """Up to `count` pixels (x, y) inside a 5x5 block of drawn pixels, left of x_limit, spread
    over the image: places where a click surely lands on a point."""
    words = array("I", rgba)
    background = words[0]
    found = []
    for y in range(2, height - 2, 7):
        for x in range(2, min(width, x_limit) - 2, 7):
            if all(words[(y + j) * width + x + i] != background
                   for j in range(-2, 3) for i in range(-2, 3)):
                found.append((x, y))
    step = max(1, len(found) // count)
    return found[::step][:count]


def state_of(session, expression):
    return session.execute(f"return {expression};")


def choose(session, css, value):
    """Sets a form control as a user would and tells the page (change event)."""
    session.execute("""const control = document.querySelector(arguments[0]);
                       control.value = arguments[1];
                       control.dispatchEvent(new Event('change', {bubbles: true}));""", css, value)
