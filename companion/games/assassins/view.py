"""Age of Assassins view: describe (the public log line), public_data and view_for."""

import copy

from ..base import seat_name
from . import deck
from .rules import (
    APP_DEAL_STEPS,
    BANK_AFTER,
    DOG_READING,
    EXTRAS_AT_THREE,
    FRONT_ROW,
    GHOST,
    GHOST_RULE,
    MAX_SEATS,
    PENALTY_CHIPS,
    PHYSICAL_DEAL_STEPS,
    PICKS,
    REAR_ROW,
    REASONS,
    ROWS,
    TIE_BREAK_READING,
    WIN_AT,
)
from .state import (
    _target_name,
    ghost_holds_three,
    has_ghost,
    names,
    outcome,
    picks_left,
    revealed,
    row_counts,
    seat_problem,
    standings,
    step_now,
    still_picking,
    tie_break_text,
    tie_reference,
    tie_winner,
    waiting_for,
)

# ---- describe: the public log line -----------------------------------------------------------


def describe(before, after, event):
    kind, data = event["kind"], event["data"]
    if kind == "resolve.step":
        line = f"Resolving card number {data['number']}"
        forced = [i for i in data.get("forced") or () if any(s["id"] == i for s in before["seats"])]
        if forced:
            by = event["by"]
            who = "the host" if by.get("seat") is None else _target_name(before, by["seat"])
            line += f": {who} started it before {names(before, forced)} finished picking"
        return line
    if kind in ("points", "points.real"):
        name = _target_name(before, data["seat"])
        at = f" (at {data['number']})" if data.get("number") else ""
        what = "preliminary" if kind == "points" else "real"
        line = f"{name} {data['delta']:+d} {what} points, {data['reason'].lower()}{at}"
        if kind == "points.real" and data["seat"] == GHOST:
            line += ": back to the stock"
        return line
    if kind == "kill" and data.get("instead_of") == GHOST:
        name = _target_name(before, data["seat"])
        if before["killed"].get(data["seat"]):
            return f"Three Magicians on the ghost: {name}, on her right, was already killed"
        return (
            f"Three Magicians on the ghost: {name}, on her right, is killed in her place and loses "
            f"{before['preliminary'].get(data['seat'], 0)} preliminary points"
        )
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
            return f"Round {data['round']} banked"  # an undone bank is described without its effect
        record = after["history"][-1]
        parts = [
            f"{seat_name(after, b['seat'])} +{b['points']}" + (" (killed)" if b["killed"] else "")
            for b in record["banked"]
        ]
        line = f"Round {record['round']} banked: " + ", ".join(parts)
        result = outcome(after)
        if result:
            line += f". Game over: {result['text']}"
        return line
    if kind == "draft.pick":
        # Everyone reveals pick k at once: until the last seat makes it, the line names no row.
        k = len(before["picks"].get(data["seat"], [])) + 1
        if revealed(after) > revealed(before):
            shown = []
            for seat in after["seats"]:
                pick = after["picks"][seat["id"]][k - 1]
                card = f" ({pick['card']})" if pick["row"] == "front" and pick["card"] else ""
                shown.append(f"{seat['name']} {pick['row']}{card}")
            return f"Pick {k} revealed: " + ", ".join(shown)
        return f"{seat_name(before, data['seat'])} has made pick {k}"
    if kind == "draft.unpick":
        return f"{seat_name(before, data['seat'])} takes back a pick"
    if kind == "penalty":
        word = "takes" if data["delta"] > 0 else "returns"
        return f"{seat_name(before, data['seat'])} {word} {abs(data['delta'])} penalty chip(s)"
    if kind in ("ghost.down", "ghost.down.deal"):
        cards = ", ".join(deck.canonical_name(c.get("name")) for c in data.get("face_down") or [])
        line = f"The ghost's face-down cards{' (drawn by the app)' if kind == 'ghost.down.deal' else ''}: {cards}"
        if after is not before and ghost_holds_three(after):
            line += " (she holds three Magicians: they kill nobody)"
        return line
    if kind == "tiebreak.seat":
        return f"The tie-break now counts from {seat_name(before, data['seat'])} (the app's reading)"
    if kind in ("ghost.deal", "ghost.record"):
        # From the event, not the state: an undone deal is described with a state it never changed.
        cards = data.get("face_up") or []
        listed = ", ".join(deck.canonical_name(c.get("name") if isinstance(c, dict) else c) for c in cards)
        line = f"The ghost's face-up cards: {listed}"
        if (
            deck.magician_count([c.get("name") if isinstance(c, dict) else c for c in cards])
            >= deck.MAGICIANS_THAT_MISFIRE
        ):
            line += " (three Magicians: deal the ghost again)"
        return line
    return ""


def public_data(kind, data):
    """An event's data as the host's export may show it: a pick's card and row stay on its own
    phone (the log's reveal lines carry the rows once everyone has picked)."""
    if kind == "draft.pick":
        return {key: value for key, value in data.items() if key not in ("card", "row")}
    return data


# ---- view_for: the only place that filters hidden information ------------------------------


def view_for(state, viewer):
    viewer = viewer or {}
    me = viewer.get("seat") if viewer.get("role") in ("seat", "host") else None
    leading = standings(state) if any(state["real"].get(s["id"], 0) for s in state["seats"]) else []
    shown = revealed(state)  # picks every seat has made; a later pick shows on its own phone only
    waiting = waiting_for(state)
    forced = state.get("forced") or {}
    seats = []
    for seat in state["seats"]:
        sid = seat["id"]
        picks = state["picks"].get(sid, [])
        visible = picks if sid == me else picks[:shown]
        counts = {row: sum(1 for p in visible if p["row"] == row) for row in ROWS}
        entry = {
            "id": sid,
            "name": seat["name"],
            "real": state["real"].get(sid, 0),
            "real_this_round": state["round_real"].get(sid, 0),
            "preliminary": state["preliminary"].get(sid, 0),
            "killed": state["killed"].get(sid, False),
            "penalty_chips": state["penalty_chips"].get(sid, 0),
            "front_count": counts["front"],
            "rear_count": counts["rear"],
            "picks_left": picks_left(state, sid),
            "picked": len(picks) > shown,  # has made the current pick (its row stays hidden)
            "waited_for": sid in waiting,
            # The front row is face up at the table: its revealed card names are public.
            "front_public": [p["card"] for p in picks[:shown] if p["row"] == "front" and p["card"]],
            "leading": sid in leading,
            "is_me": sid == me,
            "phone": seat.get("phone", True),
            "forced": sid in forced.get("seats", ()),
        }
        if sid == me:
            # Pick contents, rear row above all, reach this seat's own view only.
            entry["front_cards"] = [p["card"] for p in picks if p["row"] == "front"]
            entry["rear_cards"] = [p["card"] for p in picks if p["row"] == "rear"]
            entry["must_go"] = _forced_row(row_counts(state, sid)) if picks_left(state, sid) else None
            entry["extras_warning"] = (
                EXTRAS_AT_THREE if has_ghost(state) and any(p["card"] in deck.EXTRAS for p in picks) else None
            )
            entry["forced_notice"] = (
                f"{forced['by']} started resolving before you finished picking."
                if sid in forced.get("seats", ())
                else None
            )
        seats.append(entry)
    ghost = None
    if has_ghost(state):
        g = state["ghost"]
        # The app's reading: she sits in the empty place after the last seat, so (play passing
        # left, which is clockwise) the last seat is on her right and the first on her left.
        right, left = state["seats"][-1]["name"], state["seats"][0]["name"]
        rule = dict(
            GHOST_RULE,
            magician_redirect=f"If three Magicians would kill the ghost, {right}, "
            "on her right, is killed in her place.",
        )
        cards = list(g["face_up"] or []) + list(g["face_down"] or [])
        ghost = {
            "face_up": [dict(card, magician=deck.is_magician(card["name"])) for card in g["face_up"]]
            if g["face_up"]
            else None,
            # Recorded only once the rear rows turn over, so never a secret by then.
            "face_down": [dict(card, magician=deck.is_magician(card["name"])) for card in g["face_down"]]
            if g["face_down"]
            else None,
            "face_down_source": g["face_down_source"],
            "magicians": deck.magician_count(cards),
            "holds_three": ghost_holds_three(state),
            "source": g["source"],
            "three_magicians": g["three_magicians"],
            "redeals": g["redeals"],
            "preliminary": g["preliminary"],
            "returned": g["returned"],
            "killed": g["killed"],
            "real": 0,
            "rules": list(rule.values()),
            "rule": rule,
            "on_her_right": right,
            "on_her_right_id": state["seats"][-1]["id"],
            "on_her_left": left,
            "deal_steps": list(APP_DEAL_STEPS if g["source"] == "dealt" else PHYSICAL_DEAL_STEPS),
            "extras_warning": EXTRAS_AT_THREE
            if any(deck.canonical_name(c["name"]) in deck.EXTRAS for c in cards)
            else None,
        }
    ref = tie_reference(state)
    tied_now = standings(state) if leading and len(leading) > 1 else []
    drafting = state["resolve_number"] is None
    return {
        "round": state["round"],
        "phase": state["phase"],
        "resolve_number": state["resolve_number"],
        "card_numbers": list(deck.CARD_NUMBERS),
        "bank_after": BANK_AFTER,
        "step_at": "draft" if drafting else state["resolve_number"],
        "step": step_now(state),  # the step every form names (games.base.check_named_step)
        "seats": seats,
        "my_seat": me,
        "ghost": ghost,
        "reveal": {
            "shown": shown,
            "waiting": [seat_name(state, i) for i in waiting],
            # Who would be forced by starting to resolve now (empty: one tap, no question).
            "still_picking": [seat_name(state, i) for i in still_picking(state)] if drafting else [],
            "question": _force_question(state) if drafting else None,
        },
        "history": copy.deepcopy(state["history"]),
        "result": outcome(state),
        "seat_problem": seat_problem(state),
        "can_join": not state["started"] and len(state["seats"]) < MAX_SEATS,
        "penalty_chips_left": PENALTY_CHIPS - sum(state["penalty_chips"].values()),
        "reasons": list(REASONS),
        "tie": {
            "reference": seat_name(state, ref) if ref is not None else None,
            "reference_id": ref,
            "chosen": state.get("tie_seat") is not None and ref == state.get("tie_seat"),
            "text": tie_break_text(state) if ref is not None else TIE_BREAK_READING,
            "would_win": seat_name(state, tie_winner(state, tied_now)) if tied_now else None,
        },
        "rules": {
            "win_at": WIN_AT,
            "front_row": FRONT_ROW,
            "rear_row": REAR_ROW,
            "picks": PICKS,
            "penalty_chips": PENALTY_CHIPS,
            "tie_break": TIE_BREAK_READING,
            "dog": DOG_READING,
            "extras_at_three": EXTRAS_AT_THREE,
        },
    }


def _force_question(state):
    left = still_picking(state)
    if not left:
        return None
    return f"{names(state, left)} {'has' if len(left) == 1 else 'have'} not finished picking: start resolving anyway?"


def _forced_row(counts):
    """The row the next pick must go to once the other is full, else None."""
    for row, size in ROWS.items():
        if counts[row] >= size:
            return "rear" if row == "front" else "front"
    return None
