"""The per-table version that wakes every open page's stream, and what a stream sends.

On a new version each stream asks for its page's fragment (rendered once per version and
kind of viewer through the game's view_for, shared by every page of that kind here) and
sends the regions that differ from its last message (regions.py), with the version as the
message's id, so a page drops a copy older than what it shows.
"""

import os
import threading
import time

from flask import current_app

from companion.db import uses_postgres
from companion.live import regions
from companion.tables import presence, store

OVERFLOW_RETRY_MS = 3000  # how soon a page turned away for want of threads asks again
# Streams of this process holding a database connection at one time: fewer than the pool's
# (10), so a thousand pages reconnecting together queue here rather than time out there. A
# stream whose render needs no query (the usual change: the fold and who sits where are
# kept) never waits here: under a burst, a queue for every render starved the streams
# while the taps went on being answered.
QUERYING_AT_ONCE = 8


class _Table:
    """The live state of one table: its version and the streams waiting on it."""

    def __init__(self):
        self.changed = threading.Condition(threading.Lock())  # a new version for the streams
        self.version = 0
        self.streams = 0
        self.rendering = threading.Lock()
        self.rendered = (0, {})  # (version, {kind of viewer: (version, parts, fragment)})
        self.reading = threading.Lock()
        self.who = (0, None)  # (version, (table row, seat tokens)) read once that version was known
        self.code = None
        self.said = (0, {})  # (version, {(kind, regions last sent): message}) made at it
        self.saying = threading.Lock()

    def who_at(self, folded, read):
        """(the table's row, its seat tokens) as of the fold's version or later: read by the
        first of its streams here to ask, while the others wait and share it, and read again
        only after a write that may have changed them (store.who_changed: a seat added, a
        host handed over), which logs its event in the same transaction. So a read made
        once that event's version was known shows the change, and a score changes nothing."""
        with self.reading:
            kept_version, kept = self.who
            if kept is not None and not store.who_changed(folded, kept_version):
                # still right at this version: the next look reads the log from here, not
                # from when the first stream opened (a scan that grew with the game)
                if folded.version > kept_version:
                    self.who = (folded.version, kept)
                return kept
            kept = read()
            if kept[0] is not None:
                self.who = (folded.version, kept)
            return kept

    def message(self, version, kind, found, sent):
        """The message for a stream of this kind whose page holds `sent` (its last regions,
        or None): made once for every stream of the kind that last sent the same."""
        key = (kind, id(sent))
        with self.saying:
            if self.said[0] != version:
                self.said = (version, {})
            made = self.said[1].get(key)
            if made is not None and made[0] is sent:
                return made[1]
        text = regions.message(version, found, regions.changed(found, sent))
        with self.saying:
            if self.said[0] == version:
                self.said[1][key] = (sent, text)
        return text

    def parts(self, look):
        """(kind, Rendered): the fragment of the asker's kind of viewer at the newest version,
        rendered by the first of that kind to ask (a stream, or the tap's answer) and shared by
        the others. look(version, this) -> (kind, render): who is asking now, and how to render
        what they see. The look is made under the lock: a stream that took a turn for a
        connection there (Notifier.querying) never holds it while it waits for the lock."""
        with self.rendering:
            kind, render = look(self.version, self)
            version, done = self.rendered
            if version >= self.version and kind in done:
                return kind, done[kind]
            found = render()
            if found.version > version:
                self.rendered = (found.version, {})
            if found.version == self.rendered[0]:
                self.rendered[1][kind] = found
            return kind, found


class Notifier:
    """One condition per table: publishing wakes only that table's streams.

    Streams never poll. A single reaper thread checks, once a second, whether the phone of
    any open stream has gone (waitress's client_disconnected) and wakes just that table, so a
    vanished phone frees its server thread within a second while idle streams stay asleep.
    """

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

    def watching(self, table_id):
        """The live state of a table with an open stream here, else None."""
        with self._lock:
            return self._tables.get(table_id)

    def watching_code(self, code):
        """The live state of the table with this code if it has an open stream here."""
        with self._lock:
            return self._tables.get(self._codes.get(code))

    def watched(self):
        """The tables with an open stream here (a listener that reconnects re-reads these)."""
        with self._lock:
            return list(self._tables)

    def open(self, table_id, version, gone=None, limit=None, seat=None, code=None):
        """Count a new stream in, or return None when `limit` streams are open already.

        Checked and counted in one step, so pages reconnecting together cannot all slip past
        the limit. Returns the stream's key, for stream() and close()."""
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
        with table.changed:
            self._raise(table, version)
        return key

    @staticmethod
    def _raise(table, version):
        """Move a table to a newer version and wake its streams; a version heard already
        (this process's own change coming back through NOTIFY, say) wakes nobody."""
        if version > table.version:
            table.version = version
            table.changed.notify_all()

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
        """Another process's change (its NOTIFY): keep the event it carried, if it is one
        this process's streams can use, then wake them."""
        if step is not None and self.watching(table_id) is not None:
            store.heard(table_id, *step)
        self.publish(table_id, version)

    def publish(self, table_id, version):
        """Wake the table's streams (each renders and sends its page's parts)."""
        table = self.watching(table_id)
        if table is None:
            return  # nobody is watching; a stream that opens later reads the version itself
        with table.changed:
            self._raise(table, version)

    def _reap(self):
        while True:
            time.sleep(self._reap_every)
            with self._lock:
                found = [(key, table) for key, (_, table, gone, _) in self._open.items() if gone()]
                self._gone.update(key for key, _ in found)
            for _, table in found:
                with table.changed:
                    table.changed.notify_all()

    @staticmethod
    def _shown(table, look, known, done):
        """What a page holds when it shows the table's newest version (loaded at it, or back
        with it as its last message's id), so the next change sends only what changed. None
        if the table moved on meanwhile (the page gets its whole fragment) or the render failed."""
        try:
            try:
                found = table.parts(look)[1]
            finally:
                done()
        except Exception:  # the database is away, say: the next change sends it whole
            return None
        return found.held if found.version == known else None

    def stream(self, key, heartbeat, look=None, known=0, done=lambda: None):
        """Yield SSE messages for one opened stream until its phone goes away: on each newer
        version, the regions of the asker's fragment (see _Table.parts for `look`) that differ
        from this stream's last message. `known` is the version the page already shows; a
        page behind gets its whole fragment first. done() follows each look (the database
        connection goes back: a stream holds none between changes)."""
        table = self._open[key][1]
        try:
            seen, sent = known, None  # sent: what the page holds (None: unknown)
            if known and table.version == known:  # before the first line: open means ready
                sent = self._shown(table, look, known, done)
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
                    try:
                        kind, found = table.parts(look)
                    finally:
                        done()
                except Exception as error:  # the database is away, say: this stream ends,
                    # and the browser reopens it in 2 s (retry) and gets the whole fragment
                    current_app.logger.warning("a live stream ended: %s", error)
                    return
                seen = found.version
                if found.regions is None:  # nothing to compare (the bench's bare floor)
                    yield f"id: {seen}\nevent: live\ndata: \n\n"
                    continue
                # Only the table's next version goes as what changed: the page may show a newer
                # whole fragment (its own tap's answer) than this stream's last message, and a
                # region changed there and back since would stay stale.
                yield table.message(seen, kind, found.regions, sent if found.previous == before else None)
                sent = found.held
        finally:
            self.close(key)


def notifier():
    """This app's notifier (one per app, so two apps in one process never mix tables)."""
    return current_app.extensions.setdefault("live_notifier", Notifier())


def kind_of(page, viewer):
    """Which pages see the same fragment: the same page kind for the same role and seat."""
    return (page, viewer and viewer["role"], viewer and viewer["seat"])


def current_fold(table):
    """The kept fold of a table that has streams here, if it is as new as every change this
    process has heard of (its streams bring it up to date on each one): a tap identifies
    its phone with it, with no query. None when this process may not have heard of all:
    no stream of the table here, or the PostgreSQL listener is reconnecting."""
    watched = notifier().watching(table.id)
    if watched is None:
        return None
    if uses_postgres():
        heard = current_app.extensions.get("pg_listener")
        if heard is None or heard[0] != os.getpid() or not heard[1].connected.is_set():
            return None
    return store.kept(table, watched.version)


def known_table(code):
    """(the table's row, its seat tokens) for a tap at a table with streams here, as they
    read them (_Table.who), if no seat or host change came since as far as this process has
    heard: no query. None otherwise, and the tap reads them."""
    watched = notifier().watching_code(store.normalize_code(code))
    version, kept = watched.who if watched is not None else (0, None)
    if kept is None:
        return None
    folded = current_fold(kept[0])
    return None if folded is None or store.who_changed(folded, version) else kept
