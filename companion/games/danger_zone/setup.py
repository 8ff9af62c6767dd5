"""Setup moves: the roster's effect on the table, and character picks."""

from ..base import RuleError, find_seat, seat_ids, seat_name
from .rounds import _resolve_movement
from .rules import CHARACTERS, MAX_SEATS, SETUP, START_UPPER_HAND, TITLE


def _apply_roster(state, kind, data):
    ids = seat_ids(state)
    if kind == "seat.join":
        if len(ids) > MAX_SEATS:
            raise RuleError(f"{TITLE} seats at most {MAX_SEATS} players.")
        state["upper_hand"].setdefault(data["seat"], START_UPPER_HAND)
        state["challenges"].setdefault(data["seat"], [])
    elif kind == "seat.remove":
        gone = data["seat"]
        for per_seat in ("character", "upper_hand", "challenges"):
            state[per_seat].pop(gone, None)
        state["entries"] = [e for e in state["entries"] if e["seat"] != gone]
        state["mission"]["attempted"] = [s for s in state["mission"]["attempted"] if s != gone]
        state["winners"] = [s for s in state["winners"] if s != gone]
        # A token held by a leaving player goes to the next player on their left.
        for key in ("initiative", "round_initiative"):
            if state[key] == gone:
                state[key] = _next_remaining(state["order"], gone, ids)
        if state["mission_leader"] == gone:
            state["mission_leader"], state["mission_leader_why"] = None, None
        if state["round_mission_leader"] == gone:
            state["round_mission_leader"], state["round_mission_leader_why"] = None, None
        if state["mission"].get("leader") == gone:
            # The Mission goes on from the next player on the leaver's left.
            state["mission"]["leader"] = _next_remaining(state["order"], gone, ids)
    state["order"] = ids
    if kind in ("seat.remove", "seat.reorder"):
        _resolve_movement(state)  # the reveal order may have changed


def _next_remaining(old_order, gone, ids):
    if gone not in old_order:
        return ids[0] if ids else None
    start = old_order.index(gone)
    for step in range(1, len(old_order)):
        candidate = old_order[(start + step) % len(old_order)]
        if candidate in ids:
            return candidate
    return None


def _apply_pick(state, data):
    seat, character = data["seat"], data["character"]
    find_seat(state, seat)
    if character not in CHARACTERS:
        raise RuleError("Pick one of the eight characters.")
    if state["phase"] != SETUP and state["character"].get(seat):
        raise RuleError("Characters are fixed once the first round has started.")
    for other, taken in state["character"].items():
        if taken == character and other != seat:
            raise RuleError(f"{seat_name(state, other)} already plays {character}.")
    state["character"][seat] = character
