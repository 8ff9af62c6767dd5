"""A page's Server-Sent Events stream, and a tap's answer shared with the streams. A stream
that opens (or reopens: the browser's Last-Event-ID) behind the table's version sends the
whole fragment first, so a page that slept misses nothing.
"""

import os
import zlib

from flask import Blueprint, Response, current_app, g, request, stream_with_context

from companion import access
from companion.access import door, holders
from companion.db import close_db, get_db, uses_postgres
from companion.live import regions
from companion.live.listen import listener
from companion.live.notify import OVERFLOW_RETRY_MS, kind_of, notifier
from companion.live.waitress_loop import OffLoop, peeks
from companion.tables import store
from companion.web import game_routes, pages

bp = Blueprint("live", __name__)


def answer(table, page):
    """A tap's answer: the asker's fragment at the newest version, shared with this kind's
    streams here (whichever renders it first, the other reuses it)."""
    page, viewer = pages.live_viewer(table, page)
    folded = store.kept(table, 1)  # the tap's own write is in the cache: its version at least
    render = lambda: pages.live_parts(table, page, viewer, folded)  # noqa: E731
    watched = notifier().watching(table.id)
    if watched is None:
        return render().html
    return watched.parts(lambda version, _: (kind_of(page, viewer), render))[1].html


def _peer_gone(environ, off):
    """How a stream learns that its phone has gone: under waitress, its connection says so
    (waitress_loop); under gunicorn, a peek at the socket, so no stream outlives its phone long."""
    if off is not None:
        return off.gone
    gone = environ.get("waitress.client_disconnected")  # a waitress waitress_loop does not know
    if gone is not None:
        return gone
    sock = environ.get("gunicorn.socket")
    raw = getattr(sock, "_sock", sock)  # gevent's socket wraps the real one
    if raw is None or not hasattr(raw, "recv"):
        return None
    return peeks(raw)


def streams_allowed(threads):
    """How many live streams a server with this many threads may hold: the rest stay free
    for taps and page loads, however many phones are open."""
    return threads - max(4, threads // 10)


def _number(text):
    try:
        return max(0, int(text or 0))
    except ValueError:
        return 0


def who_reader(table):
    """How a table's streams read its row and seat tokens (_Table.who_at)."""
    return lambda: holders.table_and_tokens(get_db(), table.code)


def looker(table, asked, token, gate=None):
    """look(version, watched=None) for a stream of page `asked` opened with this cookie
    token: who its asker is now (a seat removed, a host handed over: the table's row, its
    seat tokens and the fold say), and how to render what they may see at `version`. A
    stream shares the row and tokens with its table's others here (`watched`, the _Table)
    and the fold with the whole process: no query of its own on a change."""

    read = who_reader(table)

    def look(version, watched=None):
        g.db_gate = gate  # a connection, if this look needs one, waits its turn (until done())
        folded = store.known(table, version) or store.load(get_db(), table)
        row, tokens = watched.who_at(folded, read) if watched else read()
        fresh = row or table
        g.viewers = {fresh.id: holders.identify(None, fresh, token, folded, tokens)}
        page, viewer = pages.live_viewer(fresh, asked)
        return kind_of(page, viewer), lambda: pages.live_parts(fresh, page, viewer, folded)

    return look


# bench/live_latency.py --bare starts the server with this set: each stream then sends only
# the version, with no look and no render, the transport's own floor in the same sitting.
BARE = "COMPANION_BENCH_BARE"
# bench/live_latency.py --on-loop: streams stay in waitress's loop, to measure what leaving it saves.
ON_LOOP = "COMPANION_BENCH_ON_LOOP"


def bare_look(version, watched=None):
    return ("bare",), lambda: pages.Rendered(version, None, "")


@bp.get("/t/<code>/events")
def events(code):
    table = g.table
    folded = store.load(get_db(), table)
    version = folded.version
    viewer = door.viewer()  # whose phone this is: a stand-in waits for it to go
    if viewer is not None and viewer["seat"] is not None:
        game_routes.request_hook(table, viewer, "page")
    asked = request.args.get("page", "screen")
    # The version the page shows: written into its address, or the id of the last message
    # the browser had when it reconnects.
    known = max(_number(request.args.get("v")), _number(request.headers.get("Last-Event-ID")))
    token = request.cookies.get(access.COOKIE)

    live = notifier()
    look = bare_look if os.environ.get(BARE) else looker(table, asked, token, live.querying)
    close_db()
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if uses_postgres():
        listener()
    off = None if os.environ.get(ON_LOOP) else OffLoop.of(request.environ)
    key = live.open(
        table.id,
        version,
        _peer_gone(request.environ, off),
        current_app.config.get("STREAM_LIMIT"),
        seat=viewer and viewer["seat"],
        code=table.code,
    )
    if key is None:
        # Every thread a stream may hold is holding one. A stream that waited for a thread
        # would queue every tap behind it, so this page gets what it is missing now and comes
        # back in a few seconds (the browser reconnects by itself), until a place frees.
        try:
            found = look(version)[1]() if version > known else None
            first = (
                regions.message(version, found.regions, [("morph", found.regions.root, ())])
                if found and found.regions
                else ""
            )
        finally:
            close_db()
        return Response(
            compressed([f"retry: {OVERFLOW_RETRY_MS}\n\n{first}"], headers),
            mimetype="text/event-stream",
            headers=headers,
        )
    # Who sits where, read for the table's streams and taps here (known_table) now, while
    # nothing is waiting on it, rather than by the first change (once per table here).
    try:
        live.watching(table.id).who_at(folded, who_reader(table))
    finally:
        close_db()
    chunks = compressed(live.stream(key, current_app.config["HEARTBEAT_SECONDS"], look, known, close_db), headers)
    response = Response(
        stream_with_context(off.wrap(chunks) if off else chunks), mimetype="text/event-stream", headers=headers
    )
    response.call_on_close(lambda: live.close(key))  # also when the stream never started
    return response


# A stream's deflate window and memory level, chosen with bench/render_cost.py. A whole 32 KB
# window: a message finds the text of the last few (a seat's line flashes on one change and
# off the next), where a smaller one costs several times the bytes on the wire; memory level
# 2 costs no more bytes than 5. About 130 KB of zlib state per open stream (docs/hosting.md).
WINDOW_BITS, MEMORY_LEVEL = 15, 2


def compressed(messages, headers):
    """The messages gzip-compressed as one stream, each flushed whole (the browser reads it
    at once), if the browser accepts gzip; else as they are. Sets Content-Encoding."""
    if "gzip" not in request.headers.get("Accept-Encoding", ""):
        return map(str.encode, messages)
    headers["Content-Encoding"] = "gzip"
    headers["Vary"] = "Accept-Encoding"

    def run():
        deflate = zlib.compressobj(6, zlib.DEFLATED, 16 + WINDOW_BITS, MEMORY_LEVEL)
        try:
            for text in messages:
                yield deflate.compress(text.encode()) + deflate.flush(zlib.Z_SYNC_FLUSH)
        finally:
            getattr(messages, "close", lambda: None)()

    return run()


@bp.get("/healthz")
def health():
    """For the host's curiosity and the soak tests: is it up, and how many pages are live."""
    return {"ok": True, "open_streams": notifier().open_streams}
