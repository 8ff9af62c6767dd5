"""The round's flow: the next phase, token reveals, and where the two tokens go.

Reveals may be recorded in any tap order (a phone taps early, the host records a late one),
but "first at a Location", the dice for foes and the tokens follow the reveal order: the
entries are kept sorted by it and everything derived is recomputed on each reveal."""

from ..base import RuleError, find_seat, next_clockwise, seat_ids, seat_name
from .guards import _game_over_message, _require_phase, _require_playing
from .mission import _race_point
from .rules import CONTROL_ROOM, RECEPTION, SETUP, TOKENS
from .state import _new_mission, first_at, pending, reveal_order, setup_problems


def _apply_next(state, data, event):
    if state["winners"]:
        raise RuleError(_game_over_message(state))
    if data["round"] != state["round"] or data["phase"] != state["phase"]:
        raise RuleError("The table has already moved on; here is where it is now.")
    phase = state["phase"]
    # Who was skipped, as the table stands now (an undo may have changed it since the tap).
    skipped = [s for s in data.get("forced") or [] if s in pending(state)]
    state["forced"] = {"phase": phase, "seats": skipped, "by": event["by"]} if skipped else None
    if phase == SETUP:
        problems = setup_problems(state)
        if problems:
            raise RuleError(problems[0])
        state["race"] = [_race_point(state, 0)]
        _begin_round(state, 1)
    elif phase == "Movement":
        leader = data["leader"]
        if not leader:
            raise RuleError("The Mission Leader was not decided.")
        find_seat(state, leader["seat"])
        state["mission_leader"] = leader["seat"]
        state["mission_leader_why"] = {k: v for k, v in leader.items() if k != "seat"}
        state["phase"] = "Mission"
        state["mission"] = _new_mission()
        state["mission"]["leader"] = leader["seat"]
    elif phase == "Mission":
        state["phase"] = "Clean-up"
        _pass_initiative(state)
    else:
        state["race"].append(_race_point(state, state["round"]))
        _begin_round(state, state["round"] + 1)


def _begin_round(state, number):
    state["round"] = number
    state["phase"] = "Movement"
    state["entries"] = []
    state["foes_rolled"] = []
    state["mission"] = _new_mission()
    state["by_hand"] = []
    state["round_initiative"] = state["initiative"]
    state["round_initiative_why"] = state["initiative_why"]
    state["round_mission_leader"] = state["mission_leader"]
    state["round_mission_leader_why"] = state["mission_leader_why"]


def _pass_initiative(state):
    """Clean-up: where the Initiative Token goes for the next round. A token moved by hand
    this round stays put: the card that moved it has the last word (the Golden Rule)."""
    holder = state["initiative"]
    if holder not in seat_ids(state) or "initiative" in state["by_hand"]:
        return
    if RECEPTION not in state["locations"]:
        state["initiative"] = next_clockwise(state, holder)
        state["initiative_why"] = {"rule": "passed_left", "from": holder}
    elif first_at(state, RECEPTION) is None:
        state["initiative_why"] = {"rule": "kept"}
    else:
        state["initiative"] = first_at(state, RECEPTION)
        state["initiative_why"] = {"rule": "reception"}


def _apply_enter(state, data):
    _require_phase(state, "Movement", "Tokens are revealed in the Movement phase.")
    seat, location = data["seat"], data["location"]
    find_seat(state, seat)
    if location not in state["locations"]:
        raise RuleError(f"{location} is not in play this game.")
    for entry in state["entries"]:
        if entry["seat"] == seat:
            raise RuleError(f"{seat_name(state, seat)} already entered {entry['location']} this round.")
    state["entries"].append({"seat": seat, "location": location, "first": False, "foes_here": 0})
    _resolve_movement(state)


def _resolve_movement(state):
    """Sort the round's reveals into reveal order and recompute what follows from it: who is
    first at each Location, how many foes each player found there, and the two tokens."""
    if state["phase"] != "Movement":
        return
    position = {seat: i for i, seat in enumerate(reveal_order(state))}
    state["entries"] = [e for e in state["entries"] if e["seat"] in position]
    state["entries"].sort(key=lambda e: position[e["seat"]])
    seen = {}
    for entry in state["entries"]:
        entry["foes_here"] = seen.get(entry["location"], 0)
        entry["first"] = entry["foes_here"] == 0
        seen[entry["location"]] = entry["foes_here"] + 1
    # Each token: the first into its Location takes it; if nobody has (yet), whoever held
    # it as the round began. A token moved by hand this round is left where it was put.
    for key, location in (("initiative", RECEPTION), ("mission_leader", CONTROL_ROOM)):
        if key in state["by_hand"] or location not in state["locations"]:
            continue
        first = first_at(state, location)
        if first is not None:
            rule = "reception" if key == "initiative" else "control_room"
            state[key], state[key + "_why"] = first, {"rule": rule}
        else:
            state[key] = state["round_" + key]
            state[key + "_why"] = state["round_" + key + "_why"]


def _apply_token_move(state, data):
    _require_playing(state)
    if data["token"] not in TOKENS:
        raise RuleError("Pick the Initiative Token or the Mission Leader Token.")
    find_seat(state, data["seat"])
    state[data["token"]] = data["seat"]
    state[data["token"] + "_why"] = {"rule": "by_hand"}
    if data["token"] not in state["by_hand"]:
        state["by_hand"].append(data["token"])
