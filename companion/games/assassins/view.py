"""Age of Assassins view: describe (the public log line), public_data and view_for."""

import copy

from ..base import seat_name
from . import deck
from .rules import (APP_DEAL_STEPS, DOG_READING, FRONT_ROW, GHOST, GHOST_RULE, MAX_SEATS,
                    PENALTY_CHIPS, PHYSICAL_DEAL_STEPS, PICKS, REAR_ROW, REASONS, ROWS,
                    TIE_BREAK_READING, WIN_AT)
from .state import _target_name, has_ghost, outcome, picks_left, row_counts, seat_problem, standings


# ---- describe: the public log line -----------------------------------------------------------

def describe(before, after, event):
    kind, data = event["kind"], event["data"]
    if kind == "resolve.step":
        return f"Resolving card number {data['number']}"
    if kind == "points":
        name = _target_name(before, data["seat"])
        at = f" (at {data['number']})" if data.get("number") else ""
        return f"{name} {data['delta']:+d} preliminary points, {data['reason'].lower()}{at}"
    if kind == "kill":
        name = _target_name(before, data["seat"])
        was = before["ghost"] if data["seat"] == GHOST else None
        already = was["killed"] if was else before["killed"].get(data["seat"])
        if already:
            return f"{name} was already killed: nothing changes"
        lost = was["preliminary"] if was else before["preliminary"].get(data["seat"], 0)
        return f"{name} is killed and loses {lost} preliminary points"
    if kind == "bank":
        if len(after["history"]) == len(before["history"]):
            return f"Round {data['round']} banked"   # an undone bank is described without its effect
        record = after["history"][-1]
        parts = [f"{seat_name(after, b['seat'])} +{b['points']}" + (" (killed)" if b["killed"] else "")
                 for b in record["banked"]]
        line = f"Round {record['round']} banked: " + ", ".join(parts)
        result = outcome(after)
        if result:
            line += f". Game over: {result['text']}"
        return line
    if kind == "draft.pick":
        # Only the row is public; the card itself stays on the seat's own phone.
        return f"{seat_name(before, data['seat'])} picks a card for the {data['row']} row"
    if kind == "draft.unpick":
        return f"{seat_name(before, data['seat'])} takes back a pick"
    if kind == "penalty":
        word = "takes" if data["delta"] > 0 else "returns"
        return f"{seat_name(before, data['seat'])} {word} {abs(data['delta'])} penalty chip(s)"
    if kind in ("ghost.deal", "ghost.record"):
        # From the event, not the state: an undone deal is described with a state it never changed.
        cards = data.get("face_up") or []
        names = ", ".join(deck.canonical_name(c.get("name") if isinstance(c, dict) else c) for c in cards)
        line = f"The ghost's face-up cards: {names}"
        if deck.magician_count([c.get("name") if isinstance(c, dict) else c for c in cards]) >= deck.MAGICIANS_THAT_MISFIRE:
            line += " (three Magicians: deal the ghost again)"
        return line
    return ""


def public_data(kind, data):
    """An event's data as the host's export may show it: a pick's card stays on its own phone."""
    if kind == "draft.pick":
        return {key: value for key, value in data.items() if key != "card"}
    return data


# ---- view_for: the only place that filters hidden information ------------------------------

def view_for(state, viewer):
    viewer = viewer or {}
    me = viewer.get("seat") if viewer.get("role") in ("seat", "host") else None
    leading = standings(state) if any(state["real"].get(s["id"], 0) for s in state["seats"]) else []
    seats = []
    for seat in state["seats"]:
        sid = seat["id"]
        counts = row_counts(state, sid)
        entry = {
            "id": sid,
            "name": seat["name"],
            "real": state["real"].get(sid, 0),
            "preliminary": state["preliminary"].get(sid, 0),
            "killed": state["killed"].get(sid, False),
            "penalty_chips": state["penalty_chips"].get(sid, 0),
            "front_count": counts["front"],
            "rear_count": counts["rear"],
            "picks_left": picks_left(state, sid),
            "leading": sid in leading,
            "is_me": sid == me,
            "phone": seat.get("phone", True),
        }
        if sid == me:
            # Pick contents, rear row above all, reach this seat's own view only.
            picks = state["picks"].get(sid, [])
            entry["front_cards"] = [p["card"] for p in picks if p["row"] == "front"]
            entry["rear_cards"] = [p["card"] for p in picks if p["row"] == "rear"]
            entry["must_go"] = _forced_row(counts) if picks_left(state, sid) else None
        seats.append(entry)
    ghost = None
    if has_ghost(state):
        g = state["ghost"]
        # The app's reading: she sits in the empty place after the last seat, so (play passing
        # left, which is clockwise) the last seat is on her right and the first on her left.
        right, left = state["seats"][-1]["name"], state["seats"][0]["name"]
        rule = dict(GHOST_RULE, magician_redirect=f"If three Magicians would kill the ghost, {right}, "
                                                  "on her right, is killed in her place.")
        ghost = {
            "face_up": [dict(card, magician=deck.is_magician(card["name"])) for card in g["face_up"]]
                       if g["face_up"] else None,
            "source": g["source"],
            "three_magicians": g["three_magicians"],
            "redeals": g["redeals"],
            "preliminary": g["preliminary"],
            "killed": g["killed"],
            "real": 0,
            "rules": list(rule.values()),
            "rule": rule,
            "on_her_right": right,
            "on_her_left": left,
            "deal_steps": list(APP_DEAL_STEPS if g["source"] == "dealt" else PHYSICAL_DEAL_STEPS),
        }
    return {
        "round": state["round"],
        "phase": state["phase"],
        "resolve_number": state["resolve_number"],
        "card_numbers": list(deck.CARD_NUMBERS),
        "seats": seats,
        "my_seat": me,
        "ghost": ghost,
        "history": copy.deepcopy(state["history"]),
        "result": outcome(state),
        "seat_problem": seat_problem(state),
        "can_join": not state["started"] and len(state["seats"]) < MAX_SEATS,
        "penalty_chips_left": PENALTY_CHIPS - sum(state["penalty_chips"].values()),
        "reasons": list(REASONS),
        "rules": {
            "win_at": WIN_AT,
            "front_row": FRONT_ROW,
            "rear_row": REAR_ROW,
            "picks": PICKS,
            "penalty_chips": PENALTY_CHIPS,
            "tie_break": TIE_BREAK_READING,
            "dog": DOG_READING,
        },
    }


def _forced_row(counts):
    """The row the next pick must go to once the other is full, else None."""
    for row, size in ROWS.items():
        if counts[row] >= size:
            return "rear" if row == "front" else "front"
    return None
