"""A refused waiting tap's sentence waits on the phone, across a reload,
until the player taps OK (static/js/banner.js keeps it in localStorage, per table and seat).

Ana taps Undo on her own line with no Wi-Fi; the host undoes that line meanwhile; once Ana's
phone is back, her Undo is refused. She reloads before reading it: it is still there, and
in a second tab of hers too. OK takes it away for good."""

import pytest

pytest.importorskip("playwright.sync_api")

from browser_steps import gone_offline, shows, sit_down, start_table  # noqa: E402

REFUSED = "#offline .offline-note.refused"
NOTES = "() => Object.keys(localStorage).filter(k => k.startsWith('tc-notes:'))"
NOTHING_WAITS = """() => Object.keys(localStorage).every(k => !k.startsWith('tc-waiting:'))
    && document.getElementById('offline').dataset.waiting === '0'"""


def two_phones(live_server, new_phone):
    """A host page and two phones seated at a new generic table."""
    host = new_phone()
    code = start_table(host, live_server.url, "generic")
    ana, bo = new_phone(), new_phone()
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    sit_down(bo, f"{live_server.url}/t/{code}", "Bo")
    ana.wait_for_selector(".others .name:text-is('Bo')")
    return host, code, ana, bo


def back_online(page):
    """The Wi-Fi is back; returns once nothing waits on the phone any more."""
    page.context.set_offline(False)
    page.wait_for_function(NOTHING_WAITS)


def test_a_refused_taps_note_waits_across_a_reload_until_ok(live_server, new_phone):
    host, code, ana, bo = two_phones(live_server, new_phone)
    ana.click("[aria-label='Ana plus 1']")
    host.wait_for_selector(shows("Ana", 1))
    ana.wait_for_selector(shows("Ana", 1))
    undo = "#log-list button[aria-label='Undo +1 Ana, points']"

    gone_offline(ana)
    ana.click("#log-fold > summary")
    ana.click(undo)
    ana.wait_for_selector("#log-list .waiting-note")
    host.click(undo)  # the host undoes it first, online (the host page shows the log open)
    host.wait_for_selector(shows("Ana", 0))

    back_online(ana)
    ana.wait_for_selector(REFUSED)
    said = ana.inner_text(REFUSED)
    assert "“Undo +1 Ana, points” was not done" in said and "already undone" in said
    seat = ana.get_attribute("section.me", "data-seat")
    assert ana.evaluate(NOTES) == [f"tc-notes:{code.upper()}:{seat}"]

    # A reload (or a tab the browser threw away) before she read it: the sentence is back.
    ana.reload()
    ana.wait_for_selector(shows("Ana", 0))
    ana.wait_for_selector(REFUSED)
    assert ana.inner_text(REFUSED) == said
    assert ana.locator(REFUSED).count() == 1
    assert ana.locator("#offline [data-offline-ok]").count() == 1
    # Her other tab at the same seat says it too, and OK there takes it away here.
    other = ana.context.new_page()
    other.goto(ana.url)
    other.wait_for_selector(REFUSED)
    other.click("#offline [data-offline-ok]")
    other.wait_for_selector("#offline:empty", state="attached")
    ana.wait_for_selector("#offline:empty", state="attached")
    assert ana.evaluate(NOTES) == []
    ana.reload()
    ana.wait_for_selector(shows("Ana", 0))
    assert ana.inner_text("#offline") == ""
    # Bo's phone never had a note of hers.
    assert bo.locator(REFUSED).count() == 0
