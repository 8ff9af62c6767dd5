"""CPU per change: one tap, then every open page's stream getting its regions.

    python bench/render_cost.py [--changes 200]
        [--games generic,danger-zone,assassins,blackmail,blackmail-dealt] [--phones 8,32]

In one process, through Flask's test client on a temporary SQLite database (no sockets, no
other process), so the number is the app's own work: the POST that makes the change and
renders the tapper's answer, plus, for every open page, what its stream does on the change
(live.Notifier's per-version fragment, rendered once per kind of viewer, the message of
the regions that changed for that page, and its own gzip stream's compression). Counts process CPU time (not wall time), so a busy machine
disturbs it less. Pages beyond the game's seats are table screens (a TV, a spectator).
Prints one JSON line per game and page count: cpu_ms_per_change, cpu_ms_per_page (the
streams' work alone), rss_kb_per_page (what the process grew by while the pages were open,
over the pages) and the bytes one phone's stream sent per change, on the wire (gzip, as a
browser asks for it; `*_bytes_*`) and decoded (`*_decoded_*`): `phone_bytes_*` for
the phone of the seat after the tapper's (the seat the change touched; in Blackmail, whose
turn comes), `other_bytes_*` for the phone two seats on (a bystander): the median and the
largest, and the mean over the first 10 changes (a new table) and over the changes after
the 100th (late in a game, the log full). `blackmail` plays Blackmail card by card with full tracking (each tap records the
card the seat on turn played), `blackmail-dealt` with the app dealing (each tap plays a card
from the hand on that seat's phone); a round's end takes its taps (the hands shown, the
confirm) and a won game starts again. `one_seat_bytes_*` is `phone_bytes_*` over the
changes to one seat alone (a score, an Upper Hand, points, a card played that does not end
the round): the issue's 4,000-byte target is for those; a round's end and a new game change
every seat's block.
"""

import argparse
import json
import pathlib
import statistics
import sys
import tempfile
import time
import zlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from flask import g  # noqa: E402

import benchlib  # noqa: E402
from companion import access, create_app, games, live  # noqa: E402
from companion.live import notify, stream  # noqa: E402
from companion.web import pages  # noqa: E402

HX = {"HX-Request": "true", "HX-Target": "live-body"}

# game: (phones, setup taps as (phone index or "host", kind, form), the change tap n makes;
# Upper Hand goes up and down, so no one reaches 20 and ends the game). A change is (kind,
# form for (seat, n)): phone n taps for the next seat; or a function of the bench's Table
# that picks who taps what (Blackmail: whose turn it is decides).
GAMES = {
    "generic": (8, [], ("score", lambda seat, n: {"seat": seat, "delta": 1 - 2 * (n // 8 % 2)})),
    "danger-zone": (
        6,
        [("host", "locations.draw", {})]
        + [
            (n, "character.pick", {"character": c})
            for n, c in enumerate(("Archer", "Lana", "Malory", "Cyril", "Pam", "Cheryl"))
        ]
        + [
            ("host", "initiative.roll", {}),
            ("host", "order.confirm", lambda view: {"order": ",".join(str(s["id"]) for s in view["seats"])}),
            ("host", "round.next", lambda view: {"to": view["next_step"]}),
        ],
        # up for 24 changes, down for 24: each seat evens out with 6 seats or 8
        # (bench/phone_apply.py), so none goes below 0 however long the run
        ("upper_hand.change", lambda seat, n: {"seat": seat, "delta": 1 - 2 * (n // 24 % 2)}),
    ),
    "assassins": (4, [], ("points", lambda seat, n: {"seat": seat, "delta": 1})),
    "blackmail": (
        4,
        [
            (
                "host",
                "game.start",
                lambda view: {"to": view["to"]["start"], "tracking": "full", "first_player": "random"},
            )
        ],
        lambda table, n: blackmail_full(table),
    ),
    "blackmail-dealt": (
        4,
        [
            (
                "host",
                "game.start",
                lambda view: {"to": view["to"]["start"], "tracking": "dealt", "first_player": "random"},
            )
        ],
        lambda table, n: blackmail_dealt(table),
    ),
}
SLUGS = {"blackmail-dealt": "blackmail"}

# Full tracking: the 11 cards a 4-seat round plays before the deck runs out, each with the
# fewest choices (a wrong guess, a protection, an equal duel), so no one goes out; then every
# seat shows its card (the highest wins) and a phone confirms.
FULL_ORDER = (1, 2, 4, 3)
SHOWN = (8, 7, 6, 5)


def blackmail_full(table):
    who, kind, form = full_move(table.view())
    return (who if who == "host" else table.by_seat(who)), kind, form


def full_move(view):
    """(the seat that taps, or "host"; the action; its form): the next tap of a game with
    full tracking, as above (tests/test_pieces_blackmail.py plays the same round)."""
    r = view["round"]
    if view["phase"] == "game_over":
        return "host", "game.start", {"to": view["to"]["start"], "tracking": "full", "first_player": "random"}
    if r["result"]:
        return r["result"]["winners"][0], "round.confirm", {"to": view["to"]["next_round"]}
    if r["stage"] != "playing":
        left = {c["number"]: c["unaccounted"] for c in view["characters"]}
        return r["awaiting_hands"][0], "hand", {"card": next(c for c in SHOWN if left[c] > 0)}
    left = {c["number"]: c["unaccounted"] for c in view["characters"]}
    card = next(c for c in FULL_ORDER if left[c] > 0)
    targets = r["targets"].get(str(card)) or []
    form = {"card": card}
    if card == 1 and targets:
        form.update(target=targets[0], named=2, correct="no")
    elif card == 2:
        form.update(named=8, correct="no")
    elif card == 4:
        form.update(choice="protect")
    elif card == 3 and targets:
        form.update(target=targets[0], eliminated="equal")
    return r["turn"], "play", form


def blackmail_dealt(table):
    view = table.view()
    r = view["round"]
    if view["phase"] == "game_over":
        return "host", "game.start", {"to": view["to"]["start"], "tracking": "dealt", "first_player": "random"}
    if r["result"]:
        return table.by_seat(r["result"]["winners"][0]), "round.confirm", {"to": view["to"]["next_round"]}
    phone = table.by_seat(r["turn"])
    mine = phone.state()["state"]["round"]
    hand = [c["number"] for c in mine["dealt"]["hand"]]
    card = min(hand, key=lambda c: (c == 8, c))  # Malory only when she is all there is
    targets = mine["targets"].get(str(card)) or []
    form = {"card": card, "turn": mine["dealt"]["turn_no"]}
    if card in (1, 3) and targets:
        form["target"] = targets[0]
    if card in (5, 6):
        form["target"] = phone.seat
    if card == 1 and targets:
        form["named"] = 2
    if card == 2:
        form["named"] = 3
    if card == 4:
        form["choice"] = "protect"
    return phone, "dealt.play", form


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
        response = self.client.post(f"/t/{self.code}/act/{kind}", data=form, headers={**HX, "X-CSRF-Token": self.csrf})
        if response.status_code != 200:
            body = response.get_data(as_text=True)
            error = body.split('class="error" role="alert">')[-1].split("<")[0]
            raise SystemExit(f"{kind} {form}: {response.status_code} {error[:300]}")
        return int(response.get_data(as_text=True).split('data-version="')[1].split('"')[0])

    def state(self):
        return self.client.get(f"/t/{self.code}/state.json").get_json()


class Table:
    """What a move picks from: the table's state as the host sees it, and its phones."""

    def __init__(self, host, phones):
        self.host, self.phones = host, phones

    def view(self):
        return self.host.state()["state"]

    def by_seat(self, seat):
        return next(phone for phone in self.phones if phone.seat == seat)


class Page:
    """One open page's stream: its kind of viewer, and what it last sent. As a real stream, it
    keeps its request (the asker's cookie) and its table for as long as it is open."""

    def __init__(self, app, code, phone=None):
        self.sent = None
        self.page = "player" if phone else "screen"
        cookie = phone.client.get_cookie("tc", path=f"/t/{code}").value if phone else None
        self.request = app.test_request_context(
            f"/t/{code}/events?page={self.page}", headers={"Cookie": f"tc={cookie}"} if cookie else {}
        )
        with self.request:
            self.table = access.table_or_404(code)
        self.look = pages.looker(self.table, self.page, cookie)  # what the stream route uses

        self.seen = 0
        self.deflate = zlib.compressobj(6, zlib.DEFLATED, 16 + stream.WINDOW_BITS, stream.MEMORY_LEVEL)

    def on_change(self, table_live):
        """(bytes on the wire, bytes decoded) of this page's message, as notify.stream makes it."""
        with self.request:
            g.table = self.table  # as the stream's request holds it (access.table_or_404)
            found = table_live.parts(self.look)
            text = notify.message(found, self.sent if found.previous == self.seen else None)
            self.sent, self.seen = found.held, found.version
            wire = self.deflate.compress(text.encode()) + self.deflate.flush(zlib.Z_SYNC_FLUSH)
            return len(wire), len(text)


def measure(app, game, changes, pages_open):
    seats, setup, change = GAMES[game]
    slug = SLUGS.get(game, game)
    seats = min(seats, pages_open, games.GAMES[slug].MAX_SEATS)
    host = app.test_client()
    code = host.post("/tables", data={"game": slug}).headers["Location"].split("/")[2]
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
    table = Table(host_phone, phones)
    opened = [Page(app, code, phone) for phone in phones]
    opened += [Page(app, code) for _ in range(pages_open - len(opened))]
    # The pages' streams are open at the app's notifier, as a real server's are: a tap's POST
    # publishes the new version there, and its answer shares the tapper's kind's render.
    with app.app_context():
        notifier = live.notifier()
    version = host.get(f"/t/{code}/state.json").get_json()["version"]
    rss_before = rss_kb()
    keys = [notifier.open(opened[0].table.id, version) for _ in opened]
    table_live = notifier._open[keys[0]][1]

    def streams_send(version):
        assert table_live.version == version  # the tap published it
        return [page.on_change(table_live) for page in opened]

    streams_send(version)  # every page has it all
    total = streamed = 0.0
    sizes, others, decoded, single = [], [], [], []  # single: the indices of one-seat changes
    for n in range(changes):
        if callable(change):
            tapper, kind, form = change(table, n)  # picked before the clock starts
            tapper = host_phone if tapper == "host" else tapper
        else:
            tapper, (kind, form_for) = phones[n % seats], change
            form = form_for(phones[(n + 1) % seats].seat, n)
        watcher = (phones.index(tapper) + 1) % seats if tapper in phones else 0
        start = time.process_time()
        version = tapper.act(kind, form)
        between = time.process_time()
        sent = streams_send(version)
        sizes.append(sent[watcher][0])
        others.append(sent[(watcher + 1) % seats][0])
        decoded.append(sent[watcher][1])
        end = time.process_time()
        total += end - start
        streamed += end - between
        if kind in ONE_SEAT and not round_over(host.get(f"/t/{code}/state.json").get_json()["state"]):
            single.append(n)
    rss_per_page = (rss_kb() - rss_before) / pages_open
    for key in keys:
        notifier.close(key)
    return {
        "game": game,
        "pages": pages_open,
        "seats": seats,
        "changes": changes,
        "cpu_ms_per_change": round(total / changes * 1000, 2),
        "cpu_ms_per_page": round(streamed / changes / pages_open * 1000, 3),
        "rss_kb_per_page": round(rss_per_page, 1),
        **summary("phone_bytes", sizes),
        **summary("phone_decoded", decoded),
        **summary("other_bytes", others),
        **summary(
            "one_seat_bytes",
            [sizes[n] for n in single],
            [sizes[n] for n in single if n < 10],
            [sizes[n] for n in single if n >= 100],
        ),
        **summary("one_seat_decoded", [decoded[n] for n in single]),
    }


def rss_kb():
    """This process's resident memory now: its growth while the pages were open, over the pages,
    is what an open page costs the server (its compressor, the render state of its table). A
    rough figure: memory Python freed earlier is used again before the process grows."""
    return benchlib.status_mb("self", "VmRSS:") * 1024


def summary(name, sizes, first=None, late=None):
    """Median, largest, and the mean of the first 10 changes and of those after the 100th
    (or of `first` and `late`, when the sizes are a pick of the changes)."""
    first = sizes[:10] if first is None else first
    late = sizes[100:] if late is None else late
    return {
        f"{name}_p50": round(statistics.median(sizes)) if sizes else None,
        f"{name}_max": max(sizes, default=None),
        f"{name}_first10": round(statistics.mean(first)) if first else None,
        f"{name}_after100": round(statistics.mean(late)) if late else None,
    }


# A change to one seat's figures (the targets' "one-seat change"): a score, an Upper Hand,
# points, a card played; not a play that ends a round, nor a round's end or a game's start,
# which change every seat (the bench's figures above count those too).
ONE_SEAT = {"score", "upper_hand.change", "points", "play", "dealt.play"}


def round_over(state):
    """Did this change end the round (Blackmail: the deck ran out or one seat is left)?"""
    r = state.get("round")
    r = r if isinstance(r, dict) else {}  # Danger Zone's round is its number
    return state.get("phase") == "game_over" or bool(r.get("result")) or r.get("stage", "playing") != "playing"


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
