"""Rendering a table's screens: the whole page, its live fragment, and the fragment's parts
that a live stream carries.

A fragment is `tables/_live.html` for one viewer; it holds a few parts (the board, the host's
seat list, the log), each an element with an id between <!--part:NAME--> and <!--/part-->.
A stream sends its page only the parts that changed since its last message, as out-of-band
swaps that the page morphs in (static/app.js).
"""

from flask import render_template, url_for
from htmx_flask import request  # flask's request, with .htmx: true only for htmx's own requests

from . import access, games, parts, store
from .db import get_db

OPEN, CLOSE = "<!--part:", "<!--/part-->"


def render_page(template, table, viewer, page, status=200, **extra):
    """A whole screen, or only its live fragment when htmx asks for it."""
    if request.htmx and request.htmx.target in ("live", "live-body"):
        template = "tables/_live.html"
    return render_template(template, **context(table, viewer, page, extra,
                                               fragment=template == "tables/_live.html")), status


def context(table, viewer, page, extra=None, fragment=True, folded=None):
    folded = folded or store.load(get_db(), table)
    module = table.module
    return dict(
        table=table, viewer=viewer, page=page, module=module, folded=folded,
        game_title=games.TABLE_GAMES.get(table.game, module.TITLE),
        view=parts.public_view(table, folded) if viewer is None
        else module.view_for(folded.state, viewer),
        log=folded.log[:-16:-1], version=folded.version,  # the newest 15, newest first
        # A fragment's forms take the token from the page's hx-headers (see parts.py).
        csrf=None if fragment else access.csrf_token(table),
        act_base=address("tables.act", code=table.code, kind="-")[:-1],
        live_url=address("tables.live", code=table.code, page=page), **(extra or {}))


_addresses = {}


def address(endpoint, **values):
    """url_for, kept: every render of a live fragment asks for the same two addresses, for
    every phone on every change."""
    key = (request.script_root, endpoint, *values.items())
    found = _addresses.get(key)
    if found is None:
        if len(_addresses) > 10000:
            _addresses.clear()
        found = _addresses[key] = url_for(endpoint, **values)
    return found


def live_viewer(table, page):
    """Which fragment this request may have: (page, viewer). A page kind the asker may not
    see falls back to the table screen's; a removed seat's phone gets the "removed" notice."""
    if page == "tablet":
        # The tablet (tablet.py): the host's device or one the host let in, never a seat's
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


def live_parts(table, page, viewer, folded=None):
    """(version, {part name: (html, sse lines)}, fragment) of the fragment of this page kind
    for this viewer (as live_viewer resolved them): what a stream sends, and what a tap's
    answer is. Each part is ready to go as an out-of-band morph, its lines already in SSE's
    data form."""
    values = context(table, viewer, page, folded=folded)
    html = render_template("tables/_live.html", **values)
    found = {}
    for piece in html.split(OPEN)[1:]:  # each part: its name, then its element with an id
        name, _, rest = piece.partition("-->")
        element = rest[:rest.index(CLOSE)].strip()
        start, _, tail = element.partition('"')
        ident, _, tail = tail.partition('"')
        swap = f'{start}"{ident}" hx-swap-oob="morph"{tail}'
        found[name] = (swap, "data: " + swap.replace("\n", "\ndata: ") + "\n")
    return values["version"], found, html
