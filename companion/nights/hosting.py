"""The night's hosts: co-hosts, handing the host role over, recovery with the night's code,
the tables this device has hosted, and the admin's records per player."""

from flask import Blueprint, abort, g, redirect, render_template, url_for
from htmx_flask import request

from companion import access, games
from companion.access import door
from companion.db import get_db
from companion.games.base import RuleError
from companion.lookup import routes as rules_routes
from companion.nights import hosts, records
from companion.tables import store
from companion.web import changes
from companion.web import routes as table_routes

bp = Blueprint("hosts", __name__)


# --- co-hosts, handing over, recovery ---------------------------------------------------------


@bp.get("/t/<code>/hosts")
def hosts_page(code, error=None, status=200):
    table = g.table
    viewer = door.require(host=True)
    db = get_db()
    folded = store.load(db, table)
    with_phone = hosts.phone_seats(db, table)
    seats = [
        dict(
            s,
            cohost=s["id"] in folded.night.get("cohosts", ()),
            phone_here=s["id"] in with_phone,
            host=s["id"] == table.host_seat,
        )
        for s in folded.state["seats"]
    ]
    return render_template(
        "night/hosts.html",
        table=table,
        viewer=viewer,
        seats=seats,
        error=error,
        host_device=access.is_host_device(table),
        csrf=access.csrf_token(table),
        moved_on=bool(folded.night.get("next")),
        game_title=games.TABLE_GAMES.get(table.game),
    ), status


@bp.post("/t/<code>/hosts/<int:seat>/<change>")
def hosts_change(code, seat, change):
    table = g.table
    door.require_host_device()
    access.check_csrf(table)
    viewer = door.viewer()
    if change not in ("cohost", "uncohost", "handover"):
        abort(404, "No such change.")
    seated = table.host_seat is not None
    try:
        if change == "handover":
            tokens = hosts.hand_over(get_db(), table, seat, viewer, access.night_host_hash, access.new_night)
        else:
            hosts.set_cohost(get_db(), table, seat, change == "cohost", viewer)
    except RuleError as error:
        return hosts_page(code, error=str(error), status=422)
    changes.changed(table)
    if change != "handover":
        return redirect(url_for("hosts.hosts_page", code=table.code), 303)
    # The old host's device stays at the night's tables as its player, where it had a seat.
    response = redirect(url_for("tables.player" if seated else "tables.join", code=table.code), 303)
    if not seated:
        response.delete_cookie(access.COOKIE, path=access.cookie_path(table))
    for at, token in tokens:
        access.set_token(response, at, token)
    return response


@bp.get("/recover")
def recover_page(error=None, status=200):
    return render_template("night/recover.html", error=error), status


@bp.post("/recover")
def recover():
    """Type the night's recovery code on any device: it becomes the host of the night's
    newest table, and the old host device's cookies are refused from then on."""
    limiter = access.guess_limiter()
    limiter.check(request.remote_addr)
    typed = request.form.get("code", "")[:40]
    found = (
        hosts.recover_host(get_db(), access.recovery_hash(typed), access.new_night, access.night_host_hash)
        if store.normalize_code(typed)
        else None
    )
    if found is None:
        limiter.miss(request.remote_addr)  # a wrong code counts like a wrong table code
        return recover_page(
            error="That is not a recovery code of any night on this server. "
            "Check it on the paper or photo you kept and type it again.",
            status=422,
        )
    table, token = found
    changes.changed(table)
    response = redirect(url_for("tables.host", code=table.code), 303)
    access.set_token(response, table, token)
    g.night_remember = table  # and the night's older tables (remember, after_request)
    return response


# --- this device's tables, and the admin's records ---------------------------------------------


@bp.get("/hosted")
def hosted():
    device = access.device_hash()
    db = get_db()
    found = hosts.device_tables(db, device) if device else []
    rows = []
    for table, still_host in found:
        folded = store.load(db, table)
        rows.append(
            {
                "table": table,
                "host": still_host,
                "title": games.TABLE_GAMES.get(table.game, table.game),
                "moved_on": bool(folded.night.get("next")),
                "over": records.game_over(table, folded),
                "seats": [s["name"] for s in folded.state["seats"]],
                "started": folded.log[0]["at"] if folded.log else None,
            }
        )
    return render_template("night/hosted.html", rows=rows, local_time=table_routes.local_time)


@bp.get("/admin")
def admin_home():
    if not rules_routes.is_admin():
        abort(403, "This page is for whoever runs the server: open the admin address that `companion serve` prints.")
    players = records.player_records(get_db())
    characters = sorted({c for p in players for c in p["characters"]})
    return render_template(
        "admin/records.html", players=players, characters=characters, titles=[t for t in games.TABLE_GAMES.values()]
    )
