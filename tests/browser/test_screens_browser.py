"""In a real browser: phone-first screens at 320, 390 and 412 px, the host page,
the table screen at 1280x800 and 1920x1080, and the "Keep screen on" switch.

Seats are found by the names typed and controls by their accessible names. The lead extends
SIZES/BOARDS to the three games once their boards land."""

import pytest

from browser_steps import OTHER_NAMES as NAMES
from browser_steps import ana_and_others, axe_violations, post_as, seat_ids, sit_down, start_table, table_of
from helpers import rigged, server_in_process

PHONES = {320: "iPhone SE", 390: "iPhone 13", 412: "Pixel 7"}
PIXEL_7_HEIGHT = 915
PLAYING = "() => { const v = document.querySelector('video.keep-awake-video'); return v && !v.paused; }"


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def visible_step_buttons(page):
    """Accessible names of the visible ± buttons."""
    return page.locator("button[aria-label$='plus 1'], button[aria-label$='minus 1']").evaluate_all(
        "bs => bs.filter(b => b.checkVisibility()).map(b => b.getAttribute('aria-label'))"
    )


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
        assert me.get_by_role("button", name="Ana plus 1").is_visible()
        # The others: one line each, with their numbers, and no ± in the normal flow.
        assert ana.locator(".other:has(.name:text-is('Cy')) [data-score]").inner_text() == "12"
        assert visible_step_buttons(ana) == ["Ana minus 1", "Ana plus 1"], width
        assert no_sideways_scroll(ana), width
        height = ana.evaluate("document.documentElement.scrollHeight")
        assert height <= 2.5 * PIXEL_7_HEIGHT, (width, height)
        # With the log open and scrolled to the end, the own seat is still in reach (sticky).
        ana.click("#log-fold > summary")
        ana.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        ana.wait_for_function("() => Math.abs(document.querySelector('section.me').getBoundingClientRect().top) < 2")
    # Fixing someone else's score is one deliberate step away, and then works.
    ana.get_by_text("Fix a score").click()
    assert ana.get_by_role("button", name="Bo plus 1").is_visible()
    ana.get_by_role("button", name="Bo plus 1").click()
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
    for _n in range(8):  # a full log too
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
    landmarks(screen)


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
    host, ana, code = ana_and_others(live_server, new_phone, "blackmail", 3)
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
        assert (
            ana.locator("ul.others")
            .locator("button, input, select, a")
            .evaluate_all("els => els.filter(e => e.checkVisibility()).length")
            == 0
        )
        assert ana.get_by_role("button", name="Bo").count() == 0
        assert no_sideways_scroll(ana), width
        height = ana.evaluate("document.documentElement.scrollHeight")
        assert height <= 2.5 * PIXEL_7_HEIGHT, (width, height)
    cover.click()  # open, the two cards still keep the page within the bound
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
    landmarks(screen)
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
    host, ana, code = ana_and_others(live_server, new_phone, "assassins", others)
    host.reload()
    ids = seat_ids(host)
    if others == 2:
        post_as(host, "/act/ghost.record", card1="Cook", card2="Soldier", card3="Card E", card4="Magician")
    post_as(host, "/act/resolve.step", step="next", to="1", force="1")  # nobody drafted here
    post_as(host, "/act/resolve.step", number="3", at="1")
    for name, points in (("Ana", 4), ("Bo", 2), ("Cy", 5)):
        post_as(host, "/act/points", seat=str(ids[name]), delta=str(points), reason="Cook")
    post_as(host, "/act/points.real", seat=str(ids["Cy"]), delta="1", reason="Cook")
    post_as(host, "/act/kill", seat=str(ids["Bo"]))
    return host, ana, code, ids


def aoa_visible_steps(page):
    """Accessible names of the visible point taps (e.g. "Ana plus 2 preliminary")."""
    return page.locator("button[aria-label*=' plus '], button[aria-label*=' minus ']").evaluate_all(
        "bs => bs.filter(b => b.checkVisibility()).map(b => b.getAttribute('aria-label'))"
    )


def test_assassins_a_phone_in_play_shows_its_seat_first_and_the_end_fits(live_server, new_phone):
    host, ana, code, ids = assassins_resolving(live_server, new_phone, others=2)  # with the ghost: the longest page
    for width, device in PHONES.items():
        size = ana.context.browser.devices[device]["viewport"]
        ana.set_viewport_size(size)
        ana.reload()
        me = ana.get_by_role("region", name="You")
        me.get_by_text("Ana", exact=True).wait_for()
        box = me.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (width, box)
        assert box["height"] <= 0.4 * size["height"], (width, box)  # sticky: it leaves room to scroll under
        assert me.locator("[data-prelim]").inner_text() == "4"
        assert me.get_by_role("button", name="Ana plus 1 preliminary").is_visible()
        assert me.get_by_role("button", name="Ana plus 1 real").is_visible()
        assert ana.locator("li.other:has(.name:text-is('Cy')) [data-prelim]").inner_text() == "5"
        assert ana.locator("li.other:has(.name:text-is('Cy')) [data-real]").inner_text() == "1"
        assert ana.locator("li.other:has(.name:text-is('Bo')) [data-killed]").is_visible()
        assert all(label.startswith("Ana ") for label in aoa_visible_steps(ana)), (width, aoa_visible_steps(ana))
        assert (
            ana.locator("ul.others")
            .locator("button, input, select")
            .evaluate_all("els => els.filter(e => e.checkVisibility()).length")
            == 0
        )
        assert no_sideways_scroll(ana), width
        height = ana.evaluate("document.documentElement.scrollHeight")
        assert height <= 2.5 * PIXEL_7_HEIGHT, (width, height)
        ana.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        ana.wait_for_function("() => Math.abs(document.querySelector('section.me').getBoundingClientRect().top) < 2")
    # The end screen, its tie-break reading and the rounds table, at the narrowest phones.
    post_as(host, "/act/resolve.step", number="6", at="3")
    post_as(host, "/act/points", seat=str(ids["Ana"]), delta="11", reason="Cook")  # 15 each: a tie
    post_as(host, "/act/points", seat=str(ids["Cy"]), delta="9", reason="Cook")
    post_as(host, "/act/bank", to="2")
    for device in ("iPhone SE", "iPhone 13"):
        ana.set_viewport_size(ana.context.browser.devices[device]["viewport"])
        ana.reload()
        ana.wait_for_selector("[data-result] [data-tie-break]")
        ana.wait_for_selector(".aoa-history table")
        assert no_sideways_scroll(ana), device
        host.set_viewport_size(ana.viewport_size)  # the host page's rounds table too
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
        landmarks(screen)
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


# --- the table screen tells the whole round, at 1280x800 and 1920x1080 with 8 seats

TV_SIZES = ((1280, 800), (1920, 1080))


def table_state(page):
    """The table as the host's page sees it (state.json)."""
    code = page.url.split("/t/")[1].split("/")[0]
    return page.request.get(page.url.split("/t/")[0] + f"/t/{code}/state.json").json()["state"]


def danger_zone_eight(live_server, new_phone, initiative=True):
    """Danger Zone with 8 seats (Ana on her phone, seven added by the host), characters picked,
    Locations drawn, the Initiative rolled off: the table is ready for round 1. Without
    `initiative`, the roll-off and the seat order are the caller's."""
    host, ana, code = ana_and_others(live_server, new_phone, "danger-zone", 7)
    ids = seat_ids(host)
    for name, character in zip(
        ["Ana", *NAMES[:7]], ["Archer", "Lana", "Malory", "Cyril", "Pam", "Cheryl", "Krieger", "Ray"]
    ):
        post_as(host, "/act/character.pick", seat=str(ids[name]), character=character)
    post_as(host, "/act/locations.draw")
    if initiative:
        post_as(host, "/act/initiative.roll")
        post_as(host, "/act/order.confirm", order=",".join(str(i) for i in ids.values()))
    return host, ana, code, ids


def landmarks(screen):
    """The table screen's named landmarks: the round, the seats, the log."""
    for region in ("The round", "Seats", "Change log"):
        assert screen.get_by_role("region", name=region).count() == 1, region
    assert screen.get_by_role("region", name="Seats").get_by_role("listitem").count() >= 1


def fits(screen, size):
    """Nothing scrolls, and every marked element lies whole inside its clipping band and the
    window (a fact cut off by an overflow is as good as missing)."""
    assert screen.evaluate("""() => { const d = document.documentElement;
        return d.scrollHeight <= d.clientHeight && d.scrollWidth <= d.clientWidth; }"""), size
    cut = screen.evaluate("""() => [...document.querySelectorAll('[data-tv-fact], .tv-seat .name')].filter(e => {
        const r = e.getBoundingClientRect(), clip = e.closest('.tv-band, .tv-seat').getBoundingClientRect();
        return !r.height || r.top < Math.max(0, clip.top) - 1 || r.bottom > Math.min(innerHeight, clip.bottom) + 1
            || r.left < clip.left - 1 || r.right > clip.right + 1;
      }).map(e => e.textContent.trim().slice(0, 60))""")
    assert not cut, (size, cut)


def open_screen(screen, url, size, ready=".tv-seat"):
    """The table screen at this window size, once `ready` shows: it fits without scrolling
    and keeps its named landmarks."""
    screen.set_viewport_size({"width": size[0], "height": size[1]})
    screen.goto(url)
    screen.wait_for_selector(ready)
    fits(screen, size)
    landmarks(screen)


def tv_order(screen):
    """The band's order: (label, [names], [done names], next name)."""
    row = screen.locator("[data-tv-order]")

    def name(text):  # the name, without its ✓ or the "(done)" / "(next)" only a screen reader reads
        return text.split("\n")[0].split(" (")[0].replace("✓", "").strip()

    now = row.locator("li[aria-current=step]")
    return (
        row.get_attribute("data-tv-order"),
        [name(n) for n in row.locator("li").all_inner_texts()],
        [name(n) for n in row.locator("li.done").all_inner_texts()],
        name(now.inner_text()) if now.count() else None,
    )


def tile_rolloff(screen, name):
    """A tile's roll-off: one list of dice per round it rolled in."""
    tile = screen.locator(f"li.tv-seat:has(.name:text-is('{name}')) [data-rolloff]")
    return [
        [int(d) for d in roll.locator("[data-die]").all_inner_texts()] for roll in tile.locator(".dz-tv-dice").all()
    ]


def rolloff_of(view, rolloff, name):
    seat = next(s["id"] for s in view["seats"] if s["name"] == name)
    return [row["dice"] for rows in rolloff["rounds"] for row in rows if row["seat"] == seat]


def test_danger_zone_the_table_screen_tells_the_round(live_server, new_phone):
    host, ana, code, ids = danger_zone_eight(live_server, new_phone)
    names = {i: n for n, i in ids.items()}
    screen = new_phone("Desktop Chrome")

    def look(size):
        open_screen(screen, f"{live_server.url}/t/{code}/screen", size)  # and every token said in words
        for token in screen.locator(".tv .dz-token").all():
            assert token.get_attribute("role") == "img" and token.get_attribute("aria-label").endswith("Token")
        assert not axe_violations(screen), size

    # Setup: round 1's reveal order from the Initiative holder, and each seat's roll-off dice.
    view = table_state(host)
    for size in TV_SIZES:
        look(size)
        label, order, done, now = tv_order(screen)
        assert (label, order, done, now) == (
            "reveal",
            [names[s] for s in view["reveal_order"]],
            [],
            names[view["initiative"]["seat"]],
        )
        for name in names.values():
            assert tile_rolloff(screen, name) == rolloff_of(view, view["initiative"]["rolloff"], name), name
        winner = names[view["initiative"]["rolloff"]["winner"]]
        assert screen.locator(f"li.tv-seat:has(.name:text-is('{winner}')) [data-rolloff].won").count() == 1

    # Movement: three have revealed (somewhere other than the Control Room), the fourth is next.
    post_as(host, "/act/round.next", to=table_state(host)["next_step"])
    place = next(loc["name"] for loc in table_state(host)["locations"] if loc["name"] != "Control Room")
    for _ in range(3):
        post_as(host, "/act/movement.enter", seat=str(table_state(host)["whose_turn"]), location=place)
    view = table_state(host)
    for size in TV_SIZES:
        look(size)
        label, order, done, now = tv_order(screen)
        assert label == "reveal" and order == [names[s] for s in view["reveal_order"]]
        assert done == order[:3] and now == order[3] == names[view["whose_turn"]]
        assert screen.locator("[data-rolloff]").count() == 0

    # Mission: nobody took the Control Room, so the least Upper Hand (all 8 tied) rolled off for
    # the Mission Leader: the roll order from the leader, who is next, and each seat's dice.
    post_as(host, "/act/round.next", to=table_state(host)["next_step"], force="1")
    post_as(host, "/act/challenge.fail", seat=str(table_state(host)["whose_turn"]))
    view = table_state(host)
    assert view["mission_leader"]["rolloff"], view["mission_leader"]
    for size in TV_SIZES:
        look(size)
        label, order, done, now = tv_order(screen)
        assert label == "roll" and order == [names[s] for s in view["roll_order"]]
        assert done == order[:1] and now == order[1] == names[view["whose_turn"]]
        for name in names.values():
            assert tile_rolloff(screen, name) == rolloff_of(view, view["mission_leader"]["rolloff"], name), name


class Dice:
    """An rng whose dice fall as listed (store.act's rng), for a roll-off told in advance."""

    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, low, high):
        return self.faces.pop(0)


def test_danger_zone_a_long_tie_keeps_every_name_and_die_on_the_table_screen(live_server, new_phone):
    """Cy and Dee tie for the Initiative four times running (found in a full run: a tile with
    three rounds of dice squeezed its name to nothing). Each tile keeps its name, and every
    round's dice, in view at 1280x800 with 8 seats."""
    from pathlib import Path

    from companion import db as database
    from companion.tables import store

    host, ana, code, ids = danger_zone_eight(live_server, new_phone, initiative=False)
    high, low = [6, 6, 6], [1, 1, 2]
    faces = [*low, *low, *high, *high, *low, *low, *low, *low] + [*high, *high] * 4 + [*high, *low]
    conn = database.connect(str(Path(live_server.data_dir) / "companion.sqlite3"))
    try:
        store.act(conn, store.find_table(conn, code), "initiative.roll", {}, store.HOST, rng=Dice(faces))
    finally:
        conn.close()
    post_as(host, "/act/order.confirm", order=",".join(str(i) for i in ids.values()))
    view = table_state(host)
    assert [len(rows) for rows in view["initiative"]["rolloff"]["rounds"]] == [8, 2, 2, 2, 2, 2]
    screen = new_phone("Desktop Chrome")
    for size in TV_SIZES:
        screen.set_viewport_size({"width": size[0], "height": size[1]})
        screen.goto(f"{live_server.url}/t/{code}/screen")
        fits(screen, size)
        for name in ("Cy", "Dee"):
            assert tile_rolloff(screen, name) == [[6, 6, 6]] * 5 + ([] if name == "Cy" else [[1, 1, 2]]) + (
                [[6, 6, 6]] if name == "Cy" else []
            ), name
            assert screen.locator(f"li.tv-seat:has(.name:text-is('{name}')) .name").bounding_box()["height"] > 16


def test_assassins_the_table_screen_tells_the_ghost(live_server, new_phone):
    """At 3 seats the ghost plays: the band keeps her two reminders, her tile says which cards
    lie face down, and a killed seat's points read the same on every screen."""
    host, ana, code, ids = assassins_resolving(live_server, new_phone, others=2)  # Bo killed
    screen = new_phone("Desktop Chrome")

    def look(size):
        open_screen(screen, f"{live_server.url}/t/{code}/screen", size, ".tv-band [aria-current=step]:text-is('3')")
        reminders = screen.locator("[data-ghost-reminders]").inner_text()
        assert "Cy, on her right, is killed in her place" in reminders  # three Magicians
        assert "never picks being killed" in reminders  # the Grave Digger
        assert not axe_violations(screen), size
        return screen.locator("li.tv-seat[data-seat=ghost] [data-face-down]").inner_text()

    for size in TV_SIZES:
        assert "Face down" in look(size) and "not turned over yet" in look(size)
    post_as(host, "/act/ghost.down", down1="Magician", down2="Grave Digger", down3="Card F")
    for size in TV_SIZES:
        down = look(size)
        assert all(card in down for card in ("Magician", "Grave Digger", "Card F")), down
        assert "Card E" not in down  # a face-up card
    # One wording for Bo's lost preliminary points: the table screen, the host, Ana's phone.
    wording = "preliminary (lost)"
    assert screen.locator("li.tv-seat:has(.name:text-is('Bo')) .aoa-tv-prelim .label").inner_text() == wording
    host.reload()
    assert host.locator("li.seat:has(.name:text-is('Bo')) .aoa-prelim .label").inner_text() == wording
    ana.reload()
    assert ana.locator("li.other:has(.name:text-is('Bo')) .aoa-prelim .label").inner_text() == wording
    for page in (screen, host):  # a seat that was not killed says nothing of losing
        assert (
            "lost"
            not in page.locator(
                "li:has(.name:text-is('Ana')) .aoa-prelim, li:has(.name:text-is('Ana')) .aoa-tv-prelim"
            ).first.inner_text()
        )


@pytest.fixture
def secret_krueger_server(tmp_path, monkeypatch):
    """The real app in this process (waitress in a thread), its shuffle rigged: the secret
    character is Dr. Krueger, Ana is dealt Malory Archer and draws Lana Kane."""
    from companion.games.blackmail import KRUEGER, LANA, MALORY, PAM
    from companion.games.blackmail import dealt as deal

    monkeypatch.setattr(deal, "new_deal", lambda rng: rigged([KRUEGER, MALORY, PAM, LANA]))
    with server_in_process(tmp_path, threads=16) as url:
        yield url


def test_blackmail_a_revealed_secret_is_no_longer_held_by_the_app(secret_krueger_server, new_phone):
    from companion.games.blackmail import MALORY

    base = secret_krueger_server
    host = new_phone()
    code = start_table(host, base, "blackmail")
    ana = new_phone()
    sit_down(ana, f"{base}/t/{code}", "Ana")
    post_as(host, "/seats", name="Bo")
    post_as(
        host,
        "/act/game.start",
        to=table_state(host)["to"]["start"] or "",
        tracking="dealt",
        first_player=str(seat_ids(host)["Ana"]),
    )
    screen = new_phone("Desktop Chrome")
    screen.goto(f"{base}/t/{code}/screen")
    assert "Held by the app" in screen.locator(".tv-band").inner_text()  # while the round is on
    post_as(ana, "/act/dealt.play", card=str(MALORY), turn="1")  # Ana is out: Bo wins
    for size in TV_SIZES:
        screen.set_viewport_size({"width": size[0], "height": size[1]})
        screen.goto(f"{base}/t/{code}/screen")
        band = screen.locator(".tv-band")
        band.locator("[data-revealed-secret]").wait_for()
        assert "Secret character: Dr. Krueger" in band.inner_text()
        assert "held by the app" not in screen.locator("body").inner_text().lower()
        fits(screen, size)
        assert not axe_violations(screen), size
    host.reload()
    assert host.locator(".bm-status [data-secret]").inner_text() == "Krueger (2)"
    assert "held by the app" not in host.locator(".bm-round").inner_text().lower()
