"""The live push across processes on PostgreSQL: this process's LISTEN connection, so a change
committed at any process wakes the pages here, and the beat that tells the other processes
which seats have a page open here (tables.presence)."""

import os
import threading

from flask import current_app

from companion.db import ChangeListener
from companion.live.notify import notifier
from companion.tables import presence

_listener_lock = threading.Lock()


def listener(app=None):
    """This process's one LISTEN connection (started with its first stream); its presence
    Beat starts with it."""
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
