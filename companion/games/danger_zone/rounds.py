"""The round's flow: the next phase, token reveals, and where the Initiative Token goes."""

from ..base import RuleError, find_seat, next_clockwise, seat_ids, seat_name
from .state import _new_mission, first_at, setup_problems
from .guards import _game_over_message, _require_phase
from .mission import _race_point
from .rules import CONTROL_ROOM, RECEPTION, SETUP


def _apply_next(state, data):
    if state["winners"]:
        raise RuleError(_game_over_message(state))
    if data["round"] != state["round"] or data["phase"] != state["phase"]:
        raise RuleError("The table has already moved on; here is where it is now.")
    phase = state["phase"]
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
    state["mission"] = _new_mission()
    state["round_initiative"] = state["initiative"]


def _pass_initiative(state):
    """Clean-up: where the Initiative Token goes for the next round."""
    holder = state["initiative"]
    if holder not in seat_ids(state):
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
            raise RuleError(f"{seat_name(state, seat)} already entered {entry['location']} "
                            "this round.")
    foes = sum(1 for e in state["entries"] if e["location"] == location)
    state["entries"].append({"seat": seat, "location": location, "first": foes == 0,
                             "foes_here": foes})
    if foes == 0 and location == RECEPTION:
        state["initiative"] = seat
        state["initiative_why"] = {"rule": "reception"}
    elif foes == 0 and location == CONTROL_ROOM:
        state["mission_leader"] = seat
        state["mission_leader_why"] = {"rule": "control_room"}
