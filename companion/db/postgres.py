"""PostgreSQL, for several app processes on one database: a connection that answers to the
same calls as sqlite3's (so tables/store.py writes its SQL once), the pool, per-table append
locks, migrations, and the LISTEN/NOTIFY listener that wakes every process's open pages.
"""

import json
import os
import threading
import time
from urllib.parse import urlsplit, urlunsplit

from companion.db.schema import PG_MIGRATIONS, PG_SCHEMA_VERSION, WRITE_WAIT_SECONDS

_migrated = set()  # databases this process has brought up to date

CHANNEL = "companion_"  # + the schema: two apps in two schemas of one database never mix
TABLE_LOCK = 19  # the advisory locks' first key: this app's, per table (the second)
MIGRATION_LOCK = 0


def is_postgres_url(url):
    return isinstance(url, str) and urlsplit(url).scheme in ("postgresql", "postgres")


def shown_url(url):
    """The address without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = (parts.username or "") + ":***"
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[-1]}"))


class Row:
    """A result row read by name or by position, as sqlite3.Row is."""

    __slots__ = ("_values", "_names")

    def __init__(self, values, names):
        self._values, self._names = values, names

    def __getitem__(self, key):
        return self._values[self._names[key] if isinstance(key, str) else key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def keys(self):
        return list(self._names)


def _row_factory(cursor):
    names = {column.name: i for i, column in enumerate(cursor.description or ())}
    return lambda values: Row(values, names)


_translated = {}


def _sql(sql):
    """sqlite3's `?` placeholders in psycopg's words (`%s`, and a literal % doubled)."""
    done = _translated.get(sql)
    if done is None:
        done = _translated[sql] = sql.replace("%", "%%").replace("?", "%s")
    return done


class PgConn:
    """A psycopg connection (autocommit: each statement stands alone unless a transaction
    is open) with sqlite3's calls: execute(sql with ?, params) and in_transaction."""

    def __init__(self, raw):
        self.raw = raw
        self.notify = None  # a NOTIFY to send with this transaction's COMMIT
        self.next_event_id = None  # an event id drawn with a table's lock, not used yet
        self.deferred = None  # (INSERT of that event, its values): sent with the COMMIT

    def execute(self, sql, params=()):
        if self.deferred:  # whatever comes next may read the event: it goes first
            self.raw.execute(*self.deferred)
            self.deferred = None
        return self.raw.execute(_sql(sql), tuple(params))

    def defer_event(self, columns, values):
        """Hold back the INSERT of a table's new event (under the id drawn with its lock)
        until the next statement or the COMMIT, whichever comes first."""
        event_id, self.next_event_id = self.next_event_id, None
        self.deferred = (
            f"INSERT INTO events (id, {', '.join(columns)}) VALUES ({', '.join(['%s'] * (len(columns) + 1))})",
            (event_id, *values),
        )
        return event_id

    @property
    def in_transaction(self):
        from psycopg.pq import TransactionStatus

        return self.raw.info.transaction_status != TransactionStatus.IDLE

    @property
    def broken(self):
        return self.raw.closed or self.raw.broken

    def close(self):
        self.raw.close()


class _pg_transaction:
    def __init__(self, conn, table_id, read=None):
        self.conn, self.table_id, self.read, self.rows = conn, table_id, read, None

    def __enter__(self):
        if self.conn.in_transaction:
            import psycopg

            raise psycopg.OperationalError("cannot start a transaction within a transaction")
        self.conn.notify = self.conn.next_event_id = self.conn.deferred = None
        # One round trip (integers only, so no parameters needed): each one costs a wake-up
        # of the database's process, which a busy machine makes dear. A table's write also
        # draws its event's id there, under the lock, so ids rise in the order of commits.
        begin = ["BEGIN"]
        if self.table_id is not None:  # waits at most lock_timeout (_configure)
            begin += [
                f"SELECT pg_advisory_xact_lock({TABLE_LOCK}, {int(self.table_id)})",
                "SELECT nextval(pg_get_serial_sequence('events', 'id'))",
            ]
        if self.read:
            begin.append(self.read)
        try:
            cursor = self.conn.raw.execute("; ".join(begin))
            if self.table_id is not None:
                cursor.nextset()
                cursor.nextset()
                self.conn.next_event_id = cursor.fetchone()[0]
            if self.read:
                cursor.nextset()
                self.rows = cursor.fetchall()
        except BaseException:
            self._roll_back()
            raise
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        notify, self.conn.notify = self.conn.notify, None
        deferred, self.conn.deferred = self.conn.deferred, None
        self.conn.next_event_id = None
        if exc_type is None:
            end = f"{notify}; COMMIT" if notify else "COMMIT"
            try:
                if deferred:  # the event, its NOTIFY and the COMMIT: one round trip
                    import psycopg

                    sql, values = deferred
                    psycopg.ClientCursor(self.conn.raw).execute(f"{sql}; {end.replace('%', '%%')}", values)
                else:
                    self.conn.raw.execute(end)
            except BaseException:
                self._roll_back()
                raise
        else:
            self._roll_back()
        return False

    def _roll_back(self):
        self.conn.deferred = self.conn.next_event_id = None
        try:
            if not self.conn.broken and self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
        except Exception:  # a lost connection: the server has rolled back already
            pass


def _configure(raw):
    # A write that waits longer than this for its table is told to retry (as SQLite's busy
    # timeout does); an idle transaction left open by a crash does not hold locks for ever.
    raw.execute(f"SET lock_timeout = '{int(WRITE_WAIT_SECONDS * 1000)}ms'")
    raw.execute("SET idle_in_transaction_session_timeout = '60s'")


def connect_url(url, timeout=5, **params):
    """One PostgreSQL connection (tests and the start-up check use this; requests use the pool)."""
    import psycopg

    raw = psycopg.connect(url, autocommit=True, row_factory=_row_factory, connect_timeout=timeout, **params)
    _configure(raw)
    return PgConn(raw)


def migrate_pg(conn):
    """Bring a PostgreSQL schema up to date; several processes starting at once take turns."""
    conn.execute("SELECT pg_advisory_lock(?, ?)", (TABLE_LOCK, MIGRATION_LOCK))
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        version = row[0] or 0
        if version > PG_SCHEMA_VERSION:
            raise RuntimeError(f"The database is from a newer version of the app (schema {version}).")
        for number in range(version, PG_SCHEMA_VERSION):
            with _pg_transaction(conn, None):
                for statement in PG_MIGRATIONS[number].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("DELETE FROM schema_version")
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number + 1,))
    finally:
        conn.execute("SELECT pg_advisory_unlock(?, ?)", (TABLE_LOCK, MIGRATION_LOCK))


MISSING = (
    "--database needs psycopg, which is not installed here. Install the app with its "
    "PostgreSQL part: pipx install 'table-companion[postgresql]' (in a checkout: "
    ".venv/bin/pip install -e '.[postgresql]'). Leave out --database to keep SQLite in the data dir."
)


class DatabaseUnavailable(Exception):
    """The database named at start cannot be used; str() is a sentence for the person."""


def check_database(url):
    """Connect once and migrate, or raise DatabaseUnavailable with a clear sentence."""
    if not is_postgres_url(url):
        raise DatabaseUnavailable(
            f"--database takes a PostgreSQL address such as postgresql://companion@localhost/companion, "
            f"not {url!r}. Leave it out to keep SQLite in the data dir."
        )
    try:
        import psycopg
        import psycopg_pool  # noqa: F401  the requests' pool
    except ImportError:
        raise DatabaseUnavailable(MISSING) from None
    try:
        conn = connect_url(url)
    except (psycopg.Error, ValueError) as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise DatabaseUnavailable(
            f"Cannot reach the database at {shown_url(url)}: {reason}. "
            f"Check that PostgreSQL is running and that the address, user and database are right."
        ) from None
    try:
        migrate_pg(conn)
    except (psycopg.Error, RuntimeError) as error:
        raise DatabaseUnavailable(
            f"The database at {shown_url(url)} cannot be used: {str(error).strip().splitlines()[0]}."
        ) from None
    finally:
        conn.close()


class _PgPool:
    """psycopg's pool, handing out PgConns. A connection found dead is replaced (check), so
    the app recovers by itself when the database comes back."""

    def __init__(self, url, size=10, wait=None):
        from psycopg_pool import ConnectionPool

        self.key = (url, os.getpid())
        self.url = url
        self.used = {}  # id(connection) -> when it was last given back
        if url not in _migrated:
            conn = connect_url(url)
            try:
                migrate_pg(conn)
            finally:
                conn.close()
            _migrated.add(url)
        self.pool = ConnectionPool(
            url,
            min_size=min(2, size),
            max_size=size,
            open=True,
            timeout=WRITE_WAIT_SECONDS / 2 if wait is None else wait,
            kwargs={"autocommit": True, "row_factory": _row_factory, "connect_timeout": 5},
            configure=_configure,
            check=self._check,
            reconnect_timeout=24 * 3600,
            name="companion",
        )

    CHECK_AFTER = 5.0  # seconds idle after which a connection is pinged before use

    def _check(self, raw):
        """Ping a connection that has sat idle a while (the database may have restarted since);
        one in steady use is not (a round trip per request). A connection that died a moment
        ago fails its request with a 503, and is then thrown away."""
        from psycopg_pool import ConnectionPool

        if time.monotonic() - self.used.get(id(raw), 0) > self.CHECK_AFTER:
            ConnectionPool.check_connection(raw)

    def take(self):
        return PgConn(self.pool.getconn())

    def give(self, conn):
        if not conn.broken and conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except Exception:
                pass
        if conn.broken:
            self.used.pop(id(conn.raw), None)
        else:
            self.used[id(conn.raw)] = time.monotonic()
        self.pool.putconn(conn.raw)  # a broken one is thrown away, not reused

    def close(self):
        self.pool.close(timeout=1)


class ChangeListener:
    """One LISTEN connection per process, in a thread of its own.

    Each NOTIFY (table id and version, and maybe the event: db.notify_change) goes to
    on_change(table id, version, step or None), which wakes this process's open
    pages of that table. If the connection drops, it reconnects (with growing pauses) and then
    reads the current version of every table watched() names, so nothing that happened
    while it was away is missed. It pings while idle, so a silently lost connection is found."""

    def __init__(self, url, on_change, watched, ping_every=5.0):
        self.url, self.on_change, self.watched = url, on_change, watched
        self.ping_every = ping_every
        self.connected = threading.Event()
        self.reconnects = 0
        self._stop = False
        self._conn = None
        self.thread = threading.Thread(target=self._run, name="pg-listener", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self._stop = True  # the thread notices within ping_every

    def _run(self):
        import psycopg

        pause = 0.1
        while not self._stop:
            try:
                conn = self._conn = connect_url(self.url, application_name="companion-listener")
                try:
                    channel = CHANNEL + conn.execute("SELECT current_schema()").fetchone()[0]
                    conn.raw.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(channel)))
                    self._resync(conn)
                    self.connected.set()
                    pause = 0.1
                    while not self._stop:
                        for note in conn.raw.notifies(timeout=self.ping_every):
                            self._deliver(note.payload)
                        if not self._stop:
                            conn.execute("SELECT 1")  # no news: is the connection still there?
                finally:
                    self.connected.clear()
                    self._conn = None
                    conn.close()
            except Exception:  # lost or refused: try again, a little later each time
                if self._stop:
                    return
                self.reconnects += 1
                time.sleep(pause)
                pause = min(pause * 2, 5.0)

    def _deliver(self, payload):
        """'table version', or 'table version before event-json' (db.notify_change)."""
        try:
            table_id, version, *step = payload.split(" ", 3)
            table_id, version = int(table_id), int(version)
            step = (int(step[0]), json.loads(step[1])) if step else None
        except ValueError:
            return
        self.on_change(table_id, version, step)

    def _resync(self, conn):
        ids = list(self.watched())
        if not ids:
            return
        rows = conn.execute(
            "SELECT table_id, max(id) FROM events WHERE table_id = ANY(?) GROUP BY table_id", (ids,)
        ).fetchall()
        for table_id, version in rows:
            self.on_change(table_id, version)
