"""Age of Assassins table state: a fresh table and the questions asked of it (read only)."""

from ..base import clockwise_from, seat_name
from . import deck
from .rules import GHOST, GHOST_AT, MAX_SEATS, MIN_SEATS, PICKS, ROWS, TIE_BREAK_SENTENCE

# ---- state -------------------------------------------------------------------------------


def _fresh_ghost():
    # face_down: her three rear cards, known once the rear rows turn over (typed or app-drawn);
    # returned: real points she gained this round, which go straight back to the stock.
    return {
        "face_up": None,
        "source": None,
        "three_magicians": False,
        "redeals": 0,
        "preliminary": 0,
        "killed": False,
        "face_down": None,
        "face_down_source": None,
        "returned": 0,
        "extras": [],
    }


def new_state(options=None):
    return {
        "seats": [],
        "round": 1,
        "phase": "playing",  # "playing" or "ended"
        "started": False,  # set by the first game event: seats may join only before it
        "resolve_number": None,  # None while drafting, then the card number being resolved
        "real": {},
        "preliminary": {},
        "killed": {},
        "penalty_chips": {},
        "picks": {},  # seat -> [{"row", "card"}] this round
        "round_real": {},  # seat -> real points gained by card effects this round
        "forced": None,  # {"by": name, "seats": [ids]}: resolving began before they finished
        "tie_seat": None,  # the tie-break's reference seat; None means the first seat
        "ghost": _fresh_ghost(),
        "history": [],  # one entry per banked round
    }


def has_ghost(state):
    return len(state["seats"]) == GHOST_AT


def seat_problem(state):
    """Why play cannot go on with this roster, or None when it can."""
    count = len(state["seats"])
    if count < MIN_SEATS or count > MAX_SEATS:
        return f"Age of Assassins is for {MIN_SEATS} or {MAX_SEATS} players; this table has {count}."
    return None


def picks_left(state, seat_id):
    return PICKS - len(state["picks"].get(seat_id, []))


def row_counts(state, seat_id):
    picks = state["picks"].get(seat_id, [])
    return {row: sum(1 for p in picks if p["row"] == row) for row in ROWS}


def revealed(state):
    """How many picks every seat has made: picks up to here are shown; a later one waits."""
    if not state["seats"]:
        return 0
    return min(len(state["picks"].get(s["id"], [])) for s in state["seats"])


def waiting_for(state):
    """Seats still to make the current pick while someone already has (the reveal waits on them)."""
    shown = revealed(state)
    ids = [s["id"] for s in state["seats"]]
    if not any(len(state["picks"].get(i, [])) > shown for i in ids):
        return []
    return [i for i in ids if len(state["picks"].get(i, [])) == shown]


def still_picking(state):
    """Seats with picks left, once the table uses the draft helper this round (else nobody)."""
    if not any(state["picks"].get(s["id"]) for s in state["seats"]):
        return []
    return [s["id"] for s in state["seats"] if picks_left(state, s["id"]) > 0]


def names(state, ids):
    """ "Ana", "Ana and Bo", "Ana, Bo and Cy"."""
    found = [seat_name(state, i) for i in ids]
    if len(found) < 2:
        return "".join(found)
    return ", ".join(found[:-1]) + " and " + found[-1]


def tie_reference(state):
    """The seat the tie-break counts from: the host's choice, else the first seat."""
    ids = [s["id"] for s in state["seats"]]
    if state.get("tie_seat") in ids:
        return state["tie_seat"]
    return ids[0] if ids else None


def tie_break_text(state):
    ref = tie_reference(state)
    return TIE_BREAK_SENTENCE.format(ref=seat_name(state, ref) if ref is not None else "the first seat")


def tie_winner(state, tied):
    """Of the tied seats, the one met first going anti-clockwise from the reference seat (itself last)."""
    order = clockwise_from(state, tie_reference(state))
    return [i for i in order if i in tied][-1]


def ghost_cards(state):
    """Every card of the ghost's known so far (face up, then face down)."""
    g = state["ghost"]
    return list(g["face_up"] or []) + list(g["face_down"] or [])


def ghost_holds_three(state):
    """All seven known and three (or more) count as Magicians: their effect kills nobody."""
    return (
        state["ghost"]["face_down"] is not None
        and deck.magician_count(ghost_cards(state)) >= deck.MAGICIANS_THAT_MISFIRE
    )


def standings(state):
    """Seat ids tied for the most real points, in seat order."""
    ids = [s["id"] for s in state["seats"]]
    if not ids:
        return []
    top = max(state["real"].get(i, 0) for i in ids)
    return [i for i in ids if state["real"].get(i, 0) == top]


def outcome(state):
    """Who won, once the game has ended (None before): {"winner", "dog", "tied", "text"}.

    Worked out from the current seat order, so a host fixing the order fixes the result.
    """
    if state["phase"] != "ended":
        return None
    ids = [s["id"] for s in state["seats"]]
    tied = standings(state)
    if not ids or len(tied) == len(ids):
        return {"winner": None, "dog": True, "tied": tied, "text": "Everyone has the same real points: the dog wins!"}
    winner = tie_winner(state, tied)
    name = seat_name(state, winner)
    if len(tied) == 1:
        text = f"{name} wins with {state['real'][winner]} real points."
    else:
        text = f"{name} wins the tie on {state['real'][winner]} real points."
    return {
        "winner": winner,
        "dog": False,
        "tied": tied,
        "text": text,
        "tie_break": tie_break_text(state) if len(tied) > 1 else None,
        "reference": seat_name(state, tie_reference(state)),
    }


def _target_name(state, target):
    return "The ghost" if target == GHOST else seat_name(state, target)


def step_now(state):
    """The step a tap belongs to, as the game counts it: the round's draft, or the number being
    resolved. Every form names it (games.base.check_named_step), so points, a kill or a pick
    kept through a lost connection never land on a later number or round."""
    if state["phase"] == "ended":
        return "the end of the game"
    if state["resolve_number"] is None:
        return f"the draft of round {state['round']}"
    return f"number {state['resolve_number']} of round {state['round']}"
