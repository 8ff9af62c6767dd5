"""Screenshots for the README: per game, a phone and the table screen, taken from the real
server with a few phones seated, so they show the app as it is today.

    make screenshots            (or: .venv/bin/python tools/screenshots.py [game ...])

Writes docs/screenshots/<game>-phone.png (a Pixel 7 in dark mode, the first viewport of a
player's page) and docs/screenshots/<game>-screen.png (the table screen at 1280x800), and
docs/screenshots/tablet.png (the tablet lying in the middle, 1280x800: Danger Zone, 5 seats),
docs/screenshots/night-*.png (the night page, the night on the table screen) and
docs/screenshots/chart-*.png (how a game went, at its end: a phone and the table screen).
"""

import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

from browser_steps import sit_down, start_table  # noqa: E402
from helpers import Server, launch_chromium  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PLAYERS = {
    "danger-zone": ["Sterling", "Lana", "Cyril", "Pam", "Cheryl", "Ray"],
    "blackmail": ["Sterling", "Lana", "Cyril", "Pam"],
    "assassins": ["Ana", "Bo", "Cy", "Dee"],
    "generic": ["Ana", "Bo", "Cy", "Dee", "Eli"],
}


def post(page, kind, **fields):
    """Post one action as this page's viewer, the way its forms do (same cookie, same token)."""
    base, code = page.url.split("/t/")[0], page.url.split("/")[-2]
    token = json.loads(page.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    response = page.request.post(
        f"{base}/t/{code}/act/{kind}",
        form={"csrf": token, "page": "player", **fields},
        headers={"HX-Request": "true", "HX-Target": "live-body", "Origin": base},
    )
    assert response.status == 200, (kind, fields, response.text()[:300])
    return response.status


def state_of(page):
    base, code = page.url.split("/t/")[0], page.url.split("/")[-2]
    return page.request.get(f"{base}/t/{code}/state.json").json()


def seat_of(page):
    return state_of(page)["viewer"]["seat"]


def generic(host, phones):
    for phone, points in zip(phones, (7, 12, 4, 9, 15)):
        post(phone, "score", seat=str(seat_of(phone)), delta=str(points), reason="Points")


def danger_zone_round_one(host, phones, characters):
    """Each phone picks its character, the host draws Locations and rolls for Initiative, the
    seats' order is confirmed and round 1 begins."""
    for phone, character in zip(phones, characters):
        post(phone, "character.pick", seat=str(seat_of(phone)), character=character)
    post(host, "locations.draw")
    post(host, "initiative.roll")
    seats = [s["id"] for s in state_of(host)["state"]["seats"]]
    post(host, "order.confirm", order=",".join(map(str, seats)))
    post(host, "round.next", to=state_of(host)["state"]["next_step"])


def danger_zone(host, phones):
    """Setup, round 1's Movement with most tokens revealed, then a few Upper Hand changes."""
    danger_zone_round_one(host, phones, ("Archer", "Lana", "Cyril", "Pam", "Cheryl", "Ray"))
    places = state_of(host)["state"]["locations"]
    for phone, place in zip(phones[1:], places * 2):
        post(
            phone,
            "movement.enter",
            seat=str(seat_of(phone)),
            location=place if isinstance(place, str) else place["name"],
        )
    for phone, delta in zip(phones, (3, 1, 4, 2)):
        post(phone, "upper_hand.change", seat=str(seat_of(phone)), delta=str(delta))


def blackmail(host, phones):
    """The app deals: the first round under way."""
    post(
        host,
        "game.start",
        tracking="dealt",
        first_player=str(seat_of(phones[1])),
        to=state_of(host)["state"]["to"]["start"],
    )


def assassins(host, phones):
    for phone, (prelim, real) in zip(phones, ((3, 2), (1, 0), (4, 5), (2, 1))):
        seat = str(seat_of(phone))
        post(phone, "points", seat=seat, delta=str(prelim))
        if real:
            post(phone, "points.real", seat=seat, delta=str(real))


# What each game does before the pictures: a game left out is shown as its players sat down.
PREPARE = {"generic": generic, "danger-zone": danger_zone, "blackmail": blackmail, "assassins": assassins}


def shoot(browser, base_url, game):
    phones, contexts = [], []

    def context(**kw):
        ctx = browser.new_context(**kw)
        contexts.append(ctx)
        return ctx.new_page()

    phone_kind = dict(browser.devices["Pixel 7"], device_scale_factor=1, color_scheme="dark")
    host = context(**phone_kind)
    code = start_table(host, base_url, game)
    for name in PLAYERS[game]:
        phone = context(**phone_kind)
        sit_down(phone, f"{base_url}/t/{code}", name)
        phones.append(phone)
    PREPARE.get(game, lambda host, phones: None)(host, phones)
    me = phones[0]
    me.reload()
    me.wait_for_selector("#live-body")
    me.screenshot(path=str(OUT / f"{game}-phone.png"))
    screen = context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    screen.goto(f"{base_url}/t/{code}/screen")
    screen.wait_for_selector("#live-body")
    screen.screenshot(path=str(OUT / f"{game}-screen.png"))
    for ctx in contexts:
        ctx.close()
    return [OUT / f"{game}-phone.png", OUT / f"{game}-screen.png"]


def shoot_tablet(browser, base_url):
    """The tablet in the middle of a Danger Zone table of five without phones (the host added
    the seats), in round 1's Movement with two tokens revealed."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    host = ctx.new_page()
    code = start_table(host, base_url, "danger-zone")
    token = json.loads(host.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    for name in ("Maya", "Jonas", "Priya", "Tom", "Ines"):
        host.request.post(
            f"{base_url}/t/{code}/seats",
            form={"csrf": token, "name": name},
            headers={"Origin": base_url},
            max_redirects=0,
        )
    seats = [s["id"] for s in state_of(host)["state"]["seats"]]
    for seat, character in zip(seats, ("Archer", "Lana", "Cyril", "Pam", "Cheryl")):
        post(host, "character.pick", seat=str(seat), character=character)
    post(host, "locations.draw")
    post(host, "initiative.roll")
    post(host, "order.confirm", order=",".join(map(str, seats)))
    post(host, "round.next", to=state_of(host)["state"]["next_step"])
    for delta, seat in zip((3, -1, 2), seats):
        post(host, "upper_hand.change", seat=str(seat), delta=str(delta))
    state = state_of(host)["state"]
    for place in state["locations"][:2]:
        post(host, "movement.enter", seat=str(state_of(host)["state"]["whose_turn"]), location=place["name"])
    host.goto(f"{base_url}/t/{code}/tablet")
    host.wait_for_selector(".tb-board")
    host.wait_for_function("() => document.querySelector('.tb-slot').getBoundingClientRect().width > 0")
    host.screenshot(path=str(OUT / "tablet.png"))
    ctx.close()
    return [OUT / "tablet.png"]


def shoot_night(browser, base_url):
    """Game night: a Danger Zone game won, "play again" with Blackmail (the phones follow by
    themselves) played to its end, then Age of Assassins under way; the night page on a phone
    and the night's standings on the table screen."""
    phone_kind = dict(browser.devices["Pixel 7"], device_scale_factor=1, color_scheme="dark")
    contexts = [browser.new_context(**phone_kind) for _ in range(5)]
    host, phones = contexts[0].new_page(), [ctx.new_page() for ctx in contexts[1:]]
    code = start_table(host, base_url, "danger-zone")
    for phone, name in zip(phones, ("Sterling", "Lana", "Cyril", "Pam")):
        sit_down(phone, f"{base_url}/t/{code}", name)
    danger_zone_round_one(host, phones, ("Archer", "Lana", "Cyril", "Pam"))
    for phone, delta in zip(phones, (9, 4, 7, 15)):  # Pam reaches 20 last
        post(phone, "upper_hand.change", seat=str(seat_of(phone)), delta=str(delta))

    def play_again(game):
        old = host.url.split("/")[-2]
        host.wait_for_selector(".night-again")
        host.click(f".night-again button[value={game}]")
        host.wait_for_url(lambda url: url.endswith("/host") and old not in url)
        new = host.url.split("/")[-2]
        for phone in phones:
            phone.wait_for_url(f"**/t/{new}/me")

    play_again("blackmail")
    post(host, "game.start", first_player=str(seat_of(phones[0])), to=state_of(host)["state"]["to"]["start"])
    for winner in (0, 2, 0, 0):
        post(host, "round.score", winner=str(seat_of(phones[winner])), to=state_of(host)["state"]["to"]["next_round"])
    play_again("assassins")
    for phone, points in zip(phones, (4, 2, 6, 3)):
        post(phone, "points", seat=str(seat_of(phone)), delta=str(points))
    me = phones[0]
    me.goto(me.url.replace("/me", "/night"))
    me.wait_for_selector(".night-table")
    me.screenshot(path=str(OUT / "night-phone.png"))
    host.goto(host.url.replace("/host", "/night"))
    host.click("button:has-text('Show the night on the table screen')")
    screen = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark").new_page()
    contexts.append(screen.context)
    screen.goto(host.url.replace("/host", "/screen").replace("/night", "/screen"))
    screen.wait_for_selector(".night-tv")
    screen.screenshot(path=str(OUT / "night-screen.png"))
    for ctx in contexts:
        ctx.close()
    return [OUT / "night-phone.png", OUT / "night-screen.png"]


def shoot_chart(browser, base_url):
    """A game of Blackmail scored round by round to its end: how it went on a phone (with its
    "Save to BG Stats" link) and beside the game's end on the table screen."""
    phone_kind = dict(browser.devices["Pixel 7"], device_scale_factor=1, color_scheme="dark")
    contexts = [browser.new_context(**phone_kind) for _ in range(5)]
    host, phones = contexts[0].new_page(), [ctx.new_page() for ctx in contexts[1:]]
    code = start_table(host, base_url, "blackmail")
    for phone, name in zip(phones, PLAYERS["blackmail"]):
        sit_down(phone, f"{base_url}/t/{code}", name)
    post(host, "game.start", first_player=str(seat_of(phones[1])), to=state_of(host)["state"]["to"]["start"])
    for winner in (1, 0, 2, 1, 0, 2, 0):  # 4 players: 3 Victory Points win
        post(host, "round.score", winner=str(seat_of(phones[winner])), to=state_of(host)["state"]["to"]["next_round"])
    me = phones[0]
    me.reload()
    me.wait_for_selector("#live-chart svg")
    me.evaluate("() => document.querySelector('#live-chart').scrollIntoView({block: 'end'})")
    me.screenshot(path=str(OUT / "chart-phone.png"))
    screen = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark").new_page()
    contexts.append(screen.context)
    screen.goto(f"{base_url}/t/{code}/screen")
    screen.wait_for_selector("#live-chart svg")
    screen.screenshot(path=str(OUT / "chart-screen.png"))
    for ctx in contexts:
        ctx.close()
    return [OUT / "chart-phone.png", OUT / "chart-screen.png"]


SPECIAL = {"tablet": shoot_tablet, "night": shoot_night, "chart": shoot_chart}


def main(games):
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server = Server(data).start()
        try:
            with sync_playwright() as p:
                browser = launch_chromium(p, os.environ.get("CHROMIUM", "/usr/bin/chromium"))
                browser.devices = p.devices
                for game in games:
                    shots = SPECIAL[game](browser, server.url) if game in SPECIAL else shoot(browser, server.url, game)
                    for path in shots:
                        print(path.relative_to(ROOT))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1:] or list(PLAYERS) + list(SPECIAL))
