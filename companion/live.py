"""Live updates: a per-table version that wakes every open page through Server-Sent Events.

A stream only says "table changed, now at version N"; each page then re-fetches its own
fragment, so what a viewer may see is decided in one place (the game's view_for) and never
travels in the stream. A stream sends the current version as soon as it opens, so a page
that reconnects after sleeping re-fetches at once and misses nothing.
"""

import threading
import time

from flask import Blueprint, Response, abort, current_app, request

from . import store
from .db import close_db, get_db

bp = Blueprint("live", __name__)


class Notifier:
    """One condition per table; publishing wakes only that table's streams."""

    def __init__(self):
        self._lock = threading.Lock()
        self._tables = {}  # table id -> [condition, version, open stream count]
        self.open_streams = 0

    def _slot(self, table_id):
        with self._lock:
            slot = self._tables.get(table_id)
            if slot is None:
                slot = self._tables[table_id] = [threading.Condition(), 0, 0]
            return slot

    def publish(self, table_id, version):
        slot = self._slot(table_id)
        with slot[0]:
            slot[1] = max(slot[1], version)
            slot[0].notify_all()

    def stream(self, table_id, version, heartbeat, gone=lambda: False, poll=2.0):
        """Yield SSE messages for one open page until the client goes away.

        `gone` (waitress's client_disconnected) is checked every `poll` seconds, so the
        thread of a phone that vanished is freed within seconds, not at the next heartbeat.
        """
        slot = self._slot(table_id)
        with self._lock:
            slot[2] += 1
            self.open_streams += 1
        try:
            with slot[0]:
                slot[1] = max(slot[1], version)
            seen = None
            yield "retry: 2000\n\n"
            while True:
                quiet_until = time.monotonic() + heartbeat
                with slot[0]:
                    while slot[1] == seen and time.monotonic() < quiet_until:
                        slot[0].wait(min(poll, max(0.0, quiet_until - time.monotonic())))
                        if gone():
                            return
                    current = slot[1]
                if current != seen:
                    seen = current
                    yield f"event: changed\ndata: {current}\n\n"
                else:
                    # A comment line: keeps proxies from closing an idle stream and lets the
                    # server notice (by a failed write) a phone that vanished.
                    yield f": {int(time.time())}\n\n"
        finally:
            with self._lock:
                slot[2] -= 1
                self.open_streams -= 1
                if slot[2] == 0:
                    self._tables.pop(table_id, None)


notifier = Notifier()


@bp.get("/t/<code>/events")
def events(code):
    db = get_db()
    table = store.find_table(db, code)
    if table is None:
        abort(404)
    version = store.load(db, table).version
    close_db()  # a stream may stay open for hours: it must not hold a database connection
    stream = notifier.stream(table.id, version, current_app.config["HEARTBEAT_SECONDS"],
                             request.environ.get("waitress.client_disconnected", lambda: False))
    return Response(stream, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/healthz")
def health():
    """For the host's curiosity and the soak tests: is it up, and how many pages are live."""
    return {"ok": True, "open_streams": notifier.open_streams}
