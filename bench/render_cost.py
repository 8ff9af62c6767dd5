"""CPU per change: one tap, then every open page's stream getting its parts.

    python bench/render_cost.py [--changes 200] [--games generic,danger-zone,assassins]
                                [--phones 8,32]

In one process, through Flask's test client on a temporary SQLite database (no sockets, no
other process), so the number is the app's own work: the POST that makes the change and
renders the tapper's answer, plus, for every open page, what its stream does on the change
(live.Notifier's per-version parts, rendered once per kind of viewer, and the message of
what changed for that page). Counts process CPU time (not wall time), so a busy machine
disturbs it less. Pages beyond the game's seats are table screens (a TV, a spectator).
Prints one JSON line per game and page count: cpu_ms_per_change, cpu_ms_per_page (the
streams' work alone) and the bytes one phone's stream sent for the change.
"""

import argparse
import json
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from companion import access, create_app, games, live  # noqa: E402

HX = {"HX-Request": "true", "HX-Target": "live-body"}

# game: (phones, setup taps as (phone index or "host", kind, form), the change tap n makes;
# Upper Hand goes up and down, so no one reaches 20 and ends the game)
GAMES = {
    "generic": (8, [], ("score", lambda seat, n: {"seat": seat, "delta": 1 - 2 * (n // 8 % 2)})),
    "danger-zone": (6, [("host", "locations.draw", {})]
                    + [(n, "character.pick", {"character": c})
                       for n, c in enumerate(("Archer", "Lana", "Malory", "Cyril", "Pam", "Cheryl"))]
                    + [("host", "initiative.roll", {}),
                       ("host", "order.confirm", lambda view: {"order": ",".join(str(s["id"]) for s in view["seats"])}),
                       ("host", "round.next", lambda view: {"to": view["next_step"]})],
                    ("upper_hand.change", lambda seat, n: {"seat": seat, "delta": 1 - 2 * (n // 6 % 2)})),
    "assassins": (4, [], ("points", lambda seat, n: {"seat": seat, "delta": 1})),
}


class Phone:
    def __init__(self, app, code):
        self.client, self.code = app.test_client(), code
        self.csrf = self.seat = None

    def join(self, name):
        self.client.post(f"/t/{self.code}/join", data={"name": name})
        page = self.client.get(f"/t/{self.code}/me").get_data(as_text=True)
        self.csrf = page.split('"X-CSRF-Token": "')[1].split('"')[0]
        self.seat = self.client.get(f"/t/{self.code}/state.json").get_json()["viewer"]["seat"]

    def act(self, kind, form):
        response = self.client.post(f"/t/{self.code}/act/{kind}", data=form,
                                    headers={**HX, "X-CSRF-Token": self.csrf})
        if response.status_code != 200:
            body = response.get_data(as_text=True)
            error = body.split('class="error" role="alert">')[-1].split("<")[0]
            raise SystemExit(f"{kind} {form}: {response.status_code} {error[:300]}")
        return int(response.get_data(as_text=True).split('data-version="')[1].split('"')[0])

class Page:
    """One open page's stream: its kind of viewer, and what it last sent. As a real stream, it
    keeps its request (the asker's cookie) and its table for as long as it is open."""

    def __init__(self, app, code, phone=None):
        self.sent = None
        self.page = "player" if phone else "screen"
        cookie = phone.client.get_cookie("tc", path=f"/t/{code}").value if phone else None
        self.request = app.test_request_context(f"/t/{code}/events?page={self.page}",
                                                headers={"Cookie": f"tc={cookie}"} if cookie else {})
        with self.request:
            self.table = access.table_or_404(code)
        self.look = live.looker(self.table, self.page, cookie)  # what the stream route uses

    def on_change(self, table_live):
        with self.request:
            version, parts = table_live.parts(self.look)[:2]
            sent = live.message(version, parts, self.sent)
            self.sent = parts
            return len(sent)


def measure(app, game, changes, pages_open):
    seats, setup, (kind, form_for) = GAMES[game]
    seats = min(seats, pages_open, games.GAMES[game].MAX_SEATS)
    host = app.test_client()
    code = host.post("/tables", data={"game": game}).headers["Location"].split("/")[2]
    host_phone = Phone(app, code)
    host_phone.client = host
    page = host.get(f"/t/{code}/host").get_data(as_text=True)
    host_phone.csrf = page.split('"X-CSRF-Token": "')[1].split('"')[0]
    phones = [Phone(app, code) for _ in range(seats)]
    for n, phone in enumerate(phones):
        phone.join(f"P{n}")
    for who, setup_kind, form in setup:
        tapper = host_phone if who == "host" else phones[who]
        if callable(form):
            form = form(host.get(f"/t/{code}/state.json").get_json()["state"])
        tapper.act(setup_kind, dict(form, seat=tapper.seat) if who != "host" else form)
    opened = [Page(app, code, phone) for phone in phones]
    opened += [Page(app, code) for _ in range(pages_open - len(opened))]
    # The pages' streams are open at the app's notifier, as a real server's are: a tap's POST
    # publishes the new version there, and its answer shares the tapper's kind's render.
    with app.app_context():
        notifier = live.notifier()
    version = host.get(f"/t/{code}/state.json").get_json()["version"]
    keys = [notifier.open(opened[0].table.id, version) for _ in opened]
    table_live = notifier._open[keys[0]][1]

    def streams_send(version):
        assert table_live.version == version  # the tap published it
        return [page.on_change(table_live) for page in opened]

    streams_send(version)  # every page has it all
    total = streamed = 0.0
    size = 0
    for n in range(changes):
        tapper = phones[n % seats]
        target = phones[(n + 1) % seats].seat
        start = time.process_time()
        version = tapper.act(kind, form_for(target, n))
        between = time.process_time()
        size = streams_send(version)[(n + 1) % seats]
        end = time.process_time()
        total += end - start
        streamed += end - between
    for key in keys:
        notifier.close(key)
    return {"game": game, "pages": pages_open, "seats": seats, "changes": changes,
            "cpu_ms_per_change": round(total / changes * 1000, 2),
            "cpu_ms_per_page": round(streamed / changes / pages_open * 1000, 3),
            "phone_message_bytes": size}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--phones", default="8,32", help="open pages per table, comma-separated")
    args = parser.parse_args()
    app = create_app({"DATA_DIR": tempfile.mkdtemp(prefix="companion-render-")})
    for game in args.games.split(","):
        for count in map(int, args.phones.split(",")):
            measure(app, game, 10, count)  # warm up: templates compiled, caches filled
            print(json.dumps(measure(app, game, args.changes, count)), flush=True)


if __name__ == "__main__":
    main()
