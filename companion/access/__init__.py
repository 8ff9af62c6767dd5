"""Who is asking: the per-table cookie, host-only checks, and cross-site request protection."""

import base64
import hashlib
import hmac
import random
import threading
import time
from collections import deque
from urllib.parse import urlsplit

from flask import abort, current_app, g, request

from companion import tablet
from companion.access import holders
from companion.db import get_db, uses_postgres
from companion.games.base import RuleError
from companion.nights import hosts
from companion.tables import store

COOKIE = "tc"
TOO_MANY = "Too many wrong table codes from this device. Wait a minute, then check the code on the host's screen."
COOKIE_DAYS = 30


def table_or_404(code, known=None):
    """The table with this code; every /t/<code>/… address counts wrong codes here, so a
    device that guesses too often waits, whichever address it guesses at. `known`: the
    table's row and seat tokens as its live streams read them (door._kept_table)."""
    limiter = guess_limiter()
    limiter.check(request.remote_addr)
    table, tokens = known or (holders.table_and_tokens(get_db(), code) if len(code) <= 20 else (None, {}))
    if table is None:
        limiter.miss(request.remote_addr)
        abort(404, "No table has that code. Check the letters and try again.")
    g.table = table  # what this request's pages read their box text from
    g.setdefault("tokens", {})[table.id] = tokens  # who holds which seat: no second query
    return table


def cookie_path(table):
    return f"/t/{table.code}"


def current_viewer(table, folded=None):
    """The viewer dict for this request at this table, or None for someone with no seat.
    Asked once per request (a route, its game's hooks and the render all want it).

    `folded`: a kept fold believed current (door._kept_fold), to spare the query; a phone
    it does not know (one that joined a moment ago, say) is looked up again in a fresh one.
    The write itself then checks its rules against the log read under the table's lock."""
    known = g.setdefault("viewers", {})
    if table.id not in known:
        token, tokens = request.cookies.get(COOKIE), g.get("tokens", {}).get(table.id)
        viewer = holders.identify(get_db(), table, token, folded, tokens) if folded else None
        known[table.id] = viewer or holders.identify(get_db(), table, token, tokens=tokens)
    return known[table.id]


def was_removed(table):
    """True when this phone held a seat that the host has since taken off the table."""
    token = request.cookies.get(COOKIE)
    return bool(token) and current_viewer(table) is None and holders.token_seat(get_db(), table, token) is not None


def set_token(response, table, token):
    # Scoped to the table's path: a token is never even sent to another table's pages.
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_DAYS * 86400,
        path=cookie_path(table),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


# --- game night: following a seat to the next table, the host's device, recovery ----------


def follow_token(code, hashed):
    """The token a phone holds at the next table `code`, worked out from the hash of its
    token at the table before: the server stores only the hash, so only the phone holding the
    old token can be given the new one, and asking twice gives the same (two tabs, no race)."""
    key = current_app.config["SECRET_KEY"].encode()
    digest = hmac.new(key, f"follow:{code}:{hashed}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def follow_hash(code, hashed):
    return store.token_hash(follow_token(code, hashed))


def held_token():
    return request.cookies.get(COOKIE) or ""


def is_host_device(table):
    """The device holding the host token itself (a co-host is not: it has a seat's token)."""
    token = held_token()
    return bool(token) and hmac.compare_digest(store.token_hash(token), table.host_token_hash)


RECOVERY_GROUPS = 3  # groups of four letters: 31 ** 12, about 59 bits


def recovery_code(salt):
    """A night's host recovery code, worked out from its salt (only its hash is stored)."""
    key = current_app.config["SECRET_KEY"].encode()
    number = int.from_bytes(hmac.new(key, f"recover:{salt}".encode(), hashlib.sha256).digest(), "big")
    letters = []
    for _ in range(4 * RECOVERY_GROUPS):
        number, digit = divmod(number, len(store.CODE_ALPHABET))
        letters.append(store.CODE_ALPHABET[digit])
    return "-".join("".join(letters[i : i + 4]) for i in range(0, len(letters), 4))


def night_host_token(code, newest_hash):
    """The host token of an older table of a night, worked out from the hash of its newest
    table's host token (nights/hosts.py): the server hands it only to the device holding that one."""
    key = current_app.config["SECRET_KEY"].encode()
    digest = hmac.new(key, f"night-host:{code}:{newest_hash}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def night_host_hash(code, newest_hash):
    return store.token_hash(night_host_token(code, newest_hash))


def recovery_hash(typed):
    return store.token_hash("recover:" + store.normalize_code(typed))


def new_night():
    """(salt, hash of its recovery code) for nights.ensure_night and friends."""
    salt = store.new_token()
    return salt, recovery_hash(recovery_code(salt))


DEVICE_COOKIE = "tc_device"
DEVICE_DAYS = 30  # as long as a host's token: a device handed on is forgotten in a month


def device_hash():
    token = request.cookies.get(DEVICE_COOKIE, "")
    return store.token_hash(token) if token else None


def remember_host(response, table):
    """Add this table to the list this device has hosted (a cookie for the whole site names
    the device; the list is kept on the server)."""
    token = request.cookies.get(DEVICE_COOKIE) or store.new_token()
    hosts.remember_device_table(get_db(), store.token_hash(token), table)
    response.set_cookie(
        DEVICE_COOKIE,
        token,
        max_age=DEVICE_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


def csrf_token(table):
    """A per-table, per-holder value a cross-site page cannot know or read."""
    token = request.cookies.get(COOKIE, "")
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, f"{table.code}:{token}".encode(), hashlib.sha256).hexdigest()[:32]


def check_csrf(table):
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf", "")
    if not hmac.compare_digest(sent.encode(), csrf_token(table).encode()):
        abort(403, "This page is out of date or came from another site. Reload and try again.")


def same_origin_only():
    """Refuse state changes that a browser says come from another site (before_request)."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        abort(403, "Requests from other sites are refused.")
    origin = request.headers.get("Origin")
    # "null" is what a sandboxed frame or a file:// page sends: never this app's own pages.
    if origin == "null" or (origin and urlsplit(origin).netloc != request.host):
        abort(403, "Requests from other sites are refused.")


def require_open(table):
    """A table the night has left reads and exports, and nothing else changes there: the
    changes that are not events of its log (let-in links, revoking, the tablet's layout) ask
    here, as store.check_open asks for the rest."""
    try:
        store.check_open(store.load(get_db(), table))
    except RuleError as error:
        abort(409, str(error))


class GuessLimiter:
    """Counts wrong table codes per client; too many in a minute and that client waits."""

    def __init__(self, misses=20, window=60.0):
        self.misses, self.window = misses, window
        self._seen = {}
        self._lock = threading.Lock()

    def _recent(self, client, now):
        times = self._seen.setdefault(client, deque())
        while times and times[0] < now - self.window:
            times.popleft()
        return times

    def check(self, client):
        with self._lock:
            if len(self._recent(client, time.monotonic())) >= self.misses:
                abort(429, TOO_MANY)

    def miss(self, client):
        with self._lock:
            self._recent(client, time.monotonic()).append(time.monotonic())
            if len(self._seen) > 10_000:  # forget idle clients rather than grow forever
                self._seen = {k: v for k, v in self._seen.items() if v}


class SharedGuessLimiter(GuessLimiter):
    """The same limit kept in PostgreSQL, so guesses made at any process count together.

    Each process reads a client's count at most once a `fresh` seconds and adds its own
    misses at once, so a page load does not cost a query while a guesser at several
    processes is still stopped within about a second of reaching the limit."""

    def __init__(self, misses=20, window=60.0, fresh=1.0):
        super().__init__(misses, window)
        self.fresh = fresh
        self._counts = {}  # client -> [count in the database, when read]

    def _count(self, client):
        now = time.monotonic()
        with self._lock:
            known = self._counts.get(client)
        if known is None or now - known[1] > self.fresh:
            known = [_recent_misses(get_db(), client, self.window), now]
            with self._lock:
                if len(self._counts) > 10_000:  # forget idle clients rather than grow forever
                    self._counts = {k: v for k, v in self._counts.items() if now - v[1] < self.fresh}
                self._counts[client] = known
        return known[0]

    def check(self, client):
        if self._count(client) >= self.misses:
            abort(429, TOO_MANY)

    def miss(self, client):
        _record_miss(get_db(), client, self.window)
        with self._lock:
            if client in self._counts:
                self._counts[client][0] += 1


def _recent_misses(db, client, window):
    """How many wrong codes this client sent in the last `window` seconds (PostgreSQL)."""
    return db.execute(
        "SELECT count(*) FROM code_misses WHERE client=? AND at > clock_timestamp() - make_interval(secs => ?)",
        (client, float(window)),
    ).fetchone()[0]


def _record_miss(db, client, window):
    db.execute("INSERT INTO code_misses (client) VALUES (?)", (client,))
    if random.random() < 0.02:  # now and then, forget what is older than the window
        db.execute("DELETE FROM code_misses WHERE at < clock_timestamp() - make_interval(secs => ?)", (float(window),))


def guess_limiter():
    limiter = current_app.extensions.get("guess_limiter")
    if limiter is None:
        limiter = (
            SharedGuessLimiter(fresh=current_app.config.get("GUESS_COUNT_FRESH_SECONDS", 1.0))
            if uses_postgres()
            else GuessLimiter()
        )
        limiter = current_app.extensions.setdefault("guess_limiter", limiter)
    return limiter


# --- the tablet (companion.tablet): the host's own device, or a device the host let in ------------
# A let-in device holds a token of its own in the table's cookie, so it has no seat and no
# host rights; the host can revoke every let-in device at once (companion.tablet keeps them).

TABLET = {"role": "tablet", "seat": None}  # a device the host let in
HOST_TABLET = {"role": "tablet-host", "seat": None}  # the host's own device showing the tablet
LET_IN_MINUTES = 15  # how long a let-in link works before it is opened


def tablet_viewer(table):
    """Who may open the tablet from this device: HOST_TABLET (the host's or a co-host's device),
    TABLET (a device the host let in and has not revoked), or None."""
    viewer = current_viewer(table)
    if viewer is not None and viewer["role"] == "host":
        return HOST_TABLET
    token = request.cookies.get(COOKIE)
    if viewer is None and token and tablet_device(table, token):
        return TABLET
    return None


def tablet_device(table, token):
    return tablet.is_let_in(get_db(), table.id, token)


def let_in_link(table):
    """A new one-time let-in code (the host asks): whoever opens its link in time becomes a
    tablet device of this table."""
    code = store.new_token()
    tablet.add_link(get_db(), table.id, code)
    return code


def claim_let_in(table, code):
    """Trade a let-in code for the device's own token (None: unknown, used or too old)."""
    token = store.new_token()
    return token if tablet.claim_link(get_db(), table.id, code or "", token, LET_IN_MINUTES) else None


def carry_tablet(following, token):
    """A let-in device's token at the night's next table, let in there: the host let the
    device in for the table in the middle, and the night's next game is played on it too.
    Worked out from its token here as a seat's is (follow_token), so asking twice is harmless."""
    carried = follow_token(following.code, store.token_hash(token))
    tablet.let_in(get_db(), following.id, carried)
    return carried


def let_in_devices(table):
    """[{"at": when, "waiting": bool}] for this table's let-in devices and unopened links."""
    return tablet.devices(get_db(), table.id)


def revoke_tablets(table):
    """Every let-in device and unopened link of this table (and of its night's earlier
    tables, whose devices would follow the night here) stops working."""
    tablet.revoke(get_db(), table.id)
