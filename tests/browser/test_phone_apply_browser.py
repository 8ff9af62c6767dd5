"""How a phone applies a live message (htmx's SSE extension and idiomorph, static/js/live.js), as a person at the table sees it.

A form that arrives in a message (a new log line's Undo) is made known to htmx as the message
is applied (static/js/live.js), not later in the page's idle time, which here never comes
(requestIdleCallback never calls back): an Undo tapped on a line that has just arrived goes
through htmx (the page stays where it is, the line is marked undone), never as a plain form
post that leaves the page.
"""

import json
import time
import urllib.request

import pytest

from browser_steps import ana_and_others, sit_down, table_of

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


def test_a_change_to_the_own_block_keeps_its_open_fold_and_the_amount_typed_in_it(live_server, new_phone):
    # Bob gives Ana a point while she types an amount in her own block's open fold: the block
    # changes shape (the +1 badge comes) and is brought up to date in place, the same node,
    # with the fold still open, the amount and the focus where she left them.
    _, ana, code = ana_and_others(live_server, new_phone, "generic", 0)
    bob = new_phone("Pixel 7")
    sit_down(bob, f"{live_server.url}/t/{code}", "Bob")
    ana.locator("#live-body .others .other", has_text="Bob").wait_for()  # her stream is open
    ana.locator("#me details.more > summary").click()
    field = ana.locator("#me details.more input[name=delta]")
    field.fill("5")
    ana.evaluate("() => { document.getElementById('me').keptNode = true; }")
    bob.locator("details.fix-scores > summary").click()
    bob.get_by_role("button", name="Ana plus 1").click()
    ana.locator("#me .me-head .delta").wait_for()
    assert ana.locator("#me .me-head .score").inner_text() == "1"
    assert ana.evaluate("() => document.getElementById('me').keptNode === true"), "the block was replaced"
    assert ana.locator("#me details.more").evaluate("d => d.open")
    assert field.input_value() == "5"
    assert ana.evaluate("() => document.activeElement && document.activeElement.name") == "delta"
