"""Once You Go Blackmail... routes beyond /act/<kind>: checking the app's shuffle.

The verify page shows only what is public: each finished round's revealed deal, the current
round's fingerprint. Anyone with the table code may open it, like the table screen.
"""

from flask import Blueprint, abort, render_template, request

from ... import access, games, store
from ...db import get_db
from ...tables import MAX_FIELD, table_or_404
from . import dealt as deal
from .rules import SLUG, card_label
from .view import view_for

bp = Blueprint("blackmail", __name__)


def game_table(code):
    table = table_or_404(code)
    if table.game != SLUG:
        abort(404, "This table is not playing Once You Go Blackmail...")
    return table


def _deck_rows(reveal, names):
    """The revealed order card by card: where each of the 16 went at the deal."""
    dealt_to = {1 + i: row["seat"] for i, row in enumerate(reveal["dealt"])}
    rows = []
    for place, number in enumerate(reveal["order"]):
        if place == 0:
            where = "set aside: the secret character"
        elif place in dealt_to:
            where = f"dealt to {names.get(str(dealt_to[place]), '?')}"
        else:
            where = f"draw pile, card {place - len(dealt_to)}"
        rows.append({"place": place + 1, "card": card_label(number), "where": where})
    return rows


@bp.get("/t/<code>/blackmail/verify")
def verify(code):
    table = game_table(code)
    state = store.load(get_db(), table).state
    view = view_for(state, {"role": "screen", "seat": None})
    rounds = []
    for h in view["history"]:
        reveal = h.get("reveal")
        if not reveal:
            continue
        rounds.append({"number": h["number"], "reveal": reveal,
                       "check": deal.verify(reveal["text"], reveal["fingerprint"]),
                       "rows": _deck_rows(reveal, view["names"])})
    r = view["round"]
    current = None
    if r and r.get("dealt"):
        current = {"number": r["number"], "fingerprint": r["dealt"]["fingerprint"],
                   "fingerprint_full": r["dealt"]["fingerprint_full"], "reveal": r["dealt"]["reveal"]}
        if current["reveal"]:
            current["check"] = deal.verify(current["reveal"]["text"], current["reveal"]["fingerprint"])
            current["rows"] = _deck_rows(current["reveal"], view["names"])
    # Anyone may also paste a revealed text and the fingerprint they noted at the deal.
    text = request.args.get("text", "")[:MAX_FIELD * 2]
    shown = request.args.get("fingerprint", "")[:MAX_FIELD]
    pasted = deal.verify(text, shown) if text or shown else None
    return render_template(
        "games/blackmail/verify.html", table=table, viewer=access.current_viewer(table),
        game_title=games.TABLE_GAMES[table.game], rounds=list(reversed(rounds)), current=current,
        pasted=pasted, text=text, shown=shown, command=deal.verify_command("<the revealed text>"),
        short_digits=deal.SHORT_FINGERPRINT)
