"""What players see: the public log lines (describe) and view_for, the only place that decides
what each viewer is shown (the dealt mode's hidden part is filtered in dealt_view.py)."""

import copy

from ..base import once_per_state
from . import dealt as deal
from .common import _name, deck_count, rounds_won, seen_counts, still_in, valid_targets, whose_turn
from .moves import next_round_step, start_step, step_now
from .rules import (
    ARCHER,
    BY_NUMBER,
    CARD_BY_CARD,
    CHARACTERS,
    CHERYL,
    CYRIL,
    DECK_SIZE,
    FIRST_PICKS,
    KRUEGER,
    LANA,
    MAX_SEATS,
    MIN_SEATS,
    NUMBERS,
    OUT_REASONS,
    PAM,
    RAY,
    READINGS,
    ROUND_ENDS,
    RULE_IDS,
    SECRET_LABELS,
    SECRET_LABELS_DEALT,
    SECRET_SHORT,
    SECRET_SHORT_DEALT,
    SHORT_NAMES,
    SLUG,
    STAND_IN_WHY,
    TITLE,
    TRACKING_LABELS,
    VP_TO_WIN,
    card_label,
    character_name,
)

# ---------------------------------------------------------------- text


def play_text(state, entry):
    """One public line for a recorded card (used by the log and describe)."""
    who = _name(state, entry["seat"])
    card = entry["card"]
    line = f"{who} played {card_label(card)}"
    target = entry.get("target")
    tname = _name(state, target) if target is not None else None
    if card == ARCHER:
        if target is None:
            return line + " with nobody to target: no effect."
        line += f" on {tname}, naming {character_name(entry['named'])}"
        return line + (f": right, {tname} is out of the round." if entry["eliminated"] is not None else ": wrong.")
    if card == KRUEGER:
        line += f", naming {character_name(entry['named'])}"
        return line + (": right, the secret character is found!" if entry["correct"] else ": wrong.")
    if card == CYRIL:
        if target is None:
            return line + " with nobody to duel: no effect."
        line += f" against {tname}"
        if entry["eliminated"] is None:
            return line + ": equal cards, nobody is out."
        line += f": {_name(state, entry['eliminated'])} is out of the round"
        if entry["revealed"] is not None:
            line += f", showing {card_label(entry['revealed'])}"
        return line + "."
    if card == CHERYL:
        return line + (
            ": protected until their next turn."
            if entry["choice"] == "protect"
            else " to look at the secret character."
        )
    if card in (PAM, RAY):
        whom = "themself" if target == entry["seat"] else tname
        line += f" on {whom}: {card_label(entry['discarded'])} dropped with no effect"
        gone = entry.get("secret_gone")  # known only when the app deals
        if card == PAM:
            return line + (
                ", and the secret character drawn: the deck is empty." if gone else ", and a new card drawn."
            )
        return line + (
            ", and the secret character taken; none is left." if gone else ", and the secret character taken."
        )
    if card == LANA:
        return line + ": hands and the secret character reshuffled and dealt again."
    line += ": out of the round"
    if entry.get("revealed") is not None:
        line += f", showing {card_label(entry['revealed'])}"
    return line + "."


def _result_text(state, result):
    names = " and ".join(_name(state, w) for w in result["winners"])
    if result["why"] == "deck_out":
        return f"The deck ran out: {names} {'wins' if len(result['winners']) == 1 else 'tie and each win'} the round."
    if result["why"] == "last_seat":
        return f"{names} is the last one left and wins the round."
    if result["why"] == "secret_guessed":
        return f"{names} wins the round."
    return f"{names} won the round."


def _close_text(before, after, data):
    winners = data["winners"]
    parts = []
    for w in winners:
        parts.append(f"{_name(before, w)} scores a Victory Point ({after['vp'].get(w, 0)} of {before['target']})")
    line = "; ".join(parts) + "."
    if after["phase"] == "game_over":
        names = " and ".join(_name(after, w) for w in after["winners"])
        return line + f" {names} {'wins' if len(after['winners']) == 1 else 'win'} the game!"
    nxt = _name(after, data["next_first_player"])
    how = " (picked at random among the winners)" if data.get("picked_at_random") else ""
    return line + f" Round {after['round']['number']}: {nxt} goes first{how}."


def _data_line(state, kind, data):
    """A log line from the event's own data, for an event that is not (or no longer) applied."""
    if kind == "dealt.play":
        # Its outcome was worked out from hidden cards: say only what was posted.
        if data.get("card") in BY_NUMBER:
            return f"{_name(state, data.get('seat'))} played {card_label(data['card'])}."
        return "A card was played."
    if kind == "dealt.stand_in":
        return f"The host played {_name(state, data.get('seat'))}'s turn."
    if kind == "dealt.hand_over":
        return f"{_name(state, data.get('seat'))} handed a turn to the host."
    if kind == "dealt.reclaim":
        return f"{_name(state, data.get('seat'))} took a turn back."
    if kind == "play":
        entry = {
            k: data.get(k)
            for k in ("seat", "card", "target", "named", "choice", "discarded", "eliminated", "revealed", "correct")
        }
        if entry["card"] in BY_NUMBER:
            try:
                return play_text(state, entry)
            except (KeyError, TypeError):
                return f"{_name(state, entry['seat'])} played {card_label(entry['card'])}."
        return "A card was played."
    if kind == "hand":
        return f"{_name(state, data.get('seat'))} shows {card_label(data['card'])}."
    names = " and ".join(_name(state, w) for w in data.get("winners") or [])
    return (
        f"{names}: a Victory Point each." if len(data.get("winners") or []) > 1 else f"{names} scores a Victory Point."
    )


def describe(before, after, event):
    kind, data = event["kind"], event["data"]
    if after is before and kind in ("play", "hand", "round.confirm", "round.score") + deal.KINDS:
        # Undone (or skipped) events are described from their data: the state lacks them.
        return _data_line(before, kind, data)
    if kind == "tracking":
        return f"Tracking: {TRACKING_LABELS[data['tracking']].lower()}."
    if kind == "game.start":
        how = "picked at random" if data.get("picked_at_random") else "chosen by the table"
        target = VP_TO_WIN.get(len(after["seats"]), "?")
        mode = f" {TRACKING_LABELS[data['tracking']]}." if data.get("tracking") in TRACKING_LABELS else ""
        return (
            f"New game: {len(after['seats'])} players, {target} Victory Points to win.{mode} "
            f"{_name(after, data['first_player'])} goes first ({how})." + _deal_text(data)
        )
    if kind == "game.reset":
        return "The game was reset."
    if kind == "dealt.stand_in":
        who = _name(after, data["seat"])
        why = {"handed_over": f"{who} handed it over", "no_phone": f"{who} has no phone"}.get(
            data.get("why"), f"{who}'s phone is away"
        )
        return f"The host plays {who}'s turn ({why})."
    if kind == "dealt.hand_over":
        return f"{_name(after, data['seat'])} hands this turn to the host."
    if kind == "dealt.reclaim":
        return f"{_name(after, data['seat'])} takes their turn back from the host."
    if kind in ("play", "dealt.play"):
        r = after["round"]
        line = play_text(after, r["plays"][-1])
        if kind == "dealt.play" and r["result"] and r["result"]["why"] == "deck_out":
            shown = ", ".join(f"{_name(after, s)} {card_label(c)}" for s, c in r["hands"].items())
            line += f" The deck is empty; hands: {shown}."
        if r["result"]:
            line += " " + _result_text(after, r["result"])
        elif r["stage"] == "hands":
            line += " The deck is empty: everyone still in shows their card."
        return line
    if kind == "hand":
        line = f"{_name(after, data['seat'])} shows {card_label(data['card'])}."
        r = after["round"]
        if r["result"]:
            line += " " + _result_text(after, r["result"])
        return line
    if kind in ("round.confirm", "round.score"):
        return _close_text(before, after, data) + _deal_text(data)
    return ""


def _deal_text(data):
    """The new deal's fingerprint, for the public log (its secrets stay in the event)."""
    if "deal" not in data:
        return ""
    try:
        return f" Deal fingerprint: {deal.short(deal.fingerprint(data['deal']))}."
    except (KeyError, TypeError):
        return ""


def public_data(kind, data):
    """An event's data for the host's export: a deal's shuffle is replaced by its fingerprint."""
    return deal.public_data(kind, data)


# ---------------------------------------------------------------- view


def _round_view(state, viewer=None):
    r = state["round"]
    full = r["tracking"] in CARD_BY_CARD
    view = {
        "number": r["number"],
        "tracking": r["tracking"],
        "first_player": r["first_player"],
        "first_pick": r["first_pick"],
        "first_pick_label": FIRST_PICKS[r["first_pick"]],
        "result": None,
    }
    if r["result"]:
        view["result"] = {
            "why": r["result"]["why"],
            "winners": list(r["result"]["winners"]),
            "label": ROUND_ENDS[r["result"]["why"]],
            "text": _result_text(state, r["result"]),
        }
    if not full:
        return view
    turn = whose_turn(state)
    dealt = r["tracking"] == deal.DEALT
    seat = (viewer or {}).get("seat") if (viewer or {}).get("role") == "seat" else None
    labels, shorts = (SECRET_LABELS_DEALT, SECRET_SHORT_DEALT) if dealt else (SECRET_LABELS, SECRET_SHORT)
    view.update(
        {
            "stage": r["stage"],
            "turn": turn,
            "deck": deck_count(state),
            "still_in": still_in(state),
            "protected": list(r["protected"]),
            "secret": {
                "status": r["secret"]["status"],
                "seat": r["secret"]["seat"],
                "reshuffled": r["secret"]["reshuffled"],
                "label": labels[r["secret"]["status"]],
                "short": shorts[r["secret"]["status"]],
            },
            "plays": [dict(p, text=play_text(state, p)) for p in r["plays"]],
            "hands": [{"seat": s, "card": c} for s, c in r["hands"].items()],
            "awaiting_hands": [s for s in still_in(state) if s not in r["hands"]]
            if r["tracking"] == "full"
            and r["stage"] in ("hands", "over")
            and (not r["result"] or r["result"]["why"] == "deck_out")
            else [],
            # Who each card may target right now, so a form offers only legal picks.
            "targets": {str(n): valid_targets(state, turn, n) for n in NUMBERS} if turn is not None else {},
            # What a phone's own play form offers, on the page all round (hidden but on its turn):
            # the same as "targets" on its turn, so the turn coming changes none of it.
            "my_targets": {str(n): valid_targets(state, seat, n) for n in NUMBERS} if seat is not None else {},
            # The dealt mode's hidden part, filtered for this viewer (the only place that does it).
            "dealt": deal.view(state, viewer) if r["tracking"] == deal.DEALT else None,
        }
    )
    return view


# The cards whose form greys the names all seen (_pick_card.html: need_left).
_GREYS_SPENT = (3, 5, 6, 8)


def history_facts(view):
    """What the History (_history.html) reads of the view: the same on every page, and the same
    from one play to the next, so it renders again only when a round or a game ends."""
    return {
        "view": {
            "history": view["history"],
            "games": view["games"],
            "seats": [{"id": s["id"], "name": s["name"], "rounds_won": s["rounds_won"]} for s in view["seats"]],
            "names": view["names"],  # b.who
            "characters": [{"number": c["number"], "name": c["name"]} for c in view["characters"]],  # b.card
        }
    }


def pick_cards_facts(view, seat):
    """What a phone's own play form shows of each card (_pick_card.html), in the view's order:
    the card, the seat's targets for it and their names, and the round facts that card's form
    reads (a name's tile greyed only once its count is out)."""
    r = view["round"]
    names = [{"number": c["number"], "short": c["short"]} for c in view["characters"]]
    greyed = [dict(name, unaccounted=min(c["unaccounted"], 1)) for name, c in zip(names, view["characters"])]
    facts = []
    for card in view["characters"]:
        number = card["number"]
        targets = r["my_targets"].get(str(number)) or []
        facts.append(
            {
                "c": card,
                "targets": targets,
                # only Pam's and Ray's forms name the phone's own seat (it may not drop its own
                # card): every other card's form is the same on every phone with its targets
                "turn": seat if number in (5, 6) else None,
                "r": {
                    "secret": {"status": r["secret"]["status"] if number == 2 else None},
                    "deck": min(r["deck"], 1) if number in (5, 6) else 1,
                },
                "view": {
                    "names": {str(t): view["names"][str(t)] for t in targets},
                    "characters": greyed if number in _GREYS_SPENT else names,
                },
            }
        )
    return facts


def character_rows():
    """The eight characters as every page lists them (a view's card count adds its counts)."""
    return [
        {
            "number": c["number"],
            "name": c["name"],
            "short": SHORT_NAMES[c["number"]],
            "rule": RULE_IDS[c["number"]],
            "copies": c["copies"],
            "effect": c["effect"],
            "target": c["target"],
            "names": c["names"],
        }
        for c in CHARACTERS
    ]


def view_for(state, viewer):
    viewer = viewer or {}
    viewer_seat = viewer.get("seat") if viewer.get("role") == "seat" else None
    r = state["round"]
    full = bool(r) and r["tracking"] in CARD_BY_CARD
    dealt = bool(r) and r["tracking"] == deal.DEALT
    seen = seen_counts(state) if full else None
    out = {o["seat"]: o for o in r["out"]} if r else {}
    won = rounds_won(state)
    turn = whose_turn(state)
    seats = []
    for s in state["seats"]:
        sid = s["id"]
        row = {
            "id": sid,
            "name": s["name"],
            "vp": state["vp"].get(sid, 0),
            "rounds_won": won.get(sid, 0),
            "first": bool(r) and r["first_player"] == sid,
            "you": sid == viewer_seat,
            "phone": bool(s.get("phone", True)),
        }
        if full:
            row.update(
                in_round=sid not in out,
                out_why=OUT_REASONS.get(out[sid]["why"]) if sid in out else None,
                out_card=out[sid]["card"] if sid in out else None,
                protected=sid in r["protected"],
                turn=sid == turn,
                hand=r["hands"].get(sid),
            )
        seats.append(row)
    players = len(state["seats"])
    characters = character_rows()
    if full:
        for row in characters:
            row["seen"] = seen[row["number"]]
            row["unaccounted"] = row["copies"] - seen[row["number"]]
    is_host = viewer.get("role") == "host"
    d = r["deal"] if dealt else None
    playing = turn is not None
    return {
        "slug": SLUG,
        "title": TITLE,
        "phase": state["phase"],
        "tracking": state["tracking"],
        "tracking_label": TRACKING_LABELS[state["tracking"]],
        "target": state["target"] or VP_TO_WIN.get(players),
        "vp_to_win": {str(k): v for k, v in VP_TO_WIN.items()},
        "deck_size": DECK_SIZE,
        "characters": characters,
        "seats": seats,
        "names": {str(s["id"]): s["name"] for s in state["seats"]},
        "round": _round_view(state, viewer) if r else None,
        **_past(state),
        "winners": list(state["winners"]),
        "readings": list(READINGS),
        # The step each moving-on button names (base.check_step), so a doubled tap moves once.
        "to": {"start": start_step(state), "next_round": next_round_step(state)},
        "step": step_now(state),  # the step every form names (games.base.check_named_step)
        "stand_in_why": dict(STAND_IN_WHY),
        "can": {
            "play": turn is not None
            and (deal.may_play(state, viewer, turn) if dealt else is_host or viewer_seat == turn),
            # The host takes over the turn of a player whose phone is away (confirmed, logged).
            # Offered on the host page only when routes.py's stand-in check (or "why") allows.
            "stand_in": dealt and playing and is_host and viewer.get("seat") != turn and d["stand_in"] != turn,
            "stand_in_why": deal.stand_in_why(state, turn) if dealt and playing else None,
            # A phone hands its turn to the host, and takes it back while not yet played.
            "hand_over": dealt
            and playing
            and viewer_seat == turn
            and d.get("handed_over") != turn
            and d["stand_in"] != turn,
            "reclaim": dealt and playing and viewer_seat == turn and turn in (d.get("handed_over"), d["stand_in"]),
            "enter_hand": bool(r)
            and r["tracking"] == "full"
            and r["stage"] in ("hands", "over")
            and (not r["result"] or r["result"]["why"] == "deck_out")
            and (is_host or viewer_seat in still_in(state)),
            "confirm": bool(r) and bool(r["result"]) and viewer.get("role") in ("host", "seat"),
            "record_winners": bool(r) and not dealt and viewer.get("role") in ("host", "seat"),
            "start": is_host and state["phase"] in ("setup", "game_over") and MIN_SEATS <= players <= MAX_SEATS,
        },
    }


@once_per_state
def _past(state):
    """The rounds and games played before, the same for every viewer (a past round's hands were
    shown at its end). Nothing that reads a view changes these."""
    return {"history": [_history_view(state, h) for h in state["history"]], "games": copy.deepcopy(state["games"])}


def _history_view(state, h):
    return {
        "number": h["number"],
        "tracking": h["tracking"],
        "first_player": h["first_player"],
        "first_pick_label": FIRST_PICKS[h["first_pick"]],
        "winners": list(h["winners"]),
        "why": h["why"],
        "why_label": ROUND_ENDS[h["why"]],
        "plays": [dict(p, text=play_text(state, p)) for p in h["plays"]],
        "hands": copy.deepcopy(h["hands"]),
        "vp": copy.deepcopy(h["vp"]),
        "next_first_player": h["next_first_player"],
        "picked_at_random": h["picked_at_random"],
        "reveal": copy.deepcopy(h.get("reveal")),
    }
