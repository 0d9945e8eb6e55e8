#!/usr/bin/env python3
"""A screenshot of the page of `pcv serve` in headless Chromium, as docs/images shows it.

    page_screenshot.py PCV_EXECUTABLE OUT.png [pcv serve arguments...]

Opens the page at 1280x720, turns eye-dome lighting on, orbits and pans a little, measures
between two drawn points, and saves the window (docs/images/serve-page-chromium.png: no
arguments, the cylinders).
"""

import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import page_state  # noqa: E402
import webdriver  # noqa: E402
from pcv_server import PcvServer  # noqa: E402

VIEWPORT_CHROME_PX = 143  # what headless Chromium's window keeps above the page


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    pcv, out, serve_args = sys.argv[1], sys.argv[2], sys.argv[3:]
    browser = webdriver.find_browser()
    if not browser:
        print("chromium or chromedriver is not installed", file=sys.stderr)
        return 1
    with PcvServer(pcv, *serve_args, points=0) as server, webdriver.ChromeDriver(*browser) as d:
        window = d.session(1280, 720 + VIEWPORT_CHROME_PX)
        try:
            window.get(server.url)
            frame = page_state.final_frame(window)
            window.click("#edl")
            frame = page_state.final_frame(window, frame["frame"])
            window.drag(500, 360, -70, -20)
            frame = page_state.final_frame(window, frame["frame"])
            window.drag(500, 360, -90, 140, button=2)
            frame = page_state.final_frame(window, frame["frame"])
            width, height, pixels = page_state.canvas_pixels(window)
            points = page_state.drawn_pixels(width, height, pixels, 950, 60)
            window.click("[data-tool='measure']")
            for point in (points[12], points[45]):
                window.click_at(*point)
                time.sleep(0.5)
            page_state.wait_for(window, "pcv.distance", "the measured distance")
            with open(out, "wb") as f:
                f.write(window.screenshot())
        finally:
            window.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
