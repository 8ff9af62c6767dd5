"""Who holds a token at a table: a seat's phone, the host's device (or a co-host's phone), or
nobody. Every door asks here (access.current_viewer for a request, pages.looker for a stream
on each change), so a seat removed, a host handed over or a night gone quiet is seen alike.
"""

import secrets
import time
from datetime import datetime, timedelta, timezone

from companion.tables.store import Table, load, normalize_code, token_hash


def identify(db, table, token, folded=None, tokens=None):
    """Who holds this token at this table (as of `folded`, else now): a viewer dict, or None
    for a stranger. `tokens` (from table_and_tokens, read with `table`) spares the query.

    A seat counts while the log seats it, so undoing a removal brings its phone back."""
    if not token:
        return None
    hashed = token_hash(token)
    folded = folded or load(db, table)
    seated = {s["id"] for s in folded.state["seats"]}
    if secrets.compare_digest(hashed, table.host_token_hash):
        return {"role": "host", "seat": table.host_seat if table.host_seat in seated else None}
    seat = tokens.get(hashed) if tokens is not None else token_seat(db, table, token)
    if seat not in seated or _night_idle(db, table, folded):
        return None
    # A co-host's phone has the host's rights at its own seat (nights/routes.py hands them out), at
    # the night's open table only: one left out of the next game, or whose role was taken
    # back there, keeps nothing at the tables behind it.
    cohost = seat in folded.night.get("cohosts", ()) and not folded.night.get("next")
    return {"role": "host" if cohost else "seat", "seat": seat}


SEAT_DAYS = 1  # a seat's token stops working this long after its night's last change


def _night_idle(db, table, folded):
    """Whether the night has had no change for SEAT_DAYS: a phone left logged in at a table
    (lent, lost, sold) opens nothing of it the day after. The host's token is not bound so."""
    last = folded.log[-1]["at"] if folded.log else None
    if folded.night.get("next") and db is not None and table.night_id is not None:
        last = db.execute(
            "SELECT max(e.created_at) FROM events e JOIN game_tables t ON t.id=e.table_id WHERE t.night_id=?",
            (table.night_id,),
        ).fetchone()[0]
    return last is not None and last < _idle_cutoff()


_cutoff = [0, ""]  # (the second it was worked out in, the time a day before): every stream asks


def _idle_cutoff():
    second = int(time.time())
    if _cutoff[0] != second:
        _cutoff[:] = [
            second,
            (datetime.now(timezone.utc) - timedelta(days=SEAT_DAYS)).isoformat(timespec="milliseconds"),
        ]
    return _cutoff[1]


def token_seat(db, table, token):
    """The seat a phone's token was given, seated now or not (a removed phone's, say)."""
    row = db.execute(
        "SELECT id FROM seats WHERE table_id=? AND token_hash=?", (table.id, token_hash(token or ""))
    ).fetchone()
    return row["id"] if row else None


def table_and_tokens(db, code):
    """(the table, {token hash: seat} of every phone given a seat there, seated now or not),
    in one query: what a live stream identifies its phone by, read once per version for all
    of them. (None, {}) for no such table."""
    rows = db.execute(
        "SELECT t.*, s.id AS seat_id, s.token_hash AS seat_hash FROM game_tables t"
        " LEFT JOIN seats s ON s.table_id = t.id AND s.token_hash IS NOT NULL"
        " WHERE t.code=?",
        (normalize_code(code),),
    ).fetchall()
    if not rows:
        return None, {}
    return Table.from_row(rows[0]), {r["seat_hash"]: r["seat_id"] for r in rows if r["seat_id"] is not None}
