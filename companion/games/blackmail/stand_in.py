"""How long a seat's phone has had no open page: the host may stand in for it only after
AWAY_SECONDS. The seconds are a fact of the live pages, not of the state, so the
caller (routes.py, which asks tables.presence) hands them in.
"""

import math

from .rules import AWAY_SECONDS


def is_away(seconds_away):
    return seconds_away >= AWAY_SECONDS


def wait_left(seconds_away):
    """Whole seconds until the seat counts as away (0 once it does)."""
    return max(0, math.ceil(AWAY_SECONDS - seconds_away))
