"""The live push across processes on PostgreSQL: this process's LISTEN connection (a change
committed anywhere wakes the pages here), and the presence beat that tells the other
processes which seats have a page open here (the Blackmail stand-in's wait reads it)."""

import os
import threading
import time

from flask import current_app

from companion.db import ChangeListener, get_db, uses_postgres
from companion.db import postgres as pg
from companion.live.notify import notifier


def away_seconds(table_id, seat):
    """How long a seat's phone has had no open page at any process of this server (0 while
    one is open somewhere). On PostgreSQL the other processes' pages count through
    seat_presence, which each process's PresenceBeat keeps."""
    live = notifier()
    here = live.away_seconds(table_id, seat)
    if here == 0 or not uses_postgres():
        return here
    row = (
        get_db()
        .execute(
            "SELECT extract(epoch FROM clock_timestamp() - seen_at) FROM seat_presence WHERE table_id=? AND seat=?",
            (table_id, seat),
        )
        .fetchone()
    )
    if row is None:
        return here  # never seen anywhere: counted from this process's start
    shared = max(0.0, float(row[0]))
    left = live.left_seconds(table_id, seat)  # a close here is known before the next beat
    return shared if left is None else min(shared, left)


class PresenceBeat:
    """Tells the other processes which seats have a page open here: every `every` seconds,
    one upsert of (table, seat, now) for each, and of (table, seat, when it left) for each
    seat whose last page here closed since the last beat. A seat open anywhere is never more
    than a beat old; a killed process simply stops beating, and its seats age from there."""

    def __init__(self, url, notifier, every=5.0):
        self.url, self.notifier, self.every = url, notifier, every
        self._since = 0.0
        self._stop = False
        self.thread = threading.Thread(target=self._run, name="presence-beat", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self._stop = True

    def beat(self, conn):
        started = time.time()
        seen = self.notifier.seen_seats(self._since)
        if seen:
            keys = list(seen)
            conn.execute(
                "INSERT INTO seat_presence (table_id, seat, seen_at)"
                " SELECT t, s, to_timestamp(w) FROM unnest(?::int[], ?::int[], ?::float8[]) AS x(t, s, w)"
                " ON CONFLICT (table_id, seat) DO UPDATE SET seen_at = GREATEST(seat_presence.seen_at, EXCLUDED.seen_at)",
                ([k[0] for k in keys], [k[1] for k in keys], [seen[k] for k in keys]),
            )
        self._since = started - self.every  # overlap a little: a close during the write is kept

    def _run(self):
        conn = None
        while not self._stop:
            try:
                conn = conn or pg.connect_url(self.url, application_name="companion-presence")
                self.beat(conn)
            except Exception:  # the database is away: the next beat tries a new connection
                if conn is not None:
                    conn.close()
                conn = None
            time.sleep(self.every)


_listener_lock = threading.Lock()


def listener(app=None):
    """On PostgreSQL, this process's one LISTEN connection (started with the first stream):
    a change committed by any process wakes the open pages here. Its PresenceBeat starts
    with it."""
    app = app or current_app._get_current_object()
    found = app.extensions.get("pg_listener")
    if found is not None and found[0] == os.getpid():
        return found[1]
    with _listener_lock:
        found = app.extensions.get("pg_listener")
        if found is None or found[0] != os.getpid():  # a forked worker starts its own
            with app.app_context():
                live = notifier()
            found = app.extensions["pg_listener"] = (
                os.getpid(),
                ChangeListener(app.config["DATABASE_URL"], live.heard, live.watched).start(),
            )
            app.extensions["presence_beat"] = PresenceBeat(app.config["DATABASE_URL"], live).start()
    return found[1]
