"""In a real browser: when a phone's Wi-Fi drops, a tap it makes waits on the phone,
says so, and goes out once when the connection is back; a tap that went stale meanwhile is
refused with the server's sentence. Playwright's offline switch (context.set_offline) makes
a tap's request fail as a dropped Wi-Fi does. Every step waits on what the pages show (or on
the phone's storage emptying), never on a timer."""

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from browser_steps import gone_offline, shows, sit_down, start_table, version  # noqa: E402
from companion.games.blackmail import CHERYL  # noqa: E402

WAITING = """() => Object.keys(localStorage).filter(k => k.startsWith('tc-waiting:'))
    .reduce((n, k) => n + JSON.parse(localStorage.getItem(k)).length, 0)"""
NOTHING_WAITS = f"() => ({WAITING})() === 0 && document.getElementById('offline').dataset.waiting === '0'"
SYNCED = "v => +document.getElementById('live-body').dataset.version >= v"


def state(page, base_url, code):
    """The table as the server has it (the host's cookie): what was applied, and how often."""
    return page.request.get(f"{base_url}/t/{code}/state.json").json()


def scores(page, base_url, code):
    """The score changes in force, in order, in the log's words ("+1 Ana, points")."""
    log = state(page, base_url, code)["log"]
    return [entry["text"] for entry in log if entry["kind"] == "score" and not entry["undone"]]


def two_phones(live_server, new_phone, game="generic"):
    """A host page and two phones seated at a new table of `game`."""
    host = new_phone()
    code = start_table(host, live_server.url, game)
    ana, bo = new_phone(), new_phone(color_scheme="light")
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    sit_down(bo, f"{live_server.url}/t/{code}", "Bo")
    ana.wait_for_selector(".others .name:text-is('Bo')")
    return host, code, ana, bo


def back_online(page):
    """The Wi-Fi is back; returns once nothing waits on the phone any more."""
    page.context.set_offline(False)
    page.wait_for_function(NOTHING_WAITS)


def test_a_tap_made_offline_waits_and_reaches_the_other_phone_once(live_server, new_phone):
    host, code, ana, bo = two_phones(live_server, new_phone)
    gone_offline(ana)
    ana.click("[aria-label='Ana plus 1']")
    # The button says it waits; the banner says the phone is offline; the tap is kept.
    note = ana.locator("section.me .waiting-note")
    assert note.inner_text() == "waiting for the table…"
    assert ana.locator("[aria-label='Ana plus 1']").get_attribute("aria-describedby") == note.get_attribute("id")
    banner = ana.locator("#offline[role=status]")
    assert "No connection to the table" in banner.inner_text()
    assert "1 tap waiting" in banner.inner_text()
    assert ana.evaluate(WAITING) == 1
    assert ana.locator("#toast .toast-message").count() == 0  # nothing says it was lost
    assert scores(host, live_server.url, code) == []

    sent = []  # what the phone asks for once back: the table as it is now, then the tap
    ana.on("request", lambda r: sent.append((r.method, r.url.split("?")[0].rsplit("/", 2)[-2:])))
    back_online(ana)
    bo.wait_for_selector(shows("Ana", 1))
    posts = [i for i, (method, _) in enumerate(sent) if method == "POST"]
    assert [sent[i][1] for i in posts] == [["act", "score"]]
    assert ("GET", [code, "live"]) in sent[: posts[0]]
    ana.wait_for_selector(shows("Ana", 1))
    assert ana.locator(".waiting-note").count() == 0
    assert "reached the table" in ana.locator("#offline").inner_text()
    assert scores(host, live_server.url, code) == ["+1 Ana, points"]  # once
    # The page goes on as before: the next tap goes straight through.
    bo.click("[aria-label='Bo plus 1']")
    ana.wait_for_selector(shows("Bo", 1))
    ana.click("[aria-label='Ana plus 1']")
    bo.wait_for_selector(shows("Ana", 2))
    assert len(scores(host, live_server.url, code)) == 3


def test_three_taps_made_offline_land_in_order(live_server, new_phone):
    host, code, ana, bo = two_phones(live_server, new_phone)
    gone_offline(ana)
    ana.click("[aria-label='Ana plus 1']")
    ana.click("section.me summary:has-text('Other amount')")
    ana.fill("section.me input[name=delta]", "5")
    ana.click("section.me button:has-text('Apply')")
    ana.click("[aria-label='Ana minus 1']")
    assert ana.evaluate(WAITING) == 3
    assert "3 taps waiting" in ana.inner_text("#offline")
    notes = ana.locator("section.me .waiting-note").all_inner_texts()
    assert sorted(notes) == ["waiting for the table…", "waiting for the table… (2 taps)"]

    back_online(ana)
    bo.wait_for_selector(shows("Ana", 5))
    assert [text.split(",")[0] for text in scores(host, live_server.url, code)] == ["+1 Ana", "+5 Ana", "-1 Ana"]
    ana.wait_for_selector(shows("Ana", 5))
    assert "The 3 taps made without a connection reached the table." in ana.inner_text("#offline")


def test_a_reload_keeps_the_waiting_tap_and_it_is_sent_once(live_server, new_phone):
    host, code, ana, bo = two_phones(live_server, new_phone)
    me = ana.url
    gone_offline(ana)
    ana.click("[aria-label='Ana plus 1']")
    ana.wait_for_selector("section.me .waiting-note")
    # A reload with no Wi-Fi at all finds no page (there is no offline copy of it) ...
    with pytest.raises(PlaywrightError):
        ana.reload()
    ana.wait_for_url(lambda url: url.startswith("chrome-error:"))  # the old page is gone
    # ... and one while taps still cannot get through (the page loads, its sends fail) shows
    # the tap still waiting, as it was kept.
    ana.route("**/act/**", lambda route: route.abort("internetdisconnected"))
    ana.context.set_offline(False)
    ana.goto(me)
    ana.wait_for_selector("section.me .waiting-note:text-is('waiting for the table…')")
    assert ana.evaluate(WAITING) == 1
    # The banner counts it (between retries it says "waiting", during one "sending").
    ana.wait_for_selector("#offline[data-waiting='1']:has-text('1 tap waiting')")
    assert scores(host, live_server.url, code) == []
    # The Wi-Fi comes back for good: the tap goes out, once.
    ana.unroute("**/act/**")
    ana.context.set_offline(True)
    ana.wait_for_function("() => !navigator.onLine")
    back_online(ana)
    bo.wait_for_selector(shows("Ana", 1))
    ana.reload()  # and a reload now sends nothing again
    ana.wait_for_selector(shows("Ana", 1))
    assert ana.evaluate(WAITING) == 0
    assert scores(host, live_server.url, code) == ["+1 Ana, points"]


def test_only_a_phones_own_taps_wait_the_host_needs_a_connection(live_server, new_phone):
    host, code, ana, bo = two_phones(live_server, new_phone)
    gone_offline(host)
    host.click("[aria-label='Ana plus 1']")
    host.wait_for_selector("#toast .toast-message")
    assert "host's device connected" in host.inner_text("#toast")
    assert "No connection to the table" in host.inner_text("#offline")
    assert host.evaluate(WAITING) == 0
    host.context.set_offline(False)
    host.wait_for_function("() => navigator.onLine")
    host.wait_for_selector("#offline:empty", state="attached")
    ana.click("[aria-label='Ana plus 1']")  # the table goes on; the host's tap was never kept
    host.wait_for_selector(shows("Ana", 1))
    assert scores(host, live_server.url, code) == ["+1 Ana, points"]


# --- Archer: The Danger Zone! -----------------------------------------------------------


def tap(page, selector, everyone):
    """Click on one page, then wait until every page shows the change."""
    before = version(page)
    page.click(selector)
    page.wait_for_function("v => +document.getElementById('live-body').dataset.version > v", arg=before)
    for other in everyone:
        other.wait_for_function(SYNCED, arg=version(page))


def danger_zone_round_one(live_server, new_phone):
    host, code, ana, bo = two_phones(live_server, new_phone, "danger-zone")
    everyone = [host, ana, bo]
    host.on("dialog", lambda dialog: dialog.accept())
    tap(ana, "button[value=Archer]", everyone)
    tap(bo, "button[value=Cheryl]", everyone)
    tap(host, "button:has-text('Draw the Locations')", everyone)
    tap(host, "button:has-text('Roll off in the app')", everyone)
    tap(host, "button:has-text('This is our clockwise order')", everyone)
    tap(host, "button:has-text('Start round 1')", everyone)
    return host, code, ana, bo, everyone


def reveal(page, place):
    """Open "Reveal mine now" when it is not this phone's turn, then tap the Location."""
    if page.locator("summary:has-text('Reveal mine now')").count():
        page.click("summary:has-text('Reveal mine now')")
    page.click(f'.dz-enter button[value="{place}"]')


def test_danger_zone_a_reveal_made_offline_lands_once(live_server, new_phone):
    host, code, ana, bo, _ = danger_zone_round_one(live_server, new_phone)
    place = host.get_attribute(".dz-loc >> nth=0", "data-location")
    gone_offline(ana)
    reveal(ana, place)
    ana.wait_for_selector(".dz-enter + .waiting-note")
    assert ana.locator(f'.dz-enter button[value="{place}"]').evaluate("b => b.classList.contains('tc-waiting')")
    before = version(bo)
    back_online(ana)
    first = f'.dz-loc-lines li[data-location="{place}"] [data-first]:text-is("Ana")'
    bo.wait_for_selector(first)
    ana.wait_for_selector("[data-now]:has-text('You entered')")
    log = state(host, live_server.url, code)["log"]
    assert [e["kind"] for e in log if e["id"] > before] == ["movement.enter"]  # once


def test_danger_zone_a_stale_step_made_offline_is_refused_with_the_sentence(live_server, new_phone):
    host, code, ana, bo, everyone = danger_zone_round_one(live_server, new_phone)
    place = host.get_attribute(".dz-loc >> nth=0", "data-location")
    for phone in (ana, bo):
        reveal(phone, place)
        for page in everyone:
            page.wait_for_selector(f'[data-location="{place}"]:has-text("{"Ana" if phone is ana else "Bo"}")')
    for page in everyone:
        page.wait_for_function(SYNCED, arg=version(bo))
    # Ana taps "Start the Mission" with no Wi-Fi; Bo taps it first, online: the round is on.
    gone_offline(ana)
    ana.click(".dz-next-phase button:has-text('Start the Mission')")
    ana.wait_for_selector(".dz-next-phase + .waiting-note")
    tap(bo, ".dz-next-phase button:has-text('Start the Mission')", [host])
    before = state(host, live_server.url, code)
    back_online(ana)
    refused = ana.locator("#offline .offline-note.refused")
    assert "“Start the Mission” was not done" in refused.inner_text()
    assert "the table is at round 1, Mission now" in refused.inner_text()
    assert refused.count() == 1
    after = state(host, live_server.url, code)
    assert after["version"] == before["version"] and after["log"] == before["log"]  # nothing else changed
    ana.wait_for_selector(".dz[data-phase=Mission]")
    assert ana.locator(".waiting-note").count() == 0
    # Shown once: OK clears it, and a reload does not bring it back.
    ana.click("#offline [data-offline-ok]")
    ana.wait_for_selector("#offline:empty", state="attached")
    ana.reload()
    ana.wait_for_selector(".dz[data-phase=Mission]")
    assert ana.locator("#offline").inner_text() == ""


# --- Once You Go Blackmail...: full tracking ---------------------------------------------


def test_blackmail_a_card_played_offline_is_played_once(live_server, new_phone):
    host, code, ana, bo = two_phones(live_server, new_phone, "blackmail")
    host.wait_for_selector(".bm-setup label.pill:has-text('Bo')")
    host.click("label.mode:has-text('Full tracking')")
    host.click(".bm-setup label.pill:has-text('Ana')")
    host.click(".bm-setup button.big")
    ana.wait_for_selector(".bm-turn.mine")
    gone_offline(ana)
    card = f"details[data-card='{CHERYL}']"
    ana.click(f"{card} > summary")
    ana.click(f"{card} button[value=protect]")
    ana.wait_for_selector(f"{card} .waiting-note")
    assert ana.evaluate(WAITING) == 1
    back_online(ana)
    bo.wait_for_selector(".bm-plays li[data-play='1']")
    ana.wait_for_selector(".bm-plays li[data-play='1']")
    bo.wait_for_selector(".bm-turn.mine")
    assert bo.locator(".bm-plays li[data-play]").count() == 1
    plays = [e for e in state(host, live_server.url, code)["log"] if e["kind"] == "play"]
    assert len(plays) == 1
