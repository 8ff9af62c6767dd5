"""Issue 18 in a real browser: phone-first screens at 320, 390 and 412 px, the host page,
the table screen at 1280x800 and 1920x1080, and the "Keep screen on" switch.

Seats are found by the names typed and controls by their accessible names. The lead extends
SIZES/BOARDS to the three games once their boards land."""

import json

import pytest
from browser_steps import sit_down, start_table

PHONES = {320: "iPhone SE", 390: "iPhone 13", 412: "Pixel 7"}
PIXEL_7_HEIGHT = 915
PLAYING = "() => { const v = document.querySelector('video.keep-awake-video'); return v && !v.paused; }"
NAMES = ["Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def post_as(page, path, **fields):
    """Post a form as this page's viewer, as its own forms do (its cookie, its form token)."""
    base, code = page.url.split("/t/")[0], page.url.split("/t/")[1].split("/")[0]
    token = json.loads(page.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    response = page.request.post(f"{base}/t/{code}{path}", form={"csrf": token, "page": "host", **fields},
                                 headers={"HX-Request": "true", "HX-Target": "live-body", "Origin": base})
    assert response.ok, response.text()


def seat_ids(page):
    state = page.request.get(page.url.split("/t/")[0] + "/t/" + page.url.split("/t/")[1].split("/")[0]
                             + "/state.json").json()
    return {s["name"]: s["id"] for s in state["state"]["seats"]}


def table_of(live_server, new_phone, seats=7):
    """A generic table: the host, Ana on her phone, and `seats` more seats added by the host."""
    host = new_phone()
    code = start_table(host, live_server.url, "generic")
    for name in NAMES[:seats]:
        post_as(host, "/seats", name=name)
    return host, code


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def visible_step_buttons(page):
    """Accessible names of the visible ± buttons."""
    return page.locator("button[aria-label$='plus one'], button[aria-label$='minus one']").evaluate_all(
        "bs => bs.filter(b => b.checkVisibility()).map(b => b.getAttribute('aria-label'))")


def test_a_phone_shows_its_own_seat_first_and_others_read_only(live_server, new_phone):
    host, code = table_of(live_server, new_phone)
    ana = new_phone("Pixel 7")
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    ids = seat_ids(host)
    for name, points in (("Bo", 3), ("Cy", 12), ("Ana", 5)):
        post_as(host, "/act/score", seat=str(ids[name]), delta=str(points), reason="Points")
    for width, device in PHONES.items():
        size = ana.context.browser.devices[device]["viewport"]
        ana.set_viewport_size(size)
        ana.reload()
        me = ana.get_by_role("region", name="You")
        me.get_by_text("Ana", exact=True).wait_for()
        box = me.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (width, box)
        assert me.locator("[data-score]").inner_text() == "5"
        assert me.get_by_role("button", name="Ana plus one").is_visible()
        # The others: one line each, with their numbers, and no ± in the normal flow.
        assert ana.locator(".other:has(.name:text-is('Cy')) [data-score]").inner_text() == "12"
        assert visible_step_buttons(ana) == ["Ana minus one", "Ana plus one"], width
        assert no_sideways_scroll(ana), width
        height = ana.evaluate("document.documentElement.scrollHeight")
        assert height <= 2.5 * PIXEL_7_HEIGHT, (width, height)
        # With the log open and scrolled to the end, the own seat is still in reach (sticky).
        ana.click("#log-fold > summary")
        ana.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        ana.wait_for_function("() => Math.abs(document.querySelector('section.me').getBoundingClientRect().top) < 2")
    # Fixing someone else's score is one deliberate step away, and then works.
    ana.get_by_text("Fix a score").click()
    assert ana.get_by_role("button", name="Bo plus one").is_visible()
    ana.get_by_role("button", name="Bo plus one").click()
    ana.wait_for_selector(".other:has(.name:text-is('Bo')) [data-score]:text-is('4')")
    assert no_sideways_scroll(ana)


def test_the_host_page_folds_the_invite_once_the_game_has_started(live_server, new_phone):
    host, code = table_of(live_server, new_phone, seats=2)
    invite = host.locator("details.invite")
    qr = host.locator(".invite .qr")
    assert qr.is_visible()  # before the game: the QR is what the host needs
    take_seat = host.get_by_role("link", name="Take a seat yourself")
    assert take_seat.bounding_box()["y"] < host.viewport_size["height"]
    post_as(host, "/act/score", seat=str(seat_ids(host)["Bo"]), delta="2", reason="Points")
    for width, device in PHONES.items():
        host.set_viewport_size(host.context.browser.devices[device]["viewport"])
        host.reload()
        assert not qr.is_visible(), width
        summary = invite.locator("summary")
        line = " ".join(summary.text_content().split())
        assert line.startswith(f"Invite: code {code}"), line
        assert summary.bounding_box()["height"] <= 50, width  # one line
        assert take_seat.bounding_box()["y"] < host.viewport_size["height"] / 2, width
        assert no_sideways_scroll(host), width
    summary.click()  # one tap shows the QR again
    assert qr.is_visible()
    host.set_viewport_size({"width": 1280, "height": 800})
    assert no_sideways_scroll(host)


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_the_table_screen_fits_the_tv_without_scrolling(live_server, new_phone, size):
    host, code = table_of(live_server, new_phone, seats=8)
    ids = seat_ids(host)
    post_as(host, "/act/score", seat=str(ids["Hal"]), delta="-3", reason="Penalty")
    for n in range(8):  # a full log too
        post_as(host, "/act/score", seat=str(ids["Bo"]), delta="1", reason="Points")
    screen = new_phone("Desktop Chrome")
    screen.set_viewport_size({"width": size[0], "height": size[1]})
    screen.goto(f"{live_server.url}/t/{code}/screen")
    screen.wait_for_selector(".tv-seat")
    assert screen.evaluate("""() => { const d = document.documentElement;
        return d.scrollHeight <= d.clientHeight && d.scrollWidth <= d.clientWidth; }""")
    tiles = screen.locator("li.tv-seat")
    assert tiles.count() == 8
    for name in NAMES:
        tile = screen.locator(f"li.tv-seat:has(.name:text-is('{name}'))")
        box = tile.bounding_box()
        assert box["x"] >= 0 and box["y"] >= 0, name
        assert box["x"] + box["width"] <= size[0] and box["y"] + box["height"] <= size[1], name
        # Name and number inside their tile, and big enough to read across a table.
        for part, least in ((".name", 24), ("[data-score]", 60)):
            inner = tile.locator(part).bounding_box()
            assert inner["y"] + inner["height"] <= box["y"] + box["height"] + 1, (name, part)
            assert float(tile.locator(part).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= least
    assert screen.locator("li.tv-seat:has(.name:text-is('Bo')) [data-score]").inner_text() == "8"


def test_keep_screen_on_is_a_switch_that_survives_a_reload(live_server, new_phone):
    host = new_phone()
    code = start_table(host, live_server.url, "generic")
    # A browser without the Wake Lock API (plain http on a LAN): the looping video keeps it on.
    ana = new_phone()
    ana.add_init_script("delete Navigator.prototype.wakeLock")
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    switch = ana.get_by_role("switch", name="Keep screen on")
    assert switch.is_checked()  # on unless this phone turned it off
    ana.wait_for_function(PLAYING)
    switch.click()
    assert not switch.is_checked()
    assert ana.evaluate("document.querySelector('video.keep-awake-video').paused")
    ana.reload()
    assert not ana.get_by_role("switch", name="Keep screen on").is_checked()
    assert ana.locator("video.keep-awake-video").count() == 0
    ana.get_by_role("switch", name="Keep screen on").click()
    ana.reload()
    assert ana.get_by_role("switch", name="Keep screen on").is_checked()
    ana.wait_for_function(PLAYING)
    # The host page has the same switch.
    assert host.get_by_role("switch", name="Keep screen on").is_visible()


def test_a_phone_can_add_the_table_to_its_home_screen(live_server, new_phone):
    page = new_phone()
    page.goto(live_server.url + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(live_server.url + href)
    assert response.ok and response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["display"] == "standalone" and "start_url" not in manifest  # opens the page it was added from
    sizes = set()
    for icon in manifest["icons"]:
        image = page.request.get(live_server.url + href.rsplit("/", 1)[0] + "/" + icon["src"])
        assert image.ok and image.headers["content-type"] == "image/png"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    assert page.locator("link[rel=apple-touch-icon]").count() == 1


# --- Once You Go Blackmail: the app deals, 4 seats (Ana on her phone, three added by the host)

def blackmail_dealt_table(live_server, new_phone):
    host = new_phone()
    code = start_table(host, live_server.url, "blackmail")
    ana = new_phone("Pixel 7")
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    for name in NAMES[:3]:
        post_as(host, "/seats", name=name)
    host.reload()
    host.wait_for_selector(".bm-setup label.pill:has-text('Dee')")
    host.click("label.mode:has-text('The app deals')")
    host.click(".bm-setup label.pill:has-text('Ana')")
    host.click(".bm-setup button.big")
    ana.wait_for_selector(".bm-hand.mine")
    return host, ana, code


def test_blackmail_a_phone_in_play_shows_its_seat_and_hand_first(live_server, new_phone):
    host, ana, code = blackmail_dealt_table(live_server, new_phone)
    for width, device in PHONES.items():
        size = ana.context.browser.devices[device]["viewport"]
        ana.set_viewport_size(size)
        ana.reload()
        me = ana.get_by_role("region", name="You")
        me.get_by_text("Ana", exact=True).wait_for()
        box = me.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (width, box)
        # The hand control (covered until tapped) is within the first screen.
        cover = me.locator("details.bm-cover > summary")
        hand = cover.bounding_box()
        assert hand["y"] + hand["height"] <= size["height"], (width, hand)
        assert ana.locator("li.other:has(.name:text-is('Bo')) [data-vp]").inner_text() == "0"
        # No other seat's controls: the others are read-only lines.
        assert ana.locator("ul.others").locator("button, input, select, a").evaluate_all(
            "els => els.filter(e => e.checkVisibility()).length") == 0
        assert ana.get_by_role("button", name="Bo").count() == 0
        assert no_sideways_scroll(ana), width
        height = ana.evaluate("document.documentElement.scrollHeight")
        assert height <= 2.5 * PIXEL_7_HEIGHT, (width, height)
    cover.click()   # open, the two cards still keep the page within the bound
    ana.wait_for_selector("details.bm-cover[open] .hand-card")
    assert ana.evaluate("document.documentElement.scrollHeight") <= 2.5 * PIXEL_7_HEIGHT
    assert no_sideways_scroll(ana)


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_blackmail_the_table_screen_fits_the_tv(live_server, new_phone, size):
    host, ana, code = blackmail_dealt_table(live_server, new_phone)
    screen = new_phone("Desktop Chrome")
    screen.set_viewport_size({"width": size[0], "height": size[1]})
    screen.goto(f"{live_server.url}/t/{code}/screen")
    screen.wait_for_selector(".tv-band [data-fingerprint]")
    assert screen.evaluate("""() => { const d = document.documentElement;
        return d.scrollHeight <= d.clientHeight && d.scrollWidth <= d.clientWidth; }""")
    # One root element for the board, with the TV frame inside it.
    assert screen.evaluate("() => document.querySelector('#live-board').children.length") == 1
    assert screen.locator("#live-board > .bm-tv > .tv").count() == 1
    print_box = screen.locator(".tv-band [data-fingerprint]").bounding_box()
    assert print_box["x"] + print_box["width"] <= size[0] and print_box["y"] + print_box["height"] <= size[1]
    for name in ["Ana", *NAMES[:3]]:
        tile = screen.locator(f"li.tv-seat:has(.name:text-is('{name}'))")
        box = tile.bounding_box()
        assert box["x"] >= 0 and box["y"] >= 0, name
        assert box["x"] + box["width"] <= size[0] and box["y"] + box["height"] <= size[1], name
        for part, least in ((".name", 24), ("[data-vp]", 40)):
            inner = tile.locator(part).bounding_box()
            assert inner["y"] + inner["height"] <= box["y"] + box["height"] + 1, (name, part)
            assert float(tile.locator(part).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= least


# --- Age of Assassins: resolving with points and a kill (Ana on her phone, the rest added by the host)

def assassins_resolving(live_server, new_phone, others):
    """A table resolving number 3: Ana 4 preliminary, Bo killed, Cy 5 preliminary and 1 real.
    With 2 others (3 seats) the ghost plays, her cards typed in by the host."""
    host = new_phone()
    code = start_table(host, live_server.url, "assassins")
    ana = new_phone("Pixel 7")
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    for name in NAMES[:others]:
        post_as(host, "/seats", name=name)
    host.reload()
    ids = seat_ids(host)
    if others == 2:
        post_as(host, "/act/ghost.record", card1="Cook", card2="Soldier", card3="Card E", card4="Magician")
    post_as(host, "/act/resolve.step", step="next", to="1", force="1")   # nobody drafted here
    post_as(host, "/act/resolve.step", number="3", at="1")
    for name, points in (("Ana", 4), ("Bo", 2), ("Cy", 5)):
        post_as(host, "/act/points", seat=str(ids[name]), delta=str(points), reason="Cook")
    post_as(host, "/act/points.real", seat=str(ids["Cy"]), delta="1", reason="Cook")
    post_as(host, "/act/kill", seat=str(ids["Bo"]))
    return host, ana, code, ids


def aoa_visible_steps(page):
    """Accessible names of the visible point taps (e.g. "Ana plus 2 preliminary")."""
    return page.locator("button[aria-label*=' plus '], button[aria-label*=' minus ']").evaluate_all(
        "bs => bs.filter(b => b.checkVisibility()).map(b => b.getAttribute('aria-label'))")


def test_assassins_a_phone_in_play_shows_its_seat_first_and_the_end_fits(live_server, new_phone):
    host, ana, code, ids = assassins_resolving(live_server, new_phone, others=2)   # with the ghost: the longest page
    for width, device in PHONES.items():
        size = ana.context.browser.devices[device]["viewport"]
        ana.set_viewport_size(size)
        ana.reload()
        me = ana.get_by_role("region", name="You")
        me.get_by_text("Ana", exact=True).wait_for()
        box = me.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (width, box)
        assert box["height"] <= 0.4 * size["height"], (width, box)   # sticky: it leaves room to scroll under
        assert me.locator("[data-prelim]").inner_text() == "4"
        assert me.get_by_role("button", name="Ana plus 1 preliminary").is_visible()
        assert me.get_by_role("button", name="Ana plus 1 real").is_visible()
        assert ana.locator("li.other:has(.name:text-is('Cy')) [data-prelim]").inner_text() == "5"
        assert ana.locator("li.other:has(.name:text-is('Cy')) [data-real]").inner_text() == "1"
        assert ana.locator("li.other:has(.name:text-is('Bo')) [data-killed]").is_visible()
        assert all(label.startswith("Ana ") for label in aoa_visible_steps(ana)), (width, aoa_visible_steps(ana))
        assert ana.locator("ul.others").locator("button, input, select").evaluate_all(
            "els => els.filter(e => e.checkVisibility()).length") == 0
        assert no_sideways_scroll(ana), width
        height = ana.evaluate("document.documentElement.scrollHeight")
        assert height <= 2.5 * PIXEL_7_HEIGHT, (width, height)
        ana.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        ana.wait_for_function("() => Math.abs(document.querySelector('section.me').getBoundingClientRect().top) < 2")
    # The end screen, its tie-break reading and the rounds table, at the narrowest phones.
    post_as(host, "/act/resolve.step", number="6", at="3")
    post_as(host, "/act/points", seat=str(ids["Ana"]), delta="11", reason="Cook")   # 15 each: a tie
    post_as(host, "/act/points", seat=str(ids["Cy"]), delta="9", reason="Cook")
    post_as(host, "/act/bank", to="2")
    for device in ("iPhone SE", "iPhone 13"):
        ana.set_viewport_size(ana.context.browser.devices[device]["viewport"])
        ana.reload()
        ana.wait_for_selector("[data-result] [data-tie-break]")
        ana.wait_for_selector(".aoa-history table")
        assert no_sideways_scroll(ana), device
        host.set_viewport_size(ana.viewport_size)   # the host page's rounds table too
        host.reload()
        host.wait_for_selector(".aoa-history table")
        assert no_sideways_scroll(host), device


def test_assassins_the_table_screen_fits_the_tv(live_server, new_phone):
    host, ana, code, ids = assassins_resolving(live_server, new_phone, others=3)
    screen = new_phone("Desktop Chrome")
    for size in ((1280, 800), (1920, 1080)):
        screen.set_viewport_size({"width": size[0], "height": size[1]})
        screen.goto(f"{live_server.url}/t/{code}/screen")
        screen.wait_for_selector(".tv-band [aria-current=step]:text-is('3')")
        assert screen.evaluate("""() => { const d = document.documentElement;
            return d.scrollHeight <= d.clientHeight && d.scrollWidth <= d.clientWidth; }"""), size
        # One root element for the board, with the TV frame inside it.
        assert screen.evaluate("() => document.querySelector('#live-board').children.length") == 1
        assert screen.locator("#live-board > .aoa-screen > .tv").count() == 1
        assert screen.locator("li.tv-seat").count() == 4
        for name in ["Ana", *NAMES[:3]]:
            tile = screen.locator(f"li.tv-seat:has(.name:text-is('{name}'))")
            box = tile.bounding_box()
            assert box["x"] >= 0 and box["y"] >= 0, name
            assert box["x"] + box["width"] <= size[0] and box["y"] + box["height"] <= size[1], (size, name)
            for part, least in ((".name", 24), ("[data-real]", 40), ("[data-prelim]", 40)):
                inner = tile.locator(part).bounding_box()
                assert inner["y"] + inner["height"] <= box["y"] + box["height"] + 1, (size, name, part)
                assert float(tile.locator(part).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= least
        assert screen.locator("li.tv-seat:has(.name:text-is('Cy')) [data-prelim]").inner_text() == "5"
        assert screen.locator("li.tv-seat:has(.name:text-is('Bo')) [data-killed]").is_visible()
