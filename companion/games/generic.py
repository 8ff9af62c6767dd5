"""A plain scoreboard: a number per seat, changed by taps with a reason.

It stands in for any game whose own module has not landed, and shows the module contract
in its smallest form (see companion/games/__init__.py).
"""

import copy

from .base import ROSTER_KINDS, RuleError, find_seat, parse_int, seat_name

SLUG = "generic"
TITLE = "Scoreboard"
MIN_SEATS, MAX_SEATS = 1, 12
HOST_ONLY = set()
KINDS = ("score",)
SHARED, NOT_SHARED = {"score"}, set()  # what the tablet may post for a seat (games.base)
REASONS = ("Points", "Insult", "Bonus", "Penalty", "Correction")
MAX_STEP = 99


def new_state(options=None):
    return {"seats": [], "score": {}, "last_change": None}


def parse(kind, form, state, actor, rng):
    if kind != "score":
        raise RuleError("Unknown action.")
    seat = parse_int(form.get("seat"), "Seat", 0, 2**31)
    find_seat(state, seat)
    delta = parse_int(form.get("delta"), "The amount", -MAX_STEP, MAX_STEP)
    if delta == 0:
        raise RuleError("The amount cannot be zero.")
    reason = (form.get("reason") or REASONS[0]).strip()
    if reason not in REASONS:
        raise RuleError("Pick one of the listed reasons.")
    return {"seat": seat, "delta": delta, "reason": reason}


def apply(state, event):
    kind, data = event["kind"], event["data"]
    if kind == "score":
        # A new state that shares the seats with the old one (a score changes none of them;
        # a roster change copies them, games.base.apply_roster): a tap copies no seat list.
        find_seat(state, data["seat"])
        score = dict(state["score"])
        score[data["seat"]] = score.get(data["seat"], 0) + data["delta"]
        return {
            **state,
            "score": score,
            "last_change": {"seat": data["seat"], "delta": data["delta"], "event": event["id"]},
        }
    state = copy.deepcopy(state)
    if kind == "seat.join":
        state["score"].setdefault(data["seat"], 0)
    elif kind not in ROSTER_KINDS:
        raise RuleError("Unknown action.")
    return state


def describe(before, after, event):
    data = event["data"]
    if event["kind"] == "score":
        return f"{data['delta']:+d} {seat_name(before, data['seat'])}, {data['reason'].lower()}"
    return ""


def view_for(state, viewer):
    return {
        "seats": [{"id": s["id"], "name": s["name"], "score": state["score"].get(s["id"], 0)} for s in state["seats"]],
        "last_change": state["last_change"],
        "reasons": list(REASONS),
    }


def seat_lines(seats, change, skip=None):
    """A phone's lines for the seats but its own (games/generic/_seat_row.html): each seat, with
    this version's change if it is that seat's, so a change renders only the lines it touched."""
    return [
        {"seat": seat, "delta": change["delta"] if change and change["seat"] == seat["id"] else None}
        for seat in seats
        if seat["id"] != skip
    ]
