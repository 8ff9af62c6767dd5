"""The one door into a table. Every /t/<code>/… request, its live stream included, has its
table loaded here once, onto `g.table`, before its view runs (as flaskr loads `g.user`);
the viewer is worked out once, on first asking, by `viewer()`, and every right is asked of
the same few functions: `require()` for a seat or the host, `tablet()` for the shared
screen, `require_open()` for a change at a table the night may have left. A game's action
rights are its WHO table (games.base), asked by store.act and store.undo for every door.

A tap at a table with streams at this process takes the table's row, seat tokens and fold
from what they keep (_kept_table, _kept_fold): no query for either.
"""

from flask import abort, g, request

from companion import access
from companion.db import get_db, uses_postgres
from companion.live.notify import hearing, notifier
from companion.tables import store


def init_app(app):
    app.before_request(open_door)


def open_door():
    """Load the table an address names (404, counted as a wrong code, for none)."""
    code = (request.view_args or {}).get("code")
    if code is None or not request.path.startswith("/t/"):
        return
    known = _kept_table(code) if request.method == "POST" else None
    g.table = access.table_or_404(code, known)


def _kept_fold(table):
    """The fold kept by a table's streams here, if this process has heard of every change (on
    PostgreSQL, while its LISTEN is up); else None."""
    watched = notifier().watching(table.id)
    if watched is None or (uses_postgres() and not hearing()):
        return None
    return store.kept(table, watched.version)


def _kept_table(code):
    """(the table's row, its seat tokens) as the table's streams here read them, if no seat or
    host change came since; else None."""
    watched = notifier().watching(code=store.normalize_code(code))
    version, kept = watched.who if watched is not None else (0, None)
    if kept is None:
        return None
    folded = _kept_fold(kept[0])
    return None if folded is None or store.who_changed(folded, version) else kept


def folded():
    """The table's fold for this request: kept by its streams for a tap, else loaded once."""
    if "folded" not in g:
        kept = _kept_fold(g.table) if request.method == "POST" else None
        g.folded = kept or store.load(get_db(), g.table)
    return g.folded


def viewer():
    """Who is asking (None for someone with no seat): once per request."""
    return access.current_viewer(g.table, folded() if request.method == "POST" else None)


def require(host=False):
    """The viewer, or 403: someone with no seat, or not the host (or a co-host) when `host`."""
    found = viewer()
    if found is None:
        abort(403, "You have no seat at this table. Join it first.")
    if host and found["role"] != "host":
        abort(403, "Only the host can do that.")
    return found


def require_host_device():
    """The host's own device (a co-host is not): handing the role over, for one."""
    require(host=True)
    if not access.is_host_device(g.table):
        abort(403, "Only the host's own device can do that (a co-host cannot).")


def tablet():
    """The device showing the shared tablet (access.HOST_TABLET or TABLET), or 403."""
    device = access.tablet_viewer(g.table)
    if device is None:
        abort(
            403,
            "This device may not open the tablet. The host opens it from the host page "
            "on their own device, or lets this device in from there.",
        )
    return device


def require_open():
    access.require_open(g.table)
