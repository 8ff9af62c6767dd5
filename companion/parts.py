"""Public parts of a live board, rendered once per table version and shared by every phone.

When a change reaches the eight phones at a table, each stream renders its phone's parts.
Most of a phone's fragment is the same for all of them: the other players' lines, the "fix
a score" rows, the log. A template marks such a part with `public(template, key, **values)`;
the part is rendered from the table's *public* view (what the table screen sees, never the
asking phone's), with no viewer and no form token in its context, and kept for that table
version. Only the phone's own block is rendered per phone. Inside a part, `row(...)` keeps a
single row (a seat's line, a log line) across versions.

The form token is what made parts per-viewer: a fragment's forms rely on the page's
`hx-headers` for it. A whole page still writes the token into every form (a phone without
script posts plain forms), so whole pages render their parts fresh; their kept rows carry a
placeholder that each page fills with its own token.
"""

import json
import pickle
import secrets
import threading
from collections import OrderedDict

from flask import current_app
from jinja2 import pass_context
from markupsafe import Markup, escape

from .games.base import may_undo

SCREEN = {"role": "screen", "seat": None}
CACHED_TABLES = 512  # tables whose newest version's parts are kept (20–40 KB each); a part
                    # earns its keep in the seconds after a change, while the phones re-fetch

_lock = threading.Lock()
_parts = OrderedDict()  # (table id, code) -> (version, {key: Markup or view})


def kept_for(table, version):
    """The parts kept for this table at this version (a fresh dict for a newer version; a
    shared frame too, pages.py), or None for an older version."""
    name = (table.id, table.code)  # as the store's cache: ids repeat across test databases
    with _lock:
        held = _parts.get(name)
        if held is None or held[0] < version:
            held = (version, {})
            _parts[name] = held
        _parts.move_to_end(name)
        while len(_parts) > CACHED_TABLES:
            _parts.popitem(last=False)
        return held[1] if held[0] == version else None  # an older version: render, keep nothing


def clear():
    with _lock:
        _parts.clear()
        _rows.clear()
        _row_bytes[0] = 0


def public_view(table, folded):
    """What the table screen sees of this state, worked out once per version."""
    kept = kept_for(table, folded.version)
    if kept is None:
        return table.module.view_for(folded.state, SCREEN)
    view = kept.get("view")
    if view is None:
        view = kept.setdefault("view", table.module.view_for(folded.state, SCREEN))
    return view


@pass_context
def public(ctx, template, key=None, **values):
    """A part of the board that every viewer of this kind of page sees alike.

    `key` (with the page kind and the template) names the part within one table version;
    `values` must follow from the key and the version (a seat id, a log entry), never from
    who is asking. Inside the part, `view` is the public view and there is no `viewer`."""
    table, folded, page, csrf = ctx["table"], ctx["folded"], ctx["page"], ctx.get("csrf")
    kept = None if csrf else kept_for(table, folded.version)
    name = (page, template, key)
    part = kept.get(name) if kept is not None else None
    if part is None:
        context = dict(table=table, page=page, version=folded.version, module=table.module,
                       act_base=ctx["act_base"], csrf=csrf, viewer=None,
                       view=public_view(table, folded), **values)
        part = render(template, context)
        if kept is not None:
            part = kept.setdefault(name, part)
    return part


KEPT_BYTES = 48_000_000  # rows kept across versions (a line: a few hundred bytes, a seat's
                         # block a few KB): the least recently used go first
_rows = OrderedDict()  # (table id, code, page, template, key) -> (with token field, without)
_row_bytes = [0]
# A kept row is rendered with this in place of a phone's form token: a whole page puts the
# phone's own in, a fragment (its forms take the token from the page) drops the field.
_HOLDER = secrets.token_hex(16)  # no text a player types can hold it
_TOKEN_FIELD = f'<input type="hidden" name="csrf" value="{_HOLDER}">'


def _size(name, found):
    """About what a kept row holds: its two copies and its key (pickled or JSON, for kept())."""
    key = name[4]
    return len(found[0]) + len(found[1]) + (len(key) if isinstance(key, (str, bytes)) else 100)


@pass_context
def row(ctx, template, key, **values):
    """One row of a shared part (a seat's line, a log line), kept across versions: a tap
    changes a row or two, so the part rendered for the new version takes the others from
    here, and a page load's rows serve the changes after it. What the row shows must follow
    from `key` (with the table, the page kind and the template): it gets `values`, the
    table and its addresses, never `view` or `viewer`."""
    table, page, csrf = ctx["table"], ctx["page"], ctx.get("csrf")
    name = (table.id, table.code, page, template, key)
    with _lock:
        found = _rows.get(name)
        if found is not None:
            _rows.move_to_end(name)
    if found is None:
        held = render(template, dict(table=table, page=page, module=table.module, csrf=_HOLDER,
                                     act_base=ctx["act_base"], **values))
        found = (str(held), Markup(str(held).replace(_TOKEN_FIELD, "")))
        with _lock:
            if name not in _rows:
                _rows[name] = found
                _row_bytes[0] += _size(name, found)
            while _row_bytes[0] > KEPT_BYTES:
                gone_name, gone = _rows.popitem(last=False)
                _row_bytes[0] -= _size(gone_name, gone)
    if csrf:
        return Markup(found[0].replace(_HOLDER, str(escape(csrf))))
    return found[1]


@pass_context
def kept(ctx, template, **values):
    """row(), keyed by the values themselves: a piece whose every input is in `values` (a
    seat's block: the seat, and the few facts of the round it shows, picked with `only`)
    renders again only when one of them changed, whatever else a change touched, at any
    version, for every viewer of this page kind. So a change to one seat renders that seat's
    block, not every seat's on every phone.

    The key is the values pickled: a faithful copy (equal bytes, equal values) made several
    times quicker than JSON, for dozens of pieces per phone on every change. Values built
    in another order give another key: a render more, never a wrong piece."""
    try:
        key = pickle.dumps(values, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):  # a value pickle cannot copy
        key = json.dumps(values, sort_keys=True, default=str, separators=(",", ":"))
    return row(ctx, template, key, **values)


def only(mapping, *names):
    """The named entries of a view (the facts a kept piece shows), as a dict."""
    return {name: mapping[name] for name in names}


class _Part(Markup):
    """A shared part as rendered, which keeps its marked pieces once split (see _marked):
    every viewer of the version takes its own seat out of the same part."""


def render(template, context):
    current_app.update_template_context(context)  # the games' template helpers
    return _Part(current_app.jinja_env.get_template(template).render(context))


def _split_marked(html, opening, closing):
    """`html` cut at every `<!--{opening}ID-->body<!--{closing}-->`: [the text before the first,
    then (ID, body, the text after it) for each], kept on a shared part (split once for every
    viewer of its version). Plain string splitting: several times quicker than a regular
    expression over the same 20-40 KB, and on a plain str (Markup's own split wraps every
    piece in a new Markup)."""
    split = html.__dict__ if isinstance(html, _Part) else {}
    pieces = split.get(opening)
    if pieces is None:
        head, *marked = str(html).split(opening)
        pieces = split[opening] = [head]
        for piece in marked:
            ident, _, rest = piece.partition("-->")
            body, _, after = rest.partition(closing)
            pieces.append((int(ident), body, after))
    return split, pieces


def _marked(html, opening, closing, pick):
    """`html` with every `<!--{opening}ID-->body<!--{closing}-->` replaced by pick(ID, body).
    It runs for every viewer on every change, on a part split once (_split_marked)."""
    pieces = _split_marked(html, opening, closing)[1]
    out = [pieces[0]]
    for ident, body, after in pieces[1:]:
        out.append(pick(ident, body))
        out.append(after)
    return Markup("".join(out))


def _unmarked(html, opening, closing):
    """(`html` with its marks taken out and every body kept, {ID: where its body starts and
    ends in it}, or None where an ID is marked twice): a viewer that swaps one body cuts
    the text there, rather than joining every piece again."""
    split, pieces = _split_marked(html, opening, closing)
    found = split.get((opening, "whole"))
    if found is None:
        out, spans, at = [pieces[0]], {}, len(pieces[0])
        for ident, body, after in pieces[1:]:
            spans[ident] = None if ident in spans else (at, at + len(body))
            out += (body, after)
            at += len(body) + len(after)
        found = split[(opening, "whole")] = ("".join(out), spans)
    return found


def seat_of(seats, seat_id):
    """The seat with this id in a view's list of seats, or None (a template's own seat)."""
    return next((seat for seat in seats if seat["id"] == seat_id), None)


def swap_seat(rows_html, seat, own=""):
    """A shared list with a row per seat (each between <!--sID--> and <!--/s-->), with this
    viewer's own seat taken out, or `own` (rendered for the viewer) put in its place."""
    whole, spans = _unmarked(rows_html, "<!--s", "<!--/s-->")
    if seat not in spans:
        return Markup(whole)
    span = spans[seat]
    if span is None:  # a seat marked twice: each of its rows swapped
        return _marked(rows_html, "<!--s", "<!--/s-->", lambda ident, body: own if ident == seat else body)
    return Markup("".join((whole[:span[0]], own, whole[span[1]:])))


def undo_rights(log, viewer):
    """The log entries whose Undo this viewer may use (the table screen: none)."""
    return frozenset() if viewer is None else frozenset(
        e["id"] for e in log if not e["undone"] and may_undo(e["undo_right"], viewer))


def keep_undo(log_html, log, viewer):
    """The shared log with only the Undo buttons this viewer may use (the table screen: none)."""
    mine = undo_rights(log, viewer)
    # kept on the shared part for the last few sets of buttons: the viewers that may use the
    # same ones (every phone, where anyone may undo) share one copy
    kept = _split_marked(log_html, "<!--u", "<!--/u-->")[0].setdefault("undo", {})
    found = kept.get(mine)
    if found is None:
        found = _marked(log_html, "<!--u", "<!--/u-->", lambda ident, body: body if ident in mine else "")
        if len(kept) >= UNDO_COPIES:
            kept.clear()
        kept[mine] = found
    return found


UNDO_COPIES = 4  # a table's log, kept with each of the last few sets of Undo buttons
