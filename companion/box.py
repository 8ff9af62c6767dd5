""""From your box": text a table types in once from its own components, kept for every table.

Entries are keyed by game and entry id (a rules-lookup id such as "location-armory", or a
data entry such as "deck-list"). Bodies are plain text or JSON text; templates escape them.
"""

import json

from .db import transaction
from .games.base import RuleError
from .store import now

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


def get(db, game, entry):
    row = db.execute("SELECT body FROM box_entries WHERE game=? AND entry=?", (game, entry)).fetchone()
    return row["body"] if row else None


def for_game(db, game):
    rows = db.execute("SELECT entry, body FROM box_entries WHERE game=? ORDER BY entry", (game,))
    return {row["entry"]: row["body"] for row in rows}


def put(db, game, entry, body):
    """Store (or, with an empty body, delete) one entry."""
    body = _check(game, entry, body)
    with transaction(db):
        if body:
            db.execute("INSERT INTO box_entries (game, entry, body, updated_at) VALUES (?, ?, ?, ?)"
                       " ON CONFLICT (game, entry) DO UPDATE SET body=excluded.body,"
                       " updated_at=excluded.updated_at", (game, entry, body, now()))
        else:
            db.execute("DELETE FROM box_entries WHERE game=? AND entry=?", (game, entry))


def export(db):
    rows = db.execute("SELECT game, entry, body FROM box_entries ORDER BY game, entry")
    return {"table_companion_box": 1,
            "entries": [{"game": r["game"], "entry": r["entry"], "body": r["body"]} for r in rows]}


def import_json(db, text):
    """Merge an exported file; all or nothing. Returns how many entries were stored."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError):
        raise RuleError("That file is not JSON exported by Table Companion.") from None
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list) or len(entries) > MAX_IMPORT_ENTRIES:
        raise RuleError("That file has no list of entries the app can read.")
    checked = []
    for item in entries:
        if not isinstance(item, dict):
            raise RuleError("That file has an entry the app cannot read.")
        checked.append((item.get("game"), item.get("entry"),
                        _check(item.get("game"), item.get("entry"), item.get("body"))))
    with transaction(db):
        for game, entry, body in checked:
            if body:
                db.execute("INSERT INTO box_entries (game, entry, body, updated_at) VALUES (?, ?, ?, ?)"
                           " ON CONFLICT (game, entry) DO UPDATE SET body=excluded.body,"
                           " updated_at=excluded.updated_at", (game, entry, body, now()))
    return len(checked)
