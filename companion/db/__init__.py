"""The database: SQLite in the data dir (the default) or PostgreSQL for several processes.

Connections per request, write transactions, and migrations (the schema is in schema.py,
PostgreSQL's side in postgres.py). Only this package, tables/store.py and box speak SQL; they write
it once, with `?` placeholders, and a PostgreSQL connection (pg.PgConn) answers to the same
calls as sqlite3's.
"""

import json
import os
import sqlite3
import threading

import click
from flask import current_app, g

# What the server and the tests reach through db (the PostgreSQL parts live in postgres.py).
from companion.db.postgres import (  # noqa: F401,E501
    CHANNEL,
    ChangeListener,
    DatabaseUnavailable,
    PgConn,
    _pg_transaction,
    _PgPool,
    check_database,
    connect_url,
    is_postgres_url,
    migrate_pg,
    shown_url,
)
from companion.db.schema import MIGRATIONS, PG_SCHEMA_VERSION, SCHEMA_VERSION, WRITE_WAIT_SECONDS

_migrated = set()
_migrate_lock = threading.Lock()


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
    url = current_app.config.get("DATABASE_URL")
    if url:
        key = (url, os.getpid())  # a forked worker opens its own connections
    else:
        key = (current_app.config["DATABASE"], tuple(current_app.config.get("SQLITE_PRAGMAS", ())))
    pool = current_app.extensions.get("db_pool")
    if pool is None or pool.key != key:
        with _migrate_lock:
            pool = current_app.extensions.get("db_pool")
            if pool is None or pool.key != key:
                if pool is not None and pool.key[-1] == os.getpid():
                    pool.close()
                pool = current_app.extensions["db_pool"] = (
                    _PgPool(
                        url,
                        current_app.config.get("DATABASE_POOL_SIZE", 10),
                        current_app.config.get("DATABASE_WAIT_SECONDS"),
                    )
                    if url
                    else _Pool(*key)
                )
    return pool


def uses_postgres(app=None):
    return bool((app or current_app).config.get("DATABASE_URL"))


def get_db():
    if "db" not in g:
        gate = g.get("db_gate")  # a live stream's render sets one: see pages.looker
        if gate is not None:
            gate.acquire()
        try:
            g.db_pool = _pool()  # the connection goes back where it came from
            g.db = g.db_pool.take()
        except BaseException:
            if gate is not None:
                gate.release()
            raise
        g.db_gate_held = gate
    return g.db


def close_db(exc=None):
    conn = g.pop("db", None)
    if conn is not None:
        g.pop("db_pool").give(conn)
    held = g.pop("db_gate_held", None)
    if held is not None:
        held.release()
    g.pop("db_gate", None)


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
    """`with transaction(conn):` runs the block inside BEGIN IMMEDIATE, so writers queue up.

    With `table_id`, the block is one append to that table's log. SQLite has one writer at a
    time anyway; PostgreSQL runs appends to different tables side by side, and the advisory
    lock makes those to one table (from any process) wait their turn, so they never
    interleave and a resent tap finds the first one's event.

    `read` (a SELECT with no parameters) runs first thing inside: its rows are `.rows` (on
    PostgreSQL it goes with BEGIN and the lock, in one round trip)."""

    def __new__(cls, conn, table_id=None, read=None):
        if isinstance(conn, PgConn):
            return _pg_transaction(conn, table_id, read)
        return super().__new__(cls)

    def __init__(self, conn, table_id=None, read=None):
        self.conn, self.read, self.rows = conn, read, None

    def __enter__(self):
        if self.conn.in_transaction:  # nested: SQLite would refuse it; the lock would hang
            raise sqlite3.OperationalError("cannot start a transaction within a transaction")
        if not _write_lock.acquire(timeout=WRITE_WAIT_SECONDS):
            raise sqlite3.OperationalError("database is locked")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            if self.read:
                self.rows = self.conn.execute(self.read).fetchall()
        except BaseException:
            self._roll_back()
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


def insert(conn, sql, params):
    """Run an INSERT and return the new row's id (sqlite3's lastrowid; RETURNING elsewhere)."""
    if isinstance(conn, PgConn):
        return conn.execute(sql + " RETURNING id", params).fetchone()[0]
    return conn.execute(sql, params).lastrowid


def insert_event(conn, columns, values):
    """Add one event to the log; returns its id. In a table's transaction on PostgreSQL the id
    was drawn with the lock, and the row goes with the COMMIT (one round trip for both)."""
    if isinstance(conn, PgConn) and conn.next_event_id is not None:
        return conn.defer_event(columns, values)
    return insert(conn, f"INSERT INTO events ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", values)


NOTIFY_BYTES = 7000  # PostgreSQL takes a payload of up to 8000 bytes


def notify_change(conn, table_id, version, step=None):
    """Inside an append's transaction: on PostgreSQL, tell every process (at commit, and only
    if it commits) that the table is at this version, and with `step` (the version before,
    the one event after it) what happened, if it is short. SQLite has one process: nothing
    to do."""
    if not isinstance(conn, PgConn):
        return
    payload = f"{int(table_id)} {int(version)}"
    if step is not None:
        before, event = step
        told = json.dumps({key: event[key] for key in ("id", "kind", "data", "at", "action_id")} | {"by": event["by"]})
        if len(told) < NOTIFY_BYTES:
            payload += f" {int(before)} {told}"
    from psycopg.sql import Literal

    # sent with the COMMIT, in the same round trip
    conn.notify = f"SELECT pg_notify('{CHANNEL}' || current_schema(), {Literal(payload).as_string(conn.raw)})"


@click.command("init-db")
def init_db_command():
    """Create or upgrade the database."""
    get_db()
    if uses_postgres():
        click.echo(f"Database ready at {shown_url(current_app.config['DATABASE_URL'])} (schema {PG_SCHEMA_VERSION}).")
    else:
        click.echo(f"Database ready at {current_app.config['DATABASE']} (schema {SCHEMA_VERSION}).")


def init_app(app):
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
