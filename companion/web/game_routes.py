"""Each game's web layer, found by name: `companion.games.<package>.routes`, when it exists.

The game packages never import their routes (one way down: rules below, web above), so the
app looks for them here, as Django finds an app's `urls`. A routes module may hold:
  bp                                 a Blueprint for screens beyond /act/<kind>
  request_hook(table, viewer, what)  a look at a request to one of the game's tables before
                                     the core answers it: `what` is "page" (a seat's phone
                                     opens its screen or live stream) or the action kind
                                     posted; returns a response to answer with, or None
"""

import importlib
import importlib.util

from flask import current_app

from companion import games


def routes_module(module):
    """The game's routes module, or None for a game without one (the plain scoreboard)."""
    name = module.__name__ + ".routes"
    if importlib.util.find_spec(module.__name__).submodule_search_locations is None:
        return None  # a single-file game has no folder to hold routes
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def init_app(app):
    hooks = app.extensions["game_hooks"] = {}
    for slug, module in games.GAMES.items():
        routes = routes_module(module)
        if routes is None:
            continue
        if hasattr(routes, "bp"):
            app.register_blueprint(routes.bp)
        if hasattr(routes, "request_hook"):
            hooks[slug] = routes.request_hook


def request_hook(table, viewer, what):
    """The table's game's request_hook, for a request from someone known; None if it has none."""
    hook = current_app.extensions["game_hooks"].get(table.game)
    return hook(table, viewer, what) if hook is not None and viewer is not None else None
