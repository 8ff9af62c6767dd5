"""The tablet's rows (its routes are routes.py): devices the host let in, and each table's panel layout.

A let-in link's code waits (waiting=1) until a device opens it in time; the device's own
token then takes its place. Only hashes of codes and tokens are kept, as for seats.
"""

from datetime import datetime, timedelta, timezone

from companion.db import transaction
from companion.tables import store
from companion.tables.log_lines import ARRANGED, check_open
from companion.tables.store import now, token_hash


def is_let_in(db, table_id, token):
    return (
        db.execute(
            "SELECT 1 FROM tablet_devices WHERE token_hash=? AND table_id=? AND waiting=0",
            (token_hash(token), table_id),
        ).fetchone()
        is not None
    )


def add_link(db, table_id, code):
    with transaction(db):
        db.execute(
            "INSERT INTO tablet_devices (token_hash, table_id, waiting, created_at) VALUES (?, ?, 1, ?)",
            (token_hash(code), table_id, now()),
        )


def claim_link(db, table_id, code, token, minutes):
    """Trade a waiting link's code for the device's token; False: unknown, used or too old."""
    with transaction(db):
        row = db.execute(
            "SELECT created_at FROM tablet_devices WHERE token_hash=? AND table_id=? AND waiting=1",
            (token_hash(code), table_id),
        ).fetchone()
        if row is None:
            return False
        if datetime.now(timezone.utc) - datetime.fromisoformat(row["created_at"]) > timedelta(minutes=minutes):
            return False
        db.execute(
            "UPDATE tablet_devices SET token_hash=?, waiting=0, created_at=? WHERE token_hash=?",
            (token_hash(token), now(), token_hash(code)),
        )
    return True


def let_in(db, table_id, token):
    """Let a device in at once (a let-in device following the night to its next table);
    again is harmless."""
    with transaction(db):
        db.execute(
            "INSERT INTO tablet_devices (token_hash, table_id, waiting, created_at) VALUES (?, ?, 0, ?)"
            " ON CONFLICT (token_hash) DO NOTHING",
            (token_hash(token), table_id, now()),
        )


def devices(db, table_id):
    """[{"at": when, "waiting": bool}] for the table's let-in devices and unopened links."""
    rows = db.execute(
        "SELECT waiting, created_at FROM tablet_devices WHERE table_id=? ORDER BY created_at", (table_id,)
    ).fetchall()
    return [{"at": row["created_at"], "waiting": bool(row["waiting"])} for row in rows]


def revoke(db, table_id):
    """Every let-in device of this table and of its night's other tables: a device let in at
    an earlier table would otherwise follow the night here again (night._follow_tablet)."""
    with transaction(db):
        revoke_night(db, table_id)


def revoke_night(db, table_id):
    """revoke() inside the caller's transaction."""
    db.execute(
        "DELETE FROM tablet_devices WHERE table_id=? OR table_id IN (SELECT id FROM game_tables"
        " WHERE night_id=(SELECT night_id FROM game_tables WHERE id=?))",
        (table_id, table_id),
    )


def layout_text(db, table_id):
    row = db.execute("SELECT layout FROM tablet_layouts WHERE table_id=?", (table_id,)).fetchone()
    return row["layout"] if row else None


def save_layout_text(db, table_id, text):
    with transaction(db):
        _upsert_layout(db, table_id, text)


def arrange(db, table, text, actor):
    """Keep the host's arrangement and log it (ARRANGED) in one write: a new version of the
    table, so every open tablet's stream carries it at once, as it does any change."""
    with store._writing(db, table) as (pending, folded):
        check_open(folded)
        _upsert_layout(db, table.id, text)
        store._append(db, table, folded, ARRANGED, {}, actor, None, pending)


def _upsert_layout(db, table_id, text):
    db.execute(
        "INSERT INTO tablet_layouts (table_id, layout, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (table_id) DO UPDATE SET layout=excluded.layout,"
        " updated_at=excluded.updated_at",
        (table_id, text, now()),
    )
