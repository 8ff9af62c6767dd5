"""Rendering a table's screens: the whole page, its live fragment, and the fragment's parts
that a live stream carries.

A fragment is `tables/_live.html` for one viewer; it holds a few parts (the board, the host's
seat list, the log), each an element with an id between <!--part:NAME--> and <!--/part-->.
A stream sends its page only the parts that changed since its last message, as out-of-band
swaps that the page morphs in (static/app.js). Inside a part, a template may mark pieces
that can go alone (a seat's line: one element whose first attribute is its id, between
<!--o:ID--> and <!--/o-->): when nothing else in the part changed, only the changed pieces go.
"""

from typing import NamedTuple

from flask import render_template, url_for
from htmx_flask import request  # flask's request, with .htmx: true only for htmx's own requests

from . import access, games, parts, store
from .db import get_db

OPEN, CLOSE = "<!--part:", "<!--/part-->"
PIECE, PIECE_END = "<!--o:", "<!--/o-->"


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


class Rendered(NamedTuple):
    """A fragment as a stream sends it: `parts` is {part name: (html, sse lines, pieces)}, each
    part ready to go as an out-of-band morph, its lines already in SSE's data form; `pieces`
    is (the part with each piece's place marked, {id: piece}), or None for a part without
    pieces. `previous` is the table's version before this one (0: none)."""
    version: int
    parts: dict
    html: str
    previous: int = 0


def live_parts(table, page, viewer, folded=None):
    """The fragment of this page kind for this viewer (as live_viewer resolved them), as
    Rendered: what a stream sends, and what a tap's answer is."""
    values = context(table, viewer, page, folded=folded)
    html = render_template("tables/_live.html", **values)
    found = {}
    for piece in html.split(OPEN)[1:]:  # each part: its name, then its element with an id
        name, _, rest = piece.partition("-->")
        swap = out_of_band(rest[:rest.index(CLOSE)].strip())
        found[name] = (swap, sse_lines(swap), pieces_of(swap))
    log = values["folded"].log  # every event has its line: the one before is the version before
    return Rendered(values["version"], found, html, log[-2]["id"] if len(log) > 1 else 0)


def out_of_band(element):
    """An element whose first attribute is its id, marked to be morphed into its place."""
    start, _, tail = element.partition('"')
    ident, _, tail = tail.partition('"')
    return f'{start}"{ident}" hx-swap-oob="morph"{tail}'


def sse_lines(html):
    return "data: " + html.replace("\n", "\ndata: ") + "\n"


def pieces_of(part):
    """(the part with each piece left as its marker only, {id: piece}), or None."""
    if PIECE not in part:
        return None
    head, *marked = part.split(PIECE)
    frame, pieces = [head], {}
    for text in marked:
        ident, _, rest = text.partition("-->")
        body, _, after = rest.partition(PIECE_END)
        pieces[ident] = body
        frame += (ident, after)
    return "\n".join(frame), pieces
