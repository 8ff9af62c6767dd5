"""Rendering a table's screens: the whole page, and its live fragment as a stream sends it."""

from flask import current_app, g, render_template, url_for
from htmx_flask import request  # flask's request, with .htmx: true only for htmx's own requests

from companion import access, games
from companion.access import holders
from companion.db import get_db
from companion.live import regions
from companion.tables import store


def render_page(template, table, viewer, page, status=200, **extra):
    """A whole screen, or only its live fragment when htmx asks for it."""
    if request.htmx and request.htmx.target in ("live", "live-body"):
        template = "tables/_live.html"
    return render_template(
        template, **context(table, viewer, page, extra, fragment=template == "tables/_live.html")
    ), status


def context(table, viewer, page, extra=None, fragment=True, folded=None):
    folded = folded or store.load(get_db(), table)
    module = table.module
    return dict(
        table=table,
        viewer=viewer,
        page=page,
        module=module,
        folded=folded,
        game_title=games.TABLE_GAMES.get(table.game, module.TITLE),
        view=public_view(table, folded) if viewer is None else module.view_for(folded.state, viewer),
        log=folded.log[:-16:-1],
        version=folded.version,  # the newest 15, newest first
        # A fragment's forms take the token from the page's hx-headers (base.html).
        csrf=None if fragment else access.csrf_token(table),
        act_base=address("tables.act", code=table.code, kind="-")[:-1],
        undo_base=address("tables.undo", code=table.code, event_id=0)[:-1],  # the log's Undo
        live_url=address("tables.live", code=table.code, page=page),
        **(extra or {}),
    )


_addresses = {}


def address(endpoint, **values):
    """url_for, kept: every render of a live fragment asks for the same few addresses, for
    every phone on every change."""
    key = (request.script_root, endpoint, *values.items())
    found = _addresses.get(key)
    if found is None:
        if len(_addresses) > 10000:
            _addresses.clear()
        found = _addresses[key] = url_for(endpoint, **values)
    return found


SCREEN = {"role": "screen", "seat": None}
_public = {}  # (table id, code) -> (version, the table screen's view)


def public_view(table, folded):
    """What the table screen sees of this state, worked out once per version."""
    key = (table.id, table.code)  # as the store's cache: ids repeat across test databases
    kept = _public.get(key)
    if kept is None or kept[0] != folded.version:
        if len(_public) > 4096:
            _public.clear()
        kept = _public[key] = (folded.version, table.module.view_for(folded.state, SCREEN))
    return kept[1]


_seen = {}  # (table id, code) -> regions.Seen: its fragments' regions, split once


def clear():
    _public.clear()
    _seen.clear()


def live_viewer(table, page):
    """Which fragment this request may have: (page, viewer). A page kind the asker may not
    see falls back to the table screen's; a removed seat's phone gets the "removed" notice."""
    if page == "tablet":
        # The tablet (companion.tablet): the host's device or one the host let in, never a seat's
        # view; each kind of device is a viewer kind of its own, so a revoked one's
        # render is never shared with the host's.
        device = access.tablet_viewer(table)
        return ("tablet", device) if device else ("screen", None)
    viewer = access.current_viewer(table) if page != "screen" else None
    if page == "host" and (viewer is None or viewer["role"] != "host"):
        return "screen", None
    if page in ("player", "removed") and viewer is None and access.was_removed(table):
        return "removed", None  # the phone's seat was taken off (the host may still undo that)
    if page in ("player", "removed") and (viewer is None or viewer["seat"] is None):
        return "screen", None
    if page not in ("host", "player"):
        return "screen", None
    return page, viewer


class Rendered:
    """A fragment as a tap's answer (`html`) and a stream (its `regions`, and what a page holds
    once sent them: `held`) use it; `previous` is the table's version before this one. `said`
    keeps the messages made from it (live.notify.message)."""

    def __init__(self, version, found, html, previous=0):
        self.version, self.regions, self.html, self.previous = version, found, html, previous
        self.said = {}

    @property
    def held(self):
        return self.regions.found if self.regions is not None else None


def live_parts(table, page, viewer, folded=None):
    """The live fragment of this page kind for this viewer (as live_viewer resolved them)."""
    values = context(table, viewer, page, folded=folded)
    log = values["folded"].log  # every event has its line: the one before is the version before
    previous = log[-2]["id"] if len(log) > 1 else 0
    html = render_template("tables/_live.html", **values)
    key = (table.id, table.code)
    seen = _seen.get(key)
    if seen is None:
        if len(_seen) > 4096:
            _seen.clear()
        seen = _seen[key] = regions.Seen()
    found = regions.split(html, seen.at(values["version"]))
    # under test, what was kept is checked
    if current_app.testing and regions.shown(found) != regions.shown(regions.split(html)):
        raise AssertionError("a region taken from an earlier split differs from this fragment's")
    return Rendered(values["version"], found, html, previous)


def kind_of(page, viewer):
    """Which pages see the same fragment: the same page kind for the same role and seat."""
    return (page, viewer and viewer["role"], viewer and viewer["seat"])


def who_reader(table):
    """How a table's streams read its row and seat tokens (_Table.who_at)."""
    return lambda: holders.table_and_tokens(get_db(), table.code)


def looker(table, asked, token, gate=None):
    """look(version, watched=None) for a stream of page `asked` opened with this cookie token:
    who its asker is now (a seat removed, a host handed over), and how to render what they
    may see at `version`. The row and tokens are shared with the table's other streams here
    (`watched`, the _Table) and the fold with the process: no query of its own on a change."""

    read = who_reader(table)

    def look(version, watched=None):
        g.db_gate = gate  # a connection, if this look needs one, waits its turn (until done())
        folded = store.known(table, version) or store.load(get_db(), table)
        row, tokens = watched.who_at(folded, read) if watched else read()
        fresh = row or table
        g.viewers = {fresh.id: holders.identify(None, fresh, token, folded, tokens)}
        page, viewer = live_viewer(fresh, asked)
        return kind_of(page, viewer), lambda: live_parts(fresh, page, viewer, folded)

    return look
