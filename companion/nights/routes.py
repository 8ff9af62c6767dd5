"""Game night: play again with the same seats, phones that follow by themselves, the night's
page and exports, co-hosts, handing the host role over, host recovery, the tables a host's
device has run, and the admin's records per player.

A night is the chain of tables started from one another. The old table logs "night.next"
(store.start_next); its live board then holds a link marked data-follow for each phone whose
seat came along, and static/js/night.js follows it. The follow route gives the phone the token of
its seat at the new table, worked out from its old one (access.follow_token), so a phone can
follow only its own seat and a stranger with the old code learns nothing of the new table.
"""

import csv
import io
import json

from flask import Blueprint, abort, current_app, g, make_response, redirect, render_template, url_for
from htmx_flask import request

from companion import access, games, nights
from companion.access import door, holders
from companion.charts import shown
from companion.db import get_db
from companion.games.base import RuleError
from companion.nights import hosts, records
from companion.tables import store
from companion.web import changes
from companion.web import routes as table_routes

bp = Blueprint("night", __name__)
MAX_ADDED = 4  # new seats typed on the "play again" page at once
PAGES = {"player": "tables.player", "host": "tables.host", "screen": "tables.screen"}


def _go(url, response=None):
    """Navigate there: htmx follows HX-Redirect, a plain form a 303."""
    if request.htmx:
        response = response or make_response("", 200)
        response.headers["HX-Redirect"] = url
        return response
    target = redirect(url, 303)
    if response is not None:
        for cookie in response.headers.getlist("Set-Cookie"):
            target.headers.add("Set-Cookie", cookie)
    return target


def _ahead(table):
    """The tables the night went on to from `table`, in order."""
    db = get_db()
    while (ahead := store.load(db, table).night.get("next")) and (
        table := store.find_table(db, ahead["code"])
    ) is not None:
        yield table


def _follow_chain(table, token):
    """Carry a token along the night from `table`: [(table, token, viewer)] for each later
    table where it still holds a seat or the host role (empty: it has none at the next one)."""
    steps = []
    for following in _ahead(table):
        token = access.follow_token(following.code, store.token_hash(token))
        viewer = holders.identify(get_db(), following, token)
        if viewer is None:
            break
        steps.append((following, token, viewer))
    return steps


def _land(steps, page, response):
    """Set each table's cookie on `response` (every table keeps its own path's) and return
    the address of the last table's page for this kind of viewer."""
    for table, token, _ in steps:
        access.set_token(response, table, token)
    last, _, viewer = steps[-1]
    if page == "host" and viewer["role"] != "host":
        page = "player"
    if page == "player" and viewer["seat"] is None:
        page = "host"
    return url_for(PAGES[page], code=last.code)


# --- play again ------------------------------------------------------------------------------


def _may_start(table):
    return door.require(host=True)  # the host or a co-host


def _seat_choice(folded):
    """Which seats go along: every seat but those the form lists and leaves unticked (a seat
    that sat down after the page was drawn goes along), and the names typed for new seats."""
    form = request.form
    listed = {part for part in form.get("listed", "").split(",") if part.strip()}
    keep = [s["id"] for s in folded.state["seats"] if str(s["id"]) not in listed or form.get(f"keep_{s['id']}")]
    added = [form.get(f"add_{n}", "").strip()[: changes.MAX_FIELD] for n in range(1, MAX_ADDED + 1)]
    return keep, [name for name in added if name]


@bp.get("/t/<code>/next")
def next_page(code, error=None, status=200):
    table = g.table
    viewer = _may_start(table)
    folded = store.load(get_db(), table)
    if folded.night.get("next"):
        return redirect(url_for("night.follow", code=table.code, to="host"))
    return render_template(
        "night/next.html",
        table=table,
        viewer=viewer,
        folded=folded,
        seats=folded.state["seats"],
        games=games.TABLE_GAMES,
        error=error,
        form=request.form,
        max_added=MAX_ADDED,
        csrf=access.csrf_token(table),
        game_title=games.TABLE_GAMES.get(table.game),
    ), status


@bp.post("/t/<code>/next")
def start_next(code):
    table = g.table
    db = get_db()
    if door.folded().night.get("next"):
        # A doubled, stale or racing tap (two hosts at once): the next table exists, and a
        # co-host's rights here ended with it; each device goes on to its own place there.
        viewer = door.require()
        access.check_csrf(table)
        return _went_on(table, viewer)
    viewer = _may_start(table)
    access.check_csrf(table)
    keep, added = _seat_choice(door.folded())
    try:
        nights.start_next(
            db,
            table,
            request.form.get("game", ""),
            keep,
            added,
            viewer,
            access.follow_hash,
            access.new_night,
            changes.action_id(),
            _pass_host,
        )
    except RuleError as error:
        if request.htmx:
            return changes.refused(table, viewer, changes.page_of(viewer), error)
        return next_page(code, error=str(error), status=422)
    changes.changed(table)  # every open page of the old table learns of the next one
    return _went_on(table, viewer)


def _went_on(table, viewer):
    """Answer the tap that started (or found) the night's next table: this device's place
    there, and the host's device keeps the table in its list."""
    steps = _follow_chain(table, access.held_token())
    response = make_response("", 200)
    if not steps:  # a co-host who left their own seat out: the night page is theirs still
        return _go(url_for("night.night_page", code=table.code))
    target = _land(steps, changes.page_of(viewer) if request.htmx else "host", response)
    if access.is_host_device(table):
        access.remember_host(response, steps[-1][0])
    return _go(target, response)


def _pass_host(db, table, before):
    hosts.pass_down(db, table, access.night_host_hash, before=before)


@bp.get("/t/<code>/follow")
def follow(code):
    """Where a page of a table the night has left goes: this phone's seat (or the host's
    role) at the newest table it still has one at. Anyone else goes back where they were."""
    table = g.table
    page = request.args.get("to", "player")
    if page == "tablet":
        return _follow_tablet(table)
    page = page if page in PAGES else "player"
    viewer = door.viewer()
    steps = _follow_chain(table, access.held_token()) if viewer else []
    if not steps:
        if page == "screen" or viewer is None:
            return redirect(url_for(PAGES[page if page == "screen" else "player"], code=table.code))
        return render_template(
            "night/left_out.html", table=table, viewer=viewer, game_title=games.TABLE_GAMES.get(table.game)
        ), 200
    response = make_response("", 303)
    response.headers["Location"] = _land(steps, page, response)
    return response


def _follow_tablet(table):
    """The tablet goes on to the night's next table: the host's own device as its host (a
    co-host's phone to its seat, if co-hosting did not come along), a device the host let in
    let in there too. Any other device goes back where it was (and is refused there)."""
    device = access.tablet_viewer(table)
    response = make_response("", 303)
    if device is access.HOST_TABLET:
        steps = _follow_chain(table, access.held_token())
        landed = _land(steps, "host", response) if steps else None
        if landed and steps[-1][2]["role"] == "host":
            landed = url_for("tablet.page", code=steps[-1][0].code)
    elif device is access.TABLET:
        token, landed = access.held_token(), None
        for following in _ahead(table):
            token = access.carry_tablet(following, token)
            access.set_token(response, following, token)
            landed = url_for("tablet.page", code=following.code)
    else:
        landed = None
    response.headers["Location"] = landed or url_for("tablet.page", code=table.code)
    return response


# --- what the live board shows of the night ---------------------------------------------------


@bp.app_template_global()
def night_here(table, folded, viewer, page):
    """What the live fragment shows of the night, or None (most of the time: nothing)."""
    night = folded.night
    ahead = night.get("next")
    is_host = viewer is not None and viewer["role"] == "host"
    over = records.game_over(table, folded)
    screen = page == "screen" and night.get("screen")
    host_at_seat = is_host and page == "player"  # a co-host's phone, or the host's seat
    if not (ahead or over or screen or host_at_seat or (is_host and night.get("screen"))):
        return None
    found = {
        "next": ahead,
        "over": over,
        "host": is_host,
        "screen": bool(night.get("screen")),
        "follow": None,
        "left_out": False,
        "tv": None,
        "host_at_seat": host_at_seat,
        "next_title": games.TABLE_GAMES.get(ahead["game"]) if ahead else None,
        "games": games.TABLE_GAMES,
    }
    if ahead and page == "tablet":  # the host's device, or one let in: both go on (night.follow)
        found["follow"] = url_for("night.follow", code=table.code, to="tablet")
    elif ahead and page in ("player", "host") and viewer is not None:
        following = store.find_table(get_db(), ahead["code"])
        carried = (
            viewer["seat"] is not None
            and following is not None
            and nights.carried_seat(get_db(), following, viewer["seat"]) is not None
        )
        if page == "player" and carried:
            found["follow"] = url_for("night.follow", code=table.code, to="player")
        elif is_host:  # the host's page (or a host whose seat stayed behind) goes on hosting
            found["follow"] = url_for("night.follow", code=table.code, to="host")
        else:
            found["left_out"] = True
    elif ahead and page == "screen":
        # Only a screen opened on the host's own device gets anywhere; others come back.
        found["follow"] = url_for("night.follow", code=table.code, to="screen")
    if screen and not ahead:
        found["tv"] = records.night_until(get_db(), table)
    return found


@bp.app_template_global()
def night_menu(table, viewer):
    """The host page's game-night menu: the recovery code for the host's own device."""
    if viewer is None or viewer["role"] != "host":
        return None
    menu = {"recovery": None, "recover_url": _public_url(url_for("hosts.recover"))}
    if access.is_host_device(table):
        # Only the night's host device sees the code (hosts.py: a hand-over draws a new one).
        carry_host(table)
        night = nights.night_row(get_db(), nights.ensure_night(get_db(), table, access.new_night))
        menu["recovery"] = access.recovery_code(night["recovery_salt"])
    return menu


def carry_host(table):
    """This response hands the host's device its role at the night's older tables too
    (after_request): the night has one host, and that host reads all of it."""
    if access.is_host_device(table):
        g.night_remember = table


@bp.after_app_request
def remember(response):
    table = g.pop("night_remember", None)
    if table is not None and response.status_code in (200, 303):
        access.remember_host(response, table)
        for older in hosts.older_tables(get_db(), table):
            token = access.night_host_token(older.code, table.host_token_hash)
            if older.host_token_hash == store.token_hash(token):  # else passed on since
                access.set_token(response, older, token)
                access.remember_host(response, older)
    return response


def _public_url(path):
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + path


@bp.post("/t/<code>/night/screen")
def screen_toggle(code):
    show = request.form.get("show") == "1"
    return changes.apply_change(lambda db, table, viewer: nights.show_night(db, table, show, viewer), host=True)


# --- the night page and its exports -----------------------------------------------------------


def _night_for_viewer(code):
    table = g.table
    viewer = door.viewer()
    if viewer is None:
        abort(403, "The night's page is for the host and the players of its tables. Join a table first.")
    return table, viewer, records.night(get_db(), table, viewer)


@bp.get("/t/<code>/night")
def night_page(code):
    table, viewer, night = _night_for_viewer(code)
    folded = store.load(get_db(), table)
    carry_host(table)
    return render_template(
        "night/night.html",
        table=table,
        viewer=viewer,
        night=night,
        charts=shown.night_games(get_db(), night),
        folded=folded,
        csrf=access.csrf_token(table),
        can_start=viewer["role"] == "host" and not folded.night.get("next"),
        local_time=table_routes.local_time,
        game_title=games.TABLE_GAMES.get(table.game),
    )


def _download(body, kind, name):
    response = make_response(body)
    response.headers["Content-Type"] = kind
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/t/<code>/night.json")
def night_json(code):
    table, viewer, night = _night_for_viewer(code)
    games_with_charts = [dict(g, chart=c) for g, c in zip(night["games"], shown.night_charts(get_db(), night))]
    data = {
        "started_at": night["started_at"],
        "games": games_with_charts,
        "standings": [dict(p, cells={str(k): v for k, v in p["cells"].items()}) for p in night["standings"]],
    }
    if viewer["role"] == "host":  # each table whole, as its own export has it
        data["tables"] = [table_routes.export(get_db(), t) for t in night["tables"]]
    return _download(
        json.dumps(data, indent=2, ensure_ascii=False), "application/json; charset=utf-8", f"night-{table.code}.json"
    )


@bp.get("/t/<code>/night.csv")
def night_csv(code):
    table, viewer, night = _night_for_viewer(code)
    out = io.StringIO()
    writer = csv.writer(out)
    cell = table_routes.csv_cell
    writer.writerow(
        ["player", "wins", "games finished"] + [f"{g['number']}. {g['title']} ({g['measure']})" for g in night["games"]]
    )
    for player in night["standings"]:
        writer.writerow(
            [cell(player["name"]), player["wins"], player["played"]]
            + [player["cells"].get(g["number"], "") for g in night["games"]]
        )
    writer.writerow([])
    writer.writerow(["game", "title", "started", "minutes", "finished", "winners", "final scores"])
    for game in night["games"]:
        writer.writerow(
            [
                game["number"],
                game["title"],
                table_routes.local_time(game["started_at"]),
                "" if game["minutes"] is None else game["minutes"],
                "yes" if game["finished"] else "no",
                cell(", ".join(game["winners"])),
                cell("; ".join(f"{r['name']} {r['value']}" for r in game["scores"])),
            ]
        )
    writer.writerow([])  # each game's course, to plot elsewhere
    writer.writerows(
        shown.csv_rows(zip((g["number"] for g in night["games"]), shown.night_charts(get_db(), night)), cell)
    )
    return _download(out.getvalue(), "text/csv; charset=utf-8", f"night-{table.code}.csv")
