"""Tables as append-only event logs: create, join, append, undo, and the folded state.

A table's state is never stored: it is the fold of its events through its game's reducer.
Folds are cached per table and brought up to date from the log on every read, so a server
restart (or a second process on the same file) loses and repeats nothing.
"""

import hashlib
import json
import secrets
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone

from companion import games
from companion.db import insert, insert_event, notify_change, transaction
from companion.games.base import HOST as HOST_RIGHT
from companion.games.base import (
    ROSTER_KINDS,
    SHARED_REFUSAL,
    NotAllowed,
    RuleError,
    apply_roster,
    check_named_step,
    check_post,
    from_shared_screen,
    may_undo,
    shared_screen_may,
    undo_right,
)
from companion.tables import names
from companion.tables.log_lines import (  # noqa: F401
    MOVED_ON,
    NIGHT_KINDS,
    actor_name,
    check_open,
    night_step,
    night_text,
    roster_text,
)

# Unambiguous when read aloud or typed: no 0/O, 1/I/L. 31 symbols ** 7 ≈ 34 bits.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 7
NAME_MAX = names.NAME_MAX
HOST = {"role": "host", "seat": None}

_random = secrets.SystemRandom()


def now():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def new_token():
    return secrets.token_urlsafe(24)


def token_hash(token):
    return hashlib.sha256(token.encode()).hexdigest()


def normalize_code(text):
    return "".join(ch for ch in (text or "").upper() if ch.isalnum())


@dataclass
class Table:
    id: int
    code: str
    game: str
    host_token_hash: str
    host_seat: int | None
    options: dict
    night_id: int | None = None  # the night this table belongs to (None: a night of one, so far)
    prev_id: int | None = None  # the table it was started from ("play again")

    @property
    def module(self):
        return games.get(self.game) or games.generic

    @classmethod
    def from_row(cls, row):
        return cls(
            row["id"],
            row["code"],
            row["game"],
            row["host_token_hash"],
            row["host_seat"],
            json.loads(row["options"]),
            row["night_id"],
            row["prev_id"],
        )


@dataclass
class Folded:
    """A table's state after its events: the game state plus the public change log."""

    version: int
    state: dict
    log: list = field(default_factory=list)
    voided: set = field(default_factory=set)
    # What the night's own events say (NIGHT_KINDS): {"next": {...}, "cohosts": [...], ...}
    night: dict = field(default_factory=dict)
    # {action id: event id}: a resent tap finds the event its first sending made
    actions: dict = field(default_factory=dict)
    event: dict = None  # the event this version ends with (None for a fold of no events)


# --- tables and seats -----------------------------------------------------------------


def _new_code(db):
    for _ in range(20):
        code = "".join(_random.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not db.execute("SELECT 1 FROM game_tables WHERE code=?", (code,)).fetchone():
            break
    return code


def create_table(db, game, options=None):
    """Make a table; returns (Table, host_token)."""
    if game not in games.TABLE_GAMES:
        raise RuleError("Pick one of the three games.")
    host_token = new_token()
    with transaction(db):
        code = _new_code(db)
        db.execute(
            "INSERT INTO game_tables (code, game, host_token_hash, options, created_at) VALUES (?, ?, ?, ?, ?)",
            (code, game, token_hash(host_token), json.dumps(options or {}), now()),
        )
        # The table's own "from your box" text starts as the server-wide defaults (box.py).
        db.execute(
            "INSERT INTO table_box (table_id, game, entry, body, updated_at)"
            " SELECT g.id, b.game, b.entry, b.body, b.updated_at FROM box_entries b"
            " JOIN game_tables g ON g.code=? AND b.game=g.game",
            (code,),
        )
    return find_table(db, code), host_token


def find_table(db, code):
    row = db.execute("SELECT * FROM game_tables WHERE code=?", (normalize_code(code),)).fetchone()
    return Table.from_row(row) if row else None


def clean_name(name, state, seat=None):
    return names.clean_name(name, [s["name"] for s in state["seats"] if s["id"] != seat])


def add_seat(db, table, name, actor, phone=True, as_host=False):
    """Seat a player; returns (seat_id, token). The token is the seat's cookie."""
    token = new_token() if phone and not as_host else None
    with _writing(db, table) as (pending, folded):
        check_open(folded)
        name = clean_name(name, folded.state)
        if as_host and table.host_seat in {s["id"] for s in folded.state["seats"]}:
            raise RuleError("The host already has a seat.")
        seat = insert(
            db,
            "INSERT INTO seats (table_id, token_hash) VALUES (?, ?)",
            (table.id, token_hash(token) if token else None),
        )
        if actor["seat"] is None and actor["role"] == "seat":
            actor = {"role": "seat", "seat": seat}  # a phone joining seats itself
        _append(
            db,
            table,
            folded,
            "seat.join",
            {"seat": seat, "name": name, "phone": phone or as_host},
            actor,
            None,
            pending,
        )
        if as_host:
            db.execute("UPDATE game_tables SET host_seat=? WHERE id=?", (seat, table.id))
            table.host_seat = seat
    return seat, token


def rename_seat(db, table, seat, name, actor):
    with _writing(db, table) as (pending, folded):
        check_open(folded)
        name = clean_name(name, folded.state, seat)
        _append(db, table, folded, "seat.rename", {"seat": seat, "name": name}, actor, None, pending)


def remove_seat(db, table, seat, actor):
    """Take a seat off the table; the host can undo it, and the phone's token then works again."""
    with _writing(db, table) as (pending, folded):
        check_open(folded)
        _append(db, table, folded, "seat.remove", {"seat": seat}, actor, None, pending)


def move_seat(db, table, seat, step, actor):
    """Move a seat one place clockwise (step=1) or anticlockwise (step=-1)."""
    with _writing(db, table) as (pending, folded):
        check_open(folded)
        order = [s["id"] for s in folded.state["seats"]]
        if seat not in order:
            raise RuleError("There is no such seat at this table.")
        i = order.index(seat)
        j = (i + step) % len(order)
        order[i], order[j] = order[j], order[i]
        _append(db, table, folded, "seat.reorder", {"order": order}, actor, None, pending)


# --- events ---------------------------------------------------------------------------


def act(db, table, kind, form, actor, action_id=None, rng=_random):
    """Parse a posted action with the game's rules and append it. Returns the event id.

    A repeated action_id (a resent tap) returns the first event's id and applies nothing.
    """
    with _writing(db, table) as (pending, folded):
        if action_id in folded.actions:
            return folded.actions[action_id]
        if kind in ROSTER_KINDS or kind in NIGHT_KINDS or kind == "undo":
            raise RuleError("Unknown action.")
        check_open(folded)
        check_post(table.module, kind, actor, {})  # host-only kinds: before the rules speak
        check_named_step(table.module, kind, form, folded.state)  # a tap for another step: before them too
        data = table.module.parse(kind, form, folded.state, actor, rng)
        check_post(table.module, kind, actor, data)
        return _append(db, table, folded, kind, data, actor, action_id, pending)


def undo(db, table, event_id, actor, action_id=None):
    """Void one earlier event (or re-apply one an undo voided), as an event of its own.

    Needs the right to post the entry's action (games.base.undo_right), and happens once:
    an entry already undone is refused, with who undid it, however many phones tap at once."""
    with _writing(db, table) as (pending, folded):
        if action_id in folded.actions:
            return folded.actions[action_id]
        check_open(folded)
        target = next((e for e in folded.log if e["id"] == event_id), None)
        if target is None or target["undo_right"] is None:
            raise RuleError("That change cannot be undone.")
        if not may_undo(target["undo_right"], actor, target["shared"]):
            raise NotAllowed(
                SHARED_REFUSAL
                if from_shared_screen(actor) and not target["shared"]
                else "Only the host can undo that."
                if target["undo_right"] == HOST_RIGHT
                else "Only that player or the host can undo that."
            )
        if target["undone"]:
            by = next(
                (e["who"] for e in reversed(folded.log) if e.get("target") == event_id and not e["undone"]), "someone"
            )
            raise RuleError(f"That was already undone by {by}. Nothing changed.")
        refusal = _undo_refusal(table.module, folded.state, target["kind"])
        if refusal:
            raise RuleError(refusal)
        return _append(db, table, folded, "undo", {"event": event_id}, actor, action_id, pending)


@contextmanager
def _writing(db, table):
    """A write transaction, with the table's fold as of its start; the new fold reaches the
    cache only once it has committed.

    One append to this table at a time, from any process (db.transaction); the events after
    the kept fold are read in the same round trip as the lock, and the commit tells every
    process's open pages (db.notify_change: NOTIFY on PostgreSQL)."""
    pending, kept = [], _cache_get(table)
    write = transaction(
        db,
        table.id,
        read=f"SELECT * FROM events WHERE table_id={int(table.id)} AND id>{int(kept.version if kept else 0)} ORDER BY id",
    )
    with write:
        folded = _brought_up(db, table, kept, [_event(row) for row in write.rows])
        _cache_put(table, folded)
        yield pending, folded
        if pending:
            new = pending[-1]
            # One plain event: the other processes can step their kept fold with it.
            step = (folded.version, new.event) if len(pending) == 1 and new.event["kind"] != "undo" else None
            notify_change(db, table.id, new.version, step)
    if pending:
        _cache_put(table, pending[-1])


def _append(db, table, folded, kind, data, actor, action_id, pending):
    """Insert one event after checking it folds cleanly; the caller holds the transaction."""
    event = {"id": None, "kind": kind, "data": data, "by": actor, "at": now(), "action_id": action_id}
    event["id"] = insert_event(
        db,
        ("table_id", "kind", "data", "actor_role", "actor_seat", "actor_via", "action_id", "created_at"),
        (table.id, kind, json.dumps(data), actor["role"], actor["seat"], actor.get("via"), action_id, event["at"]),
    )
    if kind == "undo":
        # Voiding an old event changes everything after it: fold the whole log again,
        # strictly, so an undo that later events depend on is refused.
        new = _fold(table, events(db, table), strict=True)
    else:
        new = _step(table, folded, event)
    pending.append(new)
    return event["id"]


def events(db, table, after=0):
    """A table's events after `after`, oldest first (nights/records.py reads results from them)."""
    rows = db.execute("SELECT * FROM events WHERE table_id=? AND id>? ORDER BY id", (table.id, after)).fetchall()
    return [_event(r) for r in rows]


def _event(r):
    by = {"role": r["actor_role"], "seat": r["actor_seat"]}
    if r["actor_via"]:
        by["via"] = r["actor_via"]
    return {
        "id": r["id"],
        "kind": r["kind"],
        "data": json.loads(r["data"]),
        "by": by,
        "at": r["created_at"],
        "action_id": r["action_id"],
    }


def _voided(events):
    """Event ids voided by undo events that are themselves in force (read from the end)."""
    voided = set()
    for event in reversed(events):
        if event["kind"] == "undo" and event["id"] not in voided:
            voided.add(event["data"]["event"])
    return voided


def _fold(table, events, strict=False):
    voided = _voided(events)
    folded = Folded(0, table.module.new_state(table.options), [], voided, {}, {})
    for event in events:
        folded = _step(table, folded, event, strict=strict)
    return folded


def _step(table, folded, event, strict=True):
    """Apply one event to a folded state and add its log line; returns a new Folded."""
    module, before = table.module, folded.state
    log = list(folded.log)
    entry = {
        "id": event["id"],
        "kind": event["kind"],
        "at": event["at"],
        "who": actor_name(before, event["by"], event),
        "undone": event["id"] in folded.voided,
        "undo_right": undo_right(module, event),
        "shared": shared_screen_may(module, event["kind"]),
    }
    after, night = before, folded.night
    if event["kind"] in NIGHT_KINDS:
        # The night's own entries: no game rule reads them, and none is undone (a next table
        # exists once started; a host change is undone by another one).
        night = night_step(night, event)
        entry.update(undo_right=None, text=night_text(before, event))
    elif event["kind"] == "undo":
        target = next((e for e in log if e["id"] == event["data"]["event"]), None)
        entry["target"] = event["data"]["event"]
        # Undoing an undo needs the same right as undoing the entry itself.
        entry["undo_right"] = target["undo_right"] if target else None
        entry["shared"] = bool(target and target["shared"])
        redo = target and target["kind"] in module.DRAWN
        entry["text"] = f"{'redo' if redo else 'undo'}: {target['text']}" if target else "undo"
    elif event["id"] not in folded.voided:
        try:
            after = before
            if event["kind"] in ROSTER_KINDS:
                after = apply_roster(after, event)
            after = module.apply(after, event)
        except RuleError:
            if strict:
                raise
            after, entry["skipped"] = before, True
        entry["text"] = roster_text(before, event) or module.describe(before, after, event)
        if entry["undo_right"] is not None and _undo_refusal(module, after, event["kind"]):
            entry["undo_right"] = None
    else:
        entry["text"] = module.describe(before, before, event) if event["kind"] not in ROSTER_KINDS else ""
    log.append(entry)
    actions = folded.actions
    if event.get("action_id"):  # a new dict: an older Folded is shared (the cache) and stays as it was
        actions = {**actions, event["action_id"]: event["id"]}
    return Folded(event["id"], after, log, folded.voided, night, actions, event)


def _undo_refusal(module, state, kind):
    """A game may keep some events from being undone (a look at hidden cards, a deal)."""
    return module.undo_refusal(state, kind)


# --- the cache of folds ---------------------------------------------------------------

# Keyed by id and code, so two databases in one process (tests) never share a fold; bounded,
# so a server that runs for weeks keeps only the tables in play (the rest fold again on demand).
_cache = OrderedDict()
_cache_lock = threading.Lock()
CACHED_TABLES = 256  # tables kept beyond those with a page open here (live.notify counts them)
open_tables = 0


def _cache_get(table):
    with _cache_lock:
        return _cache.get((table.id, table.code))


def _cache_put(table, folded):
    """Keep the newest fold: a reader that was slower than a write never puts an older one
    back (a tap's answer and its publish read their own write from here)."""
    with _cache_lock:
        held = _cache.get((table.id, table.code))
        if held is None or held.version <= folded.version:
            _cache[(table.id, table.code)] = folded
        _cache.move_to_end((table.id, table.code))
        while len(_cache) > CACHED_TABLES + open_tables:
            _cache.popitem(last=False)


def _refresh(db, table):
    """The table's fold brought up to date with the log (incrementally when it can)."""
    kept = _cache_get(table)
    folded = _brought_up(db, table, kept, events(db, table, after=kept.version if kept else 0))
    _cache_put(table, folded)
    return folded


def _brought_up(db, table, kept, newer):
    """The fold `kept` (None: none kept) with the events that came after it."""
    if kept is None or any(e["kind"] == "undo" for e in newer):
        return _fold(table, newer if kept is None else events(db, table))
    for event in newer:
        kept = _step(table, kept, event, strict=False)
    return kept


def who_changed(folded, since):
    """Whether a write after version `since` may have changed the table's row or its seat
    tokens. Only seat and night changes do (a join, a seat taken off, the host handed over),
    and each logs its event in the same transaction."""
    for entry in reversed(folded.log):
        if entry["id"] <= since:
            return False
        if entry["kind"] in ROSTER_KINDS or entry["kind"] in NIGHT_KINDS:
            return True
    return False


def kept(table, at_least):
    """The table's kept Folded state if it is of version `at_least` or newer, else None."""
    folded = _cache_get(table)
    return folded if folded is not None and folded.version >= at_least else None


_heard = OrderedDict()  # table id -> (version before, the event after it), from NOTIFY
HEARD_TABLES = 1024


def heard(table_id, before, event):
    """Another process appended `event` to a table whose log ended at version `before`
    (its NOTIFY said so): a stream here can step its kept fold with it, with no query."""
    with _cache_lock:
        _heard[table_id] = (before, event)
        _heard.move_to_end(table_id)
        while len(_heard) > HEARD_TABLES:
            _heard.popitem(last=False)


def known(table, at_least):
    """The table's fold of version `at_least` or newer with no trip to the database: the kept
    one, or the kept one stepped with the event another process's NOTIFY carried (heard).
    None when neither will do (a live stream then loads it)."""
    with _cache_lock:
        folded, (before, event) = _cache.get((table.id, table.code)), _heard.get(table.id, (None, None))
    if folded is None or folded.version >= at_least:
        return folded
    if folded.version == before and event["id"] >= at_least:
        folded = _step(table, folded, event, strict=False)
        _cache_put(table, folded)
        return folded
    return None


def load(db, table):
    """The table's current Folded state (read-only: callers must not mutate it): the kept
    one brought up to date with the events after it, in one query."""
    return _refresh(db, table)  # one query: the events after the kept version (often none)


def clear_cache():
    with _cache_lock:
        _cache.clear()
