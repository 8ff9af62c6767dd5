"""What the tests share besides fixtures (those are in conftest.py): viewers and events for the
pure game modules, phones on the Flask test client, live streams, servers and databases.

No test file imports from another; what two of them need lives here (Playwright steps live in
browser_steps.py). pytest finds this module through `pythonpath` in pyproject.toml."""

import html
import http.cookiejar
import json
import queue
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import zlib
from collections import Counter
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion import create_app
from companion.db import get_db
from companion.games import base
from companion.games import blackmail as bm
from companion.games import danger_zone as dz
from companion.games.blackmail import ARCHER, BY_NUMBER, CHERYL, KRUEGER
from companion.games.blackmail import dealt as deal
from companion.live import regions
from companion.tables import store

ROOT = Path(__file__).resolve().parent.parent  # the checkout


# --- viewers and events for the pure game modules ------------------------------------------

HOST = {"role": "host", "seat": None}
SCREEN = {"role": "screen", "seat": None}


def seat_viewer(seat):
    return {"role": "seat", "seat": seat}


def ev(kind, data, n=[0], by=None):  # noqa: B006 (n is the counter, kept across calls)
    """An event as the core stores it (ids go up across every test of a worker)."""
    n[0] += 1
    return {"id": n[0], "kind": kind, "by": by or HOST, "data": data, "at": "t"}


class Scripted:
    """An rng that hands out the faces it was given, in order."""

    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, low, high):
        face = self.faces.pop(0)
        assert low <= face <= high
        return face


# --- Danger Zone, through dz.parse and dz.apply ----------------------------------------------

DZ_NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
DZ_NO_TOKENS = [dz.MALORYS_OFFICE, "Breakroom", "Bullpen"]  # neither Reception nor Control Room


def dz_step(state, kind, data, by=None):
    event = ev(kind, data, by=by)
    if kind in base.ROSTER_KINDS:
        return dz.apply(base.apply_roster(state, event), event)
    return dz.apply(state, event)


def dz_act(state, kind, form=None, by=None, rng=None):
    """parse then apply, with the data round-tripped through JSON as the store keeps it."""
    by = by or HOST
    form = dict(form or {})
    if kind == "round.next":
        form.setdefault("to", dz.next_step(state))  # the step the button names
        form.setdefault("force", "1")  # as if confirmed; the forcing tests post it explicitly
    data = dz.parse(kind, form, state, by, rng or random.Random(1))
    return dz_step(state, kind, json.loads(json.dumps(data)), by)


def dz_seated(count):
    state = dz.new_state({})
    for seat in range(1, count + 1):
        state = dz_step(state, "seat.join", {"seat": seat, "name": DZ_NAMES[seat - 1]})
    return state


def dz_ready(count=3, locations=None, initiative=1):
    """A table in Setup with characters, Locations and the Initiative Token settled."""
    state = dz_seated(count)
    for seat in range(1, count + 1):
        state = dz_act(state, "character.pick", {"seat": seat, "character": dz.CHARACTERS[seat - 1]})
    if locations is None:
        state = dz_act(state, "locations.draw")
    else:
        state = dz_step(state, "locations.draw", {"locations": locations, "draw": 1})
    state = dz_act(state, "initiative.record", {"seat": str(initiative)})
    return dz_confirm_order(state)


def dz_confirm_order(state):
    return dz_act(state, "order.confirm", {"order": ",".join(str(s) for s in base.seat_ids(state))})


def dz_started(count=3, locations=DZ_NO_TOKENS, initiative=1):
    return dz_act(dz_ready(count, locations, initiative), "round.next")


def dz_enter(state, seat, location):
    return dz_act(state, "movement.enter", {"seat": seat, "location": location})


def dz_to_mission(state, rng=None):
    return dz_act(state, "round.next", {}, rng=rng)


# --- Blackmail, through bm.parse and bm.apply -------------------------------------------------

STEP_KEYS = {"game.start": "start", "round.confirm": "next_round", "round.score": "next_round"}


def stepped(kind, form, state):
    """The form with the step a moving-on button names (base.check_step), as the page posts it."""
    form = dict(form)
    if kind in STEP_KEYS and "to" not in form:
        form["to"] = bm.view_for(state, {"role": "host", "seat": None})["to"][STEP_KEYS[kind]] or ""
    return form


def dealt_table(names=("Ana", "Bo", "Cy")):
    """A Blackmail table seated for the dealt mode, not started."""
    state = bm.new_state({"tracking": "dealt"})
    for i, name in enumerate(names, 1):
        e = ev("seat.join", {"seat": i, "name": name})
        state = bm.apply(base.apply_roster(state, e), e)
    return state


def dealt_act(state, kind, form, actor):
    data = bm.parse(kind, stepped(kind, {k: str(v) for k, v in form.items()}, state), state, actor, random.Random(1))
    return bm.apply(state, ev(kind, data, by=actor))


def dealt_hidden(state):
    """The round's deal: every hand and the deck, as only the app knows them."""
    return state["round"]["deal"]


def dealt_random_turn(state, rng):
    """The player on turn plays a random legal card from their hand, at random targets."""
    r = state["round"]
    seat = r["turn"]
    card = rng.choice(dealt_hidden(state)["hands"][seat])
    form = {"card": card, "turn": len(r["plays"]) + 1}
    targets = bm.valid_targets(state, seat, card)
    if targets:
        form["target"] = rng.choice(targets)
    if card == ARCHER:
        form["named"] = rng.choice([n for n in bm.NUMBERS if n != ARCHER])
    if card == KRUEGER:
        form["named"] = rng.choice(bm.NUMBERS)
    if card == CHERYL:
        form["choice"] = rng.choice(["protect", "look"])
    return dealt_act(state, "dealt.play", form, seat_viewer(seat))


DEAL_SALT = "00112233445566778899aabbccddeeff"
# Each card's name as a page may show it: what a viewer's pages are scanned for.
CARD_NAMES = {n: [BY_NUMBER[n]["name"]] for n in BY_NUMBER}


def rigged(order, lana=(0, 1, 2, 3, 4)):
    """A deal with the order given first; the rest of the deck follows, highest first."""
    rest = Counter(deal.full_deck())
    rest.subtract(order)
    return {"order": list(order) + sorted(rest.elements(), reverse=True), "lana": list(lana), "salt": DEAL_SALT}


class _Unroster(HTMLParser):
    """Markup as it was, less the text its data-roster elements hold: their tags and attributes
    stay, so a card a hand or a pick marks on a tile is still scanned."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.kept, self.inside = [], 0  # inside: elements open within a roster one

    def handle_starttag(self, tag, attrs):
        if self.inside or any(name == "data-roster" for name, _ in attrs):
            self.inside += tag not in regions.VOID
        self.kept.append(self.get_starttag_text())

    def handle_endtag(self, tag):
        self.inside = max(0, self.inside - 1)
        self.kept.append(f"</{tag}>")

    def handle_data(self, data):
        if not self.inside:
            self.kept.append(data)

    def handle_entityref(self, name):
        self.handle_data(f"&{name};")

    def handle_charref(self, name):
        self.handle_data(f"&#{name};")

    def handle_comment(self, data):
        self.handle_data(f"<!--{data}-->")


def scrub(body):
    """Leave out what names characters whatever the cards are: the list of all eight (card count,
    name pickers, readings) and fixed explanations, marked data-roster in the HTML."""
    try:
        data = json.loads(body)
    except ValueError:
        unroster = _Unroster()
        unroster.feed(body)
        unroster.close()
        return "".join(unroster.kept)
    view = data.get("state") if isinstance(data, dict) else None
    if isinstance(view, dict):
        view.pop("characters", None)
        view.pop("readings", None)
    return json.dumps(data)


def hidden_state(app, code):
    """A table's whole state, hidden deal and all, as the store folds it."""
    with app.app_context():
        table = store.find_table(get_db(), code)
        return store.load(get_db(), table).state


# --- Age of Assassins: made-up deck lists (a real one is typed in from the box) -----------------

BASE_DECK = [
    {"name": "Magician", "number": 1, "copies": 4},
    {"name": "Grave Digger", "number": 2, "copies": 3},
    {"name": "Soldier", "number": 3, "copies": 5},
    {"name": "Cook", "number": 4, "copies": 4},
    {"name": "Card E", "number": 5, "copies": 6},
    {"name": "Card F", "number": 6, "copies": 6},
]
WIZARD = {"name": "Wizard", "number": 1, "copies": 1}
CHEF = {"name": "Chef", "number": 4, "copies": 1}


# --- phones on the Flask test client -----------------------------------------------------------

HX = {"HX-Request": "true", "HX-Target": "live-body"}


class Phone:
    """One browser's cookie jar at one table, with the form token its pages carry."""

    def __init__(self, app, code, client=None):
        self.client = client or app.test_client()
        self.code = code
        self.csrf = None
        self.seat = None

    def page(self, path="/me"):
        response = self.client.get(f"/t/{self.code}{path}")
        found = re.search(r'"X-CSRF-Token": "([0-9a-f]+)"', response.get_data(as_text=True))
        if found:
            self.csrf = found.group(1)
        return response

    def post(self, path, data=None, htmx=True, **kw):
        data = dict(data or {})
        data.setdefault("csrf", self.csrf or "")
        return self.client.post(f"/t/{self.code}{path}", data=data, headers=HX if htmx else {}, **kw)

    def act(self, kind, **data):
        return self.post(f"/act/{kind}", {k: str(v) for k, v in data.items()})

    def state(self):
        return self.client.get(f"/t/{self.code}/state.json").get_json()


def text(response):
    return response.get_data(as_text=True)


def view(phone):
    """The game's state as this phone sees it."""
    return phone.state()["state"]


def version(phone):
    return phone.state()["version"]


def step_to(phone, which):
    """The step a moving-on button names (base.check_step), as the page would post it."""
    return phone.state()["state"]["to"][which] or ""


# --- a page's forms, as a phone would post them ------------------------------------------------


class _Forms(HTMLParser):
    """Every form of a page: its action and the fields it sends (hidden ones and the first
    value of each other field), as a phone would post it."""

    def __init__(self):
        super().__init__()
        self.forms, self._form, self.by_id = [], None, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id") and attrs.get("name"):
            self.by_id[attrs["id"]] = (attrs["name"], attrs.get("value") or "")
        if tag == "form":
            self._form = {"action": attrs.get("action") or "", "fields": {}, "include": attrs.get("hx-include")}
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "button") and attrs.get("name"):
            if attrs.get("type") == "hidden" or attrs["name"] == base.STEP_FIELD:
                self._form["fields"][attrs["name"]] = attrs.get("value") or ""
            else:
                self._form["fields"].setdefault(attrs["name"], attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def forms_of(phone, path="/me"):
    response = phone.page(path)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    parser = _Forms()
    parser.feed(response.get_data(as_text=True))
    for form in parser.forms:  # what htmx adds: the field its hx-include names
        include = form.pop("include")
        if include and include.startswith("#") and include[1:] in parser.by_id:
            name, value = parser.by_id[include[1:]]
            form["fields"].setdefault(name, value)
    return parser.forms


def act_forms(phone, path="/me"):
    """{kind: [fields, ...]} for the page's forms to /act/<kind>."""
    found = {}
    for form in forms_of(phone, path):
        hit = re.search(r"/act/(?:\d+/)?([a-z_.]+)$", form["action"])  # a tablet posts as a seat
        if hit:
            found.setdefault(hit.group(1), []).append(form["fields"])
    return found


# --- game nights: play again, follow, recovery -------------------------------------------------


def start_next(phone, game="blackmail", htmx=True, **form):
    return phone.post("/next", {"game": game, "page": "host", **form}, htmx=htmx)


def new_code(response):
    target = response.headers.get("HX-Redirect") or response.headers["Location"]
    return re.match(r"/t/(\w+)/", target).group(1)


def follow(phone, to="player"):
    """What static/js/night.js does when the board shows a data-follow link: open it, land, keep the page."""
    response = phone.client.get(f"/t/{phone.code}/follow?to={to}")
    if response.status_code == 303:
        phone.code = new_code(response)
        phone.page("/host" if "/host" in response.headers["Location"] else "/me")
    return response


def recovery_code(phone):
    return re.search(r"data-recovery-code>([A-Z0-9-]+)<", text(phone.client.get(f"/t/{phone.code}/host"))).group(1)


def win_danger_zone(host, phones, winner):
    """Danger Zone from setup to `winner` at 15 Upper Hand; returns the last event's id."""
    for phone, character in zip(phones, ("Archer", "Lana", "Pam")):
        assert phone.act("character.pick", seat=phone.seat, character=character).status_code == 200
    assert host.act("locations.draw").status_code == 200
    assert host.act("initiative.roll").status_code == 200
    seats = [s["id"] for s in host.state()["state"]["seats"]]
    assert host.act("order.confirm", order=",".join(map(str, seats))).status_code == 200
    assert host.act("round.next", to=host.state()["state"]["next_step"]).status_code == 200
    assert winner.act("upper_hand.change", seat=winner.seat, delta=15).status_code == 200
    return host.state()["log"][-1]["id"]


# --- the tablet: a device the host lets in ------------------------------------------------------


def csrf_of(html):
    return re.search(r'"X-CSRF-Token": "([0-9a-f]+)"', html).group(1)


def add_seats(host, *names):
    for name in names:
        assert host.post("/seats", {"name": name}, htmx=False).status_code == 303
    return [s["id"] for s in host.state()["state"]["seats"]]


class Tablet(Phone):
    """A device at the table that opens the tablet page and taps its panels."""

    def open(self):
        response = self.page("/tablet")
        return response

    def tap(self, as_seat, kind, **fields):
        return self.post(f"/tablet/act/{as_seat}/{kind}", {k: str(v) for k, v in fields.items()})


def let_in(app, host):
    """The host asks for a link; a fresh device opens it and says yes. Returns that device."""
    response = host.post("/tablet/let-in", htmx=False)
    assert response.status_code == 200
    link = re.search(r'data-let-in-link>[^<]*(/t/[^<"]+)<', text(response)).group(1)
    device = Tablet(app, host.code)
    page = device.client.get(link)
    assert page.status_code == 200 and "Show the tablet here" in text(page)
    claimed = device.client.post(link, data={"csrf": csrf_of(text(page))})
    assert claimed.status_code == 303 and claimed.headers["Location"].endswith("/tablet")
    return device, link


# --- live streams as a phone's browser gets them: gzip, then regions morphed in by id ------------

GZIP = {"Accept-Encoding": "gzip, deflate"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
TAG = re.compile(r"""<!--.*?-->|<(/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""", re.S)
GZIP = {"Accept-Encoding": "gzip, deflate"}


class Decoder:
    """One stream's gzip, read chunk by chunk as the browser reads it."""

    def __init__(self):
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.wire = 0

    def __call__(self, chunk):
        self.wire += len(chunk)
        return self.inflate.decompress(chunk).decode()


def opening(client, path, messages=2):
    """The first messages of a stream at `path` (retry, then the whole fragment of a page
    behind), asked for with gzip as a browser asks, and decompressed."""
    response = client.get(path, headers=GZIP, buffered=False)
    assert response.headers.get("Content-Encoding") == "gzip"
    decode, chunks = Decoder(), iter(response.response)
    try:
        return "".join(decode(next(chunks)) for _ in range(messages))
    finally:
        response.close()


def element_at(html, start):
    """The end of the element whose start tag begins at `start` (its tags balanced)."""
    depth = 0
    for tag in TAG.finditer(html, start):
        if tag.group(2) is None:
            continue  # a comment
        name = tag.group(2).lower()
        if name in VOID or tag.group(3).rstrip().endswith("/"):
            if depth == 0:
                return tag.end()
        elif tag.group(1):
            depth -= 1
            if depth == 0:
                return tag.end()
        else:
            depth += 1
    raise AssertionError(f"no end to the element at {start}: {html[start : start + 200]!r}")


def span_of(html, ident):
    """Where the element with this id starts and ends in `html`."""
    found = [m.start() for m in re.finditer(rf'<[a-zA-Z][\w:-]*\s[^>]*?\bid="{re.escape(ident)}"', html)]
    assert len(found) == 1, f"{ident}: {len(found)} elements"
    return found[0], element_at(html, found[0])


def data_of(message):
    """A message's html: its data lines joined."""
    return "\n".join(line[6:] for line in message.split("\n") if line.startswith("data: "))


def apply_message(page, message):
    """The page's html after a message, swapped as htmx does out of band: a region morphed in
    by its id, deleted, or a list's new items put at its start or end."""
    html = re.sub(r"</?template>", "", data_of(message))
    at = 0
    while (found := re.search(r'<([a-zA-Z][\w-]*)( id="([^"]*)")? hx-swap-oob="([^"]*)"', html[at:])) is not None:
        start = at + found.start()
        end = element_at(html, start)
        swap = found.group(4)
        element = html[start:end].replace(f' hx-swap-oob="{swap}"', "", 1)
        if swap == "morph":
            where = span_of(page, re.search(r'\bid="([^"]*)"', element).group(1))
            page = page[: where[0]] + element + page[where[1] :]
        elif swap == "delete":
            where = span_of(page, found.group(3))
            page = page[: where[0]] + page[where[1] :]
        else:
            how, ident = swap.split(":#")
            inner = element[element.index(">") + 1 : element.rindex("<")]
            where = span_of(page, ident)
            if how == "afterbegin":
                cut = page.index(">", where[0]) + 1
            else:
                assert how == "beforeend", swap
                cut = page.rindex("<", where[0], where[1])
            page = page[:cut] + inner + page[cut:]
        at = end
    return page


class Stream:
    """A page's live stream read in a thread of its own, as a server thread serves it (a
    stream keeps its request's context pushed in the thread that reads it)."""

    def __init__(self, phone, page, known=0):
        self.messages = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(phone, page, known), daemon=True)
        self.thread.start()

    def _read(self, phone, page, known):
        # known: the version the page shows (a page just loaded), so nothing comes before a change
        response = phone.client.get(f"/t/{phone.code}/events?page={page}&v={known}", buffered=False, headers=GZIP)
        assert response.headers.get("Content-Encoding") == "gzip"
        self.decode = Decoder()
        try:
            for chunk in response.response:
                self.messages.put(self.decode(chunk))
        finally:
            response.close()

    def opened(self):
        assert self.messages.get(timeout=10).startswith("retry:")

    def next_message(self):
        while (message := self.messages.get(timeout=10)).startswith((":", "retry:")):
            pass
        return message


# --- servers: waitress in this process, or `companion serve` in its own -------------------------


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server_in_process(data_dir, threads=8, **adjustments):
    """The app served by waitress in a thread of this test's own process, so the test can
    monkeypatch it (a rigged deal, say); yields its base URL."""
    store.clear_cache()
    app = create_app({"DATA_DIR": str(data_dir), "HEARTBEAT_SECONDS": 5})
    try:
        with waitress_in_thread(app, threads=threads, **adjustments) as server:
            yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        store.clear_cache()


@contextmanager
def waitress_in_thread(app, **adjustments):
    """waitress serving `app` from a thread of this process; yields the server itself."""
    import waitress

    server = waitress.create_server(app, host="127.0.0.1", port=free_port(), **adjustments)
    closing = threading.Event()

    def run():
        try:
            server.run()
        except OSError:  # its sockets closed under the loop's select(): the test is over
            if not closing.is_set():
                raise

    threading.Thread(target=run, daemon=True).start()
    try:
        yield server
    finally:
        closing.set()
        # A stream's thread may still wake the loop after this (waitress's task threads and
        # live/waitress_loop.py do): its pipe's descriptor, once closed, may be another connection's.
        server.trigger.pull_trigger = lambda thunk=None: None
        server.close()


class Server:
    def __init__(self, data_dir, port=None, args=()):
        self.data_dir = str(data_dir)
        self.port = port or free_port()
        self.args = list(args)
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--data-dir",
                self.data_dir,
                *self.args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).read()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.process.stderr.read().decode()) from None
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self, kill=False):
        if self.process and self.process.poll() is None:
            self.process.kill() if kill else self.process.terminate()
            self.process.wait(10)


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
# Chromium's headless mode starts the omnibox popup's web UI, two more renderers, for every
# page: they took a third of the browser tests' CPU, for a popup no test opens.
UNUSED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup")


def launch_chromium(playwright, executable):
    """Chromium as Playwright starts it, without UNUSED_FEATURES. Chromium reads only its last
    --disable-features, so the features Playwright itself turns off are read off a first,
    short-lived browser and turned off again with these."""
    probe = playwright.chromium.launch(executable_path=executable, args=[*CHROMIUM_ARGS, "--enable-automation"])
    try:
        switches = probe.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
    finally:
        probe.close()
    disabled = [f for a in switches if a.startswith("--disable-features=") for f in a.split("=", 1)[1].split(",") if f]
    features = ",".join(dict.fromkeys([*disabled, *UNUSED_FEATURES]))
    return playwright.chromium.launch(
        executable_path=executable, args=[*CHROMIUM_ARGS, f"--disable-features={features}"]
    )


# --- databases ------------------------------------------------------------------------------


def open_database(where):
    """A migrated connection to what the `database` fixture gave."""
    from companion import db as db_module

    if db_module.is_postgres_url(where):
        conn = db_module.connect_url(where)
        db_module.migrate_pg(conn)
    else:
        conn = db_module.connect(where)
        db_module.migrate(conn)
    return conn


# --- the app over real HTTP, as a browser without script uses it -------------------------------


class Browser:
    """One cookie jar: one device, over urllib (no script, no Playwright)."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path, timeout=10):
        with self.opener.open(self.base + path, timeout=timeout) as response:
            return response.status, response.geturl(), response.read().decode(errors="replace")

    def post(self, path, fields):
        data = urllib.parse.urlencode(fields).encode()
        with self.opener.open(self.base + path, data=data, timeout=10) as response:  # follows the 303
            return response.status, response.geturl(), response.read().decode(errors="replace")


def assets(page):
    """The /static/ files a page links to."""
    return set(re.findall(r'(?:src|href)="(/static/[^"?#]+)', page))


def form_token(page):
    found = re.search(r'"X-CSRF-Token": "([0-9a-f]+)"', page)
    assert found, "the page carries no form token"
    return found.group(1)


def first_message(base, path, timeout=10):
    """A live stream's first message after its "retry:" line (whatever the message says)."""
    buffer = b""
    with urllib.request.urlopen(base + path, timeout=timeout) as stream:
        assert stream.headers.get_content_type() == "text/event-stream"
        deadline = time.time() + timeout
        while time.time() < deadline:
            blocks = [b for b in buffer.split(b"\n\n")[:-1] if not b.startswith(b"retry:")]
            if blocks:
                return blocks[0].decode()
            chunk = stream.read1(4096)
            if not chunk:
                break
            buffer += chunk
    return ""


def read_banner(server):
    """The lines `companion serve` prints, up to its last ("Data: …"); then wait until it answers."""
    banner = []
    while not banner or not banner[-1].startswith("Data:"):
        line = server.stdout.readline()
        if not line:
            pytest.fail("the server stopped: " + "".join(banner) + server.stderr.read())
        banner.append(line)
    url = re.search(r"open: (\S+)/$", "".join(banner), re.M).group(1)
    deadline = time.time() + 20
    while True:  # the banner comes just before waitress binds the port
        try:
            urllib.request.urlopen(url + "/healthz", timeout=2).read()
            return banner
        except OSError:
            if server.poll() is not None or time.time() > deadline:
                pytest.fail("the server did not answer: " + server.stderr.read())
            time.sleep(0.05)


def walk(base):
    """Home page; start a table; its host page; a phone joins and taps; the live stream;
    every static file those pages link to; /rules and one entry. Returns what it fetched."""
    host, phone = Browser(base), Browser(base)
    status, _, home = host.get("/")
    assert status == 200 and 'value="generic"' in home
    fetched = {"/"}

    status, url, host_page = host.post("/tables", {"game": "generic"})
    found = re.search(r"/t/([^/]+)/host$", url)
    assert status == 200 and found, url
    code = found.group(1)
    assert 'class="qr-code"' in host_page, "the host page shows no QR code"
    form_token(host_page)
    fetched.add(f"/t/{code}/host")

    status, _, join_page = phone.get(f"/t/{code}")
    assert status == 200 and "<form" in join_page
    status, url, phone_page = phone.post(f"/t/{code}/join", {"name": "Ana"})
    assert status == 200 and url.endswith(f"/t/{code}/me") and "Ana" in phone_page
    fetched.add(f"/t/{code}/me")

    # A tap, with the form token the phone's page carries.
    seat = json.loads(phone.get(f"/t/{code}/state.json")[2])["viewer"]["seat"]
    status, url, _ = phone.post(
        f"/t/{code}/act/score", {"csrf": form_token(phone_page), "seat": seat, "delta": 3, "reason": "Points"}
    )
    assert status == 200 and url.endswith(f"/t/{code}/me")
    state = json.loads(phone.get(f"/t/{code}/state.json")[2])
    assert state["version"] >= 2 and "+3" in json.dumps(state["log"]), state["log"]
    assert str(state["version"]) in first_message(base, f"/t/{code}/events")

    status, _, lookup = host.get("/rules")
    assert status == 200
    entry = json.loads((ROOT / "companion/lookup/data/blackmail.json").read_text())["entries"][0]
    status, _, rule = host.get(f"/rules/blackmail/{entry['id']}")
    assert status == 200 and entry["title"] in html.unescape(rule)
    fetched |= {"/rules", f"/rules/blackmail/{entry['id']}"}

    linked = assets(home) | assets(host_page) | assets(phone_page) | assets(lookup) | assets(rule)
    assert "/static/js/main.js" in linked
    assert any(re.fullmatch(r"/static/vendor/htmx-[\d.]+\.min\.js", path) for path in linked), linked
    for path in sorted(linked):
        status, _, body = host.get(path)
        assert status == 200 and body, path
    return fetched | linked
