"""Once You Go Blackmail... routes beyond /act/<kind>: checking the app's shuffle, and when
the host may stand in for a phone.

The verify page shows only what is public: each finished round's revealed deal, the current
round's fingerprint. Anyone with the table code may open it, like the table screen.

Standing in: the host may play a seat's turn only when that phone had no open page
for AWAY_SECONDS, handed the turn over, or the seat has no phone. The last two are in the
state; the first is not a rule but a fact of the live pages, so it is checked here, on the
way into /act/dealt.stand_in (request_hook), and a phone that opens the table again cancels a
stand-in not yet played. stand_in.py says how long a seat has been away.
"""

from flask import Blueprint, abort, g, render_template, request

from companion import games, live
from companion.access import door
from companion.db import get_db
from companion.games.base import RuleError
from companion.games.blackmail import dealt as deal
from companion.games.blackmail import stand_in
from companion.games.blackmail.rules import AWAY_SECONDS, SLUG, card_label
from companion.games.blackmail.view import history_facts, pick_cards_facts, view_for
from companion.tables import presence, store
from companion.web.changes import MAX_FIELD, changed, refused

bp = Blueprint("blackmail", __name__)


def away(table_id, seat):
    """Seconds the seat's phone has had no open page at any process (tests replace this)."""
    return presence.away_seconds(live.notifier().seats, table_id, seat)


def _dealt_round(state):
    r = state.get("round")
    if r and r.get("tracking") == deal.DEALT and r["stage"] == "playing" and state["phase"] == "round":
        return r
    return None


def request_hook(table, viewer, what):
    """Blackmail's look at its own tables' requests (game_routes.request_hook)."""
    if what == "dealt.stand_in":
        return _check_away(table, viewer)
    if what == "page" and viewer.get("role") == "seat":
        _phone_is_back(table, viewer)
    return None


def _check_away(table, viewer):
    """Refuse a stand-in for a seat whose phone had an open page in the last AWAY_SECONDS."""
    if viewer["role"] != "host":
        return None  # the core answers 403
    state = store.load(get_db(), table).state
    r = _dealt_round(state)
    try:
        seat = int(request.form.get("seat", ""))
    except ValueError:
        return None
    if r is None or seat != r["turn"]:
        return None  # the rules refuse it with their own words
    if deal.stand_in_why(state, seat) != "away" or stand_in.is_away(away(table.id, seat)):
        return None
    name = next(s["name"] for s in state["seats"] if s["id"] == seat)
    return refused(
        table,
        viewer,
        "host",
        RuleError(
            f"{name}'s phone has had the table open in the last {AWAY_SECONDS} seconds, so its hand "
            f"stays on it. The host can play this turn once it has been away for {AWAY_SECONDS} "
            f"seconds, or when {name} taps “Hand my turn to the host”."
        ),
    )


def _phone_is_back(table, viewer):
    """A phone that opens the table again cancels a stand-in for it that is not played yet."""
    state = store.load(get_db(), table).state
    r = _dealt_round(state)
    seat = viewer["seat"]
    if r is None or r["deal"]["stand_in"] != seat or r["deal"].get("stand_in_why") != "away":
        return
    try:
        store.act(get_db(), table, "dealt.reclaim", {"seat": str(seat), "turn": str(len(r["plays"]) + 1)}, viewer)
    except RuleError:
        return  # someone else moved the game on first: nothing to cancel
    changed(table)


bp.add_app_template_global(pick_cards_facts)
bp.add_app_template_global(history_facts)


@bp.app_template_global()
def blackmail_wait(table, seat):
    """How long a seat must still be away before the host's board offers to stand in."""
    return stand_in.wait_left(away(table.id, seat))


def game_table(code):
    table = g.table
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


_PLAY_FACTS = ("turn", "seat", "card", "target", "choice", "discarded", "eliminated", "revealed")


def _replay_facts(view, reveal, plays):
    """The public facts a phone needs to replay a finished round from its revealed order (the
    order and reshuffle it reads from the revealed text itself): seats in order, who was dealt
    in which order, and the plays as everyone saw them. blackmail.js does the replay."""
    return {
        "seats": [s["id"] for s in view["seats"]],
        "names": view["names"],
        "dealt_to": [row["seat"] for row in reveal["dealt"]],
        "plays": [{k: p.get(k) for k in _PLAY_FACTS} for p in plays],
        "deck": deal.full_deck(),
        "cards": {str(c["number"]): card_label(c["number"]) for c in view["characters"]},
    }


@bp.get("/t/<code>/blackmail/verify")
def verify(code):
    table = game_table(code)
    state = store.load(get_db(), table).state
    view = view_for(state, {"role": "screen", "seat": None})
    rounds = []
    game = len(view["games"]) + 1  # the key blackmail.js files the phone's memo under
    for h in view["history"]:
        reveal = h.get("reveal")
        if not reveal:
            continue
        rounds.append(
            {
                "number": h["number"],
                "key": f"{game}-{h['number']}",
                "reveal": reveal,
                "rows": _deck_rows(reveal, view["names"]),
                "replay": _replay_facts(view, reveal, h["plays"]),
            }
        )
    r = view["round"]
    current = None
    if r and r.get("dealt"):
        current = {
            "number": r["number"],
            "key": f"{game}-{r['number']}",
            "fingerprint": r["dealt"]["fingerprint"],
            "fingerprint_full": r["dealt"]["fingerprint_full"],
            "reveal": r["dealt"]["reveal"],
        }
        if current["reveal"]:
            current["rows"] = _deck_rows(current["reveal"], view["names"])
            current["replay"] = _replay_facts(view, current["reveal"], r["plays"])
    # Anyone may also paste a revealed text and the fingerprint they noted at the deal.
    text = request.args.get("text", "")[: MAX_FIELD * 2]
    shown = request.args.get("fingerprint", "")[:MAX_FIELD]
    pasted = deal.verify(text, shown) if text or shown else None
    return render_template(
        "games/blackmail/verify.html",
        table=table,
        viewer=door.viewer(),
        game_title=games.TABLE_GAMES[table.game],
        rounds=list(reversed(rounds)),
        current=current,
        pasted=pasted,
        text=text,
        shown=shown,
        command=deal.verify_command("<the revealed text>"),
        short_digits=deal.SHORT_FINGERPRINT,
    )
