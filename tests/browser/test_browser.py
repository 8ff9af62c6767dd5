"""The foundation in a real browser: a host starts a table, two phones join through the QR
code, a tap shows everywhere, a reload keeps the seat, an undo on the host reverts it."""

import io

import pytest

import benchlib
from browser_steps import shows, sit_down, start_table
from helpers import Server

zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")


def decode_qr(page):
    png = page.locator(".invite .qr").screenshot()
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert results, "no QR code found on the host page"
    return results[0].text


def score_of(page, name):
    """A seat's number on any page: the phone's own block or line, the host's card, the TV tile."""
    return page.locator(f"[data-seat]:has(.name:text-is('{name}')) [data-score]")


def test_two_phones_join_by_qr_and_stay_in_sync(live_server, new_phone):
    host = new_phone("iPad Mini")
    code = start_table(host, live_server.url, "generic")

    join_url = decode_qr(host)
    assert join_url == f"{live_server.url}/t/{code}"

    ana, bo = new_phone(), new_phone(color_scheme="light")
    sit_down(ana, join_url, "Ana")
    sit_down(bo, join_url, "Bo")
    screen = new_phone("Desktop Chrome")
    screen.goto(f"{live_server.url}/t/{code}/screen")

    # Ana fixes Bo's score (a deliberate step on a phone): Bo's phone, the host and the
    # table screen all show it, live.
    ana.click("summary:has-text('Fix a score')")
    ana.click("[aria-label='Bo plus 1']")
    for page in (bo, host, screen):
        page.wait_for_selector(shows("Bo", 1))
    assert bo.locator(".delta").inner_text() == "+1"

    # A reload brings Bo back to the same seat with the same state.
    bo.reload()
    assert bo.url.endswith("/me")
    assert score_of(bo, "Bo").inner_text() == "1"
    assert bo.locator("section.me .name").inner_text() == "Bo"

    # Undo on the host reverts it on every screen.
    host.click(".log li:has-text('+1 Bo') button:has-text('Undo')")
    for page in (ana, bo, screen):
        page.wait_for_selector(shows("Bo", 0))
    assert ana.locator(".log li.undone").count() == 1

    # On a phone the log folds; an Undo tapped inside it leaves it open, to read on.
    ana.click("summary:has-text('Fix a score')")
    ana.click("[aria-label='Bo plus 1']")
    ana.wait_for_selector(shows("Bo", 1))
    ana.click("#log-fold summary")
    ana.click("#log-fold li:has-text('+1 Bo'):not(.undone) button:has-text('Undo')")
    ana.wait_for_selector(shows("Bo", 0))
    assert ana.locator("#log-fold").evaluate("d => d.open")


def test_a_bad_amount_shows_a_message_and_changes_nothing(live_server, new_phone):
    host = new_phone()
    start_table(host, live_server.url, "generic")
    host.click("text=Take a seat yourself")
    host.fill("input[name=name]", "Hosty")
    host.click("button:has-text('Sit down')")
    host.wait_for_url("**/host")
    host.click("li.seat summary:has-text('Other amount')")
    host.fill("li.seat input[name=delta]", "500")
    host.click("li.seat button:has-text('Apply')")
    host.wait_for_selector(".live .error")
    assert "between" in host.locator(".live .error").inner_text()
    assert score_of(host, "Hosty").inner_text() == "0"
    # The refused form stays as the player left it, open, so the amount can be fixed in place.
    assert host.locator("li.seat details.more").evaluate("d => d.open")
    assert host.locator("li.seat input[name=delta]").input_value() == "500"
    host.fill("li.seat input[name=delta]", "5")
    host.click("li.seat button:has-text('Apply')")
    host.wait_for_selector("li.seat [data-score]:text-is('5')")
    assert host.locator(".live .error").count() == 0
    assert host.locator("li.seat input[name=delta]").input_value() == ""


def test_a_sleeping_phone_catches_up_when_it_wakes(live_server, new_phone):
    host = new_phone()
    code = start_table(host, live_server.url, "generic")
    ana = new_phone()
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    # Ana's phone drops off the network (as a locked phone does); changes happen meanwhile.
    ana.context.set_offline(True)
    for n in range(1, 21):  # twenty changes while Ana's phone sleeps
        host.click("[aria-label='Ana plus 1']")
        host.wait_for_selector(f"li.seat [data-score]:text-is('{n}')")
    ana.context.set_offline(False)
    ana.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    ana.wait_for_selector(shows("Ana", 20))
    assert ana.locator(".log li .what").first.text_content() == "+1 Ana, points"  # folded on a phone


def test_a_live_refresh_keeps_what_a_player_is_typing(live_server, new_phone):
    host = new_phone()
    code = start_table(host, live_server.url, "generic")
    ana, bo = new_phone(), new_phone()
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    sit_down(bo, f"{live_server.url}/t/{code}", "Bo")
    ana.wait_for_selector(".other .name:text-is('Bo')")
    ana_seat = ana.locator("section.me")
    ana_seat.locator("summary").click()
    ana_seat.locator("input[name=delta]").fill("7")
    bo.click("[aria-label='Bo plus 1']")  # someone else's change re-renders Ana's board
    ana.wait_for_selector(shows("Bo", 1))
    assert ana_seat.locator("details").get_attribute("open") is not None
    assert ana_seat.locator("input[name=delta]").input_value() == "7"
    assert ana_seat.locator("input[name=delta]").evaluate("e => e === document.activeElement")  # still typing
    assert ana.evaluate("document.querySelectorAll('#live-body').length") == 1
    ana_seat.locator("button:has-text('Apply')").click()
    ana.wait_for_selector(shows("Ana", 7))


def test_a_page_beyond_the_servers_streams_still_follows_the_table(tmp_path, new_phone):
    """A server of 12 threads lets 8 pages hold live streams; here the host's page and seven
    stand-ins hold them, so Ana's page is turned away every time and checks back every 3 s.
    It still shows each change, which its next reconnect carries (the change's parts, not a
    re-fetch), and its reconnects never pile up listeners."""
    server = Server(tmp_path, args=["--threads", "12"]).start()
    try:
        host = new_phone()
        code = start_table(host, server.url, "generic")
        stand_ins = []
        for _ in range(7):
            sock = benchlib.event_stream(server.port, code)
            sock.recv(256)
            stand_ins.append(sock)
        ana = new_phone()
        sit_down(ana, f"{server.url}/t/{code}", "Ana")
        ana.evaluate("""() => { window.refetches = 0; window.applied = 0;
            document.addEventListener('htmx:beforeRequest', e => {
              if (e.detail.requestConfig.verb === 'get') window.refetches++; });
            document.addEventListener('tc:live', () => window.applied++); }""")
        ana.wait_for_timeout(9500)  # three turned-away reconnects
        host.click("[aria-label='Ana plus 1']")
        ana.wait_for_selector(shows("Ana", 1), timeout=10_000)
        ana.wait_for_timeout(500)
        # The change came down a reconnect, applied once (a listener per reconnect would apply
        # it again from each), and the page fetched nothing.
        assert ana.evaluate("window.refetches") == 0
        assert ana.evaluate("window.applied") == 1  # one message: its parts, board and log
        for sock in stand_ins:
            sock.close()
    finally:
        server.stop()


def test_an_open_phone_recovers_by_itself_after_the_server_is_killed(tmp_path, new_phone):
    """SIGKILL the server under an open page, start it again on the same data: the page
    reconnects on its own and shows what changed meanwhile, and taps work again."""
    server = Server(tmp_path).start()
    try:
        host = new_phone()
        code = start_table(host, server.url, "generic")
        ana = new_phone()
        sit_down(ana, f"{server.url}/t/{code}", "Ana")
        ana.click("[aria-label='Ana plus 1']")
        ana.wait_for_selector(shows("Ana", 1))
        server.stop(kill=True)
        server = Server(tmp_path, port=server.port).start()
        host.reload()  # the host's page taps on the new server; Ana's page is left alone
        host.click("[aria-label='Ana plus 1']")
        ana.wait_for_selector(shows("Ana", 2), timeout=15_000)
        ana.click("[aria-label='Ana plus 1']")
        host.wait_for_selector("li.seat [data-score]:text-is('3')")
    finally:
        server.stop()


def test_a_live_region_with_no_place_has_the_board_fetched_whole(live_server, new_phone, browser):
    """A region the page has lost (a script took it out, say) is said in the console, and the
    page fetches its board whole, so it shows the change all the same."""
    host = new_phone("iPad Mini")
    code = start_table(host, live_server.url, "generic")
    sit_down(new_phone(), f"{live_server.url}/t/{code}", "Bo")
    # Not new_phone(): it fails any test whose page says what this one is waiting for.
    context = browser.new_context(**browser.devices["Pixel 7"])
    ana, said = context.new_page(), []
    ana.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    ana.wait_for_selector(shows("Bo", 0))
    ana.evaluate("document.getElementById('log-newest').remove()")
    host.click("[aria-label='Bo plus 1']")
    ana.wait_for_selector(shows("Bo", 1))
    ana.wait_for_selector("#log-newest:has-text('+1 Bo')")
    assert any("a live region had no place on this page: log-newest" in text for text in said)
    context.close()
