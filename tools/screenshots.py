"""Screenshots for the README: per game, a phone and the table screen, taken from the real
server with a few phones seated, so they show the app as it is today.

    make screenshots            (or: .venv/bin/python tools/screenshots.py [game ...])

Writes docs/screenshots/<game>-phone.png (a Pixel 7 in dark mode, the first viewport of a
player's page) and docs/screenshots/<game>-screen.png (the table screen at 1280x800).
"""

import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser_steps import sit_down, start_table  # noqa: E402
from conftest import CHROMIUM_ARGS, Server  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PLAYERS = {"danger-zone": ["Sterling", "Lana", "Cyril", "Pam", "Cheryl", "Ray"],
           "blackmail": ["Sterling", "Lana", "Cyril", "Pam"],
           "assassins": ["Ana", "Bo", "Cy", "Dee"],
           "generic": ["Ana", "Bo", "Cy", "Dee", "Eli"]}


def post(page, kind, **fields):
    """Post one action as this page's viewer, the way its forms do (same cookie, same token)."""
    base, code = page.url.split("/t/")[0], page.url.split("/")[-2]
    token = json.loads(page.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    response = page.request.post(f"{base}/t/{code}/act/{kind}",
                                 form={"csrf": token, "page": "player", **fields},
                                 headers={"HX-Request": "true", "HX-Target": "live-body",
                                          "Origin": base})
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


def danger_zone(host, phones):
    """Setup, round 1's Movement with most tokens revealed, then a few Upper Hand changes."""
    characters = ("Archer", "Lana", "Cyril", "Pam", "Cheryl", "Ray")
    for phone, character in zip(phones, characters):
        post(phone, "character.pick", seat=str(seat_of(phone)), character=character)
    post(host, "locations.draw")
    post(host, "initiative.roll")
    seats = [s["id"] for s in state_of(host)["state"]["seats"]]
    post(host, "order.confirm", order=",".join(map(str, seats)))
    post(host, "round.next", to=state_of(host)["state"]["next_step"])
    places = state_of(host)["state"]["locations"]
    for phone, place in zip(phones[1:], places * 2):
        post(phone, "movement.enter", seat=str(seat_of(phone)),
             location=place if isinstance(place, str) else place["name"])
    for phone, delta in zip(phones, (3, 1, 4, 2)):
        post(phone, "upper_hand.change", seat=str(seat_of(phone)), delta=str(delta))


def blackmail(host, phones):
    """The app deals: the first round under way."""
    post(host, "game.start", tracking="dealt", first_player=str(seat_of(phones[1])),
         to=state_of(host)["state"]["to"]["start"])


def assassins(host, phones):
    for phone, (prelim, real) in zip(phones, ((3, 2), (1, 0), (4, 5), (2, 1))):
        seat = str(seat_of(phone))
        post(phone, "points", seat=seat, delta=str(prelim))
        if real:
            post(phone, "points.real", seat=seat, delta=str(real))


# What each game does before the pictures: a game left out is shown as its players sat down.
PREPARE = {"generic": generic, "danger-zone": danger_zone, "blackmail": blackmail,
           "assassins": assassins}


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


def main(games):
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server = Server(data).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                            args=CHROMIUM_ARGS)
                browser.devices = p.devices
                for game in games:
                    for path in shoot(browser, server.url, game):
                        print(path.relative_to(ROOT))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1:] or list(PLAYERS))
