"""The tablet lying flat in the middle of the table: a panel per seat along the edge
nearest its player, turned to face them, and the shared middle between the panels.

Who may open it: the host's own device, or one the host let in (companion.access keeps those and
revokes them). It shows the table screen's view, so no hand and no secret pick can reach
it, and it acts for each seat it shows with that seat's own rights: a tap on Ana's panel
is posted as Ana, and the game's WHO table decides as it does for her phone.

Where each panel sits depends on the screen's shape, which only the browser knows, so the
board carries the seats in clockwise order and a small stylesheet made from the address
(layout.css: no inline styles under the content security policy) places them for a
landscape tablet, a portrait one and a phone, with media queries.
"""

import json
import re

from flask import Blueprint, abort, g, make_response, redirect, render_template, url_for
from htmx_flask import request  # flask's request, with .htmx: true only for htmx's own requests

from companion import access, tablet
from companion.access import door
from companion.db import get_db
from companion.games.base import ANY, HOST, SHARED_SCREEN, NotAllowed, RuleError
from companion.tables import store
from companion.web import changes, game_routes, pages, qr
from companion.web.changes import action_id, changed, posted_form
from companion.web.routes import join_url

bp = Blueprint("tablet", __name__)

EDGES = ("bottom", "left", "top", "right")  # clockwise round the table, seen from above
FACING = {"bottom": 0, "left": 90, "top": 180, "right": 270}  # a panel's turn to face that edge
LETTER = {"bottom": "b", "left": "l", "top": "t", "right": "r"}
BY_LETTER = {v: k for k, v in LETTER.items()}

# How many panels each edge holds, (bottom, left, top, right), by seats shown: the long edges
# take more. A phone lying flat keeps to its two short edges.
LANDSCAPE = {
    1: (1, 0, 0, 0),
    2: (1, 0, 1, 0),
    3: (1, 1, 1, 0),
    4: (1, 1, 1, 1),
    5: (2, 1, 1, 1),
    6: (2, 1, 2, 1),
    7: (3, 1, 2, 1),
    8: (3, 1, 3, 1),
    9: (3, 2, 3, 1),
    10: (3, 2, 3, 2),
    11: (4, 2, 3, 2),
    12: (4, 2, 4, 2),
}
PORTRAIT = {
    1: (1, 0, 0, 0),
    2: (1, 0, 1, 0),
    3: (1, 1, 0, 1),
    4: (1, 1, 1, 1),
    5: (1, 2, 1, 1),
    6: (1, 2, 1, 2),
    7: (1, 3, 1, 2),
    8: (1, 3, 1, 3),
    9: (1, 4, 1, 3),
    10: (1, 4, 1, 4),
    11: (2, 4, 1, 4),
    12: (2, 4, 2, 4),
}
# Each shape: its media query, the counts, which edges run the full length of the screen, and
# how deep a band of panels is along each edge (its panels' height, seen by their player).
SHAPES = (
    (
        "(orientation: landscape)",
        LANDSCAPE,
        ("bottom", "top"),
        {
            "bottom": "min(230px, 28vh)",
            "top": "min(230px, 28vh)",
            "left": "min(230px, 22vw)",
            "right": "min(230px, 22vw)",
        },
    ),
    (
        "(orientation: portrait) and (min-width: 600px)",
        PORTRAIT,
        ("left", "right"),
        {
            "bottom": "min(230px, 20vh)",
            "top": "min(230px, 20vh)",
            "left": "min(230px, 28vw)",
            "right": "min(230px, 28vw)",
        },
    ),
    (
        "(orientation: portrait) and (max-width: 599.98px)",
        None,
        ("bottom", "top"),
        {
            "bottom": "min(300px, 31vh)",
            "top": "min(300px, 31vh)",
            "left": "min(200px, 30vw)",
            "right": "min(200px, 30vw)",
        },
    ),
)
MAX_SEATS = 12  # the most any game here seats (the plain scoreboard)


def counts(shape_counts, n):
    """Panels per edge for n seats in one shape."""
    if shape_counts is None or n not in shape_counts:
        # A phone (and any count beyond the tables): the two short edges, bottom first.
        return ((n + 1) // 2, 0, n // 2, 0)
    return shape_counts[n]


def arrange(seats, edges, faces, shape_counts):
    """{seat: (edge, slot, of, facing)}: each seat's edge, its place along the edge in
    clockwise order, how many share the edge, and the edge it faces (its own by default).

    `seats` are the shown seat ids in clockwise order; `edges` and `faces` ({seat: edge}) are
    the host's choices, which hold in every shape."""
    automatic = {}
    queue = list(seats)
    for edge, count in zip(EDGES, counts(shape_counts, len(seats))):
        for _ in range(count):
            automatic[queue.pop(0)] = edge
    where = {seat: edges.get(seat) or automatic[seat] for seat in seats}
    placed = {}
    for edge in EDGES:
        along = [seat for seat in seats if where[seat] == edge]
        for slot, seat in enumerate(along):
            placed[seat] = (edge, slot, len(along), faces.get(seat) or edge)
    return placed


def _slot_css(edge, slot, of, full):
    """left/top/width/height of a slot inside the board, from the bands' depths (variables)."""
    span_h = "100%" if edge in full else "(100% - var(--tb-left) - var(--tb-right))"
    start_h = "0px" if edge in full else "var(--tb-left)"
    span_v = "100%" if edge in full else "(100% - var(--tb-top) - var(--tb-bottom))"
    start_v = "0px" if edge in full else "var(--tb-top)"
    # Clockwise: the bottom runs right to left, the left upwards, the top left to right, the
    # right downwards.
    if edge in ("bottom", "top"):
        place = of - 1 - slot if edge == "bottom" else slot
        top = "0px" if edge == "top" else "calc(100% - var(--tb-bottom))"
        return (
            f"left:calc({start_h} + {span_h} * {place} / {of});top:{top};"
            f"width:calc({span_h} / {of});height:var(--tb-{edge})"
        )
    place = of - 1 - slot if edge == "left" else slot
    left = "0px" if edge == "left" else "calc(100% - var(--tb-right))"
    return (
        f"left:{left};top:calc({start_v} + {span_v} * {place} / {of});"
        f"width:var(--tb-{edge});height:calc({span_v} / {of})"
    )


def _panel_css(facing):
    turn = FACING[facing]
    size = "width:100cqw;height:100cqh" if turn in (0, 180) else "width:100cqh;height:100cqw"
    return f"transform:translate(-50%,-50%) rotate({turn}deg);{size}"


def layout_css(seats, edges, faces):
    """The stylesheet placing each shown seat's panel, for every shape. A seat's sheet over
    the middle (#tb-over-sN: the cards it plays, the Event it drew) opens while the toggle on
    its own panel is ticked, so one seat's sheet never opens another's."""
    blocks = [
        "".join(f".tb-board:has(#tb-s{seat} .tb-toggle:checked) #tb-over-s{seat}{{display:block}}\n" for seat in seats)
    ]
    for query, shape_counts, full, depth in SHAPES:
        placed = arrange(seats, edges, faces, shape_counts)
        used = {edge for edge, _, _, _ in placed.values()}
        lines = [
            ".tb-board{" + ";".join(f"--tb-{edge}:{depth[edge] if edge in used else '0px'}" for edge in EDGES) + "}"
        ]
        for seat, (edge, slot, of, facing) in placed.items():
            lines.append(f"#tb-s{seat}{{{_slot_css(edge, slot, of, full)}}}")
            lines.append(f"#tb-s{seat}>.tb-panel,#tb-over-s{seat}>.tb-sheet{{{_panel_css(facing)}}}")
        blocks.append(f"@media {query}{{\n" + "\n".join(lines) + "\n}")
    return "\n".join(blocks) + "\n"


def encode(seats, edges, faces):
    """`12,13l,14tb`: seat, its edge letter, its facing letter (an automatic edge is `a`)."""
    out = []
    for seat in seats:
        edge, face = edges.get(seat), faces.get(seat)
        part = str(seat)
        if edge or face:
            part += LETTER[edge] if edge else "a"
        if face:
            part += LETTER[face]
        out.append(part)
    return ",".join(out)


_PART = re.compile(r"^(\d{1,10})(?:([abltr])([bltr])?)?$")


def decode(text):
    """(seats, edges, faces) from encode()'s text; parts that do not read are left out."""
    seats, edges, faces = [], {}, {}
    for part in (text or "").split(",")[:MAX_SEATS]:
        found = _PART.match(part.strip())
        if not found or int(found.group(1)) in seats:
            continue
        seat = int(found.group(1))
        seats.append(seat)
        if found.group(2) and found.group(2) != "a":
            edges[seat] = BY_LETTER[found.group(2)]
        if found.group(3):
            faces[seat] = BY_LETTER[found.group(3)]
    return seats, edges, faces


# --- the host's choices, kept per table ------------------------------------------------


def stored_layout(table):
    """{"off": [seat ids], "edges": {seat: edge}, "faces": {seat: edge}} (empty when untouched)."""
    text = tablet.layout_text(get_db(), table.id)
    try:
        found = json.loads(text) if text else {}
    except ValueError:
        found = {}
    return {
        "off": [int(s) for s in found.get("off", [])],
        "edges": {int(s): e for s, e in found.get("edges", {}).items() if e in EDGES},
        "faces": {int(s): e for s, e in found.get("faces", {}).items() if e in EDGES},
    }


def save_layout(table, layout, actor):
    text = json.dumps(
        {
            "off": layout["off"],
            "edges": {str(k): v for k, v in layout["edges"].items()},
            "faces": {str(k): v for k, v in layout["faces"].items()},
        }
    )
    tablet.arrange(get_db(), table, text, actor)


def shown_seats(table, state, layout=None):
    """The seat ids the tablet shows, in clockwise order: every seat the host did not leave off."""
    layout = layout or stored_layout(table)
    return [s["id"] for s in state["seats"] if s["id"] not in layout["off"]]


# --- what the board template reads ------------------------------------------------------


def undo_seat(entry, shown):
    """The shown seat that may undo this log entry from the tablet (None: the tablet may not)."""
    right = entry["undo_right"]
    if right is None or right == HOST or not entry.get("shared"):
        return None
    if right == ANY:
        return shown[0] if shown else None
    return right if right in shown else None


def board(table, folded):
    """Everything the tablet board draws beyond the game's public view."""
    layout = stored_layout(table)
    view = pages.public_view(table, folded)  # the table screen's view: nothing hidden in it
    seats = view.get("seats") or []
    shown = [s["id"] for s in seats if s["id"] not in layout["off"]]
    base = url_for("tablet.act", code=table.code, seat=0, kind="-")[: -len("0/-")]
    log = []
    for entry in folded.log[::-1]:
        if entry.get("text"):
            log.append(dict(entry, undo_as=None if entry["undone"] else undo_seat(entry, shown)))
        if len(log) == 4:
            break
    return {
        "view": view,
        "shown": [s for s in seats if s["id"] in shown],
        "left_off": [s for s in seats if s["id"] not in shown],
        "layout": layout,
        "css": url_for("tablet.layout_sheet", s=encode(shown, layout["edges"], layout["faces"])),
        "act_base": base,  # + "<seat>/<kind>"
        "undo_base": url_for("tablet.undo", code=table.code, event_id=0)[:-1],
        # Steps that belong to no seat (the next phase, a bank, the ghost's) are posted as the
        # first seat shown; a game's middle may post one as the seat it is (the Challenges, as
        # the Mission Leader).
        "middle_seat": shown[0] if shown else None,
        "log": log,
        "edges": EDGES,
    }


bp.app_template_global("tablet_board")(board)


# --- the page and its actions -----------------------------------------------------------


def answer(table, device, status=200, error=None, changed_table=False):
    """The tablet's new fragment for htmx (after a change, the render its streams share),
    else the page again."""
    if request.htmx and changed_table:
        return changes.answer(table, "tablet")
    if request.htmx:
        return pages.render_page(
            "tablet/page.html", table, device, "tablet", status=status, **({"error": error} if error else {})
        )
    if error:
        abort(status, error)
    return redirect(url_for("tablet.page", code=table.code), 303)


@bp.get("/t/<code>/tablet")
def page(code):
    table = g.table
    device = door.tablet()
    return pages.render_page("tablet/page.html", table, device, "tablet")


@bp.post("/t/<code>/tablet/act/<int:seat>/<kind>")
def act(code, seat, kind):
    """A tap on a seat's panel: posted as that seat, with its own rights."""
    table = g.table
    device = door.tablet()
    access.check_csrf(table)
    state = store.load(get_db(), table).state
    if seat not in shown_seats(table, state):
        abort(403, "That seat is not on the tablet.")
    actor = seat_at_tablet(seat)
    if (hooked := game_routes.request_hook(table, actor, kind)) is not None:
        return hooked
    return write(table, device, lambda: store.act(get_db(), table, kind, posted_form(), actor, action_id()))


def seat_at_tablet(seat):
    """Who a tap on a seat's panel is: that seat, with its rights, by way of the shared screen
    (games.base: only the kinds a game lets a shared screen post, and the log says so)."""
    return {"role": "seat", "seat": seat, "via": SHARED_SCREEN}


def write(table, device, change):
    """Make a change as a shown seat, then answer with the tablet's board (a refusal in it)."""
    try:
        change()
    except NotAllowed as error:
        abort(403, str(error))
    except RuleError as error:
        return answer(table, device, 422, str(error))
    changed(table)
    return answer(table, device, changed_table=True)


@bp.post("/t/<code>/tablet/undo/<int:event_id>")
def undo(code, event_id):
    """Undo from the tablet's log, as the shown seat that has the right to."""
    table = g.table
    device = door.tablet()
    access.check_csrf(table)
    folded = store.load(get_db(), table)
    entry = next((e for e in folded.log if e["id"] == event_id), None)
    seat = undo_seat(entry, shown_seats(table, folded.state)) if entry else None
    if entry is not None and seat is None:
        abort(403, "The tablet cannot undo that: the host can, from the host page.")
    actor = seat_at_tablet(seat)
    return write(table, device, lambda: store.undo(get_db(), table, event_id, actor, action_id()))


@bp.post("/t/<code>/tablet/layout")
def arrange_panels(code):
    """Move panels to other edges, turn them, leave seats off: the host's or a co-host's
    device only, since which seats the tablet shows is which seats it may act for. A seat
    left automatic follows the screen's shape."""
    table = g.table
    device = door.tablet()
    if device is not access.HOST_TABLET:
        abort(403, "Only the host or a co-host can arrange the panels.")
    access.check_csrf(table)
    door.require_open()
    state = store.load(get_db(), table).state
    layout = {"off": [], "edges": {}, "faces": {}}
    if not request.form.get("automatic"):
        for seat in (s["id"] for s in state["seats"]):
            if not request.form.get(f"show_{seat}"):
                layout["off"].append(seat)
            edge, face = request.form.get(f"edge_{seat}"), request.form.get(f"face_{seat}")
            if edge in EDGES:
                layout["edges"][seat] = edge
            if face in EDGES:
                layout["faces"][seat] = face
    save_layout(table, layout, store.HOST)
    changed(table)  # every open tablet: its stream carries the new arrangement at once
    return answer(table, device, changed_table=True)


@bp.get("/tablet/layout.css")
def layout_sheet():
    """The panels' places for the seats named in the address (see encode): the same address
    always gives the same sheet, so browsers may keep it."""
    seats, edges, faces = decode(request.args.get("s", ""))
    response = make_response(layout_css(seats, edges, faces))
    response.headers["Content-Type"] = "text/css; charset=utf-8"
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


# --- letting a second device in ----------------------------------------------------------


@bp.post("/t/<code>/tablet/let-in")
def let_in(code):
    """The host asks for a one-time link; the device that opens it becomes a tablet."""
    table = g.table
    door.require(host=True)
    access.check_csrf(table)
    door.require_open()
    link = join_url(table).rsplit("/t/", 1)[0] + url_for(
        "tablet.claim", code=table.code, token=access.let_in_link(table)
    )
    return render_template(
        "tablet/let_in.html", table=table, link=link, qr_svg=qr.svg(link), minutes=access.LET_IN_MINUTES
    )


@bp.route("/t/<code>/tablet/in/<token>", methods=("GET", "POST"))
def claim(code, token):
    """Open a let-in link: a page asking first (a link preview must not use it up), then the
    device's own token in the table's cookie."""
    table = g.table
    viewer = door.viewer()
    if viewer is not None and viewer["role"] == "host":
        return redirect(url_for("tablet.page", code=table.code), 303)
    problem = None
    if viewer is not None:
        problem = (
            "This device holds a seat at this table. Open the link on the device that "
            "will lie in the middle of the table."
        )
    elif request.method == "POST":
        access.check_csrf(table)
        device_token = access.claim_let_in(table, token)
        if device_token:
            response = redirect(url_for("tablet.page", code=table.code), 303)
            access.set_token(response, table, device_token)
            return response
        problem = (
            f"This link was used already or is older than {access.LET_IN_MINUTES} minutes. Ask the host for a new one."
        )
    return render_template(
        "tablet/claim.html", table=table, problem=problem, csrf=access.csrf_token(table)
    ), 403 if problem else 200


@bp.post("/t/<code>/tablet/revoke")
def revoke(code):
    """Every device the host let in is refused from now on (the host's own device never is)."""
    table = g.table
    door.require(host=True)
    access.check_csrf(table)
    door.require_open()
    access.revoke_tablets(table)
    return redirect(url_for("tables.host", code=table.code), 303)


# The host page's tablet menu asks how many devices are let in.
bp.app_template_global("tablet_devices")(access.let_in_devices)
