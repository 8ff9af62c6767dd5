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
    return response.status


def seat_of(page):
    return page.request.get(page.url.replace("/me", "/state.json")).json()["viewer"]["seat"]


def generic(host, phones):
    for phone, points in zip(phones, (7, 12, 4, 9, 15)):
        post(phone, "score", seat=str(seat_of(phone)), delta=str(points), reason="Points")


# What each game does before the pictures: a game left out is shown as its players sat down.
PREPARE = {"generic": generic}


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
