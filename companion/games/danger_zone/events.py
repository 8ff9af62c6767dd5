"""The Event cards the rulebook clarifies: what each does to the table, and the previews a
confirmation screen shows. apply and the preview share these, so they cannot disagree."""

from ..base import RuleError, clockwise_from, find_seat, seat_ids
from . import dice
from .rules import (
    DIRECTIONS,
    EMBARRASSING_LOSS_PER_PASS,
    MALORYS_OFFICE,
    RONA_THORNE_DRAWER_GAIN,
    RONA_THORNE_GAIN,
    SETUP,
)
from .state import _name, alone_at_location, first_at


def event_outcome(state, kind, data):
    """What an Event does to the table: {"changes": [{"seat", "delta"}], "why", ...}.

    The same function previews the Event on the confirmation screen and applies it, so the
    two cannot disagree. Deltas here are before the floor at 0.
    """
    find_seat(state, data["drawer"])
    if kind == "event.embarrassing_pictures":
        return embarrassing_pictures(state, data["drawer"], data["direction"])
    if kind == "event.rona_thorne":
        return rona_thorne(state, data["drawer"])
    if kind == "event.uta":
        return uta(state, data["drawer"], data["rolls"])
    if kind == "event.woodhouse":
        return woodhouse(state, data["drawer"], data["amount"])
    raise RuleError("Unknown Event.")


def embarrassing_pictures(state, drawer, direction):
    """The card travels from the drawer until it reaches the most Upper Hand; each pass costs 1."""
    upper = state["upper_hand"]
    most = max(upper[s] for s in seat_ids(state))
    if upper[drawer] == most:
        return {
            "changes": [],
            "target": None,
            "passes": 0,
            "why": f"{_name(state, drawer)} has the most Upper Hand, so nobody else saw it",
        }
    path = clockwise_from(state, drawer)
    if direction == "right":
        path = [drawer] + path[1:][::-1]
    passes, target = next((i, s) for i, s in enumerate(path) if i and upper[s] == most)
    loss = passes * EMBARRASSING_LOSS_PER_PASS
    return {
        "changes": [{"seat": target, "delta": -loss}],
        "target": target,
        "passes": passes,
        "why": (
            f"passed {direction} {passes} {'time' if passes == 1 else 'times'} to "
            f"{_name(state, target)}, who loses {loss} Upper Hand"
        ),
    }


def rona_thorne(state, drawer):
    """Everyone tied for the least Upper Hand gains 2; the drawer gains 4 if among them."""
    upper = state["upper_hand"]
    least = min(upper[s] for s in seat_ids(state))
    lowest = [s for s in seat_ids(state) if upper[s] == least]
    changes = [{"seat": s, "delta": RONA_THORNE_DRAWER_GAIN if s == drawer else RONA_THORNE_GAIN} for s in lowest]
    why = ", ".join(f"{_name(state, c['seat'])} +{c['delta']}" for c in changes)
    return {"changes": changes, "lowest": lowest, "why": f"least Upper Hand ({least}): {why}"}


def uta(state, drawer, rolls):
    """Everyone rolls, the drawer adds 1; every seat tied for the lowest loses its total."""
    rolled = {r["seat"] for r in rolls}
    if rolled != set(seat_ids(state)):
        raise RuleError("Uta's rolls do not match the players at the table.")
    lowest = dice.lowest(rolls)
    totals = {r["seat"]: r["total"] for r in rolls}
    changes = [{"seat": s, "delta": -totals[s]} for s in lowest]
    shown = ", ".join(f"{_name(state, r['seat'])} {r['total']}" for r in rolls)
    losers = ", ".join(f"{_name(state, s)} loses {totals[s]}" for s in lowest)
    return {"changes": changes, "lowest": lowest, "why": f"rolls {shown}; {losers}"}


def woodhouse(state, drawer, amount):
    """The table's amount for each player alone at their Location this round."""
    alone = alone_at_location(state)
    changes = [{"seat": s, "delta": amount} for s in alone]
    if not alone:
        return {"changes": [], "alone": [], "why": "nobody is alone at their Location"}
    names = ", ".join(_name(state, s) for s in alone)
    return {"changes": changes, "alone": alone, "why": f"alone: {names} ({amount:+d} each)"}


def event_previews(state):
    """What each Event helper would do now, for its confirmation; None when no Event fits.

    The drawer is whoever entered Malory's Office first this round (None if nobody yet).
    """
    if state["phase"] == SETUP or state["winners"] or MALORYS_OFFICE not in state["locations"]:
        return None
    drawer = first_at(state, MALORYS_OFFICE)
    out = {"drawer": drawer, "alone": alone_at_location(state)}
    if drawer is None:
        return out
    out["embarrassing_pictures"] = {d: embarrassing_pictures(state, drawer, d)["why"] for d in DIRECTIONS}
    out["rona_thorne"] = rona_thorne(state, drawer)["why"]
    return out
