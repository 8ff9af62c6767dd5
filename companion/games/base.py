"""What every game module shares: the error a player sees, the seat roster, seat order.

A table's state is a plain dict owned by its game module. The roster lives in
state["seats"]: a list of {"id": int, "name": str, "phone": bool} in clockwise order.
The core applies roster events (ROSTER_KINDS) with `apply_roster` before handing every
event, roster ones included, to the game's own `apply`, so a game can set up or tidy
per-seat data when seats come and go.

An event is {"id": int, "kind": str, "by": actor, "data": dict, "at": str}, where actor is
{"role": "host" | "seat", "seat": int | None}.
"""

import copy

ROSTER_KINDS = {"seat.join", "seat.rename", "seat.remove", "seat.reorder"}


class RuleError(ValueError):
    """A move the rules (or the app's readings) refuse; its text is shown to the player."""


def apply_roster(state, event):
    """Return a new state with the seat list changed by one roster event."""
    state = copy.deepcopy(state)
    seats = state["seats"]
    data = event["data"]
    kind = event["kind"]
    if kind == "seat.join":
        seats.append({"id": data["seat"], "name": data["name"], "phone": bool(data.get("phone", True))})
    elif kind == "seat.rename":
        find_seat(state, data["seat"])["name"] = data["name"]
    elif kind == "seat.remove":
        find_seat(state, data["seat"])
        state["seats"] = [s for s in seats if s["id"] != data["seat"]]
    elif kind == "seat.reorder":
        order = list(data["order"])
        if sorted(order) != sorted(s["id"] for s in seats):
            raise RuleError("The new order must list every seat exactly once.")
        by_id = {s["id"]: s for s in seats}
        state["seats"] = [by_id[i] for i in order]
    return state


def find_seat(state, seat_id):
    for seat in state["seats"]:
        if seat["id"] == seat_id:
            return seat
    raise RuleError("There is no such seat at this table.")


def seat_ids(state):
    return [s["id"] for s in state["seats"]]


def seat_name(state, seat_id):
    return find_seat(state, seat_id)["name"]


def clockwise_from(state, seat_id, skip=()):
    """Seat ids in clockwise order starting at seat_id, leaving out those in skip."""
    ids = seat_ids(state)
    start = ids.index(seat_id)
    return [i for i in ids[start:] + ids[:start] if i not in skip]


def next_clockwise(state, seat_id, skip=()):
    """The next seat to the left (clockwise) of seat_id that is not in skip, or None."""
    ids = seat_ids(state)
    start = ids.index(seat_id)
    for step in range(1, len(ids) + 1):
        candidate = ids[(start + step) % len(ids)]
        if candidate not in skip:
            return candidate
    return None


def parse_int(value, label, low, high):
    """A whole number from a form field, within [low, high], or a RuleError saying why not."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise RuleError(f"{label} must be a whole number.") from None
    if not low <= number <= high:
        raise RuleError(f"{label} must be between {low} and {high}.")
    return number
