"""Age of Assassins: preliminary and real points, kills, banking, the 15-point end, the ghost.

One folder for the game: rules.py (counts and the ghost's rules), deck.py (card names, deck
lists, the ghost deal), state.py (a fresh table and read-only questions), moves.py (parse and
apply: resolving, points, kills, banking), draft.py (picks and their reveal), ghost.py (the
ghost's cards), view.py (describe, public_data, view_for) and routes.py (the deck-list
screens; the web layer's, found by create_app by its name; nothing here imports it).
"""

from . import deck
from .moves import apply, parse
from .rules import (  # who may post and undo each kind, which any step (games.base)
    ANY_STEP,
    APP_DEAL_STEPS,
    CARD_MAX,
    DOG_READING,
    DRAWN,
    FRONT_ROW,
    GAME_KINDS,
    GHOST,
    GHOST_AT,
    GHOST_RULE,
    GHOST_RULES,
    HOST_ONLY,
    KINDS,
    MAX_SEATS,
    MAX_STEP,
    MIN_SEATS,
    NOT_SHARED,
    PENALTY_CHIPS,
    PHYSICAL_DEAL_STEPS,
    PICKS,
    REAR_ROW,
    REASON_MAX,
    REASONS,
    ROWS,
    SHARED,
    SLUG,
    TIE_BREAK_READING,
    TITLE,
    WHO,
    WIN_AT,
)
from .state import has_ghost, new_state, outcome, picks_left, row_counts, seat_problem, standings, step_now
from .view import describe, public_data, view_for

__all__ = [
    "deck",
    "apply",
    "parse",
    "step_now",
    "describe",
    "public_data",
    "view_for",
    "new_state",
    "has_ghost",
    "outcome",
    "picks_left",
    "row_counts",
    "seat_problem",
    "standings",
    "APP_DEAL_STEPS",
    "CARD_MAX",
    "DOG_READING",
    "FRONT_ROW",
    "GAME_KINDS",
    "GHOST",
    "GHOST_AT",
    "GHOST_RULE",
    "GHOST_RULES",
    "HOST_ONLY",
    "MAX_SEATS",
    "MAX_STEP",
    "MIN_SEATS",
    "PENALTY_CHIPS",
    "PHYSICAL_DEAL_STEPS",
    "PICKS",
    "REAR_ROW",
    "REASON_MAX",
    "REASONS",
    "ROWS",
    "SLUG",
    "TITLE",
    "TIE_BREAK_READING",
    "WIN_AT",
    "ANY_STEP",
    "DRAWN",
    "KINDS",
    "NOT_SHARED",
    "SHARED",
    "WHO",
]
