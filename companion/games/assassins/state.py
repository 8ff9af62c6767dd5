"""Age of Assassins table state: a fresh table and the questions asked of it (read only)."""

from ..base import seat_name
from .rules import GHOST, GHOST_AT, MAX_SEATS, MIN_SEATS, PICKS, ROWS

# ---- state -------------------------------------------------------------------------------

def _fresh_ghost():
    return {"face_up": None, "source": None, "three_magicians": False, "redeals": 0,
            "preliminary": 0, "killed": False}


def new_state(options=None):
    return {
        "seats": [],
        "round": 1,
        "phase": "playing",       # "playing" or "ended"
        "started": False,         # set by the first game event: seats may join only before it
        "resolve_number": None,   # None while drafting, then the card number being resolved
        "real": {},
        "preliminary": {},
        "killed": {},
        "penalty_chips": {},
        "picks": {},              # seat -> [{"row", "card"}] this round
        "ghost": _fresh_ghost(),
        "history": [],            # one entry per banked round
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
    winner = tied[-1]   # last in clockwise order from the first seat (the app's reading)
    name = seat_name(state, winner)
    if len(tied) == 1:
        text = f"{name} wins with {state['real'][winner]} real points."
    else:
        text = f"{name} wins the tie on {state['real'][winner]} real points, coming last clockwise from the first seat."
    return {"winner": winner, "dog": False, "tied": tied, "text": text}


def _target_name(state, target):
    return "The ghost" if target == GHOST else seat_name(state, target)

