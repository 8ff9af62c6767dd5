"""Archer: Once You Go Blackmail... — Victory Points, rounds and the card count.

The table plays with its own 16 cards; the app keeps the books. A table option picks how much:
  "scores"  one tap per round records who won it (round.score);
  "full"    every card played is recorded (play), and the app follows the turn, who is still
            in, Cheryl/Carol protection, the deck count, the secret character's status and the
            count of characters seen face up; it spots the round's end, and one tap
            (round.confirm) awards the Victory Points.
  "dealt"   the app shuffles and deals the 16 cards itself (dealt.py): each phone is
            that player's hand, every card is carried out by the app (dealt.play), and the round
            keeps the same public books as "full".
The public books are shared by all modes; the dealt mode's hidden part (the deck, the hands,
the secret character, private results) lives in state["round"]["deal"] and reaches a viewer
only through view_for. Event data holding the shuffle is stripped from the export by
public_data.

Modules: rules (the game's facts), common (what both modes share), moves (parse/apply for
every kind), tracking (the table's own cards, recorded), shuffle + dealt + dealt_view (the app
deals), view (describe, view_for), routes (the web layer's, found by create_app by its name; nothing here imports it).
"""

from . import dealt, rules
from .common import (
    deck_count,
    is_dealt,
    leaders,
    out_seats,
    rounds_won,
    seen_counts,
    still_in,
    valid_targets,
    whose_turn,
)
from .moves import apply, new_state, parse, step_now, undo_refusal
from .rules import (  # who may post and undo each kind, which any step (games.base)
    ANY_STEP,
    ARCHER,
    BY_NUMBER,
    CARD_BY_CARD,
    CHARACTERS,
    CHERYL,
    CYRIL,
    DEALT,
    DEALT_KINDS,
    DECK_SIZE,
    DRAWN,
    FIRST_PICKS,
    HOST_ONLY,
    KINDS,
    KRUEGER,
    LANA,
    MALORY,
    MAX_SEATS,
    MIN_SEATS,
    NOT_SHARED,
    NUMBERS,
    OUT_REASONS,
    PAM,
    RAY,
    READINGS,
    ROUND_ENDS,
    RULE_IDS,
    SECRET_CARDS,
    SECRET_LABELS,
    SECRET_SHORT,
    SHARED,
    SHORT_NAMES,
    SLUG,
    TITLE,
    TRACKING_LABELS,
    TRACKING_MODES,
    VP_TO_WIN,
    WHO,
    card_label,
    character_name,
    vp_target,
)
from .view import character_rows, describe, play_text, public_data, view_for
