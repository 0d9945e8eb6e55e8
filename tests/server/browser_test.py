#!/usr/bin/env python3
"""The page of `pcv serve` in headless Chromium, against the real server on loopback.

    browser_test.py PCV_EXECUTABLE CASE

Exit status 0: passed; 1: failed; 77: skipped (no chromium or chromedriver). Each case reads
the page's state (window.pcv), the canvas pixels and HTTP status codes, never message text.
"""

import base64
import http.client
import os
import secrets
import shlex
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import ExitStack

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png  # noqa: E402
import webdriver  # noqa: E402
from page_state import (camera_of, canvas_pixels, check, choose,  # noqa: E402
                        command_option, current_final_frame, drawn_fraction, drawn_pixels,
                        final_frame, page_errors, state_of, wait_for, wait_for_view_in_address,
                        wait_until)
from pcv_server import PcvServer  # noqa: E402

SKIPPED = 77
WINDOW = (900, 700)
SERVERS = []  # every server a case started, whose output a failure shows


class Skipped(Exception):
    pass


def drag_view(session, dx, dy, button=0):
    """Drags over the left part of the view, clear of the panel on the right."""
    session.drag(WINDOW[0] // 3, WINDOW[1] // 3, dx, dy, button)


def start_server(stack, pcv, *args, port=0, points=200000):
    server = stack.enter_context(PcvServer(pcv, *args, port=port, points=points))
    SERVERS.append(server)
    return server


def browser_windows(stack, browser, count, scale=1):
    """`count` headless browser windows of one chromedriver, closed when the case ends."""
    driver = stack.enter_context(webdriver.ChromeDriver(*browser))
    windows = []
    for _ in range(count):
        windows.append(driver.session(*WINDOW, scale=scale))
        stack.callback(windows[-1].quit)
    return windows


# ---- Cases ----------------------------------------------------------------------------------


def page_shows_frames_and_follows_the_mouse(pcv, browser, tmp, stack):
    server = start_server(stack, pcv)
    session, = browser_windows(stack, browser, 1)
    session.get(server.url)
    before = final_frame(session)
    check(before["width"] >= 16 and before["height"] >= 16, f"frame size {before}")
    width, height, pixels = canvas_pixels(session)
    check((width, height) == (before["width"], before["height"]),
          f"the canvas is {width}x{height}, the frame {before['width']}x{before['height']}")
    check(drawn_fraction(pixels) > 0.01, "the canvas is blank after the first frame")

    # Count the drag messages and the animation frames while dragging: one drag message per
    # animation frame at most, however many pointer events come.
    session.execute("""
        window.sent = [];
        const socketSend = pcv.socket.send.bind(pcv.socket);
        pcv.socket.send = (text) => { window.sent.push(JSON.parse(text)); socketSend(text); };
        window.animationFrames = 0;
        const count = () => { window.animationFrames += 1; requestAnimationFrame(count); };
        requestAnimationFrame(count);""")
    drag_view(session, 150, 40)
    after = final_frame(session, before["frame"])
    drags, frames = session.execute(
        "return [window.sent.filter(m => m.type === 'drag'), window.animationFrames];")
    check(0 < len(drags) <= frames + 1, f"{len(drags)} drag messages in {frames} animation frames")
    check(sum(d["dx"] for d in drags) == 150 and sum(d["dy"] for d in drags) == 40
          and all(d["button"] == "left" for d in drags),
          f"the drag messages do not add up to the mouse's move: {drags}")
    check(after["status"]["camera"] != before["status"]["camera"],
          f"the camera did not move with the mouse: {after['status']['camera']}")
    check(canvas_pixels(session)[2] != pixels, "the image did not change with the camera")
    wait_for(session, "location.hash.startsWith('#view=')", "the view in the address")
    check(page_errors(session) == [], f"the page logged errors: {page_errors(session)}")
    print(f"frames {before['frame']} -> {after['frame']}, camera {camera_of(after)}")


def lossless_frame_matches_pcv_render(pcv, browser, tmp, stack):
    server = start_server(stack, pcv)
    session, = browser_windows(stack, browser, 1)
    session.get(server.url)
    first = final_frame(session)
    session.click("#lossless")
    shown = final_frame(session, first["frame"], lambda s: s["format"] == "png", "in PNG")
    width, height, canvas = canvas_pixels(session)

    command = shlex.split(shown["status"]["command"])
    check(command[:2] == ["pcv", "render"], f"status.command is not `pcv render`: {command}")
    out = os.path.join(tmp, "render.png")
    if "--out" in command:
        command[command.index("--out") + 1] = out
    else:
        command += ["--out", out]
    subprocess.run([pcv] + command[1:], check=True, stdout=subprocess.DEVNULL)
    png_width, png_height, channels, rendered = png.read_png(out)
    check((png_width, png_height) == (width, height),
          f"pcv render drew {png_width}x{png_height}, the canvas is {width}x{height}")
    different = sum(1 for i in range(width * height)
                    if canvas[4 * i:4 * i + 3] != rendered[channels * i:channels * i + 3])
    check(different == 0, f"{different} of {width * height} pixels differ from pcv render's PNG")
    check(drawn_fraction(canvas) > 0.01, "the compared images are blank")
    print(f"{width}x{height}: the canvas equals `{shown['status']['command']}`")


def two_browsers_have_their_own_views(pcv, browser, tmp, stack):
    server = start_server(stack, pcv)
    first, second = browser_windows(stack, browser, 2)
    first.get(server.url)
    second.get(server.url)
    first_still = final_frame(first)
    second_still = final_frame(second)

    drag_view(second, -200, 60)
    second_moved = final_frame(second, second_still["frame"])
    first_now = final_frame(first)
    check(second_moved["status"]["camera"] != second_still["status"]["camera"],
          "the second browser's camera did not move")
    check(first_now["status"]["camera"] == first_still["status"]["camera"],
          f"the first browser's camera moved with the second's drag: {camera_of(first_now)}")
    check(canvas_pixels(first)[2] != canvas_pixels(second)[2],
          "both browsers show the same image after only one of them moved")
    print(f"first {first_now['status']['camera']}, second {second_moved['status']['camera']}")


def http_status(url, headers=None):
    """(status, headers) of a GET, without following redirects or raising on 4xx."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def websocket_status(server, query, origin=None):
    """The status of a WebSocket upgrade of /ws (101 when accepted), from the page's origin
    unless told otherwise."""
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    try:
        connection.request("GET", "/ws" + query, headers={
            "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": base64.b64encode(secrets.token_bytes(16)).decode(),
            "Origin": origin or server.origin})
        return connection.getresponse().status
    finally:
        connection.close()


def token_is_required(pcv, browser, tmp, stack):
    token = secrets.token_hex(16)
    token_file = os.path.join(tmp, "token")
    with open(token_file, "w") as f:
        f.write(token + "\n")
    server = start_server(stack, pcv, "--bind", "127.0.0.1", "--token-file", token_file)
    origin = server.origin

    for path in ("/", "/pcv.js", "/pcv.css"):
        check(http_status(origin + path)[0] == 401, f"{path} without a token is not 401")
        check(http_status(f"{origin}{path}?token=wrong{token}")[0] == 403,
              f"{path} with a wrong token is not 403")
    check(websocket_status(server, "") == 401, "/ws without a token is not 401")
    check(websocket_status(server, f"?token=x{token}") == 403, "/ws with a wrong token is not 403")
    check(websocket_status(server, f"?token={token}") == 101, "/ws refuses the right token")
    check(websocket_status(server, f"?token={token}", "http://elsewhere.example") == 403,
          "/ws accepts a page of another origin")

    status, headers = http_status(f"{origin}/?token={token}")
    check(status == 200, f"the page with its token answered {status}")
    cookie = headers.get("Set-Cookie", "").split(";")[0]
    check(cookie, "the page's answer sets no cookie")
    check(http_status(origin + "/pcv.js", {"Cookie": cookie})[0] == 200,
          "the cookie of the page's answer does not let the page load its script")

    session, = browser_windows(stack, browser, 1)
    for url in (origin + "/", f"{origin}/?token=wrong{token}"):
        session.get(url)
        time.sleep(3)
        frames = session.execute("return window.pcv ? window.pcv.framesShown : 0;")
        check(frames == 0, f"{url} showed {frames} frames without the token")
    # The same browser with the token: frames come, so the refusals above were the token's.
    session.get(f"{origin}/?token={token}")
    final_frame(session)
    print("refused without the token, served with it")


def panel_and_tools_speak_the_protocol(pcv, browser, tmp, stack):
    server = start_server(stack, pcv)
    session, = browser_windows(stack, browser, 1)
    session.get(server.url)
    start = final_frame(session)
    width, height, pixels = canvas_pixels(session)

    # Point size: the image changes (each point covers more pixels).
    session.execute("""const size = document.getElementById('point-size');
                       size.value = 4; size.dispatchEvent(new Event('input'));""")
    bigger = final_frame(session, start["frame"])
    wait_until(lambda: canvas_pixels(session)[2] != pixels, "the image of a larger point size")
    session.click("#edl")
    session.click("#hq")
    final_frame(session, bigger["frame"])

    # Pick: the point under a drawn pixel, with its world position.
    panel_left = state_of(session, "document.getElementById('panel').getBoundingClientRect().left")
    targets = drawn_pixels(width, height, canvas_pixels(session)[2], int(panel_left) - 8, 2)
    check(len(targets) == 2, "no drawn pixels to pick")
    session.click("[data-tool='pick']")
    session.click_at(*targets[0])
    pick = wait_for(session, "pcv.lastPick", "the answer to a pick")
    check(pick["point"] is not None and len(pick["point"]["position"]) == 3,
          f"a pick on a drawn pixel found no point: {pick}")

    # Measure: two picks, their distance in world units.
    session.click("[data-tool='measure']")
    session.click_at(*targets[0])
    wait_for(session, "pcv.measure.length === 1", "the first point of the measurement")
    session.click_at(*targets[1])
    distance = wait_for(session, "pcv.distance", "the measured distance")
    a, b = state_of(session, "pcv.measure")
    expected = sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5
    check(abs(distance - expected) <= 1e-9 * max(1.0, expected) and distance > 0,
          f"distance {distance} between {a} and {b}")
    check(state_of(session, "document.querySelectorAll('#marks circle, #marks line').length") == 3,
          "the measured points are not marked on the view")

    # The wheel zooms: the camera moves.
    still = current_final_frame(session)
    session.scroll(width // 3, height // 3, -300)
    zoomed = final_frame(session, still["frame"], lambda s: camera_of(s) != camera_of(still),
                         "with another camera")
    check(camera_of(zoomed)["eye"] != camera_of(still)["eye"], "the wheel did not move the camera")
    check(state_of(session, "document.querySelectorAll('#marks *').length") == 0,
          "the marks of the measurement stay over a view that moved")
    session.click("[data-tool='none']")

    # Tab switches to fly, W flies forwards, Tab switches back, Home frames the scene again.
    session.execute("document.getElementById('view').focus();")
    session.press(webdriver.TAB)
    wait_for(session, "pcv.mode === 'fly'", "fly mode after Tab")
    still = current_final_frame(session)
    session.press("w", hold_s=0.5)
    flown = final_frame(session, still["frame"], lambda s: camera_of(s) != camera_of(still),
                        "with another camera")
    check(camera_of(flown)["eye"] != camera_of(still)["eye"], "W did not fly the camera")
    # A key held when the window loses the focus is let go: the camera stops.
    session.key_down("w")
    wait_for(session, "!pcv.shown.final", "flying with W held")
    session.execute("window.dispatchEvent(new Event('blur'));")
    flown = final_frame(session, flown["frame"], what="once the window lost the focus")
    session.release_actions()
    session.press(webdriver.TAB)
    wait_for(session, "pcv.mode === 'orbit'", "orbit mode after Tab again")
    session.press(webdriver.HOME)
    home = final_frame(session, flown["frame"], lambda s: camera_of(s) == camera_of(start),
                       "with the first frame's camera (Home)")

    # A double-click turns the camera to the point drawn there.
    x, y = max(targets, key=lambda p: abs(p[0] - width / 2) + abs(p[1] - height / 2))
    session.double_click_at(x, y)
    focused = final_frame(session, home["frame"], lambda s: camera_of(s) != camera_of(home),
                          "turned to the point double-clicked")
    check(camera_of(focused)["yaw"] != camera_of(home)["yaw"]
          or camera_of(focused)["pitch"] != camera_of(home)["pitch"],
          "a double-click did not turn the camera")

    # Every message the page sent passed the server's checks.
    refused = state_of(session, "pcv.errors")
    check(refused == [], f"the server refused the page's messages: {refused}")
    check(page_errors(session) == [], f"the page logged errors: {page_errors(session)}")

    # A message the server refuses is listed and shown, and the view goes on.
    session.execute("pcv.socket.send(JSON.stringify({type: 'settings', pointSize: 99}));")
    wait_for(session, "pcv.errors.length === 1", "the server's error")
    check(state_of(session, "document.querySelectorAll('#errors > div').length") == 1,
          "the server's error is not shown")
    check(state_of(session, "pcv.connected"), "a refused message closed the connection")


def touch_orbits_and_pinches(pcv, browser, tmp, stack):
    server = start_server(stack, pcv)
    session, = browser_windows(stack, browser, 1)
    session.get(server.url)
    still = final_frame(session)
    x, y = WINDOW[0] // 3, WINDOW[1] // 3
    session.touch([(x, y, 120, 0)])  # one finger: orbit
    orbited = final_frame(session, still["frame"], lambda s: camera_of(s) != camera_of(still),
                          "with another camera")
    check(camera_of(orbited)["yaw"] != camera_of(still)["yaw"], "one finger did not orbit")
    session.touch([(x - 40, y, -80, 0), (x + 40, y, 80, 0)])  # two fingers apart: zoom in
    pinched = final_frame(session, orbited["frame"], lambda s: camera_of(s) != camera_of(orbited),
                          "with another camera")
    check(camera_of(pinched)["eye"] != camera_of(orbited)["eye"], "a pinch did not zoom")
    refused = state_of(session, "pcv.errors")
    check(refused == [], f"the server refused the page's messages: {refused}")


def link_opens_the_same_view(pcv, browser, tmp, stack):
    server = start_server(stack, pcv)
    first, second = browser_windows(stack, browser, 2)
    first.get(server.url)
    start = final_frame(first)
    drag_view(first, 120, -50)
    moved = final_frame(first, start["frame"])
    camera = moved["status"]["camera"]
    link = wait_for_view_in_address(first, camera)

    second.get(link)
    opened = final_frame(second, 0, lambda s: camera_of(s) == camera, "with the link's camera")
    check(opened["status"]["camera"] == camera, "the link did not open the view")
    check(canvas_pixels(second)[2] == canvas_pixels(first)[2],
          "the link shows the view in another image than the page it was copied from")

    # The buttons copy the link and the render command of the frame shown (the clipboard is
    # stood in for: a headless browser has none to read back).
    first.execute("window.copied = []; navigator.clipboard.writeText = "
                  "async (text) => { window.copied.push(text); };")
    first.click("#copy-link")
    first.click("#copy-command")
    copied = wait_for(first, "window.copied.length === 2 && window.copied", "two copies")
    check(copied == [link, moved["status"]["command"]],
          f"copied {copied}, not the link and the frame's command")
    print(f"{link} opened {opened['status']['camera']}")


def frames_follow_the_window_in_device_pixels(pcv, browser, tmp, stack):
    server = start_server(stack, pcv)
    session, = browser_windows(stack, browser, 1, scale=2)
    session.get(server.url)

    def frame_in_device_pixels(after):
        """The final frame of the view's size in device pixels; checks it is shown 1:1."""
        ratio, css_width, css_height = session.execute(
            "const s = document.getElementById('stage');"
            "return [devicePixelRatio, s.clientWidth, s.clientHeight];")
        check(ratio == 2, f"devicePixelRatio {ratio}")
        size = (round(css_width * ratio), round(css_height * ratio))
        frame = final_frame(session, after, lambda s: (s["width"], s["height"]) == size,
                            f"of {size[0]}x{size[1]} device pixels")
        canvas_css_width = state_of(
            session, "document.getElementById('view').getBoundingClientRect().width")
        check(canvas_css_width * ratio == frame["width"], "the frame is scaled on the screen")
        return frame

    still = frame_in_device_pixels(0)
    session.resize(WINDOW[0] - 200, WINDOW[1] - 100)
    wait_for(session, f"document.getElementById('stage').clientWidth * 2 !== {still['width']}",
             "the window's new size")
    frame_in_device_pixels(still["frame"])


DATA = os.environ.get("PCV_TEST_DATA_DIR", "")


def data_file(relative):
    """A file of the test data, or None (the case is then skipped)."""
    path = os.path.join(DATA, relative)
    return path if DATA and os.path.isfile(path) else None


def file_scene_offers_its_colours_and_classes(pcv, browser, tmp, stack):
    las = data_file("las/autzen_trim.las")
    if not las:
        raise Skipped("no test data (PCV_TEST_DATA_DIR/las/autzen_trim.las)")
    server = start_server(stack, pcv, las, "--color", "classification", points=0)
    first, second = browser_windows(stack, browser, 2)
    first.get(server.url)
    second.get(server.url)
    still = final_frame(first)
    other_still = final_frame(second)
    scene = state_of(first, "pcv.hello.scene")
    check(not scene["streamed"] and state_of(first, "document.getElementById('budget-row').hidden"),
          "a scene that does not stream offers a point budget")
    colors = state_of(first, "[...document.querySelectorAll('#color option')].map(o => o.value)")
    check(colors == scene["colors"], f"the colour menu {colors}, the scene's {scene['colors']}")
    codes = state_of(first, "[...document.querySelectorAll('#classes input')].map(b => +b.value)")
    check(codes == [c["code"] for c in scene["classes"]] and len(codes) >= 2,
          f"the class checkboxes {codes} are not the scene's classes {scene['classes']}")

    # A class unchecked: this browser draws the others only; the other browser is unchanged.
    _, _, pixels = canvas_pixels(first)
    first.click(f"#classes input[value='{codes[-1]}']")
    filtered = final_frame(first, still["frame"])
    wait_until(lambda: canvas_pixels(first)[2] != pixels, "the image without the unchecked class")
    check(state_of(first, "pcv.settings.classes") == codes[:-1], "the classes sent")
    check(final_frame(second)["frame"] == other_still["frame"],
          "a class filter in one browser redrew the other")

    # The colouring is the scene's: every browser draws the new one.
    _, _, other_pixels = canvas_pixels(second)
    choose(first, "#color", "elevation")
    final_frame(first, filtered["frame"])
    final_frame(second, other_still["frame"])
    wait_until(lambda: canvas_pixels(second)[2] != other_pixels,
               "the other browser's image in the scene's new colours")
    for window in (first, second):
        refused = state_of(window, "pcv.errors")
        check(refused == [], f"the server refused the page's messages: {refused}")


def streamed_scene_shows_its_budget_and_nodes(pcv, browser, tmp, stack):
    copc = data_file("laz/1.2-with-color.copc.laz")
    if not copc:
        raise Skipped("no test data (PCV_TEST_DATA_DIR/laz/1.2-with-color.copc.laz)")
    server = start_server(stack, pcv, copc, points=0)
    session, = browser_windows(stack, browser, 1)
    session.get(server.url)
    converged = final_frame(session, 0, lambda s: (s["status"]["stream"] or {}).get("converged"),
                            "of a converged stream")
    stream = converged["status"]["stream"]
    check(stream["resident"] > 0 and stream["resident"] >= stream["wanted"], f"stream {stream}")
    check(not state_of(session, "document.getElementById('budget-row').hidden"),
          "a streamed scene offers no point budget")
    budget = state_of(session, "+document.getElementById('point-budget').value")
    check(budget * 1e6 == state_of(session, "pcv.hello.scene.pointBudget"),
          f"the point budget shown ({budget} M) is not the scene's")
    choose(session, "#point-budget", "0.5")
    final_frame(session, converged["frame"])
    check(state_of(session, "pcv.settings.pointBudget") == 500000, "the budget sent")
    refused = state_of(session, "pcv.errors")
    check(refused == [], f"the server refused the page's messages: {refused}")


def page_reconnects_with_its_view_and_settings(pcv, browser, tmp, stack):
    port = webdriver.free_port()
    server = start_server(stack, pcv, port=port)
    session, = browser_windows(stack, browser, 1)
    session.get(server.url)
    still = final_frame(session)
    drag_view(session, 100, 30)
    moved = final_frame(session, still["frame"], lambda s: camera_of(s) != camera_of(still),
                        "with another camera")
    wait_for_view_in_address(session, camera_of(moved))
    session.execute("""const size = document.getElementById('point-size');
                       size.value = 3; size.dispatchEvent(new Event('input'));""")
    final_frame(session, moved["frame"], lambda s: command_option(s, "--point-size") == "3",
                "drawn with points of 3 pixels")

    server.stop()
    wait_for(session, "!pcv.connected && !document.getElementById('notice').hidden",
             "the page to say that the connection closed")
    shown_before = state_of(session, "pcv.framesShown")
    start_server(stack, pcv, port=port)
    # The page finds the server again by itself and asks it for the view it had.
    def shows_the_view_again():
        connected, shown_count, shown = session.execute(
            "return [pcv.connected, pcv.framesShown, pcv.shown];")
        return (connected and shown_count > shown_before and shown["final"] and shown["status"]
                and camera_of(shown) == camera_of(moved)
                and command_option(shown, "--point-size") == "3")
    wait_until(shows_the_view_again,
               "a frame of the same view and point size from the restarted server", 60)
    check(state_of(session, "document.getElementById('notice').hidden"), "the notice stays up")


CASES = {case.__name__: case for case in (
    page_shows_frames_and_follows_the_mouse, lossless_frame_matches_pcv_render,
    two_browsers_have_their_own_views, token_is_required, panel_and_tools_speak_the_protocol,
    touch_orbits_and_pinches, link_opens_the_same_view, page_reconnects_with_its_view_and_settings,
    file_scene_offers_its_colours_and_classes, streamed_scene_shows_its_budget_and_nodes,
    frames_follow_the_window_in_device_pixels)}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print(f"usage: {sys.argv[0]} PCV_EXECUTABLE {{{'|'.join(CASES)}}}", file=sys.stderr)
        return 2
    pcv, case = sys.argv[1], sys.argv[2]
    browser = webdriver.find_browser()
    if not browser:
        print("skipped: chromium or chromedriver is not installed "
              "(Debian: chromium, chromium-driver)")
        return SKIPPED
    try:
        with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
            CASES[case](pcv, browser, tmp, stack)
    except Skipped as reason:
        print(f"skipped: {reason}")
        return SKIPPED
    except Exception as failure:
        print(f"FAILED: {type(failure).__name__}: {failure}", file=sys.stderr)
        for server in SERVERS:
            print(f"--- pcv serve printed:\n{server.log()}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
