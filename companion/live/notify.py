"""The per-table version that wakes every open page's stream (moved by this process's writes
and, on PostgreSQL, by its LISTEN connection), and what a stream sends: the regions of its
page's fragment (rendered once per version and kind of viewer, shared by the streams of that
kind here) that differ from its last message, with the version as its id."""

import os
import threading
import time

from flask import current_app

from companion.db import ChangeListener
from companion.live import regions
from companion.tables import presence, store

OVERFLOW_RETRY_MS = 3000  # how soon a page turned away for want of threads asks again
# Streams of this process holding a database connection at one time: fewer than the pool's
# (10), so pages reconnecting together queue here, not there. A render that needs no query
# (the usual change) never waits: under a burst, a queue for every render starved the streams.
QUERYING_AT_ONCE = 8


class _Table:
    """The live state of one table: its version and the streams waiting on it."""

    def __init__(self):
        self.changed = threading.Condition(threading.Lock())  # a new version for the streams
        self.version = 0
        self.streams = 0
        self.rendering = threading.Lock()
        self.rendered = (0, {})  # (version, {kind of viewer: pages.Rendered})
        self.reading = threading.Lock()
        self.who = (0, None)  # (version, (table row, seat tokens)) read once that version was known
        self.code = None

    def who_at(self, folded, read):
        """(the table's row, its seat tokens) as of the fold's version or later: read by the
        first of its streams to ask and shared, and read again only after a write that may
        have changed them (store.who_changed: a seat added, a host handed over)."""
        with self.reading:
            kept_version, kept = self.who
            if kept is None or store.who_changed(folded, kept_version):
                kept_version, kept = -1, read()
            # kept as of this version, so the next look scans the log from here on
            if kept[0] is not None and folded.version > kept_version:
                self.who = (folded.version, kept)
            return kept

    def parts(self, look):
        """The asker's kind of viewer's Rendered fragment at the newest version, shared by its
        kind. look(version, this) -> (kind, render) runs under the lock, so a stream never
        holds a connection's turn (Notifier.querying) while it waits for another's render."""
        with self.rendering:
            kind, render = look(self.version, self)
            version, done = self.rendered
            if version >= self.version and kind in done:
                return done[kind]
            found = render()
            if found.version > version:
                self.rendered = (found.version, {})
            if found.version == self.rendered[0]:
                self.rendered[1][kind] = found
            return found


class Notifier:
    """One condition per table: publishing wakes only that table's streams, which never poll.
    A reaper thread asks once a second whether each stream's phone has gone, and wakes just
    its table, so a vanished phone frees its thread within a second."""

    def __init__(self, reap_every=1.0):
        self._lock = threading.Lock()
        self._tables = {}  # table id -> _Table
        self._codes = {}  # table code -> table id, for the tables with a stream here
        self._open = {}  # stream key -> (table, gone)
        self._gone = set()  # stream keys whose phone has gone
        self._reap_every = reap_every
        self._reaper = None
        self.seats = presence.Here()  # which seats' phones have a page open here
        self.querying = threading.BoundedSemaphore(QUERYING_AT_ONCE)

    @property
    def open_streams(self):
        return len(self._open)

    def watching(self, table_id=None, code=None):
        """The live state of a table (by id, or by code) with an open stream here, else None."""
        with self._lock:
            return self._tables.get(self._codes.get(code) if table_id is None else table_id)

    def watched(self):
        """The tables with an open stream here (a listener that reconnects re-reads these)."""
        with self._lock:
            return list(self._tables)

    def open(self, table_id, version, gone=None, limit=None, seat=None, code=None):
        """The new stream's key (for stream() and close()), or None when `limit` streams are
        open: checked and counted in one step, so a burst of pages cannot slip past it."""
        key = object()
        with self._lock:
            if limit is not None and len(self._open) >= limit:
                return None
            table = self._tables.get(table_id)
            if table is None:
                table = self._tables[table_id] = _Table()
                store.open_tables = len(self._tables)  # a table with a page open keeps its fold
            if code is not None:
                self._codes[code] = table_id
                table.code = code
            table.streams += 1
            self._open[key] = (table_id, table, gone or (lambda: False), seat)
            if gone and self._reaper is None:
                self._reaper = threading.Thread(target=self._reap, name="sse-reaper", daemon=True)
                self._reaper.start()
        if seat is not None:
            self.seats.came(table_id, seat)
        self.publish(table_id, version)
        return key

    def close(self, key):
        """Count a stream out (again is harmless: the generator and the response both call it)."""
        with self._lock:
            entry = self._open.pop(key, None)
            self._gone.discard(key)
            if entry is None:
                return
            table_id, table, _, seat = entry
            table.streams -= 1
            if table.streams == 0:
                self._tables.pop(table_id, None)
                store.open_tables = len(self._tables)
                self._codes.pop(table.code, None)
        if seat is not None:
            self.seats.went(table_id, seat)

    def heard(self, table_id, version, step=None):
        """Another process's change (its NOTIFY): keep the event it carried, then wake."""
        if step is not None and self.watching(table_id) is not None:
            store.heard(table_id, *step)
        self.publish(table_id, version)

    def publish(self, table_id, version):
        """Move a table to a newer version and wake its streams (one heard already wakes none;
        a table with no stream here is left: a stream that opens reads the version itself)."""
        table = self.watching(table_id)
        if table is not None:
            with table.changed:
                if version > table.version:
                    table.version = version
                    table.changed.notify_all()

    def _reap(self):
        while True:
            time.sleep(self._reap_every)
            with self._lock:
                found = [(key, table) for key, (_, table, gone, _) in self._open.items() if gone()]
                self._gone.update(key for key, _ in found)
            for _, table in found:
                with table.changed:
                    table.changed.notify_all()

    def stream(self, key, heartbeat, look=None, known=0, done=lambda: None):
        """SSE messages for an opened stream until its phone goes: on each newer version, the
        regions of the asker's fragment (_Table.parts, `look`) that differ from what the page
        holds. `known`: the version the page shows; one behind gets its whole fragment. done()
        follows each look: the connection goes back, a stream holds none between changes."""
        table = self._open[key][1]

        def render():
            try:
                return table.parts(look)
            finally:
                done()

        try:
            seen, sent = known, None  # sent: what the page holds (None: unknown)
            if known and table.version == known:  # the page is up to date: what does it hold?
                try:  # (before the first line: open means ready)
                    found = render()
                    sent = found.held if found.version == known else None
                except Exception:  # the database is away, say: the next change sends it whole
                    pass
            yield "retry: 2000\n\n"
            while key not in self._gone:
                with table.changed:
                    if table.version <= seen:
                        table.changed.wait(heartbeat)
                    current = table.version
                if key in self._gone:
                    return
                if current <= seen:
                    yield f": {int(time.time())}\n\n"  # keeps proxies from closing an idle stream
                    continue
                before = seen
                try:
                    found = render()
                except Exception as error:  # the database is away, say: the browser reopens it
                    current_app.logger.warning("a live stream ended: %s", error)
                    return
                seen = found.version
                # Only the next version goes as a difference: the page may show a newer fragment
                # (its own tap's answer), and a region changed there and back would stay stale.
                yield message(found, sent if found.previous == before else None)
                sent = found.held
        finally:
            self.close(key)


def message(found, sent):
    """The message to a page that holds `sent` (None: unknown) from a render (pages.Rendered),
    made once for all the streams that share the render and last sent the same."""
    if found.regions is None:  # nothing to compare (the bench's bare floor)
        return f"id: {found.version}\nevent: live\ndata: \n\n"
    made = found.said.get(id(sent))
    if made is None or made[0] is not sent:
        swaps = regions.changed(found.regions, sent)
        made = found.said[id(sent)] = (sent, regions.message(found.version, found.regions, swaps))
    return made[1]


def notifier():
    """This app's notifier (one per app, so two apps in one process never mix tables)."""
    found = current_app.extensions.get("live_notifier")
    return found if found is not None else current_app.extensions.setdefault("live_notifier", Notifier())


_listener_lock = threading.Lock()


def listener(app=None):
    """This process's one LISTEN connection, started with its first stream, and with it the
    beat that tells the other processes which seats have a page open here."""
    app = app or current_app._get_current_object()
    with _listener_lock:
        found = app.extensions.get("pg_listener")
        if found is None or found[0] != os.getpid():  # a forked worker starts its own
            with app.app_context():
                live = notifier()
            found = app.extensions["pg_listener"] = (
                os.getpid(),
                ChangeListener(app.config["DATABASE_URL"], live.heard, live.watched).start(),
            )
            app.extensions["presence_beat"] = presence.Beat(app.config["DATABASE_URL"], live.seats).start()
    return found[1]


def hearing():
    """Whether this process's LISTEN connection is up: while it reconnects, a change made at
    another process may not have reached this one's kept state."""
    found = current_app.extensions.get("pg_listener")
    return found is not None and found[0] == os.getpid() and found[1].connected.is_set()
