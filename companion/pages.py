"""Rendering a table's screens: the whole page, its live fragment, and the fragment's parts
that a live stream carries.

A fragment is `tables/_live.html` for one viewer; it holds a few parts (the board, the host's
seat list, the log), each an element with an id between <!--part:NAME--> and <!--/part-->.
A stream sends its page only the parts that changed since its last message, as out-of-band
swaps that the page morphs in (static/app.js). Inside a part, a template may mark pieces
that can go alone (a seat's line: one element whose first attribute is its id, between
<!--o:ID--> and <!--/o-->): when nothing else in the part changed, only the changed pieces go.
A piece may hold pieces (the phone's own block, its hand): if only they changed, only they go.
A list (the log) holds pieces that come and go: new ones go in, old ones are deleted.
"""

import re
import threading
from collections import OrderedDict
from typing import NamedTuple

from flask import render_template, url_for
from htmx_flask import request  # flask's request, with .htmx: true only for htmx's own requests
from markupsafe import Markup

from . import access, games, parts, shared_runs, store
from .db import get_db

OPEN, CLOSE = "<!--part:", "<!--/part-->"
PIECE, PIECE_END = "<!--o:", "<!--/o-->"
LIST, LIST_END = "<!--l:", "<!--/l-->"


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
    """A fragment as a stream sends it: `parts` is {part name: (html, pieces)}, each part's
    html ready to go as an out-of-band morph (put in SSE's data form only if it goes whole:
    most messages send pieces); `pieces` is the part as a Piece (pieces_of), or None for a
    part without pieces. `previous` is the table's version before this one (0: none)."""
    version: int
    parts: dict
    html: str
    previous: int = 0


def live_parts(table, page, viewer, folded=None):
    """The fragment of this page kind for this viewer (as live_viewer resolved them), as
    Rendered: what a stream sends, and what a tap's answer is.

    On a phone or a table screen only the board is the viewer's own: the rest of the
    fragment (its frame, the log with the Undo buttons this viewer may use) is rendered and
    cut once per version for every viewer with the same buttons, and the viewer's board is
    put into it (a seat's stream renders and splits its board alone)."""
    values = context(table, viewer, page, folded=folded)
    log = values["folded"].log  # every event has its line: the one before is the version before
    previous = log[-2]["id"] if len(log) > 1 else 0
    kind = (table.id, table.code, page, viewer and viewer["role"], viewer and viewer["seat"])
    frame = _frame(table, page, viewer, values) if page in SHARED_FRAME else None
    if frame is None:
        html = render_template("tables/_live.html", **values)
        return Rendered(values["version"], _cut(html, kind), html, previous)
    html, found = frame
    board = render_template("tables/_board.html", **values)
    swap = found["board"][0].replace(BOARD_SLOT, board, 1)
    found = dict(found, board=(swap, _pieces_kept(swap, (*kind, "board"))))
    return Rendered(values["version"], found, html.replace(BOARD_SLOT, board, 1), previous)


# The page kinds whose fragment is the same for every viewer but for the board and the Undo
# buttons (the host's holds its seat list, the tablet's its own frame: each one of a kind).
SHARED_FRAME = ("player", "screen")
BOARD_SLOT = "\0board\0"  # where a viewer's board goes in a shared frame (no html holds a NUL)


def _frame(table, page, viewer, values):
    """(the fragment with BOARD_SLOT for its board, its parts cut), kept for the version for
    every viewer of the page kind with the same Undo buttons; None for an older version."""
    kept = parts.kept_for(table, values["version"])
    if kept is None:
        return None
    key = ("frame", page, parts.undo_rights(values["log"], viewer))
    found = kept.get(key)
    if found is None:
        html = render_template("tables/_live.html", board=Markup(BOARD_SLOT), **values)
        found = kept.setdefault(key, (html, _cut(html, (table.id, table.code, page, key[2]), skip="board")))
    return found


def _cut(html, kind, skip=None):
    """A fragment's parts, {name: (its element as an out-of-band swap, pieces_of it)}, each
    cut once; the part named `skip` is not split (a shared frame's board slot)."""
    found = {}
    find, at = html.find, html.find(OPEN)
    while at != -1:  # each part: its name, then its element with an id
        named = html.index("-->", at)
        following = find(OPEN, named)
        ends = html.index(CLOSE, named, len(html) if following == -1 else following)
        name = html[at + len(OPEN):named]
        swap = out_of_band(html[named + 3:ends].strip())
        found[name] = (swap, None if name == skip else _pieces_kept(swap, (*kind, name)))
        at = following
    return found


def out_of_band(element, at=None, how="morph"):
    """An element whose first attribute is its id, marked to be morphed into its place, or
    into the element with the id `at` (a piece whose id changed: a fold that must start
    closed once the points it speaks of have changed); `how` another swap (a list's line)."""
    opens = element.find('"')
    closes = element.find('"', opens + 1) if opens != -1 else -1
    if closes == -1:  # no quoted id to cut at: put together as it always was
        start, _, tail = element.partition('"')
        ident, _, tail = tail.partition('"')
        head = f'{start}"{ident}"'
    else:  # cut once, at the id's end (a fragment's part is 10-20 KB)
        start, ident = element[:opens], element[opens + 1:closes]
        head, tail = element[:closes + 1], element[closes + 1:]
    swap = how if at is None or at == ident else f"{how}:#{at}"
    swapped = f'{head} hx-swap-oob="{swap}"{tail}'
    wrap = _TABLE_PARTS.get(tag_name(start))
    return f"{wrap[0]}{swapped}{wrap[1]}" if wrap else swapped


# A table's row or cell sent alone goes inside a table of its own: a message is parsed as a
# <template>'s content, where a <tr> after any other element is dropped (htmx swaps an
# out-of-band element however deep it sits).
_TABLE_PARTS = {"tr": ("<table><tbody>", "</tbody></table>"),
                "td": ("<table><tbody><tr>", "</tr></tbody></table>"),
                "th": ("<table><tbody><tr>", "</tr></tbody></table>"),
                "tbody": ("<table>", "</table>"), "thead": ("<table>", "</table>"),
                "tfoot": ("<table>", "</table>")}


def start_tag(element):
    """(an element's start tag, the rest), or ("", element) if it does not start with one.
    Attribute values are escaped (a ">" in one is "&gt;"), so the first ">" ends it."""
    if not element.startswith("<"):
        return "", element
    end = element.find(">") + 1
    return (element[:end], element[end:]) if end else ("", element)


def tag_name(start):
    return start[1:].split(None, 1)[0].rstrip(">").lower()


def element_id(element):
    """The id of an element whose first attribute is its id."""
    return element.partition('"')[2].partition('"')[0]


def sse_lines(html):
    """html as an SSE message's data. Each run of white space with a line break in it goes as
    one space, so the html goes as one line: a page shows such a run as one space (no live
    piece holds a <pre> or <textarea>; one that did would go as written), and a template's
    line breaks and blank lines were a tenth of a message, "data: " for each. The marks of
    pieces and lists stay here: the page finds its pieces by their ids. A run the page holds
    once goes by its name (shared_runs.py)."""
    if "<!--run:" in html:
        html = shared_runs.named(html)
    if "<pre" in html or "<textarea" in html:
        return "data: " + html.replace("\n", "\ndata: ") + "\n"
    return "data: " + _LINE_BREAKS.sub(" ", _MARKS.sub("", html)).strip() + "\n"


_LINE_BREAKS = re.compile(r"\s*\n\s*")
_MARKS = re.compile(r"<!--(?:[ol]:[^>]*|/[ol])-->")


class Piece(NamedTuple):
    """A marked element as a stream compares it: its html, its frame (the html with each piece
    inside left as its id, and a list's lines left out; a piece that holds none: its html),
    those pieces {id: Piece}, and each list inside {list id: [its pieces' ids, in order]}."""
    body: str
    frame: str
    pieces: dict
    lists: dict


def pieces_of(part, hint=None):
    """The part as a Piece (its pieces may hold pieces of their own), or None if it marks none.
    A list (`<!--l:ID-->` … `<!--/l-->` inside the element with that id) holds pieces only:
    lines that come and go (the log), so a stream adds and removes them (notifier.message).
    A piece's marker names it for good, its element's id may change (the page's element is
    then replaced); a list's line's marker is its element's id.

    Runs once per version and kind of viewer for each part: one pass from comment to comment.
    `hint` is the same part as last split for that kind (a Piece): a piece found again with
    the same body is that Piece, and its insides are not read again (a change touches a
    few pieces of a hundred)."""
    if PIECE not in part:
        return None
    find, startswith = part.find, part.startswith
    at = find("<!--")
    # each open piece: [marker id, where its body starts, frame, pieces, lists, open list, hint]
    node = top = [None, 0, [part[:at]], {}, {}, None, hint]
    stack = [top]
    while at != -1:
        end = find("-->", at + 4)
        if end == -1:
            return None
        kind, after = part[at + 4:at + 6], end + 3
        if kind == "o:":
            ident = part[at + 6:end]
            if node[5] is None:
                node[2].append("\0" + ident)
            else:
                node[4][node[5]].append(ident)
            known = node[6].pieces.get(ident) if node[6] is not None else None
            if known is not None and startswith(known.body, after) \
                    and startswith(PIECE_END, after + len(known.body)):
                node[3][ident] = known  # as it was: read on from its end's mark
                after += len(known.body) + len(PIECE_END)
                at = find("<!--", after)
                if node[5] is None:
                    node[2].append(part[after:at] if at != -1 else part[after:])
                continue
        # the text up to the next comment (a piece found again above skips its own)
        following = find("<!--", after)
        text = part[after:following] if following != -1 else part[after:]
        if kind == "o:":
            node = [ident, after, [text], {}, {}, None, known]
            stack.append(node)
        elif kind == "/o":
            if len(stack) == 1:
                return None  # a marker out of place: the part goes whole, as it is
            done = stack.pop()
            node = stack[-1]
            body = part[done[1]:at]
            # a piece holding none is compared whole: it needs no frame of its own
            frame = "".join(done[2]) if done[3] or done[4] else body
            node[3][done[0]] = Piece(body, frame, done[3], done[4])
            if node[5] is None:  # what separates a list's lines is no part of any frame
                node[2].append(text)
        elif kind == "l:":
            node[5] = part[at + 6:end]
            node[4][node[5]] = []
            node[2].append(part[at:after])
        elif kind == "/l":
            node[5] = None
            node[2].append(part[at:after] + text)
        elif node[5] is None:  # another comment (a roster mark): part of the frame
            node[2].append(part[at:after] + text)
        at = following
    if len(stack) != 1:
        return None
    return Piece(part, "".join(top[2]), top[3], top[4])


_split = OrderedDict()  # a part's html -> its Piece, for the last few parts split
_split_lock = threading.Lock()
_last = OrderedDict()  # (table, page kind, part) -> its Piece as last split: the next one's hint
SPLIT_KINDS = 4096


def _pieces_kept(part, kind):
    """pieces_of, once for a part many kinds of viewer render alike (the log, where the same
    Undo buttons are theirs; the table screen's board and a spectator's), and with the same
    kind's last split of it as the hint."""
    with _split_lock:
        found = _split.get(part)
        if found is not None:
            _split.move_to_end(part)
            _keep_hint(kind, found)
            return found
        hint = _last.get(kind)
    found = pieces_of(part, hint)
    with _split_lock:
        _split[part] = found
        while len(_split) > 64:
            _split.popitem(last=False)
        _keep_hint(kind, found)
    return found


def _keep_hint(kind, found):
    """This kind's split as the next one's hint (under _split_lock)."""
    if found is not None:
        _last[kind] = found
        _last.move_to_end(kind)
        while len(_last) > SPLIT_KINDS:
            _last.popitem(last=False)


def same_frame(one, other):
    """Two frames alike as a browser shows them (each run of white space as one space): a
    template's branches leave different blank lines between the same elements."""
    return one == other or one.split() == other.split()
