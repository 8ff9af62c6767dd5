"""A chart (series.py) drawn as SVG on the server, and told in words for a screen reader.

One small drawing (a 360-wide viewBox) scales to a 320 px phone with its type still readable,
and up to a TV. Colours come from static/charts.css through classes (currentColor and CSS
custom properties, so light and dark both work; the content security policy allows no style
attribute); seats differ by dash pattern and marker too, not by colour alone. Every name is
escaped: a seat may be called "<script>".
"""

import itertools
import math
import re

from markupsafe import Markup, escape

WIDTH, HEIGHT = 360, 240
LEFT, TOP, BOTTOM = 30, 14, 38
# The right margin holds each seat's name and last value at its line's end: as wide as the
# widest of them needs, within these bounds (at most, the plot keeps 190 of the 360).
MIN_RIGHT, MAX_RIGHT = 44, 140
LABEL_X, LABEL_EDGE = 8, 4  # from the line's end to its name; from the name to the edge
NAME_CHARS = 10  # a longer name is cut at the line end, whole elsewhere
LABEL_GAP = 16  # between names at the right edge, so tied lines stay readable
NUDGE = 1.5  # between seats' lines where their values are equal
MOST_TICKS = 12  # step labels along the bottom; more steps label every k-th
MOST_MARKERS = 24  # past this many steps only a line's last point is marked
MOST_STEPS_IN_WORDS = 16  # past this the words tell only where the lead changed
SEAT_STYLES = 8  # charts.css has --chart-0 … --chart-7
DASHES = ("", "7 4", "2 3", "10 3 2 3", "4 2", "12 5", "1 4", "6 2 2 2")
MARKERS = ("circle", "square", "triangle", "diamond", "down", "cross", "plus", "ring")
GOALS = {
    "danger-zone": "The first to reach {n} Upper Hand wins.",
    "blackmail": "{n} Victory Points win the game.",
    "assassins": "Reaching {n} real points ends the game.",
}
GOAL_LABELS = {"danger-zone": "{n} wins", "blackmail": "{n} wins", "assassins": "{n} ends it"}


def drawing(chart, chart_id):
    """What templates/charts/_chart.html shows: {"id", "title", "svg" (Markup), "preliminary"
    (Markup, or None), "words"}. chart_id must be unique on the page (the night page has several)."""
    chart_id = re.sub(r"[^A-Za-z0-9_-]", "-", str(chart_id))
    title = title_of(chart)
    right = _right_margin(chart)  # one for both drawings, so their rounds line up
    preliminary = None
    if chart["preliminary"]:
        preliminary = _svg(
            chart, chart["preliminary"], f"{chart_id}-pre", "Preliminary points as each round was banked", None, right
        )
    return {
        "id": chart_id,
        "title": title,
        "svg": _svg(chart, chart["seats"], chart_id, title, chart["line"], right),
        "preliminary": preliminary,
        "words": words(chart),
    }


def title_of(chart):
    measure = chart["measure"][:1].upper() + chart["measure"][1:]
    return f"{measure} after each change" if chart["unit"] == "Change" else f"{measure} by {chart['unit'].lower()}"


# --- drawing ------------------------------------------------------------------------------


def _svg(chart, lines, svg_id, title, line, right):
    steps = chart["steps"]
    values = [v for seat in lines for _, v in seat["points"]] + ([line] if line is not None else [])
    low, high, every = _scale(values)
    inner_w, inner_h = WIDTH - LEFT - right, HEIGHT - TOP - BOTTOM

    def x(step):
        return round(LEFT + (step * inner_w / (len(steps) - 1) if len(steps) > 1 else inner_w / 2), 1)

    def y(value):
        return round(TOP + inner_h * (high - value) / (high - low), 1)

    out = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg" viewBox="0 0 {WIDTH} {HEIGHT}"'
            f' role="img" aria-labelledby="{svg_id}-title" aria-describedby="{svg_id}-words" focusable="false">'
        ),
        f'<title id="{svg_id}-title">{escape(title)}</title>',
        '<g class="chart-axes" fill="currentColor" font-size="15">',
    ]
    for value in range(low, high + 1, every):
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - right}" y1="{y(value)}" y2="{y(value)}" stroke="currentColor"'
            f' stroke-opacity="{".4" if value == 0 and low < 0 else ".15"}"/>'
            f'<text x="{LEFT - 6}" y="{y(value) + 5}" text-anchor="end" fill-opacity=".75">{value}</text>'
        )
    ticks = max(1, math.ceil(len(steps) / MOST_TICKS))
    for step in range(len(steps)):
        if step % ticks == 0 or step == len(steps) - 1:
            out.append(
                f'<text x="{x(step)}" y="{HEIGHT - BOTTOM + 19}" text-anchor="middle"'
                f' fill-opacity=".75">{escape(_tick(steps[step], step))}</text>'
            )
    out.append(
        f'<text x="{LEFT + inner_w / 2}" y="{HEIGHT - 2}" text-anchor="middle" font-size="13"'
        f' fill-opacity=".75">{escape(chart["unit"])}</text></g>'
    )
    if line is not None:
        label = GOAL_LABELS.get(chart["game"], "{n}").format(n=line)
        out.append(
            f'<g class="chart-goal"><line x1="{LEFT}" x2="{WIDTH - right}" y1="{y(line)}" y2="{y(line)}"'
            f' stroke="currentColor" stroke-opacity=".6" stroke-width="2" stroke-dasharray="6 4"/><text x="{LEFT + 4}"'
            f' y="{y(line) - 5}" font-size="13" fill="currentColor">{escape(label)}</text></g>'
        )
    drawn = [seat for seat in lines if seat["points"]]
    won = {(step, seat) for step, seats in chart["round_winners"] for seat in seats}
    labels = _spread([y(seat["points"][-1][1]) for seat in drawn])
    style = {seat["seat"]: i for i, seat in enumerate(chart["seats"])}  # a seat looks the same in both charts
    for index, seat in enumerate(drawn):
        nudge = round((index - (len(drawn) - 1) / 2) * NUDGE, 1)
        points = [(x(step), round(y(value) + nudge, 1), step, value) for step, value in seat["points"]]
        out.append(
            _line(
                chart,
                seat,
                style.get(seat["seat"], index),
                points,
                labels[index],
                won,
                marked=len(steps) <= MOST_MARKERS,
                right=right,
            )
        )
    out.append("</svg>")
    return Markup("".join(out))


def _line(chart, seat, index, points, label_y, won, marked, right):
    """One seat's line: its dash, its markers (each with the value in a tooltip), its name."""
    style = "chart-ghost" if seat["ghost"] else f"chart-seat chart-seat-{index % SEAT_STYLES}"
    dash = "1 4" if seat["ghost"] else DASHES[index % len(DASHES)]
    marker = "ring" if seat["ghost"] else MARKERS[index % len(MARKERS)]
    name = escape(seat["name"])
    out = [
        (
            f'<g class="{style}" fill="none" stroke="currentColor" stroke-width="3" stroke-linejoin="round"'
            f' stroke-linecap="round"><title>{name}</title>'
        )
    ]
    if len(points) > 1:
        out.append(
            f'<polyline points="{" ".join(f"{px},{py}" for px, py, _, _ in points)}"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + "/>"
        )
    for px, py, step, value in points if marked else points[-1:]:
        tip = f"{seat['name']}: {value} {_when(chart['steps'][step]).lower()}"
        out.append(f'<path d="{_marker(marker, px, py)}"{_marker_paint(marker)}><title>{escape(tip)}</title></path>')
        if (step, seat["seat"]) in won:
            out.append(f'<circle class="chart-won" cx="{px}" cy="{py}" r="8" stroke-width="1.5"/>')
    label = _label(seat["name"], points[-1][3], right - LABEL_X - LABEL_EDGE)
    out.append(
        f'<text x="{WIDTH - right + LABEL_X}" y="{label_y + 5}" fill="currentColor" stroke="none"'
        f' font-size="{LABEL_SIZE}" font-weight="700">{escape(label)}</text></g>'
    )
    return "".join(out)


# --- the names at the line ends -----------------------------------------------------------

LABEL_SIZE = 15
# Advance widths in em, a little over DejaVu Sans Bold's (the page's last font before
# sans-serif, wider than the system fonts before it), so a name measured here fits in any.
_EM = {
    **dict.fromkeys("iljI.,:;'|!", 0.38),
    **dict.fromkeys("ftr-()", 0.52),
    **dict.fromkeys("mwMW@%", 1.1),
    **dict.fromkeys("0123456789", 0.7),
    " ": 0.35,
    "…": 1.0,
}


def _width(text, size=LABEL_SIZE):
    return size * sum(_EM.get(c, 0.86 if c.isupper() else 0.72) for c in text)


def _label(name, value, room):
    """ "Name 12": the name whole up to NAME_CHARS, else cut with "…", and cut more only if
    even the widest margin has no room for it."""
    short = name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"
    while _width(f"{short} {value}") > room and len(short.removesuffix("…")) > 1:
        short = short.removesuffix("…")[:-1].rstrip() + "…"
    return f"{short} {value}"


def _right_margin(chart):
    """Room at the right edge for the widest name and value of either drawing."""
    ends = [
        (seat["name"], seat["points"][-1][1])
        for kind in ("seats", "preliminary")
        for seat in chart[kind]
        if seat["points"]
    ]
    widest = max((_width(_label(name, value, math.inf)) for name, value in ends), default=0)
    return min(MAX_RIGHT, max(MIN_RIGHT, math.ceil(widest) + LABEL_X + LABEL_EDGE))


def _marker(kind, x, y, r=4.5):
    if kind in ("circle", "ring"):
        return f"M{x - r},{y}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0"
    if kind == "square":
        return f"M{x - r},{y - r}h{2 * r}v{2 * r}h{-2 * r}z"
    if kind in ("triangle", "down"):
        tip = -1.2 * r if kind == "triangle" else 1.2 * r
        return f"M{x},{round(y + tip, 1)}L{round(x + 1.1 * r, 1)},{round(y - tip * 0.7, 1)}L{round(x - 1.1 * r, 1)},{round(y - tip * 0.7, 1)}z"
    if kind == "diamond":
        d = round(1.3 * r, 1)
        return f"M{x},{round(y - d, 1)}L{round(x + d, 1)},{y}L{x},{round(y + d, 1)}L{round(x - d, 1)},{y}z"
    if kind == "cross":
        return f"M{x - r},{y - r}L{x + r},{y + r}M{x + r},{y - r}L{x - r},{y + r}"
    return f"M{x - r},{y}H{x + r}M{x},{y - r}V{y + r}"  # plus


def _marker_paint(kind):
    # Filled shapes need no outline; crosses, pluses and rings are drawn by their stroke.
    return ' stroke-width="2"' if kind in ("cross", "plus", "ring") else ' fill="currentColor" stroke="none"'


def _scale(values):
    """(low, high, grid step): whole numbers, 0 always in view, at most six grid lines."""
    low, high = min([0] + values), max([1] + values)
    every = next(n for n in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9) if (high - low) / n <= 5)
    return math.floor(low / every) * every, math.ceil(high / every) * every, every


def _spread(ys):
    """The names' heights at the right edge: each at its line's end, pushed apart."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = list(ys)
    for above, below in itertools.pairwise(order):
        placed[below] = max(placed[below], placed[above] + LABEL_GAP)
    limit = HEIGHT - BOTTOM
    for i in reversed(order):
        placed[i] = min(placed[i], limit)
        limit = placed[i] - LABEL_GAP
    return placed


def _tick(label, step):
    """ "Start" is 0 along the bottom, "Round 3" is 3, a game under way ends on "now"."""
    if step == 0 and label == "Start":
        return "0"
    if label.endswith("so far"):
        return "now"
    return label.rsplit(" ", 1)[-1]


# --- the same in words --------------------------------------------------------------------


def words(chart):
    """Who led after each step and where the lead changed, in a few sentences."""
    names = {seat["seat"]: seat["name"] for seat in chart["seats"]}
    steps, measure = chart["steps"], chart["measure"]
    if not steps:
        return "Nothing has been scored yet."
    out = []
    if chart["line"] is not None and chart["game"] in GOALS:
        out.append(GOALS[chart["game"]].format(n=chart["line"]))
    seated = {}
    for seat in chart["seats"]:
        for step, _ in seat["points"]:
            seated[step] = seated.get(step, 0) + 1
        if seat["points"] and seat["points"][0][0] > 0:
            out.append(f"{seat['name']} joined partway: their line begins at {steps[seat['points'][0][0]].lower()}.")
    changed = {row["step"] for row in chart["lead_changes"]}
    round_won = {step: seats for step, seats in chart["round_winners"]}
    last, before, level = len(steps) - 1, None, False
    for row in chart["leaders"]:
        step, who, amount = row["step"], _and([names[s] for s in row["seats"]]), _amount(row["value"], measure)
        if step in round_won:
            out.append(f"{steps[step]} went to {_and([names.get(s, 'a player who left') for s in round_won[step]])}.")
        told = len(steps) <= MOST_STEPS_IN_WORDS or step in changed or step == last
        if told:
            when = _when(steps[step])
            if len(row["seats"]) > 1 and len(row["seats"]) == seated.get(step):
                out.append(f"{when} everyone was level on {amount}.")
            elif len(row["seats"]) > 1:
                out.append(f"{when} {who} {'were' if step in changed else 'were still'} level at the top on {amount}.")
            elif step not in changed:
                out.append(f"{when} {who} still led with {amount}.")
            elif before and row["seats"][0] in before and not level:
                out.append(f"{when} {who} pulled ahead with {amount}.")
            else:
                out.append(f"{when} {who} {'led' if before is None else 'took the lead'} with {amount}.")
        before, level = row["seats"], len(row["seats"]) > 1 and len(row["seats"]) == seated.get(step)
    if any(seat["ghost"] for seat in chart["preliminary"]):
        out.append(
            "The ghost's preliminary points are drawn apart, with the players' preliminary points: "
            "she never banks real points and never wins."
        )
    if chart["note"]:
        out.append(chart["note"])
    elif chart["finished"] and chart["winners"]:
        top = max(
            (v for seat in chart["seats"] if seat["seat"] in chart["winners"] for _, v in seat["points"][-1:]),
            default=None,
        )
        out.append(
            f"{_and([names.get(s, 'a player who left') for s in chart['winners']])} won"
            + (f" with {_amount(top, measure)}." if top is not None else ".")
        )
    elif chart["finished"]:
        out.append("Nobody won.")
    return " ".join(out)


def _when(label):
    if label == "Start":
        return "At the start"
    if label.endswith(" so far"):
        return f"So far in {label[: -len(' so far')].lower()}"
    return f"After {label.lower()}"


def _amount(value, measure):
    return f"{value} {measure[:-1] if abs(value) == 1 and measure.endswith('s') else measure}"


def _and(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
