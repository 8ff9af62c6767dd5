"""The Mission: completed and failed Challenges, Events, and the win at 20 Upper Hand."""

from ..base import RuleError, find_seat, seat_ids, seat_name
from .events import event_outcome
from .guards import _require_phase, _require_playing
from .rules import (
    CHALLENGE_TYPES,
    EVENTS,
    LOWEST_UPPER_HAND,
    MALORYS_OFFICE,
    MAX_DIFFICULTY,
    MAX_REWARD,
    MIN_DIFFICULTY,
    MIN_REWARD,
    WINNING_UPPER_HAND,
)
from .state import challenges_to_draw


def _apply_complete(state, data, event, correction=False):
    """A completed Challenge. Each player rolls against one Challenge per Mission; the host's
    correction (challenge.correct) is the logged way past that."""
    _require_phase(state, "Mission", "Challenges are completed in the Mission phase.")
    seat = data["seat"]
    find_seat(state, seat)
    if not correction:
        _require_first_roll(state, seat)
    if data["type"] not in CHALLENGE_TYPES:
        raise RuleError("Pick a Challenge type.")
    if not MIN_DIFFICULTY <= data["difficulty"] <= MAX_DIFFICULTY:
        raise RuleError(f"The difficulty must be between {MIN_DIFFICULTY} and {MAX_DIFFICULTY}.")
    if not MIN_REWARD <= data["reward"] <= MAX_REWARD:
        raise RuleError(f"The Upper Hand reward must be between {MIN_REWARD} and {MAX_REWARD}.")
    mission = state["mission"]
    limit = challenges_to_draw(len(state["seats"]))
    if mission["completed"] >= limit:
        raise RuleError(f"All {limit} Challenges of this Mission are already completed.")
    if mission["cards"]:
        index = _match_card(mission["cards"], data)
        mission["cards"][index]["done_by"] = seat
    mission["completed"] += 1
    _mark_attempted(state, seat)
    card = {
        "type": data["type"],
        "difficulty": data["difficulty"],
        "reward": data["reward"],
        "color": data.get("color") or "",
        "round": state["round"],
    }
    state["challenges"].setdefault(seat, []).append(card)
    state["upper_hand"][seat] += data["reward"]
    state["last_change"] = {
        "seat": seat,
        "delta": data["reward"],
        "reason": "Challenge",
        "by": event["by"],
        "event": event["id"],
    }
    _check_win(state)


def _match_card(cards, data):
    """The Mission card being completed: the one named, else the first open one alike."""
    wanted = (data["type"], data["difficulty"], data["reward"])
    index = data.get("card")
    if index is not None:
        if not 0 <= index < len(cards):
            raise RuleError("There is no such Challenge card in this Mission.")
        if cards[index]["done_by"] is not None:
            raise RuleError("That Challenge is already completed.")
        return index
    for i, card in enumerate(cards):
        if card["done_by"] is None and (card["type"], card["difficulty"], card["reward"]) == wanted:
            return i
    raise RuleError("That Challenge is not among this Mission's open cards.")


def _require_first_roll(state, seat):
    if seat in state["mission"]["attempted"]:
        done = next((c for c in state["mission"]["cards"] if c["done_by"] == seat), None)
        what = f"completed {done['type']} {done['difficulty']}" if done else "already rolled"
        raise RuleError(
            f"{seat_name(state, seat)} {what} in this Mission, and each player "
            "rolls against one Challenge. Undo that entry, or the host records "
            "a correction."
        )


def _apply_fail(state, data):
    _require_phase(state, "Mission", "Challenges are rolled in the Mission phase.")
    find_seat(state, data["seat"])
    _require_first_roll(state, data["seat"])
    _mark_attempted(state, data["seat"])


def _mark_attempted(state, seat):
    if seat not in state["mission"]["attempted"]:
        state["mission"]["attempted"].append(seat)


def roll_problem(state, data):
    """Why a roll "for" something the rules give one roll each cannot be made now, or None.

    The foes: one die per foe already at the seat's Location, once per reveal. A Challenge:
    one roll per player per Mission. parse and apply both ask, so a doubled tap is refused."""
    purpose, seat = data.get("for"), data.get("seat")
    if purpose is None:
        return None
    name = seat_name(state, seat)
    if purpose == "foes":
        if state["phase"] != "Movement":
            return "The dice for the foes are rolled in the Movement phase."
        entry = next((e for e in state["entries"] if e["seat"] == seat), None)
        if entry is None:
            return f"{name} has not revealed a Location yet."
        if not entry["foes_here"]:
            return f"{name} entered {entry['location']} first: there are no foes to roll for."
        if seat in state["foes_rolled"]:
            return f"{name} already rolled for the foes at {entry['location']} this round."
        return None
    if state["phase"] != "Mission" or state["winners"]:
        return "Challenge dice are rolled in the Mission phase."
    if seat in state["mission"]["attempted"] or seat in state["mission"].get("rolled", []):
        return f"{name} already rolled for a Challenge in this Mission; each player rolls once."
    return None


def _apply_roll(state, data):
    """A roll of the app's dice; one "for" the foes or a Challenge is counted as that seat's."""
    problem = roll_problem(state, data)
    if problem:
        raise RuleError(problem)
    if data.get("for") == "foes":
        state["foes_rolled"].append(data["seat"])
    elif data.get("for") == "challenge":
        state["mission"].setdefault("rolled", []).append(data["seat"])


def _apply_event(state, kind, data, event):
    _require_playing(state)
    if MALORYS_OFFICE not in state["locations"]:
        raise RuleError(f"Event cards come from {MALORYS_OFFICE}, which is not in play.")
    outcome = event_outcome(state, kind, data)
    applied = []
    for change in outcome["changes"]:
        now = state["upper_hand"][change["seat"]]
        new = max(LOWEST_UPPER_HAND, now + change["delta"])
        state["upper_hand"][change["seat"]] = new
        applied.append({"seat": change["seat"], "delta": new - now})
    state["last_event"] = {
        "kind": kind,
        "name": EVENTS[kind],
        "drawer": data["drawer"],
        "changes": applied,
        "event": event["id"],
        "round": state["round"],
    }
    _check_win(state)


def _check_win(state):
    """Reaching 20 ends the game at once; the highest at or past 20 wins."""
    reached = {s: n for s, n in state["upper_hand"].items() if n >= WINNING_UPPER_HAND}
    if reached and not state["winners"]:
        top = max(reached.values())
        state["winners"] = [s for s in seat_ids(state) if reached.get(s) == top]
        state["race"].append(_race_point(state, state["round"]))


def _race_point(state, number):
    return {"round": number, "upper_hand": dict(state["upper_hand"])}
