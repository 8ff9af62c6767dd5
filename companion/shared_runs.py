"""Runs of html that a page holds once and a stream's message names instead of carrying.

A template marks such a run `<!--run:KEY-->…<!--/run-->`: the same words in every copy, whoever
holds it (a Blackmail card's summary, what it does, the names it may name: most of a drawn
card's bytes). Each page of the game's tables holds every run once, as `<template id="s-KEY">`
(`games/<slug>/_runs.html`, rendered from the same macros); a message (pages.sse_lines) sends
`<template data-s="KEY"></template>` in its place, and the page puts a copy of its own in
(static/app.js). A run that differs from the page's copy goes as written, so a template that
changes one and not the other costs bytes, never a wrong page.
"""

import re
import threading
from types import SimpleNamespace

from flask import current_app, render_template
from markupsafe import Markup

from . import games

RUN = re.compile(r"<!--run:([\w-]+)-->(.*?)<!--/run-->", re.S)  # not <!--/s-->: a seat row's (parts.swap_seat)
_COPY = re.compile(r'<template id="s-([\w-]+)">(.*?)</template>', re.S)
_lock = threading.Lock()


def for_page(game):
    """The runs of a game's pages, as the page holds them (a hidden block), or ""."""
    return _library()[0].get(game, "")


def named(html):
    """html with each run the pages hold named, not written out; the marks of the rest dropped."""
    known = _library()[1]
    return RUN.sub(lambda run: f'<template data-s="{run[1]}"></template>'
                   if known.get(run[1]) == run[2] else run[2], html)


def _library():
    """({game: its page's block}, {key: run}) for this app, rendered on first use."""
    found = current_app.extensions.get("shared_runs")
    if found is None:
        with _lock:
            found = current_app.extensions.get("shared_runs")
            if found is None:
                found = current_app.extensions["shared_runs"] = _render()
    return found


def _render():
    pages, runs = {}, {}
    for slug, module in games.GAMES.items():
        view = getattr(module, "shared_view", None)
        if view is None:
            continue
        # the runs' macros read only the game's fixed data and the rules link's game
        html = render_template(f"games/{slug}/_runs.html", view=view(), page="player",
                               table=SimpleNamespace(game=slug, code=""))
        pages[slug] = Markup(html)
        runs.update(_COPY.findall(html))
    return pages, runs
