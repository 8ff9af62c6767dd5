"""Tables and joining: start a table, seat phones, the three screens, actions, undo, export."""

import csv
import io
import json
from datetime import datetime

from flask import Blueprint, abort, current_app, g, make_response, redirect, render_template, url_for
from htmx_flask import request  # flask's request, with .htmx: true only for htmx's own requests

from companion import access, games
from companion.access import door
from companion.charts import series, shown
from companion.db import get_db
from companion.games.base import RuleError
from companion.live import notifier
from companion.nights import hosts
from companion.tables import store
from companion.web import game_routes, pages, qr
from companion.web.changes import MAX_FIELD, action_id, apply_change, changed, posted_form

bp = Blueprint("tables", __name__)


render_page = pages.render_page


def join_url(table):
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for("tables.join", code=table.code)


# --- home and creating a table --------------------------------------------------------


@bp.get("/")
def home():
    return home_page()


@bp.get("/healthz")
def health():
    """Is it up, and how many pages are live (the soak tests and benches ask)."""
    return {"ok": True, "open_streams": notifier().open_streams}


def home_page(error=None, status=200):
    """The home page; a device that has hosted tables here gets its way back to them."""
    device = access.device_hash()
    hosted = bool(device and hosts.device_tables(get_db(), device, limit=1))
    return render_template("home.html", games=games.TABLE_GAMES, error=error, hosted=hosted), status


@bp.post("/tables")
def create():
    try:
        table, token = store.create_table(get_db(), request.form.get("game", ""))
    except RuleError as error:
        return home_page(str(error), 400)
    response = redirect(url_for("tables.host", code=table.code), 303)
    access.set_token(response, table, token)
    return response


@bp.post("/go")
def go():
    """The home page's "join with a code" form."""
    code = store.normalize_code(request.form.get("code"))
    if not code or len(code) > 20:
        return home_page("Type the code shown on the host's screen.", 400)
    return redirect(url_for("tables.join", code=code), 303)


# --- joining --------------------------------------------------------------------------


@bp.get("/t/<code>")
def join(code):
    table = g.table
    if table.code != code:
        return redirect(url_for("tables.join", code=table.code))
    viewer = door.viewer()
    if viewer and viewer["seat"] is not None:  # a seat's phone, a co-host's, the seated host
        return redirect(url_for("tables.player", code=table.code))
    return render_template("tables/join.html", table=table, viewer=viewer, game_title=games.TABLE_GAMES[table.game])


@bp.post("/t/<code>/join")
def join_post(code):
    table = g.table
    viewer = door.viewer()
    if viewer and viewer["seat"] is not None:
        return redirect(url_for("tables.player", code=table.code), 303)
    as_host = bool(viewer)
    try:
        _, token = store.add_seat(
            get_db(),
            table,
            request.form.get("name", "")[:MAX_FIELD],
            viewer or {"role": "seat", "seat": None},
            as_host=as_host,
        )
    except RuleError as error:
        return render_template(
            "tables/join.html",
            table=table,
            viewer=viewer,
            error=str(error),
            name=request.form.get("name", "")[:MAX_FIELD],
            game_title=games.TABLE_GAMES[table.game],
        ), 400
    changed(table)
    if as_host:
        return redirect(url_for("tables.host", code=table.code), 303)
    response = redirect(url_for("tables.player", code=table.code), 303)
    access.set_token(response, table, token)
    return response


# --- the three screens ----------------------------------------------------------------


@bp.get("/t/<code>/me")
def player(code):
    table = g.table
    viewer = door.viewer()
    if viewer is None and access.was_removed(table):
        return render_page("tables/player.html", table, None, "removed")
    if viewer is None or viewer["seat"] is None:
        return redirect(url_for("tables.join", code=table.code))
    game_routes.request_hook(table, viewer, "page")
    return render_page("tables/player.html", table, viewer, "player")


@bp.get("/t/<code>/host")
def host(code):
    table = g.table
    viewer = door.require(host=True)
    url = join_url(table)
    return render_page("tables/host.html", table, viewer, "host", join_url=url, qr_svg=qr.svg(url))


@bp.get("/t/<code>/screen")
def screen(code):
    table = g.table
    url = join_url(table)
    return render_page("tables/screen.html", table, None, "screen", join_url=url, qr_svg=qr.svg(url))


@bp.get("/t/<code>/live")
def live(code):
    """The live fragment of a screen: what a page fetches when it wakes or comes back online
    (changes themselves come down its stream, see live.py)."""
    table = g.table
    page, viewer = pages.live_viewer(table, request.args.get("page", "screen"))
    return render_page("tables/_live.html", table, viewer, page)


@bp.get("/t/<code>/state.json")
def state_json(code):
    table = g.table
    viewer = door.require()
    folded = store.load(get_db(), table)
    return {
        "code": table.code,
        "game": table.game,
        "version": folded.version,
        "viewer": viewer,
        "state": table.module.view_for(folded.state, viewer),
        "log": folded.log,
    }


# --- changing things ------------------------------------------------------------------


@bp.post("/t/<code>/act/<kind>")
def act(code, kind):
    def write(db, table, viewer):
        store.act(db, table, kind, posted_form(), viewer, action_id())

    return apply_change(write, kind=kind)


@bp.post("/t/<code>/undo/<int:event_id>")
def undo(code, event_id):
    return apply_change(lambda db, table, viewer: store.undo(db, table, event_id, viewer, action_id()))


@bp.post("/t/<code>/seats")
def add_seat(code):
    """The host adds a seat for a player without a phone."""
    return apply_change(
        lambda db, table, viewer: store.add_seat(db, table, posted_form().get("name", ""), viewer, phone=False),
        host=True,
    )


@bp.post("/t/<code>/seats/<int:seat>/<change>")
def change_seat(code, seat, change):
    def write(db, table, viewer):
        if change == "rename":
            store.rename_seat(db, table, seat, posted_form().get("name", ""), viewer)
        elif change == "remove":
            store.remove_seat(db, table, seat, viewer)
        elif change in ("left", "right"):
            store.move_seat(db, table, seat, -1 if change == "left" else 1, viewer)
        else:
            abort(404, "No such seat change.")

    return apply_change(write, host=True)


# --- export ---------------------------------------------------------------------------


def export(db, table):
    """Everything about a table as JSON-ready data: seats, every event, the final state."""
    folded = store.load(db, table)
    # The host may be a player too: what a game keeps secret stays out of the export.
    public = table.module.public_data
    logged = [dict(e, data=public(e["kind"], e["data"])) for e in store.events(db, table)]
    return {
        "code": table.code,
        "game": table.game,
        "options": table.options,
        "seats": folded.state["seats"],
        "events": logged,
        "log": folded.log,
        "state": table.module.view_for(folded.state, store.HOST),
    }


@bp.get("/t/<code>/export.json")
def export_json(code):
    table = g.table
    door.require(host=True)
    data = dict(export(get_db(), table), charts=series.table_charts(get_db(), table))  # a chart per game
    response = make_response(json.dumps(data, indent=2))
    response.headers["Content-Type"] = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="table-{table.code}.json"'
    return response


def csv_cell(text):
    # A name like "=HYPERLINK(...)" must stay text when the log is opened in a spreadsheet.
    text = str(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# How each game's seat numbers are headed in the export; others read as their key in words.
CSV_LABELS = {
    "score": "Score",
    "upper_hand": "Upper Hand",
    "vp": "Victory Points",
    "rounds_won": "rounds won",
    "preliminary": "preliminary points",
    "real": "real points",
    "penalty_chips": "penalty chips",
    "front_count": "front row",
    "rear_count": "rear row",
}
RANKED_BY = ("score", "upper_hand", "vp", "real")  # the first of these a game shows decides places


def csv_standings(view, ranks=None):
    """Rows for the standings: seat, its final numbers, place (ties share a place).

    Read from the host's view, so it works for any game: every whole number a seat shows
    is a column (known ones first, in CSV_LABELS order). `ranks` ({seat id: place}) is the
    game's own order when it has one."""
    seats = view.get("seats") or []
    keys = []
    for seat in seats:
        for key, value in seat.items():
            # what is still "left" to do is no final number
            if key != "id" and type(value) is int and not key.endswith("_left") and key not in keys:
                keys.append(key)
    known = [k for k in CSV_LABELS if k in keys]
    keys = known + [k for k in keys if k not in known]
    main = next((k for k in RANKED_BY if k in keys), keys[0] if keys else None)
    if ranks is None and main:
        values = sorted((seat.get(main, 0) for seat in seats), reverse=True)
        ranks = {seat["id"]: values.index(seat.get(main, 0)) + 1 for seat in seats}
    ranks = ranks or {}
    order = sorted(seats, key=lambda seat: ranks.get(seat["id"], len(seats) + 1))
    rows = [["seat"] + [CSV_LABELS.get(k, k.replace("_", " ")) for k in keys] + ["place"]]
    for seat in order:
        rows.append([csv_cell(seat.get("name", ""))] + [seat.get(k, "") for k in keys] + [ranks.get(seat["id"], "")])
    return rows


def game_ranks(module, state):
    """{seat id: place} from the game's own standings(state), when it gives places."""
    try:
        rows = module.standings(state) if module.standings else None
    except (KeyError, TypeError, ValueError):
        return None
    if rows and all(isinstance(row, dict) and "seat" in row and "rank" in row for row in rows):
        return {row["seat"]: row["rank"] for row in rows}
    return None  # e.g. only who is tied on top: places come from the numbers


def local_time(at):
    """An event's time as the clock on the server's wall reads it (the table's room)."""
    try:
        return datetime.fromisoformat(at).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError):
        return at or ""


@bp.get("/t/<code>/log.csv")
def export_csv(code):
    """A file people can read: the standings first, then the log in plain words, then each
    game's series (its chart's numbers, per seat and step).

    The JSON export is the complete record; this one leaves out internal names."""
    table = g.table
    door.require(host=True)
    folded = store.load(get_db(), table)
    view = table.module.view_for(folded.state, store.HOST)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows(csv_standings(view, game_ranks(table.module, folded.state)))
    writer.writerow([])
    writer.writerow(["time", "who", "what happened", "undone"])
    for entry in folded.log:
        if not entry.get("text"):
            continue
        writer.writerow(
            [
                local_time(entry["at"]),
                csv_cell(entry["who"]),
                csv_cell(entry["text"]),
                "undone" if entry["undone"] else "",
            ]
        )
    writer.writerow([])  # each game's course, to plot elsewhere (as the night's CSV)
    writer.writerows(
        shown.csv_rows([(chart["number"], chart) for chart in series.table_charts(get_db(), table)], csv_cell)
    )
    response = make_response(out.getvalue())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="table-{table.code}.csv"'
    return response
