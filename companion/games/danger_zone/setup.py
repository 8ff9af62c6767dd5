"""Setup moves: the roster's effect on the table, and character picks."""

from ..base import RuleError, find_seat, seat_ids, seat_name
from .dice import SIDES
from .rounds import _resolve_movement
from .rules import CHARACTERS, INITIATIVE_DICE, MAX_SEATS, SETUP, START_UPPER_HAND, TITLE
from .state import _name, initiative_rolloff


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
    if kind == "seat.remove":
        state["initiative_rolls"] = [r for r in state.get("initiative_rolls", []) if r["seat"] != gone]
        _settle_rolloff(state)  # the one who left may have been all the roll-off waited for


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


def _apply_seat_roll(state, data):
    """A seat's own roll in the Initiative roll-off: it counts in the round it was rolled for,
    and settles the token once every contender of a round has rolled and one is highest."""
    if state["phase"] != SETUP:
        raise RuleError("The Initiative roll-off happens before the first round.")
    seat = data["seat"]
    find_seat(state, seat)
    if state["initiative"] is not None:
        raise RuleError(f"The Initiative is settled: {_name(state, state['initiative'])} holds the token.")
    faces = data.get("dice")
    if (
        not isinstance(faces, list)
        or len(faces) != INITIATIVE_DICE
        or any(not isinstance(f, int) or not 1 <= f <= SIDES for f in faces)
        or data.get("total") != sum(faces)
    ):
        raise RuleError(f"An Initiative roll is {INITIATIVE_DICE} dice.")
    status = initiative_rolloff(state)
    if seat not in status["waiting"] or data.get("round") != status["round"]:
        raise RuleError(f"{seat_name(state, seat)} does not roll in this round of the roll-off.")
    state.setdefault("initiative_rolls", []).append(
        {"seat": seat, "round": data["round"], "dice": list(faces), "bonus": 0, "total": data["total"]}
    )
    _settle_rolloff(state)


def _settle_rolloff(state):
    """The seats' roll-off, once decided, hands out the Initiative Token."""
    if state["phase"] != SETUP or state["initiative"] is not None or not state.get("initiative_rolls"):
        return
    status = initiative_rolloff(state)
    if status["winner"] is not None:
        state["initiative"] = status["winner"]
        state["initiative_why"] = {
            "rule": "rolloff",
            "by_seats": True,
            "rolloff": {"rounds": status["rounds"], "winner": status["winner"]},
        }
