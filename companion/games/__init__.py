"""Game modules: pure rules data plus a reducer, no Flask and no SQL.

What each module provides is listed once, in interface.py (the Game protocol and the
optional names with their defaults); register() checks a module against it.
Its web layer, if any, is routes.py beside it, found by name (companion/web/game_routes.py).
A game is a package, companion/games/<module>/: rules.py (facts from the rulebook),
moves.py (parse + apply), view.py (view_for + describe), helpers beside them, and
routes.py, which nothing here imports.
Templates live in templates/games/<slug>/board.html and render only what view_for returns.
"""

from . import assassins, blackmail, danger_zone, generic, interface

# The games a table can be started for, in the order the home page offers them.
TABLE_GAMES = {
    "danger-zone": "Archer: The Danger Zone!",
    "blackmail": "Archer: Once You Go Blackmail...",
    "assassins": "Age of Assassins",
    "generic": "Any other game: a plain scoreboard",
}
GAMES = {}


def register(module):
    GAMES[module.SLUG] = interface.check(module)


def get(slug):
    return GAMES.get(slug)


for _module in (generic, danger_zone, blackmail, assassins):
    register(_module)
