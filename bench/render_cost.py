"""CPU per change: one tap, then every phone at the table re-fetching its live fragment.

    python bench/render_cost.py [--changes 200] [--games generic,danger-zone,assassins]

In one process, through Flask's test client on a temporary SQLite database (no sockets, no
other process), so the number is the app's own work: the POST that makes the change and
renders the tapper's answer, plus one fragment GET per other phone, as each page does when
its stream says the table changed. Counts process CPU time (not wall time), so a busy
machine disturbs it less. Prints one JSON line per game: cpu_ms_per_change,
cpu_ms_per_fragment (the GETs alone) and the fragment's size.
"""

import argparse
import json
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from companion import create_app  # noqa: E402

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

    def fragment(self):
        return self.client.get(f"/t/{self.code}/live?page=player", headers=HX).get_data()


def measure(app, game, changes):
    count, setup, (kind, form_for) = GAMES[game]
    host = app.test_client()
    code = host.post("/tables", data={"game": game}).headers["Location"].split("/")[2]
    host_phone = Phone(app, code)
    host_phone.client = host
    page = host.get(f"/t/{code}/host").get_data(as_text=True)
    host_phone.csrf = page.split('"X-CSRF-Token": "')[1].split('"')[0]
    phones = [Phone(app, code) for _ in range(count)]
    for n, phone in enumerate(phones):
        phone.join(f"P{n}")
    for who, setup_kind, form in setup:
        tapper = host_phone if who == "host" else phones[who]
        if callable(form):
            form = form(host.get(f"/t/{code}/state.json").get_json()["state"])
        tapper.act(setup_kind, dict(form, seat=tapper.seat) if who != "host" else form)
    for phone in phones:
        phone.fragment()
    total = gets = 0.0
    size = 0
    for n in range(changes):
        tapper = phones[n % count]
        target = phones[(n + 1) % count].seat
        start = time.process_time()
        tapper.act(kind, form_for(target, n))
        between = time.process_time()
        for phone in phones:
            if phone is not tapper:
                size = len(phone.fragment())
        end = time.process_time()
        total += end - start
        gets += end - between
    return {"game": game, "phones": count, "changes": changes,
            "cpu_ms_per_change": round(total / changes * 1000, 2),
            "cpu_ms_per_fragment": round(gets / changes / (count - 1) * 1000, 3),
            "fragment_bytes": size}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    app = create_app({"DATA_DIR": tempfile.mkdtemp(prefix="companion-render-")})
    for game in args.games.split(","):
        measure(app, game, 10)  # warm up: templates compiled, caches filled
        print(json.dumps(measure(app, game, args.changes)), flush=True)


if __name__ == "__main__":
    main()
