"""Archer: The Danger Zone! — Upper Hand, Locations, the two tokens, rounds and Missions.

One folder for the game: rules.py (facts from the rulebook and the app's readings), state.py
(a fresh table and read-only questions: whose turn, who leads, who won), moves.py (parse and
apply) with parsing.py, guards.py, setup.py, rounds.py and mission.py beside it, view.py
(view_for, describe), and the helpers screens call: odds.py (odds for a character), dice.py
(exact dice odds, roll-offs), events.py (Event outcomes for a confirmation screen),
box_text.py (the table's own typed text). routes.py is the web layer's (Flask, found by
create_app by its name); nothing else here imports it.

Nothing here is hidden: Movement tokens are chosen in secret at the table, but the app only
records them once they are revealed, so every viewer sees the same table.
"""

from . import dice
from .box_text import dice_box_ids, location_box_ids, parse_typed_dice, with_box
from .events import embarrassing_pictures, event_outcome, event_previews, rona_thorne, uta, woodhouse
from .moves import apply, parse

# Last: the function odds, not the submodule of the same name, is dz.odds.
from .odds import challenge_odds, odds, odds_table, skill_dice  # noqa: E402
from .rules import *  # noqa: F401,F403  every rules constant, as dz.<NAME>
from .rules import ANY_STEP, DRAWN, WHO  # who may post and undo each kind, which any step (games.base)
from .state import (
    alone_at_location,
    challenges_to_draw,
    completed_types,
    first_at,
    initiative_text,
    leader_text,
    leaders,
    location_effect_text,
    locations_to_use,
    mission_leader_choice,
    mission_over,
    new_state,
    next_step,
    pending,
    pending_text,
    race_chart,
    reveal_order,
    roll_order,
    setup_problems,
    specialty,
    standings,
    step_now,
    whose_turn,
    winners,
)
from .view import _location_view, describe, leader_preview, view_for  # noqa: F401  tests use _location_view
