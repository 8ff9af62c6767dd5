"""The live push's transport: a per-table version that wakes every open page's stream, and
the SSE message a stream sends (live.py is the web end, pg_live.py PostgreSQL's part).

On a new version each open stream asks for its page's parts (pages.live_parts: rendered
through the game's view_for for that viewer, so a stream carries only what its viewer may
see). They are rendered once per version and kind of viewer (the screen, the host, a seat),
however many pages of that kind are open here, and the public parts inside them once per
version for all (parts.py). Each stream then sends only the parts that differ from its last
message, with the version as the message's id, so a page drops a copy older than what it
shows.
"""

import os
import threading
import time

from flask import current_app

from . import pages, store
from .db import uses_postgres

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
        self.who = (0, None)     # (version, (table row, seat tokens)) read once that version was known
        self.code = None
        self.said = (0, [])      # (version, [(parts, parts last sent, message)]) made at it
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

    def message(self, version, parts, sent):
        """message(), made once for every stream of a kind that last sent the same parts
        (the table screens, a seat's two pages): they share both, so the pair is the key."""
        with self.saying:
            made_at, said = self.said
            if made_at != version:
                said = []
                self.said = (version, said)
            for found, before, text in said:
                if found is parts and before is sent:
                    return text
        text = message(version, parts, sent)
        with self.saying:
            if self.said[0] == version:
                self.said[1].append((parts, sent, text))
        return text

    def parts(self, look):
        """The parts of the asker's kind of viewer at the newest version, rendered by the
        first of that kind to ask (a stream, or the tap's answer) and shared by the others.
        look(version, this) -> (kind, render): who is asking now, and how to render what
        they see. The look is made under the lock: a stream that took a turn for a
        connection there (Notifier.querying) never holds it while it waits for the lock."""
        with self.rendering:
            kind, render = look(self.version, self)
            version, done = self.rendered
            if version >= self.version and kind in done:
                return done[kind]
            found = render()
            if found[0] > version:
                self.rendered = (found[0], {})
            if found[0] == self.rendered[0]:
                self.rendered[1][kind] = found
            return found


class Notifier:
    """One condition per table: publishing wakes only that table's streams.

    Streams never poll. A single reaper thread checks, once a second, whether the phone of
    any open stream has gone (waitress's client_disconnected) and wakes just that table, so a
    vanished phone frees its server thread within a second while idle streams stay asleep.
    """

    def __init__(self, reap_every=1.0):
        self._lock = threading.Lock()
        self._tables = {}   # table id -> _Table
        self._codes = {}    # table code -> table id, for the tables with a stream here
        self._open = {}     # stream key -> (table, gone)
        self._gone = set()  # stream keys whose phone has gone
        self._reap_every = reap_every
        self._reaper = None
        self._seat_open = {}   # (table id, seat) -> open streams of that seat's phone
        self._seat_left = {}   # (table id, seat) -> when its last open page went away
        self._started = time.monotonic()
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

    def seen_seats(self, since):
        """{(table id, seat): wall-clock time it was last seen} for every seat with a page
        open here now, and every seat whose last page here closed after `since` (wall clock)."""
        now_wall, now = time.time(), time.monotonic()
        with self._lock:
            seen = {key: now_wall for key, count in self._seat_open.items() if count}
            for key, left in self._seat_left.items():
                at = now_wall - (now - left)
                if key not in seen and at > since:
                    seen[key] = at
        return seen

    def left_seconds(self, table_id, seat):
        """How long ago the seat's last page here closed (None: none ever closed here)."""
        with self._lock:
            left = self._seat_left.get((table_id, seat))
        return None if left is None else time.monotonic() - left

    def away_seconds(self, table_id, seat):
        """How long a seat's phone has had no open page here (0 while one is open); a seat
        not seen since the server started counts from the start."""
        with self._lock:
            if self._seat_open.get((table_id, seat)):
                return 0.0
            return time.monotonic() - self._seat_left.get((table_id, seat), self._started)

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
            if code is not None:
                self._codes[code] = table_id
                table.code = code
            table.streams += 1
            self._open[key] = (table_id, table, gone or (lambda: False), seat)
            if seat is not None:
                self._seat_open[(table_id, seat)] = self._seat_open.get((table_id, seat), 0) + 1
            if gone and self._reaper is None:
                self._reaper = threading.Thread(target=self._reap, name="sse-reaper", daemon=True)
                self._reaper.start()
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
            if seat is not None:
                left = self._seat_open.pop((table_id, seat), 1) - 1
                if left:
                    self._seat_open[(table_id, seat)] = left
                self._seat_left[(table_id, seat)] = time.monotonic()
            table.streams -= 1
            if table.streams == 0:
                self._tables.pop(table_id, None)
                self._codes.pop(table.code, None)

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
        """The parts a page holds when it shows the table's newest version (loaded at it, or
        back with it as its last message's id): rendered now, shared with the other pages of
        its kind, so the next change sends what changed rather than every part. None if the
        table moved on meanwhile (the page is behind: it gets every part) or the render failed."""
        try:
            try:
                version, found = table.parts(look)[:2]
            finally:
                done()
        except Exception:  # the database is away, say: the next change sends every part
            return None
        return found if version == known else None

    def stream(self, key, heartbeat, look=None, known=0, done=lambda: None):
        """Yield SSE messages for one opened stream until its phone goes away: on each newer
        version, the parts of the asker's fragment (see _Table.parts for `look`) that differ
        from this stream's last message. `known` is the version the page already shows; a
        page behind gets every part first. done() follows each look (the database connection
        goes back: a stream holds none between changes)."""
        table = self._open[key][1]
        try:
            seen, sent = known, None  # sent: the parts as last sent (None: the page's are unknown)
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
                if current > seen:
                    before = seen
                    try:
                        try:
                            seen, found, _, previous = table.parts(look)
                        finally:
                            done()
                    except Exception as error:  # the database is away, say: this stream ends,
                        # and the browser reopens it in 2 s (retry) and gets the whole fragment
                        current_app.logger.warning("a live stream ended: %s", error)
                        return
                    # Only the table's next version is sent as what changed: a page may show a
                    # newer whole fragment (its own tap's answer) than this stream's last
                    # message, and a part that changed there and back since would stay stale.
                    yield table.message(seen, found, sent if previous == before else None)
                    sent = found
                else:
                    # A comment line keeps proxies from closing an idle stream.
                    yield f": {int(time.time())}\n\n"
        finally:
            self.close(key)


def message(version, parts, sent=None):
    """One SSE message: the parts that differ from `sent` (all of them without it); of a part
    whose marked pieces alone changed (pages.pieces_of), only those pieces: each changed one
    morphed in place (or, if only pieces inside it changed, those), a list's new lines put in
    at its top (or end) and its old ones deleted. The swaps go as one data line (the page
    parses them as one html text, so a line apiece only cost each its "data: "), unless one
    holds a <pre> or <textarea>, whose line breaks are its own."""
    out = []
    for name, (html, pieces) in parts.items():
        old = sent.get(name) if sent else None
        if old is not None and old[0] == html:
            continue
        changed = _part_changes(pieces, old[1]) if pieces and old is not None and old[1] else None
        out.append(pages.sse_lines(html) if changed is None else "".join(changed))
    data = "".join(out) or "data: \n"
    if "<pre" not in data and "<textarea" not in data:
        data = data.replace("\ndata: ", "")
    return f"id: {version}\nevent: live\n{data}\n"


_said = {}  # (a part as split, the same part as last sent) -> its swaps
SAID_KEPT = 128


def _part_changes(new, old):
    """_changes, worked out once for every stream that sends the same part after the same one
    (a part many kinds render alike is split once: the log, where every phone may use the
    same Undo buttons). Keyed by the two Pieces themselves, held with the answer so that
    their ids stay theirs."""
    key = (id(new), id(old))
    found = _said.get(key)
    if found is not None and found[0] is new and found[1] is old:
        return found[2]
    changed = _changes(new, old)
    if len(_said) >= SAID_KEPT:
        _said.clear()
    _said[key] = (new, old, changed)
    return changed


_lines = {}  # (what a swap is made of) -> its SSE line: the same piece goes to every phone
LINES_KEPT = 1024


def _line(make, *key):
    """An SSE line for one swap, made once for all the streams that send it: a changed
    seat line or log line goes to every phone of the table (their pieces are the same
    strings, split once), and each would otherwise build and clean the same line."""
    found = _lines.get((make, key))
    if found is None:
        if len(_lines) >= LINES_KEPT:
            _lines.clear()
        found = _lines[(make, key)] = pages.sse_lines(make(*key))
    return found


def _morph(body, before):
    """A piece morphed into the element as the page has it (its id may have changed)."""
    return pages.out_of_band(body.strip(), pages.element_id(before.strip()))


def _replace(body):
    return pages.out_of_band(body.strip(), how="outerHTML")


def _attrs(tag):
    return pages.out_of_band(tag + f"</{pages.tag_name(tag)}>", how="attrs")


def _insert(after, *bodies):
    return f'<div hx-swap-oob="afterend:#{after}">' + "".join(body.strip() for body in bodies) + "</div>"


def _delete(ident):
    return f'<i id="{ident}" hx-swap-oob="delete"></i>'


def _changes(new, old):
    """The swaps (SSE lines) that turn `old` (a pages.Piece as last sent) into `new`, or None when they
    cannot say it (its own frame changed, a list's lines were reordered or new ones came in
    the middle): then `new` goes whole. New lines at a list's top go in after its first
    element, a hidden one with the id LIST-top; new lines at its end go in after its last
    line kept (each "afterend", so a swap never goes into an element a morph covers)."""
    out, added, lines = [], set(), set()
    if not pages.same_frame(new.frame, old.frame):
        # Its own tag alone changed (a phone's block says whose turn it is in an attribute):
        # the tag goes, with what changed inside; anything else in its frame: it goes whole.
        tag, rest = pages.start_tag(new.frame)
        old_tag, old_rest = pages.start_tag(old.frame)
        if (not tag or pages.element_id(tag) != pages.element_id(old_tag)
                or not pages.same_frame(rest, old_rest)):
            return None
        out.append(_line(_attrs, tag))
    for where, ids in new.lists.items():
        was = old.lists.get(where, ())
        lines.update(ids)
        kept, now = set(was), set(ids)
        if [i for i in ids if i in kept] != [i for i in was if i in now]:
            return None
        fresh = [i for i in ids if i not in kept]
        if fresh:
            if ids[:len(fresh)] == fresh:  # at the top (a log's new lines)
                after = f"{where}-top"
            elif ids[-len(fresh):] == fresh:  # at the end (a card drawn into a hand)
                after = ids[-len(fresh) - 1]
            else:
                return None
            out.append(_line(_insert, after, *(new.pieces[i].body for i in fresh)))
            added.update(fresh)
        out += [_line(_delete, i) for i in was if i not in now]
    for ident, piece in new.pieces.items():
        before = old.pieces.get(ident)
        if ident in added or before is None or before.body == piece.body:
            continue
        inner = _changes(piece, before) if piece.pieces or piece.lists else None
        if inner is None and ident in lines:  # a line: replaced whole
            inner = [_line(_replace, piece.body)]
        elif inner is None:  # morphed into the element as the page has it (its id may have changed)
            inner = [_line(_morph, piece.body, before.body)]
        out += inner
    return out


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
