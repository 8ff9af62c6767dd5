"""Typing is never lost to an answer: the host types the next player's name while the last
"Add seat" is still on its way, and the letters stay."""

import pytest

from browser_steps import start_table

pytest.importorskip("playwright.sync_api")


def test_a_name_typed_while_add_seat_answers_is_kept(live_server, new_phone):
    host = new_phone()
    start_table(host, live_server.url, "generic")
    held = []
    host.route("**/seats", lambda route: held.append(route))  # the answer waits until let go
    field = host.locator("input[aria-label='New seat name']")
    field.fill("Ana")
    host.click("button:has-text('Add seat')")
    while not held:
        host.wait_for_timeout(20)
    field.fill("Bo")  # the next name, typed before the first one's answer is back
    held[0].continue_()
    host.unroute("**/seats")
    host.wait_for_selector("text=Ana sat down")
    assert field.input_value() == "Bo"
    # And a name not typed over is cleared as before.
    host.click("button:has-text('Add seat')")
    host.wait_for_selector("text=Bo sat down")
    host.wait_for_function("() => document.querySelector(\"input[aria-label='New seat name']\").value === ''")
