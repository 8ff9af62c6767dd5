"""Phone apply: how long a phone's page takes from a live message arriving to showing it.

    python bench/phone_apply.py [--games generic,danger-zone,assassins,blackmail,blackmail-dealt]
                                [--before 100] [--changes 30] [--throttle 4]

Starts the real server, seats each game's most players (8; Blackmail and Age of Assassins 4),
plays `before` changes over HTTP so the game is late and its log long (bench/render_cost.py's
moves), then opens one seat's phone page (/t/CODE/me) in a real Chromium (Debian's
/usr/bin/chromium, or $CHROMIUM, through Playwright; a Pixel 7's screen) with its CPU slowed
`throttle` times through the DevTools protocol (Emulation.setCPUThrottlingRate, as Lighthouse
slows a phone), and makes `changes` more, one at a time: each is posted by the seat the moves
pick, over HTTP, and the next waits until the page has shown it. With --bare the server's
streams send only the version (live.py): what a message costs the page with nothing in it,
the floor beside the same sitting's figures.

For each message the page measures, in its own clock: from the message event being
dispatched (its arrival at the page's script) to the page's next frame after the app's
handler swapped it in (a task queued from that frame's requestAnimationFrame runs once the
frame's style, layout and paint are done). Prints one JSON line per game: apply p50/p95/max
in ms, the handler alone (the swap and morph), and the bytes of the messages.
"""

import argparse
import json
import os
import pathlib
import re
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import render_cost  # noqa: E402  (the moves each game's taps follow)
from benchlib import Client, Server, percentile  # noqa: E402

HX = {"HX-Request": "true", "HX-Target": "live-body"}
SEATS = {"generic": 8, "danger-zone": 8, "assassins": 4, "blackmail": 4, "blackmail-dealt": 4}
DANGER_ZONE = ("Archer", "Lana", "Malory", "Cyril", "Pam", "Cheryl", "Krieger", "Ray")

# Wraps the page's "live" listener (static/app.js's applyLive) on its EventSource.
MEASURE = """
(() => {
  window.__applied = [];
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, options) {
    if (type !== "live") return add.call(this, type, listener, options);
    const measured = function (event) {
      const start = performance.now();
      listener.call(this, event);
      const swapped = performance.now();
      requestAnimationFrame(() => setTimeout(() => window.__applied.push({
        id: +event.lastEventId, arrived: event.timeStamp, start, swapped,
        shown: performance.now(), bytes: event.data.length}), 0));
    };
    return add.call(this, type, measured, options);
  };
})();
"""


class HttpPhone:
    """A seat's phone over HTTP, as bench/render_cost.py's moves expect one."""

    def __init__(self, port, code):
        self.client, self.code, self.seat = Client(port), code, None

    def join(self, name):
        self.client.post(f"/t/{self.code}/join", {"name": name})
        self.client.get(f"/t/{self.code}/me")
        self.seat = self.state()["viewer"]["seat"]

    def state(self):
        return json.loads(self.client.get(f"/t/{self.code}/state.json")[2])

    def act(self, kind, form):
        status, _, text, _ = self.client.post(f"/t/{self.code}/act/{kind}",
                                              {**form, "csrf": self.client.csrf}, HX)
        if status != 200:
            error = text.split('class="error" role="alert">')[-1].split("<")[0]
            raise SystemExit(f"{kind} {form}: {status} {error[:300]}")
        return int(re.search(r'data-version="(\d+)"', text).group(1))


def set_up(port, game, seats):
    slug = render_cost.SLUGS.get(game, game)
    host = HttpPhone(port, None)
    code = host.client.post("/tables", {"game": slug})[1].split("/")[2]
    host.code = code
    host.client.get(f"/t/{code}/host")
    phones = [HttpPhone(port, code) for _ in range(seats)]
    for n, phone in enumerate(phones):
        phone.join(f"P{n}")
    _, setup, change = render_cost.GAMES[game]
    if game == "danger-zone":  # every seat picks a character before the first roll
        setup = [s for s in setup if s[1] != "character.pick"]
        setup[1:1] = [(n, "character.pick", {"character": c}) for n, c in enumerate(DANGER_ZONE[:seats])]
    for who, kind, form in setup:
        tapper = host if who == "host" else phones[who]
        if callable(form):
            form = form(host.state()["state"])
        tapper.act(kind, dict(form, seat=tapper.seat) if who != "host" else form)
    return code, host, phones, change


def tap(host, phones, change, n):
    """Change n as render_cost.py makes it; returns the new version."""
    if callable(change):
        tapper, kind, form = change(render_cost.Table(host, phones), n)
        tapper = host if tapper == "host" else tapper
    else:
        kind, form_for = change
        tapper, form = phones[n % len(phones)], form_for(phones[(n + 1) % len(phones)].seat, n)
    return tapper.act(kind, form)


def wait_until(page, version, timeout=30):
    """Until the page has shown this version (polled from here: the page's content security
    policy forbids the string evaluation wait_for_function uses)."""
    deadline = time.time() + timeout
    while not page.evaluate("v => window.__applied.some(a => a.id >= v)", version):
        if time.time() > deadline:
            raise SystemExit(f"the page never showed version {version}")
        time.sleep(0.05)


def measure(browser, devices, server, game, before, changes, throttle, bare=False):
    seats = SEATS[game]
    code, host, phones, change = set_up(server.port, game, seats)
    for n in range(before):
        tap(host, phones, change, n)
    watched = phones[1]
    context = browser.new_context(**devices["Pixel 7"])
    context.add_cookies([{"name": "tc", "value": watched.client.cookies["tc"],
                          "url": f"http://127.0.0.1:{server.port}/t/{code}/"}])
    page = context.new_page()
    page.add_init_script(MEASURE)
    page.goto(f"http://127.0.0.1:{server.port}/t/{code}/me")
    page.wait_for_selector("main[sse-connect]")
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    time.sleep(1.0)  # the stream is open
    # A stream's first message carries every part (it cannot know what the page holds): one
    # change first, not counted.
    wait_until(page, tap(host, phones, change, before))
    page.evaluate("() => { window.__applied = []; }")
    time.sleep(0.2)
    for n in range(before + 1, before + 1 + changes):
        version = tap(host, phones, change, n)
        wait_until(page, version)
        time.sleep(0.2)  # the page at rest before the next change
    applied = page.evaluate("window.__applied")
    context.close()
    shown = [a["shown"] - a["arrived"] for a in applied]
    handler = [a["swapped"] - a["start"] for a in applied]
    sizes = [a["bytes"] for a in applied]
    return {"game": game, "bare": bare, "seats": seats, "before": before, "changes": len(applied), "throttle": throttle,
            "apply_p50_ms": round(percentile(shown, 50), 1), "apply_p95_ms": round(percentile(shown, 95), 1),
            "apply_max_ms": round(max(shown), 1),
            "handler_p50_ms": round(percentile(handler, 50), 1), "handler_p95_ms": round(percentile(handler, 95), 1),
            "bytes_p50": percentile(sizes, 50), "bytes_max": max(sizes)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(SEATS))
    parser.add_argument("--before", type=int, default=100, help="changes before the page opens")
    parser.add_argument("--changes", type=int, default=30, help="changes measured")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown (1: none)")
    parser.add_argument("--bare", action="store_true",
                        help="messages carry only the version (live.py): the page's own floor")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    server = Server(env={"COMPANION_BENCH_BARE": "1"} if args.bare else None)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"])
            for game in args.games.split(","):
                print(json.dumps(measure(browser, playwright.devices, server, game, args.before,
                                         args.changes, args.throttle, args.bare)), flush=True)
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
