"""SQLite: the connection, the schema and its migrations. Only db.py and store.py speak SQL."""

import sqlite3
import threading

import click
from flask import current_app, g

# Each entry moves the schema one version up; PRAGMA user_version records where a file is.
MIGRATIONS = [
    """
    CREATE TABLE game_tables (
        id INTEGER PRIMARY KEY,
        code TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        host_token_hash TEXT NOT NULL,
        host_seat INTEGER,
        options TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
    );
    CREATE TABLE seats (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES game_tables(id),
        token_hash TEXT UNIQUE,
        removed INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES game_tables(id),
        kind TEXT NOT NULL,
        data TEXT NOT NULL,
        actor_role TEXT NOT NULL,
        actor_seat INTEGER,
        action_id TEXT,
        created_at TEXT NOT NULL,
        UNIQUE (table_id, action_id)
    );
    CREATE INDEX events_by_table ON events (table_id, id);
    """,
    # Text a table types in from its own box (rules the rulebooks leave to the components).
    """
    CREATE TABLE box_entries (
        game TEXT NOT NULL,
        entry TEXT NOT NULL,
        body TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (game, entry)
    );
    """,
    # Box text belongs to each table (its host edits it); box_entries become the server-wide
    # defaults a new table copies. Tables that exist already keep what they could see.
    """
    CREATE TABLE table_box (
        table_id INTEGER NOT NULL REFERENCES game_tables(id),
        game TEXT NOT NULL,
        entry TEXT NOT NULL,
        body TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (table_id, game, entry)
    );
    INSERT INTO table_box (table_id, game, entry, body, updated_at)
        SELECT t.id, b.game, b.entry, b.body, b.updated_at
        FROM game_tables t JOIN box_entries b ON b.game = t.game;
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)

_migrated = set()
_migrate_lock = threading.Lock()
WRITE_WAIT_SECONDS = 10  # how long a write waits its turn before the tap is told to retry


def connect(path, extra_pragmas=()):
    conn = sqlite3.connect(path, timeout=WRITE_WAIT_SECONDS, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute(f"PRAGMA busy_timeout={WRITE_WAIT_SECONDS * 1000}")
    for pragma in extra_pragmas:  # tests simulate a full or read-only disk this way
        conn.execute(f"PRAGMA {pragma}")
    return conn


def migrate(conn):
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise RuntimeError(f"The database is from a newer version of the app (schema {version}).")
    for number in range(version, SCHEMA_VERSION):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version={number + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


class _Pool:
    """Connections kept open between requests. Opening one (and its pragmas) costs more than
    most requests do, and while one stays open SQLite keeps its WAL file instead of
    checkpointing and deleting it every time the last connection closes."""

    def __init__(self, path, pragmas, size=8):
        self.key = (path, tuple(pragmas))
        self.size = size
        self.idle = []
        self.lock = threading.Lock()

    def take(self):
        with self.lock:
            if self.idle:
                return self.idle.pop()
        conn = connect(*self.key)
        try:
            if self.key[0] not in _migrated:
                with _migrate_lock:
                    if self.key[0] not in _migrated:
                        migrate(conn)
                        _migrated.add(self.key[0])
        except BaseException:
            conn.close()
            raise
        return conn

    def give(self, conn):
        try:
            if conn.in_transaction:  # a request that failed half-way: nothing of it stays
                conn.execute("ROLLBACK")
        except sqlite3.Error:
            conn.close()
            return
        with self.lock:
            if len(self.idle) < self.size:
                self.idle.append(conn)
                return
        conn.close()

    def close(self):
        with self.lock:
            idle, self.idle = self.idle, []
        for conn in idle:
            conn.close()


def _pool():
    key = (current_app.config["DATABASE"], tuple(current_app.config.get("SQLITE_PRAGMAS", ())))
    pool = current_app.extensions.get("db_pool")
    if pool is None or pool.key != key:
        if pool is not None:
            pool.close()
        pool = current_app.extensions["db_pool"] = _Pool(*key)
    return pool


def get_db():
    if "db" not in g:
        g.db_pool = _pool()  # the connection goes back where it came from
        g.db = g.db_pool.take()
    return g.db


def close_db(exc=None):
    conn = g.pop("db", None)
    if conn is not None:
        g.pop("db_pool").give(conn)


def forget_connections(app):
    """Close the idle connections, so the next request opens a fresh one (tests use this)."""
    pool = app.extensions.pop("db_pool", None)
    if pool is not None:
        pool.close()


# Writers in this process queue on a lock that wakes the next one the moment it is free;
# SQLite's own busy wait sleeps in steps of up to 100 ms, which a tap would feel. The queue
# gives up as SQLite would (busy_timeout), so a lock held elsewhere never piles up threads.
_write_lock = threading.Lock()


class transaction:
    """`with transaction(conn):` runs the block inside BEGIN IMMEDIATE, so writers queue up."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        if self.conn.in_transaction:  # nested: SQLite would refuse it; the lock would hang
            raise sqlite3.OperationalError("cannot start a transaction within a transaction")
        if not _write_lock.acquire(timeout=WRITE_WAIT_SECONDS):
            raise sqlite3.OperationalError("database is locked")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            _write_lock.release()
            raise
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None:
                try:
                    self.conn.execute("COMMIT")
                except sqlite3.Error:
                    self._roll_back()  # a failed commit must not keep the lock
                    raise
            else:
                self._roll_back()
        finally:
            _write_lock.release()
        return False

    def _roll_back(self):
        if self.conn.in_transaction:  # SQLite may have rolled back by itself already
            self.conn.execute("ROLLBACK")


@click.command("init-db")
def init_db_command():
    """Create or upgrade the database."""
    get_db()
    click.echo(f"Database ready at {current_app.config['DATABASE']} (schema {SCHEMA_VERSION}).")


def init_app(app):
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
