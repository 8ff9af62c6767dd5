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
streams send only the version (live.py), and the page changes one word of its own (a span at
the end of the page) on each message: what a message that shows a change costs at the least,
the floor beside the same sitting's figures. (A message that changes nothing on the page
needs no new frame, and its time to the next one is shorter than any change's can be.)

For each message the page measures, in its own clock: from the message event being
dispatched (its arrival at the page's script) to the page's next frame after the app's
handler swapped it in (a task queued from that frame's requestAnimationFrame runs once the
frame's style, layout and paint are done). Prints one JSON line per game: apply p50/p95/max
in ms, the handler alone (the swap and morph), and the bytes of the messages.

With --cpu, the page is also traced (the DevTools protocol's Tracing) while the changes are
made, and each message's CPU time on the page's main thread is added: the handler's task
(`cpu_handler_*`), the frame that shows it (`cpu_frame_*`: style, layout, paint, the commit),
and everything from the message's task to that frame's end (`cpu_total_*`). On a shared
machine whose speed varies, CPU time moves far less than time on the clock (time spent
waiting for a core is not counted), so it is the figure to compare two trees by; run it with
--throttle 1 for the page's own work (tracing slows the page, so its clock figures are not
comparable with a run without --cpu).
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

# Wraps the page's "live" listener (static/js/live.js) on its EventSource.
MEASURE = """
(() => {
  window.__applied = [];
  const add = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, options) {
    if (type !== "live") return add.call(this, type, listener, options);
    const measured = function (event) {
      const start = performance.now();
      listener.call(this, event);
      if (window.__oneWord) {  // --bare: the floor shows one word, as a real message shows its change
        let word = document.getElementById("bench-word");
        if (!word) {
          word = document.createElement("span");
          word.id = "bench-word";
          document.body.appendChild(word);
        }
        word.textContent = event.lastEventId;
      }
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
        status, _, text, _ = self.client.post(f"/t/{self.code}/act/{kind}", {**form, "csrf": self.client.csrf}, HX)
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
    """Until the page has shown this version (polled from here every 50 ms: wait_for_function
    polls at every animation frame, inside the very frames this bench measures)."""
    deadline = time.time() + timeout
    while not page.evaluate("v => window.__applied.some(a => a.id >= v)", version):
        if time.time() > deadline:
            raise SystemExit(f"the page never showed version {version}")
        time.sleep(0.05)


def at_rest(page):
    """Waits until the page is at rest, as between two changes at a table: the last change's
    flash (a second or so of animation) over, then 0.2 s more. A change that comes while one
    animates waits for the animation's next frame, half a frame on average, which taps seconds
    apart never meet."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect.getComputedTiming().iterations === Infinity)",
        timeout=5000,
    )
    time.sleep(0.2)


def main_thread_cpu(events):
    """Per message, the page's main-thread CPU in ms (thread time, `tdur`): (handler, frame,
    total), from a trace of the changes (see --cpu)."""
    calls = sorted(
        (
            e
            for e in events
            if e.get("name") == "FunctionCall" and e.get("args", {}).get("data", {}).get("functionName") == "measured"
        ),
        key=lambda e: e["ts"],
    )
    if not calls:
        return []
    pid, tid = calls[0]["pid"], calls[0]["tid"]
    mine = [e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and "dur" in e]
    tasks = sorted((e for e in mine if e["name"] == "RunTask"), key=lambda e: e["ts"])
    frames = sorted((e for e in mine if e["name"] == "WebFrameWidgetImpl::UpdateLifecycle"), key=lambda e: e["ts"])
    holding = lambda at: next((t for t in tasks if t["ts"] <= at <= t["ts"] + t["dur"]), None)
    found = []
    for call in calls:
        frame = next((f for f in frames if f["ts"] > call["ts"]), None)
        first, last = holding(call["ts"]), frame and holding(frame["ts"])
        if not first or not last:
            continue
        total = sum(t.get("tdur", 0) for t in tasks if first["ts"] <= t["ts"] <= last["ts"])
        found.append((first.get("tdur", 0) / 1000, last.get("tdur", 0) / 1000, total / 1000))
    return found


def measure(browser, devices, server, game, before, changes, throttle, bare=False, cpu=False):
    seats = SEATS[game]
    code, host, phones, change = set_up(server.port, game, seats)
    for n in range(before):
        tap(host, phones, change, n)
    watched = phones[1]
    context = browser.new_context(**devices["Pixel 7"])
    context.add_cookies(
        [{"name": "tc", "value": watched.client.cookies["tc"], "url": f"http://127.0.0.1:{server.port}/t/{code}/"}]
    )
    page = context.new_page()
    page.add_init_script(MEASURE)
    if bare:
        page.add_init_script("window.__oneWord = true;")
    page.goto(f"http://127.0.0.1:{server.port}/t/{code}/me")
    page.wait_for_selector("main[sse-connect]")
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    time.sleep(1.0)  # the stream is open
    # One change first, not counted: the page settles after its first message.
    wait_until(page, tap(host, phones, change, before))
    page.evaluate("() => { window.__applied = []; }")
    events = []
    if cpu:
        cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
        cdp.send(
            "Tracing.start",
            {
                "traceConfig": {
                    "includedCategories": [
                        "devtools.timeline",
                        "disabled-by-default-devtools.timeline",
                        "v8.execute",
                        "blink",
                    ]
                }
            },
        )
    at_rest(page)
    for n in range(before + 1, before + 1 + changes):
        version = tap(host, phones, change, n)
        wait_until(page, version)
        at_rest(page)
    if cpu:
        done = []
        cdp.on("Tracing.tracingComplete", lambda e: done.append(True))
        cdp.send("Tracing.end")
        while not done:
            page.wait_for_timeout(100)  # Playwright hands over the trace's events while it waits
    applied = page.evaluate("window.__applied")
    context.close()
    shown = [a["shown"] - a["arrived"] for a in applied]
    handler = [a["swapped"] - a["start"] for a in applied]
    sizes = [a["bytes"] for a in applied]
    return {
        "game": game,
        "bare": bare,
        "seats": seats,
        "before": before,
        "changes": len(applied),
        "throttle": throttle,
        "apply_p50_ms": round(percentile(shown, 50), 1),
        "apply_p95_ms": round(percentile(shown, 95), 1),
        "apply_max_ms": round(max(shown), 1),
        "handler_p50_ms": round(percentile(handler, 50), 1),
        "handler_p95_ms": round(percentile(handler, 95), 1),
        "bytes_p50": percentile(sizes, 50),
        "bytes_max": max(sizes),
        **cpu_figures(main_thread_cpu(events) if cpu else []),
    }


def cpu_figures(found):
    figures = {}
    for n, name in enumerate(("handler", "frame", "total")):
        values = [f[n] for f in found]
        if values:
            figures.update(
                {
                    f"cpu_{name}_p50_ms": round(percentile(values, 50), 2),
                    f"cpu_{name}_mean_ms": round(sum(values) / len(values), 2),
                }
            )
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(SEATS))
    parser.add_argument("--before", type=int, default=100, help="changes before the page opens")
    parser.add_argument("--changes", type=int, default=30, help="changes measured")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown (1: none)")
    parser.add_argument(
        "--bare", action="store_true", help="messages carry only the version (live.py): the page's own floor"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="also the page's main-thread CPU per message, from a trace (see above)"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = Server(env={"COMPANION_BENCH_BARE": "1"} if args.bare else None)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
            )
            for game in args.games.split(","):
                print(
                    json.dumps(
                        measure(
                            browser,
                            playwright.devices,
                            server,
                            game,
                            args.before,
                            args.changes,
                            args.throttle,
                            args.bare,
                            args.cpu,
                        )
                    ),
                    flush=True,
                )
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
