"""A night's rows: the night itself (its recovery code), its tables in order, where each
carried seat came from, and starting the night's next table. routes.py is the web layer;
hosts.py keeps who holds the night's host role; tables/log_lines.py what the log says of it."""

import json

from companion import games
from companion.db import insert, transaction
from companion.games.base import RuleError
from companion.tables import names
from companion.tables.store import (
    HOST,
    Table,
    _append,
    _cache_put,
    _fold,
    _new_code,
    _writing,
    check_open,
    find_table,
    now,
)


def _new_night(db, table, new_night):
    """Give a table a night of its own (inside the caller's transaction)."""
    salt, recovery_hash = new_night()
    night = insert(
        db,
        "INSERT INTO nights (recovery_salt, recovery_hash, created_at) VALUES (?, ?, ?)",
        (salt, recovery_hash, now()),
    )
    db.execute("UPDATE game_tables SET night_id=? WHERE id=?", (night, table.id))
    table.night_id = night
    return night


def ensure_night(db, table, new_night):
    """The table's night id, set up the first time it is needed (a table from before nights,
    or one that never played again). new_night() -> (salt, hash of the recovery code)."""
    if table.night_id is None:
        with transaction(db, table.id):
            row = db.execute("SELECT night_id FROM game_tables WHERE id=?", (table.id,)).fetchone()
            if row[0] is None:
                _new_night(db, table, new_night)
            else:
                table.night_id = row[0]
    return table.night_id


def night_row(db, night_id):
    return db.execute("SELECT * FROM nights WHERE id=?", (night_id,)).fetchone()


def night_tables(db, table):
    """The tables of this table's night, in the order they were started (one alone if it
    has no night yet)."""
    if table.night_id is None:
        return [table]
    rows = db.execute("SELECT * FROM game_tables WHERE night_id=? ORDER BY id", (table.night_id,)).fetchall()
    return [Table.from_row(row) for row in rows]


def seat_origins(db, table_ids):
    """{seat id: (table id, the seat it was carried from or None)} for these tables' seats."""
    if not table_ids:
        return {}
    marks = ",".join("?" * len(table_ids))
    rows = db.execute(
        f"SELECT id, table_id, from_seat FROM seats WHERE table_id IN ({marks})", tuple(table_ids)
    ).fetchall()
    return {row["id"]: (row["table_id"], row["from_seat"]) for row in rows}


def carried_seat(db, table, from_seat):
    """The seat at `table` that seat `from_seat` of the table before it became, or None."""
    row = db.execute("SELECT id FROM seats WHERE table_id=? AND from_seat=?", (table.id, from_seat)).fetchone()
    return row["id"] if row else None


def start_next(db, old, game, keep, added, actor, follow_hash, new_night, action_id=None, pass_host=None):
    """Start the night's next table from `old`; returns (Table, started).

    The seats in `keep` (ids) come along in their clockwise order with their names and
    phones; `added` names sit down as seats without a phone. Whatever is per game starts
    fresh. A table that has a next one already returns that one (started False), so a
    doubled tap, a stale one and two hosts at once make one table: the check and the new
    table happen under the old table's append lock, and the database allows one next table.

    follow_hash(code, token_hash) is the hash of the token the same phone (or host device)
    holds at the new table: only the holder of the old token can work the new one out
    (access.follow_token), so each phone follows its own seat and nobody else's.
    pass_host(db, new, before) hands the night's tables before `old` to the new table's
    host token (hosts.pass_down), in the same transaction."""
    module = games.get(game)
    if game not in games.TABLE_GAMES or module is None:
        raise RuleError("Pick one of the games.")
    with _writing(db, old) as (pending, folded):
        ahead = folded.night.get("next")
        if ahead:
            return find_table(db, ahead["code"]), False
        seats = [s for s in folded.state["seats"] if s["id"] in set(keep)]
        taken = [s["name"] for s in seats]
        for name in added:
            taken.append(names.clean_name(name, taken))
        if len(taken) > module.MAX_SEATS:
            raise RuleError(
                f"{games.TABLE_GAMES[game]} seats at most {module.MAX_SEATS} players: "
                f"leave someone out, or pick another game."
            )
        night = old.night_id or _new_night(db, old, new_night)
        code = _new_code(db)
        new = insert(
            db,
            "INSERT INTO game_tables (code, game, host_token_hash, options, created_at,"
            " night_id, prev_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                code,
                game,
                follow_hash(code, old.host_token_hash),
                json.dumps(old.options if game == old.game else {}),
                now(),
                night,
                old.id,
            ),
        )
        # The same game keeps what this table typed from its box; another starts from the defaults.
        if game == old.game:
            db.execute(
                "INSERT INTO table_box (table_id, game, entry, body, updated_at)"
                " SELECT ?, game, entry, body, updated_at FROM table_box WHERE table_id=?",
                (new, old.id),
            )
        else:
            db.execute(
                "INSERT INTO table_box (table_id, game, entry, body, updated_at)"
                " SELECT ?, game, entry, body, updated_at FROM box_entries WHERE game=?",
                (new, game),
            )
        table = find_table(db, code)
        tokens = {
            row["id"]: row["token_hash"]
            for row in db.execute("SELECT id, token_hash FROM seats WHERE table_id=?", (old.id,)).fetchall()
        }
        host, made = dict(HOST), [_fold(table, [])]

        def log(kind, data):
            _append(db, table, made[-1], kind, data, host, None, made)

        log("night.from", {"code": old.code, "game": old.game})
        carried = {}
        for seat in seats:
            hashed = tokens.get(seat["id"])
            carried[seat["id"]] = insert(
                db,
                "INSERT INTO seats (table_id, token_hash, from_seat) VALUES (?, ?, ?)",
                (table.id, follow_hash(code, hashed) if hashed else None, seat["id"]),
            )
            log(
                "seat.join", {"seat": carried[seat["id"]], "name": seat["name"], "phone": bool(seat.get("phone", True))}
            )
        if old.host_seat in carried:
            table.host_seat = carried[old.host_seat]
            db.execute("UPDATE game_tables SET host_seat=? WHERE id=?", (table.host_seat, table.id))
        for seat in folded.night.get("cohosts", ()):
            if seat in carried:
                log("host.cohost", {"seat": carried[seat]})
        for name in taken[len(seats) :]:
            seat = insert(db, "INSERT INTO seats (table_id, token_hash) VALUES (?, NULL)", (table.id,))
            log("seat.join", {"seat": seat, "name": name, "phone": False})
        if pass_host is not None:
            pass_host(db, table, old.id)
        _append(
            db, old, folded, "night.next", {"code": code, "game": game, "table": table.id}, actor, action_id, pending
        )
    _cache_put(table, made[-1])
    return table, True


def show_night(db, table, show, actor):
    """Put the night's standings on the table screen instead of the game, or back."""
    with _writing(db, table) as (pending, folded):
        check_open(folded)
        if bool(folded.night.get("screen")) == bool(show):
            raise RuleError("The table screen shows that already. Nothing changed.")
        _append(db, table, folded, "night.screen", {"show": bool(show)}, actor, None, pending)
