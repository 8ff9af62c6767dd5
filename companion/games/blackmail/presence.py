"""How long a seat's phone has had no open page: the host may stand in for it only after
AWAY_SECONDS (issue 16). Not part of the pure rules: routes.py asks it, from a request.

The live module keeps the record (live.away_seconds: this process's pages, and on PostgreSQL
every process's, through seat_presence); tests replace `away`.
"""

import math

from .rules import AWAY_SECONDS


def _live_away(table_id, seat):
    from ...live import away_seconds   # needs the app: imported when asked, never by the rules
    return away_seconds(table_id, seat)


away = _live_away   # (table_id, seat) -> seconds without an open page (0 while one is open)


def is_away(table_id, seat):
    return away(table_id, seat) >= AWAY_SECONDS


def wait_left(table_id, seat):
    """Whole seconds until the seat counts as away (0 once it does)."""
    return max(0, math.ceil(AWAY_SECONDS - away(table_id, seat)))
