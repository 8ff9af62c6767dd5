"""Danger Zone screens: what the board template needs beyond the game's view.

No routes of its own: /act/<kind> serves every action. This blueprint only hands the board
two helpers through a context processor: the view with the table's "from your box" text
folded in (tile text, skill dice for the odds), and the geometry of the race chart, which
the template draws as SVG with presentation attributes (the CSP allows no inline styles).
"""

from flask import Blueprint, g

from companion import box
from companion.db import get_db
from companion.games import danger_zone as dz
from companion.games.danger_zone import board_facts

bp = Blueprint("danger_zone", __name__)

# One colour per seat, in seat order; readable on the dark and the light background.
SEAT_COLORS = ("#f2b134", "#4cc38a", "#5aa9f5", "#ff6b6b", "#c58af9", "#2ec4c4", "#f06bb0", "#a7c957")
# A narrow drawing: on a phone it shrinks least, so its labels stay readable. The right
# margin holds an end label of 6 letters (_chart.html cuts longer names) and two digits.
CHART = {"width": 480, "height": 280, "left": 30, "right": 108, "top": 14, "bottom": 30}
LINE_NUDGE = 2.5  # px between seats' lines where their values are equal
LABEL_GAP = 17  # px between seat names at the right edge, so tied lines stay readable
ODDS_TABLE = dz.odds_table()
# The same numbers laid out as the odds grid draws them: looked up once, not on every render.
ODDS_GRID = {
    "rows": [
        (d, [next(c for c in ODDS_TABLE if c["dice"] == n and c["difficulty"] == d)["success"] for n in (1, 2, 3)])
        for d in sorted({c["difficulty"] for c in ODDS_TABLE})
    ],
    "card": [next(c for c in ODDS_TABLE if c["dice"] == n)["card"] for n in (1, 2, 3)],
}


def board_view(view):
    """The view as the board renders it: typed box text folded in, seats by id."""
    return seats_view(dz.with_box(view, box.for_board(get_db, dz.SLUG, g.get("table"))))


def seats_view(view):
    """The view with its seats by id and their colours, and no box text: what the shared
    parts need (a phone's lines for the other seats, the race), without a query to find it."""
    view = dict(view)
    view["by_id"] = {seat["id"]: seat for seat in view["seats"]}
    view["color"] = {seat["id"]: SEAT_COLORS[i % len(SEAT_COLORS)] for i, seat in enumerate(view["seats"])}
    return view


def race_plot(view):
    """Coordinates for the Upper Hand race: one polyline per seat, by round.

    Points are each round's end (round 0 is the start), plus "now" while a round is open.
    Returns None before the first round.
    """
    race = view["race"]
    columns = [("Start" if r == 0 else f"R{r}") for r in race["rounds"]]
    values = {s["seat"]: list(s["points"]) for s in race["series"]}
    if not columns:
        return None
    if view["started"] and not view["over"]:
        columns.append("now")
        for seat in view["seats"]:
            values.setdefault(seat["id"], [None] * (len(columns) - 1)).append(seat["upper_hand"])
    c = CHART
    top = max([race["top"]] + [v for vs in values.values() for v in vs if v is not None])
    inner_w = c["width"] - c["left"] - c["right"]
    inner_h = c["height"] - c["top"] - c["bottom"]
    step = inner_w / max(1, len(columns) - 1)

    def x(i):
        return round(c["left"] + (i * step if len(columns) > 1 else inner_w / 2), 1)

    def y(v):
        return round(c["top"] + inner_h * (1 - v / top), 1)

    series = []
    count = len(view["seats"])
    for index, seat in enumerate(view["seats"]):
        # Equal values would hide each other's lines: nudge each seat a little.
        nudge = round((index - (count - 1) / 2) * LINE_NUDGE, 1)
        points = [(x(i), round(y(v) + nudge, 1), v) for i, v in enumerate(values.get(seat["id"], [])) if v is not None]
        if not points:
            continue
        series.append(
            {
                "seat": seat["id"],
                "name": seat["name"],
                "color": view["color"][seat["id"]],
                "points": " ".join(f"{px},{py}" for px, py, _ in points),
                "dots": points,
                "last": points[-1],
                "label_y": points[-1][1],
            }
        )
    # Spread the end labels apart, keeping their order by height.
    series_by_y = sorted(series, key=lambda s: s["label_y"])
    for above, below in zip(series_by_y, series_by_y[1:]):
        below["label_y"] = max(below["label_y"], above["label_y"] + LABEL_GAP)
    limit = c["height"] - c["bottom"]
    for label in reversed(series_by_y):
        label["label_y"] = min(label["label_y"], limit)
        limit = label["label_y"] - LABEL_GAP
    grid = [{"y": y(v), "value": v, "goal": v == dz.WINNING_UPPER_HAND} for v in range(0, top + 1, 5)]
    return {
        "width": c["width"],
        "height": c["height"],
        "left": c["left"],
        "right_edge": c["width"] - c["right"],
        "bottom": c["height"] - c["bottom"],
        "columns": [{"x": x(i), "label": label} for i, label in enumerate(columns)],
        "grid": grid,
        "series": series,
    }


# Template globals, not a context processor: those run on every render of every page.
bp.record_once(
    lambda state: state.app.jinja_env.globals.update(
        danger_zone={
            "board_view": board_view,
            "seats_view": seats_view,
            "race_plot": race_plot,
            "odds_grid": ODDS_GRID,
            **{
                name: getattr(board_facts, name)
                for name in (
                    "me_facts",
                    "uh_facts",
                    "tracker_facts",
                    "panel_facts",
                    "events_facts",
                    "tools_facts",
                    "race_facts",
                    "others_facts",
                    "fixes_facts",
                    "seat_facts",
                    "tile_facts",
                )
            },
        }
    )
)
