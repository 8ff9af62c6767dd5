"""Which seats have a phone with a page open: here (their live streams say so as they open and
close) and, on PostgreSQL, at any process of the server (seat_presence, kept by each process's
Beat). Blackmail's stand-in waits for a seat that has been away a while."""

import threading
import time

from companion.db import get_db, uses_postgres
from companion.db import postgres as pg


class Here:
    """The seats with a page open in this process, and when each one's last page closed."""

    def __init__(self):
        self._lock = threading.Lock()
        self._open = {}  # (table id, seat) -> open pages of that seat's phone
        self._left = {}  # (table id, seat) -> when its last open page went away
        self._started = time.monotonic()

    def came(self, table_id, seat):
        with self._lock:
            self._open[(table_id, seat)] = self._open.get((table_id, seat), 0) + 1

    def went(self, table_id, seat):
        with self._lock:
            left = self._open.pop((table_id, seat), 1) - 1
            if left:
                self._open[(table_id, seat)] = left
            self._left[(table_id, seat)] = time.monotonic()

    def seen(self, since):
        """{(table id, seat): wall-clock time it was last seen} for every seat with a page open
        here now, and every seat whose last page here closed after `since` (wall clock)."""
        now_wall, now = time.time(), time.monotonic()
        with self._lock:
            seen = {key: now_wall for key, count in self._open.items() if count}
            for key, left in self._left.items():
                at = now_wall - (now - left)
                if key not in seen and at > since:
                    seen[key] = at
        return seen

    def left_seconds(self, table_id, seat):
        """How long ago the seat's last page here closed (None: none ever closed here)."""
        with self._lock:
            left = self._left.get((table_id, seat))
        return None if left is None else time.monotonic() - left

    def away_seconds(self, table_id, seat):
        """How long a seat's phone has had no open page here (0 while one is open); a seat
        not seen since the server started counts from the start."""
        with self._lock:
            if self._open.get((table_id, seat)):
                return 0.0
            return time.monotonic() - self._left.get((table_id, seat), self._started)


def away_seconds(here, table_id, seat):
    """How long a seat's phone has had no open page at any process of this server (0 while
    one is open somewhere). On PostgreSQL the other processes' pages count through
    seat_presence, which each process's Beat keeps."""
    seconds = here.away_seconds(table_id, seat)
    if seconds == 0 or not uses_postgres():
        return seconds
    row = (
        get_db()
        .execute(
            "SELECT extract(epoch FROM clock_timestamp() - seen_at) FROM seat_presence WHERE table_id=? AND seat=?",
            (table_id, seat),
        )
        .fetchone()
    )
    if row is None:
        return seconds  # never seen anywhere: counted from this process's start
    shared = max(0.0, float(row[0]))
    left = here.left_seconds(table_id, seat)  # a close here is known before the next beat
    return shared if left is None else min(shared, left)


class Beat:
    """Tells the other processes which seats have a page open here: every `every` seconds,
    one upsert of (table, seat, now) for each, and of (table, seat, when it left) for each
    seat whose last page here closed since the last beat. A seat open anywhere is never more
    than a beat old; a killed process simply stops beating, and its seats age from there."""

    def __init__(self, url, here, every=5.0):
        self.url, self.here, self.every = url, here, every
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
        seen = self.here.seen(self._since)
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
