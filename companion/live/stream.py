"""A page's Server-Sent Events stream, gzip-compressed. A stream that opens (or reopens:
Last-Event-ID) behind the table's version sends the whole fragment first, so a page that
slept misses nothing."""

import os
import zlib

from flask import Blueprint, Response, current_app, g, request, stream_with_context

from companion import access
from companion.access import door
from companion.db import close_db, get_db, uses_postgres
from companion.live.notify import OVERFLOW_RETRY_MS, listener, message, notifier
from companion.live.waitress_loop import OffLoop, peeks
from companion.tables import store
from companion.web import game_routes, pages

bp = Blueprint("live", __name__)


def _peer_gone(environ, off):
    """gone() for a stream's phone: under waitress its connection says so; under gunicorn, a
    peek at the socket."""
    if off is not None:
        return off.gone
    sock = environ.get("gunicorn.socket")
    raw = getattr(sock, "_sock", sock)  # gevent's socket wraps the real one
    # (a waitress whose insides OffLoop does not know still says when its client has gone)
    return environ.get("waitress.client_disconnected") or (peeks(raw) if hasattr(raw, "recv") else None)


# bench/live_latency.py: --bare sends only the version (no look, no render: the transport's
# floor); --on-loop keeps streams in waitress's loop, to measure what leaving it saves.
BARE = "COMPANION_BENCH_BARE"
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
    # The version the page shows: in its address, or its last message's id on a reconnect.
    known = max(0, request.args.get("v", 0, type=int), request.headers.get("Last-Event-ID", 0, type=int))
    token = request.cookies.get(access.COOKIE)

    live = notifier()
    look = bare_look if os.environ.get(BARE) else pages.looker(table, asked, token, live.querying)
    close_db()
    headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if uses_postgres():
        listener()
    off = None if os.environ.get(ON_LOOP) else OffLoop.of(request.environ)
    gone, limit = _peer_gone(request.environ, off), current_app.config.get("STREAM_LIMIT")
    key = live.open(table.id, version, gone, limit, seat=viewer and viewer["seat"], code=table.code)
    if key is None:
        # Every thread a stream may hold is taken, and a waiting stream would queue the taps:
        # the page gets what it is missing now and its browser comes back in a few seconds.
        try:
            found = look(version)[1]() if version > known else None
            first = message(found, None) if found else ""
        finally:
            close_db()
        return Response(compressed([f"retry: {OVERFLOW_RETRY_MS}\n\n{first}"], headers), headers=headers)
    # Who sits where, read now for the table's streams and taps, not by the first change.
    try:
        live.watching(table.id).who_at(folded, pages.who_reader(table))
    finally:
        close_db()
    chunks = compressed(live.stream(key, current_app.config["HEARTBEAT_SECONDS"], look, known, close_db), headers)
    response = Response(stream_with_context(off.wrap(chunks) if off else chunks), headers=headers)
    response.call_on_close(lambda: live.close(key))  # also when the stream never started
    return response


# A stream's deflate window and memory level, chosen with bench/render_cost.py's messages: a
# whole 32 KB window finds the text of the last few messages (a smaller one cost several times
# the bytes); memory level 5 compresses a message in a third less time than 2 (a larger hash
# table, shorter chains to search), for the same bytes. About 144 KB per stream (docs/hosting.md).
WINDOW_BITS, MEMORY_LEVEL = 15, 5


def compressed(messages, headers):
    """The messages as one gzip stream, each flushed whole, if the browser accepts gzip."""
    if "gzip" not in request.headers.get("Accept-Encoding", ""):
        return map(str.encode, messages)
    headers.update({"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})

    def run():
        deflate = zlib.compressobj(6, zlib.DEFLATED, 16 + WINDOW_BITS, MEMORY_LEVEL)
        try:
            for text in messages:
                yield deflate.compress(text.encode()) + deflate.flush(zlib.Z_SYNC_FLUSH)
        finally:
            getattr(messages, "close", lambda: None)()

    return run()
