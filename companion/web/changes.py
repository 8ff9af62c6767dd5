"""What every route that changes a table shares, and all a game's own routes may use of the
core: read the posted form, ask who may, write, then answer the tap and wake every page."""

from flask import abort, g, redirect, url_for
from htmx_flask import request  # flask's request, with .htmx: true only for htmx's own requests

from companion import access
from companion.access import door
from companion.db import get_db
from companion.games.base import NotAllowed, RuleError
from companion.live import notifier
from companion.tables import store
from companion.web import game_routes, pages
from companion.web.pages import render_page

MAX_FIELD = 200  # longest form value any action needs; longer input is refused, not cut


def changed(table):
    """Wake every open page of the table after a committed change; each stream renders and
    sends its page's changed parts, while this thread answers the tap (it does not wait)."""
    # The write just put its fold in the cache (at least this version): no query for it.
    notifier().publish(table.id, (store.kept(table, 1) or store.load(get_db(), table)).version)


def answer(table, page):
    """A tap's answer: the asker's fragment at the newest version, shared with the streams of
    its kind of viewer here (whichever renders it first)."""
    page, viewer = pages.live_viewer(table, page)
    folded = store.kept(table, 1)  # the tap's own write is in the cache: its version at least
    render = lambda: pages.live_parts(table, page, viewer, folded)  # noqa: E731
    watched = notifier().watching(table.id)
    if watched is None:
        return render().html
    return watched.parts(lambda version, _: (pages.kind_of(page, viewer), render)).html


def posted_form():
    form = {k: v for k, v in request.form.items() if k not in ("csrf", "action_id")}
    if any(len(v) > MAX_FIELD for v in form.values()):
        raise RuleError(f"That is too long: at most {MAX_FIELD} characters.")
    return form


def action_id():
    value = request.form.get("action_id") or request.headers.get("X-Action-Id")
    return value[:64] if value else None


def after_change(table, viewer, page):
    """Answer a successful change: the new fragment for htmx, a redirect for a plain form."""
    changed(table)
    if request.htmx:
        return answer(table, page)
    target = "tables.host" if page == "host" else "tables.player"
    return redirect(url_for(target, code=table.code), 303)


def refused(table, viewer, page, error):
    """Nothing was applied: show why, in place, with a 4xx status."""
    if request.htmx:
        return render_page("tables/_live.html", table, viewer, page, status=422, error=str(error))
    abort(422, str(error))


def page_of(viewer):
    page = request.form.get("page") or request.args.get("page")
    if page == "host" and viewer["role"] == "host":
        return "host"
    return "player"


def apply_change(write, host=False, kind=None):
    """Every state-changing route: who asks, the form token, the game's look at an action
    (its request_hook), the write, then the answer.

    `write(db, table, viewer)` raises RuleError to refuse; nothing is applied then.
    """
    table = g.table
    viewer = door.require(host=host)
    access.check_csrf(table)
    if kind is not None and (answer := game_routes.request_hook(table, viewer, kind)) is not None:
        return answer
    page = "host" if host else page_of(viewer)
    try:
        write(get_db(), table, viewer)
    except NotAllowed as error:
        abort(403, str(error))
    except RuleError as error:
        return refused(table, viewer, page, error)
    return after_change(table, viewer, page)
