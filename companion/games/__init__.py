"""Game modules: pure rules data plus a reducer, no Flask and no SQL.

Each module exposes:
  SLUG, TITLE, MIN_SEATS, MAX_SEATS
  HOST_ONLY        set of action kinds only the host may post (a player gets 403)
  new_state(options) -> dict             a fresh table; must hold "seats": []
  parse(kind, form, state, actor, rng) -> dict
                   turns a posted form (a dict of strings) into an event's data, or raises
                   RuleError; any randomness is drawn here from rng (secrets.SystemRandom in
                   the app, a seeded Random in tests) so the event records it
  apply(state, event) -> state           the reducer; raises RuleError to refuse
  describe(before, after, event) -> str  the public log line for one of the game's own events
                   ("" to leave out); before/after are the states around it
  view_for(state, viewer) -> dict        the ONLY place that decides what a viewer sees;
                   viewer is {"role": "host" | "seat" | "screen", "seat": int | None}
  public_data(kind, data) -> dict        (optional) an event's data with secrets removed, for
                   the host's export
  undo_refusal(state, kind) -> str       (optional) why events of a kind cannot be undone
                   ("" when they can); the log then offers no Undo for them
Its web layer, if any, is routes.py beside it, found by name (companion/web/game_routes.py).
A game is a package, companion/games/<module>/: rules.py (facts from the rulebook),
moves.py (parse + apply), view.py (view_for + describe), helpers beside them, and
routes.py, which nothing here imports.
Templates live in templates/games/<slug>/board.html and render only what view_for returns.
"""

from . import assassins, blackmail, danger_zone, generic

# The games a table can be started for, in the order the home page offers them.
TABLE_GAMES = {
    "danger-zone": "Archer: The Danger Zone!",
    "blackmail": "Archer: Once You Go Blackmail...",
    "assassins": "Age of Assassins",
    "generic": "Any other game: a plain scoreboard",
}
GAMES = {}


def register(module):
    GAMES[module.SLUG] = module


def get(slug):
    return GAMES.get(slug)


for _module in (generic, danger_zone, blackmail, assassins):
    register(_module)
