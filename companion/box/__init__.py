""" "From your box": text a table types in once from its own components.

Entries are keyed by game and entry id (a rules-lookup id such as "location-armory", or a
data entry such as "deck-list"). Bodies are plain text or JSON text; templates escape them.

Each table keeps its own copy (its host edits it); the server-wide defaults, which only
whoever runs the server may change, are what a new table starts with. Every function takes
`table` (a store.Table) for a table's copy, or None for the server-wide defaults.
"""

import threading
import time
from collections import OrderedDict

from companion.db import transaction
from companion.games.base import RuleError, read_json
from companion.tables.store import now

MAX_BODY = 4000
MAX_IMPORT_ENTRIES = 500


def _check(game, entry, body):
    if not isinstance(game, str) or not isinstance(entry, str) or not isinstance(body, str):
        raise RuleError("Each entry needs a game, an entry id and a text.")
    if not (0 < len(entry) <= 80) or not (0 < len(game) <= 40):
        raise RuleError("That entry id is not one the app knows.")
    body = body.strip()
    if len(body) > MAX_BODY:
        raise RuleError(f"That text is too long: at most {MAX_BODY} characters.")
    return body


def _where(table):
    """The rows of one table's copy, or of the defaults."""
    if table is None:
        return "box_entries", "", ()
    return "table_box", " AND table_id=?", (table.id,)


def get(db, game, entry, table=None):
    name, where, args = _where(table)
    row = db.execute(f"SELECT body FROM {name} WHERE game=? AND entry=?{where}", (game, entry, *args)).fetchone()
    return row["body"] if row else None


def for_game(db, game, table=None):
    name, where, args = _where(table)
    rows = db.execute(f"SELECT entry, body FROM {name} WHERE game=?{where} ORDER BY entry", (game, *args))
    return {row["entry"]: row["body"] for row in rows}


BOARD_SECONDS = 1.0
_boards = OrderedDict()  # (table id, code, game) -> (when read, its entries)
_boards_lock = threading.Lock()


def for_board(connect, game, table):
    """for_game, as a board's render asks for it: every phone at a table renders its board on
    every change, and a query each (on PostgreSQL a pooled connection each) was the one
    query left in a change's renders. So a table's entries are read here at most once a
    second; an edit made in this process shows at once (put and import_json forget them),
    one made in another within the second. `connect()` gives the connection, asked for only
    when a read is due (a stream holds none between changes)."""
    if table is None:
        return for_game(connect(), game)
    key = (table.id, table.code, game)
    with _boards_lock:
        found = _boards.get(key)
    if found is not None and time.monotonic() - found[0] < BOARD_SECONDS:
        return found[1]
    read_at = time.monotonic()
    entries = for_game(connect(), game, table)
    with _boards_lock:
        _boards[key] = (read_at, entries)
        _boards.move_to_end(key)
        while len(_boards) > 512:
            _boards.popitem(last=False)
    return entries


def _forget(table):
    """A table's kept entries (all its games), after an edit."""
    with _boards_lock:
        for key in [key for key in _boards if key[:2] == (table.id, table.code)]:
            del _boards[key]


def _store(db, game, entry, body, table):
    if table is None:
        if body:
            db.execute(
                "INSERT INTO box_entries (game, entry, body, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game, entry) DO UPDATE SET body=excluded.body,"
                " updated_at=excluded.updated_at",
                (game, entry, body, now()),
            )
        else:
            db.execute("DELETE FROM box_entries WHERE game=? AND entry=?", (game, entry))
    elif body:
        db.execute(
            "INSERT INTO table_box (table_id, game, entry, body, updated_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, game, entry) DO UPDATE SET body=excluded.body,"
            " updated_at=excluded.updated_at",
            (table.id, game, entry, body, now()),
        )
    else:
        db.execute("DELETE FROM table_box WHERE table_id=? AND game=? AND entry=?", (table.id, game, entry))


def put(db, game, entry, body, table=None):
    """Store (or, with an empty body, delete) one entry."""
    body = _check(game, entry, body)
    with transaction(db):
        _store(db, game, entry, body, table)
    if table is not None:
        _forget(table)


def export(db, table=None):
    name, where, args = _where(table)
    rows = db.execute(f"SELECT game, entry, body FROM {name} WHERE 1=1{where} ORDER BY game, entry", args)
    return {
        "table_companion_box": 1,
        "entries": [{"game": r["game"], "entry": r["entry"], "body": r["body"]} for r in rows],
    }


def import_json(db, text, table=None):
    """Merge an exported file; all or nothing. Returns how many entries were stored."""
    data = read_json(text, "That file")
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list) or len(entries) > MAX_IMPORT_ENTRIES:
        raise RuleError("That file has no list of entries the app can read.")
    checked = []
    for item in entries:
        if not isinstance(item, dict):
            raise RuleError("That file has an entry the app cannot read.")
        checked.append(
            (item.get("game"), item.get("entry"), _check(item.get("game"), item.get("entry"), item.get("body")))
        )
    with transaction(db):
        for game, entry, body in checked:
            if body:
                _store(db, game, entry, body, table)
    if table is not None:
        _forget(table)
    return len(checked)
