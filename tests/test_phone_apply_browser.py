"""How a phone applies a live message (static/app.js, applySwaps), as a person at the table sees it.

A form that arrives in a message (a new log line's Undo) is made known to htmx once the frame
showing it is drawn, or at once when someone reaches for it first. Here the page's idle time
never comes (requestIdleCallback never calls back), so only the second way is left: an Undo
tapped on a line that has just arrived still goes through htmx (the page stays where it is, the
line is marked undone), never as a plain form post that leaves the page.
"""

import json
import time
import urllib.request

import pytest
from browser_steps import sit_down
from test_screens_browser import table_of

pytest.importorskip("playwright.sync_api")

NO_IDLE = "window.requestIdleCallback = function () { return 0; };"


def open_streams(url):
    return json.loads(urllib.request.urlopen(f"{url}/healthz").read())["open_streams"]


def test_an_undo_tapped_on_a_line_that_just_arrived_goes_through_htmx(live_server, new_phone):
    _, code = table_of(live_server, new_phone, seats=1)
    ana = new_phone("Pixel 7")
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    # Ana's second tab: her own tap on the first reaches it by the stream, the Undo with it.
    other = ana.context.new_page()
    other.add_init_script(NO_IDLE)
    streams = open_streams(live_server.url)
    other.goto(ana.url)
    other.wait_for_selector("main[sse-connect]")
    deadline = time.monotonic() + 15
    while open_streams(live_server.url) <= streams and time.monotonic() < deadline:
        time.sleep(0.05)  # until its stream is open: the tap must reach it as a message
    other.evaluate("() => { window.stayedPut = true; }")
    before = other.locator("#log-list li[data-event]").count()
    ana.locator("#me .quick button").first.click()
    line = other.locator("#log-list li[data-event]").first
    other.locator("#log-list li[data-event]").nth(before).wait_for(state="attached")
    other.locator("#log-fold > summary").click()
    line.locator("button", has_text="Undo").click()
    other.locator("#log-list li[data-event].undone").first.wait_for()
    assert other.evaluate("() => window.stayedPut === true"), "the Undo left the page: htmx never saw its form"
    assert other.url == ana.url
