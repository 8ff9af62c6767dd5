"""Checks shared by parse and apply: which phase the table is in, and whether it is over."""

from ..base import RuleError, seat_name
from .rules import MAX_SEATS, MIN_SEATS, SETUP, START_UPPER_HAND, TITLE, WINNING_UPPER_HAND


def _require_setup(state, message):
    if state["phase"] != SETUP:
        raise RuleError(message)


def _require_seat_count(state):
    count = len(state["seats"])
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise RuleError(f"{TITLE} needs {MIN_SEATS} to {MAX_SEATS} players; this table has {count}.")


def _require_playing(state):
    if state["winners"]:
        raise RuleError(_game_over_message(state))
    if state["phase"] == SETUP:
        raise RuleError(f"The game has not started yet; everyone is at {START_UPPER_HAND} Upper Hand.")


def _require_phase(state, phase, message):
    _require_playing(state)
    if state["phase"] != phase:
        raise RuleError(f"{message} It is the {state['phase']} phase now.")


def _game_over_message(state):
    names = " and ".join(seat_name(state, s) for s in state["winners"])
    return f"The game is over: {names} reached {WINNING_UPPER_HAND} Upper Hand. Undo the last change to play on."
