"""Jinja helpers every screen's templates use: a partial with its own values, a seat by id,
the chart of a game that has ended."""

import marshal
import threading

from jinja2 import meta, nodes, pass_context
from markupsafe import Markup

from companion.charts import shown
from companion.db import get_db
from companion.games.base import STEP_FIELD, may_undo

# What a partial may read of its caller's page and still be kept: the same for every render of
# one kind of viewer at a table, so it goes in the key. (Python helpers such as m.act_form read
# these from the context too: forms.py.)
PAGE_NAMES = frozenset(("page", "viewer", "act_base", "csrf", "table"))
# Globals whose answer depends on nothing but their arguments (url_for: the app and its
# script root, which are in the key).
PURE_GLOBALS = frozenset(
    "m forms partial each log_lines seat_of may_undo step_field url_for danger_zone range dict lipsum cycler joiner namespace".split()
)
_PAGE_VALUES = ("page", "viewer", "act_base", "csrf")
# Helpers that read the page's values from the context (forms.py: the page kind, act_base and
# the form token, which a stream's renders leave out), so a partial that uses one is kept by them.
_PAGE_HELPERS = frozenset(("m", "forms", "url_for"))
_HELPERS_READ = frozenset(("page", "act_base", "csrf"))
_reads = {}  # template -> the names it and what it includes read of its caller, or None
_kept = {}  # (table id, code) -> Recent: its partials' html by key
_rendering = threading.local()  # .asking: for each partial this thread is rendering, the keys it asks for


class Recent:
    """What a table's renders kept, by key: what neither this version nor the one before
    asked for is let go, so it holds what one change of the table renders. A partial kept is
    kept with the partials it was rendered with: when it renders again, they are there."""

    def __init__(self):
        self.version, self.now, self.before = 0, {}, {}  # key -> (html, the keys of its partials)

    def at(self, version):
        if version is not None and version > self.version:
            self.version, self.now, self.before = version, {}, self.now
        return self

    def get(self, key):
        found = self.now.get(key)
        if found is None and (found := self.before.get(key)) is not None:
            self._keep(key, found)
        return found and found[0]

    def _keep(self, key, found):
        self.now[key] = found
        for inner in found[1]:
            if inner not in self.now and (within := self.before.get(inner)) is not None:
                self._keep(inner, within)


def _recent(table, version):
    key = (table.id, table.code)
    kept = _kept.get(key)
    if kept is None:
        if len(_kept) > 4096:  # as the store's folds: about one per table with a page open
            _kept.clear()
        kept = _kept[key] = Recent()
    return kept.at(version)


@pass_context
def partial(ctx, template, **values):
    """`template` rendered with the caller's context plus `values`: an include with arguments.

    A partial whose source (and what it includes) names every value it may read, none of them
    named by an expression, renders once per distinct input: its html is kept by the data of
    those values and of the page's values it reads (_key_names). Under test, a kept one is
    rendered again and must match."""
    return _render(ctx, template, values, _keeping(ctx, template, values))


@pass_context
def each(ctx, template, items, name=None, **values):
    """partial(template, **values) for each item, given as `name` (or, with no name, each a
    dict of values of its own), joined: a list's rows in one call, with what their keys take
    from the page worked out once."""
    keeping = {}
    out = []
    for item in items:
        if name or values:
            item = {**values, name: item} if name else {**values, **item}
        names = tuple(item)
        if names not in keeping:
            keeping[names] = _keeping(ctx, template, item)
        out.append(_render(ctx, template, item, keeping[names]))
    return Markup("".join(out))


def _keeping(ctx, template, values):
    """(the start of the key, the table's Recent) a partial of `template` given these values'
    names is kept by, or None: it renders every time."""
    reads = _reads.get(template, False)
    if reads is False:
        found = _names_read(ctx.environment, template)
        reads = _reads[template] = None if found is None else _key_names(found)
    table = ctx.get("table")
    if reads is None or table is None:
        return None
    page_names, reads = reads
    try:  # act_base starts with the script root, so url_for's answers are covered too
        start = _key(
            (
                template,
                table.game,  # the table itself is _kept's own key
                [ctx.get(name) for name in page_names],
                {name: ctx.get(name) for name in reads if name not in values and name in ctx},
            )
        )
        return start, _recent(table, ctx.get("version"))
    except (TypeError, ValueError, AttributeError):  # not plain data, or no table's: rendered every time
        return None


def _render(ctx, template, values, keeping):
    key = kept = html = None
    if keeping is not None:
        try:
            # the same however they were named; a pair, as bytes keep their hash: the start is hashed once
            key = (keeping[0], _key(sorted(values.items())))
            kept = keeping[1]
            html = kept.get(key)
        except (TypeError, ValueError):
            key = kept = None
    asking = _rendering.__dict__.setdefault("asking", [])
    if asking and key is not None:
        asking[-1].append(key)
    env = ctx.environment
    if html is None or env.check_kept:
        asking.append([])
        try:
            fresh = Markup(env.get_template(template).render({**ctx.get_all(), **values}))
        finally:
            asked = asking.pop()
        if html is not None and html != fresh:
            raise AssertionError(f"{template} kept a render its key does not cover: {values}")
        html = fresh
        if kept is not None:
            kept.now[key] = (html, tuple(asked))
        elif asking:  # one not kept itself: what it asked for is its caller's
            asking[-1].extend(asked)
    return html


def _key_names(found):
    """(the page's values, the caller's names) a partial that reads `found` is kept by. One that
    does not name the viewer is shared by every viewer whose other inputs are the same
    (another seat's line on every phone: a stream's renders hold no form token)."""
    helped = _HELPERS_READ if found & _PAGE_HELPERS else ()
    page_names = tuple(name for name in _PAGE_VALUES if name in found or name in helped)
    return page_names, tuple(sorted(found - PAGE_NAMES - _PAGE_HELPERS))


def _key(values):
    """Plain data as bytes, for a kept partial's key: a ValueError for anything else. marshal
    takes a third of JSON's time, and tells 1 from "1" and a tuple from a list."""
    return marshal.dumps(values, 2)  # version 2: no back-references, so equal data, equal bytes


def _names_read(env, template, given=(), path=()):
    """The names `template` reads that its caller must supply (all but `given`, the globals and
    its own), with what it includes, imports and calls as partials; None if one of those is
    named by an expression, so unknown."""
    if template in path:  # a template that includes itself: read once
        return set()
    path = (*path, template)
    ast = env.parse(env.loader.get_source(env, template)[0])
    names = set(meta.find_undeclared_variables(ast)) - set(given)
    if names & set(env.globals) - PURE_GLOBALS:
        return None
    names -= set(env.globals) - _PAGE_HELPERS  # the page helpers stay, for _key_names
    # what an include or an import with context reads may be set here (or be a macro's own)
    own = {n.name for n in ast.find_all(nodes.Name) if n.ctx in ("store", "param")}
    own |= {n.name for n in ast.find_all(nodes.Macro)}
    own |= {n.target for n in ast.find_all(nodes.Import)}
    own |= {name if isinstance(name, str) else name[1] for n in ast.find_all(nodes.FromImport) for name in n.names}
    # Jinja's finder leaves out what a macro's body or a {% call %} reads of its caller
    # (m.act_form, a view read only there): every name read and not set here counts too
    loads = {n.name for n in ast.find_all(nodes.Name) if n.ctx == "load"} - own - set(given)
    if loads & set(env.globals) - PURE_GLOBALS:
        return None
    names |= loads - (set(env.globals) - _PAGE_HELPERS)
    for node in ast.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
        if isinstance(node, (nodes.Import, nodes.FromImport)) and not node.with_context:
            continue  # an import without context sees the globals only, none of its caller's names
        for ref in meta.find_referenced_templates(nodes.Template([node])):
            inner = None if ref is None else _names_read(env, ref, own, path)
            if inner is None:
                return None
            names |= inner - own  # what this template sets, it includes with: not its caller's
    for call in ast.find_all(nodes.Call):
        if isinstance(call.node, nodes.Name) and call.node.name in ("partial", "each"):
            if not call.args or not isinstance(call.args[0], nodes.Const):
                return None
            # each's values are named by its items, unknown here: all the partial reads counts
            given = [kw.key for kw in call.kwargs] if call.node.name == "partial" else []
            inner = _names_read(env, call.args[0].value, given, path)
            if inner is None:
                return None
            names |= inner
    return names


def log_lines(entries, viewer, undo_base):
    """The values of each shown line of the log (tables/_log_line.html): with its Undo if this
    viewer may use it."""
    return [
        {
            "entry": {"id": e["id"], "who": e["who"], "text": e["text"], "undone": e["undone"]},  # what a line shows
            "undo_base": undo_base,
            "undo": viewer is not None and not e["undone"] and may_undo(e["undo_right"], viewer),
        }
        for e in entries
        if e["text"]
    ]


def seat_of(seats, seat_id):
    """The seat with this id in a view's list of seats, or None."""
    return next((seat for seat in seats if seat["id"] == seat_id), None)


def only(mapping, *names):
    """The named entries of a mapping, as a dict."""
    return {name: mapping[name] for name in names}


def clear():
    _kept.clear()


def end_chart(table, folded):
    """The table's last game once it has ended (charts.shown.at_the_end), or None."""
    return shown.at_the_end(get_db, table, folded)


def init_app(app):
    app.jinja_env.check_kept = app.testing
    app.jinja_env.globals.update(
        partial=partial,
        each=each,
        log_lines=log_lines,
        seat_of=seat_of,
        may_undo=may_undo,
        step_field=STEP_FIELD,
        end_chart=end_chart,
    )
    app.jinja_env.filters.update(only=only)
