"""Who holds a night's host role: co-hosts, handing the role over, host recovery, and the
tables a host's device has run.

A night has one host authority: its newest table's host token. Every older table of the
night takes a host token worked out from that one (`host_hash_for(code, newest hash)`, see
access.night_host_token), so whoever holds the newest table's role reads every table of the
night (night.carry_host hands the device those tokens), and a hand-over or a recovery, which
change the newest table's token, end the old device's rights at all of them at once. The
night's recovery code is drawn again at each change, so the old host's copy is worthless.
"""

from companion import tablet
from companion.games.base import RuleError
from companion.tables.store import HOST, Table, _append, _writing, check_open, new_token, now, token_hash


def phone_seats(db, table):
    """The ids of the seats whose phone holds a token (a seat the host added has none)."""
    rows = db.execute("SELECT id FROM seats WHERE table_id=? AND token_hash IS NOT NULL", (table.id,)).fetchall()
    return {row["id"] for row in rows}


def _seat_token_hash(db, table, seat):
    row = db.execute("SELECT token_hash FROM seats WHERE table_id=? AND id=?", (table.id, seat)).fetchone()
    return row["token_hash"] if row else None


def _phone_seat(db, table, folded, seat, what):
    """The token hash of a seated phone other than the host's, or RuleError saying why not."""
    seat_name = {s["id"]: s["name"] for s in folded.state["seats"]}.get(seat)
    if seat_name is None:
        raise RuleError("There is no such seat at this table.")
    if seat == table.host_seat:
        raise RuleError(f"{seat_name} is the host's own seat.")
    hashed = _seat_token_hash(db, table, seat)
    if hashed is None:
        raise RuleError(f"{seat_name} has no phone at this table, so cannot {what}.")
    return hashed


def older_tables(db, table):
    """The night's tables started before `table`, newest first."""
    if table.night_id is None:
        return []
    rows = db.execute(
        "SELECT * FROM game_tables WHERE night_id=? AND id<? ORDER BY id DESC", (table.night_id, table.id)
    ).fetchall()
    return [Table.from_row(row) for row in rows]


def _origins(db, seat, tables):
    """{table id: the seat `seat` was carried from there}, walking back along `tables`
    (newest first, each the one before the last)."""
    found = {}
    for older in tables:
        row = db.execute("SELECT from_seat FROM seats WHERE id=?", (seat,)).fetchone()
        seat = row["from_seat"] if row else None
        if seat is None:
            break
        found[older.id] = seat
    return found


def pass_down(db, newest, host_hash_for, seat=False, before=None):
    """Inside the newest table's write: every older table of the night takes the host token
    worked out from the newest one's, so the device holding that one holds the night. With
    `seat` true the host's seat there becomes the one the newest host's seat came from (a
    hand-over). `before`: leave this table and newer ones as they are (play again: the old
    table's own page is open on the host's device as the night moves on). Returns
    [(table, the host's seat there before)] for the tables changed."""
    night = older_tables(db, newest)
    tables = [t for t in night if before is None or t.id < before]
    origins = _origins(db, newest.host_seat, night) if seat and newest.host_seat else {}
    changed = []
    for older in tables:
        hashed = host_hash_for(older.code, newest.host_token_hash)
        new_seat = origins.get(older.id) if seat else older.host_seat
        db.execute("UPDATE game_tables SET host_token_hash=?, host_seat=? WHERE id=?", (hashed, new_seat, older.id))
        changed.append((older, older.host_seat))
    return changed


def _new_code(db, night_id, new_night):
    salt, code_hash = new_night()
    db.execute("UPDATE nights SET recovery_salt=?, recovery_hash=? WHERE id=?", (salt, code_hash, night_id))


def set_cohost(db, table, seat, on, actor):
    """Make a seat's phone a co-host (the host's rights at its own seat), or take that back."""
    with _writing(db, table) as (pending, folded):
        check_open(folded)
        _phone_seat(db, table, folded, seat, "be a co-host")
        if (seat in folded.night.get("cohosts", ())) == on:
            raise RuleError("That is already so. Nothing changed.")
        _append(db, table, folded, "host.cohost" if on else "host.uncohost", {"seat": seat}, actor, None, pending)


def hand_over(db, table, seat, actor, host_hash_for, new_night):
    """The seat's phone becomes the host of the night (its own token now holds the role here,
    and the night's older tables follow it); the night gets a new recovery code.

    Returns [(table, token)]: a token of its own for the old host's seat, here and at each
    older table where it had one, for the old host's device, which stays as that player."""
    tokens = []
    with _writing(db, table) as (pending, folded):
        check_open(folded)
        hashed = _phone_seat(db, table, folded, seat, "take over as host")
        before = table.host_seat if table.host_seat in {s["id"] for s in folded.state["seats"]} else None
        db.execute("UPDATE game_tables SET host_token_hash=?, host_seat=? WHERE id=?", (hashed, seat, table.id))
        table.host_token_hash, table.host_seat = hashed, seat
        for older, old_seat in [(table, before)] + pass_down(db, table, host_hash_for, seat=True):
            if old_seat is not None and _seat_token_hash(db, older, old_seat) is None:
                token = new_token()
                db.execute("UPDATE seats SET token_hash=? WHERE id=?", (token_hash(token), old_seat))
                tokens.append((older, token))
        if table.night_id is not None:
            _new_code(db, table.night_id, new_night)
        _append(db, table, folded, "host.handover", {"seat": seat, "from_seat": before}, actor, None, pending)
    return tokens


def recover_host(db, recovery_hash, new_night, host_hash_for):
    """The recovery code's night: its newest table gets a new host token (returned with the
    table), every older table of the night one worked out from it, and the night a new code.
    Every device the old host let in is revoked. None when no night has that code. The old
    host device's cookies are refused from then on."""
    row = db.execute("SELECT id FROM nights WHERE recovery_hash=?", (recovery_hash,)).fetchone()
    if row is None:
        return None
    for _ in range(5):  # the night may move on while this waits for the lock: go with it
        newest = db.execute(
            "SELECT * FROM game_tables WHERE night_id=? ORDER BY id DESC LIMIT 1", (row["id"],)
        ).fetchone()
        table = Table.from_row(newest)
        token = new_token()
        with _writing(db, table) as (pending, folded):
            if folded.night.get("next"):
                continue
            # Under the lock: a code used (or a role handed over) a moment ago is spent.
            now_hash = db.execute("SELECT recovery_hash FROM nights WHERE id=?", (row["id"],)).fetchone()[0]
            if now_hash != recovery_hash:
                return None
            db.execute("UPDATE game_tables SET host_token_hash=? WHERE id=?", (token_hash(token), table.id))
            table.host_token_hash = token_hash(token)
            pass_down(db, table, host_hash_for)
            _new_code(db, row["id"], new_night)
            tablet.revoke_night(db, table.id)
            _append(db, table, folded, "host.recovered", {}, HOST, None, pending)
        return table, token
    raise RuleError("The night keeps moving on; type the code again.")


# --- the tables a host's device has run ----------------------------------------------------


def remember_device_table(db, device_hash, table):
    """A host's device keeps a list of its tables (with the host token it held then)."""
    db.execute(
        "INSERT INTO device_tables (device_hash, table_id, host_token_hash, added_at)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (device_hash, table_id)"
        " DO UPDATE SET host_token_hash=excluded.host_token_hash",
        (device_hash, table.id, table.host_token_hash, now()),
    )


def device_tables(db, device_hash, limit=200):
    """[(Table, still host)] a device has hosted, newest first."""
    rows = db.execute(
        "SELECT g.*, d.host_token_hash AS held FROM device_tables d"
        " JOIN game_tables g ON g.id=d.table_id WHERE d.device_hash=?"
        " ORDER BY g.id DESC LIMIT ?",
        (device_hash, limit),
    ).fetchall()
    return [(Table.from_row(row), row["held"] == row["host_token_hash"]) for row in rows]
