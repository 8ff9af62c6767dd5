"""Age of Assassins moves: parse (form -> event data) and apply (the reducer).

The app keeps the score beside the physical cards: players resolve card effects themselves
and tap the points in. Deck data and the ghost deal live in deck.py.

Event kinds (data shapes are what `parse` returns):
  resolve.step  {"number": 1-6}                       the card number being resolved now
  points        {"seat": int | "ghost", "delta": int, "reason": str, "number": int | None}
  kill          {"seat": int | "ghost"}
  bank          {"round": int}                         bank the round and end it
  draft.pick    {"seat": int, "row": "front" | "rear", "card": str}
  draft.unpick  {"seat": int}                          take back the seat's last pick
  penalty       {"seat": int, "delta": int}            penalty chips in front of a seat
  ghost.deal    {"round": int, "face_up": [{"name", "number"}] * 4, "redeals": int, "extras": [str]}
                parse takes the deck as a list the server read from its stored deck list
                (routes.py); a posted form's text deck is refused.
  ghost.record  {"round": int, "face_up": [{"name", "number": None}] * 4}   typed after a physical deal
"""

import copy
import json

from ..base import ROSTER_KINDS, RuleError, find_seat, parse_int, seat_name
from . import deck
from .rules import (CARD_MAX, GAME_KINDS, GHOST, GHOST_AT, MAX_SEATS, MAX_STEP, PENALTY_CHIPS,
                    PICKS, REASON_MAX, REASONS, ROWS, WIN_AT)
from .state import _fresh_ghost, _target_name, has_ghost, picks_left, row_counts, seat_problem


# ---- parse: form -> event data -------------------------------------------------------------

def _parse_target(state, value):
    """A seat id, or the ghost when the form says "ghost"."""
    if str(value).strip().lower() == GHOST:
        if not has_ghost(state):
            raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
        return GHOST
    seat = parse_int(value, "Seat", 0, 2**31)
    find_seat(state, seat)
    return seat


def _parse_seat(state, value):
    seat = parse_int(value, "Seat", 0, 2**31)
    find_seat(state, seat)
    return seat


def _form_list(value):
    """A list from a form value that may already be a list or be JSON text."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str) and value.strip():
        try:
            data = json.loads(value)
        except ValueError:
            raise RuleError("That list could not be read.") from None
        if isinstance(data, dict):
            data = data.get("cards")
        if isinstance(data, list):
            return data
        raise RuleError("That list could not be read.")
    return []


def parse(kind, form, state, actor, rng):
    form = form or {}
    if kind == "resolve.step":
        step = str(form.get("step", "")).strip().lower()
        current = state["resolve_number"]
        if step == "next":
            number = deck.CARD_NUMBERS[0] if current is None else current + 1
            if number > deck.CARD_NUMBERS[-1]:
                raise RuleError(f"All numbers up to {deck.CARD_NUMBERS[-1]} are resolved: bank the round.")
        elif step == "back":
            if current is None or current == deck.CARD_NUMBERS[0]:
                raise RuleError("Resolve is already at the first number.")
            number = current - 1
        else:
            number = parse_int(form.get("number"), "The card number", deck.CARD_NUMBERS[0], deck.CARD_NUMBERS[-1])
        return {"number": number}
    if kind == "points":
        seat = _parse_target(state, form.get("seat"))
        delta = parse_int(form.get("delta"), "The amount", -MAX_STEP, MAX_STEP)
        if delta == 0:
            raise RuleError("The amount cannot be zero.")
        reason = " ".join(str(form.get("reason") or REASONS[0]).split())
        if len(reason) > REASON_MAX:
            raise RuleError(f"Keep the reason under {REASON_MAX} characters.")
        return {"seat": seat, "delta": delta, "reason": reason, "number": state["resolve_number"]}
    if kind == "kill":
        return {"seat": _parse_target(state, form.get("seat"))}
    if kind == "bank":
        # The round comes from the screen, so a second tap on a stale screen is refused.
        if str(form.get("round", "")).strip() == "":
            raise RuleError("Say which round to bank.")
        return {"round": parse_int(form.get("round"), "The round", 1, 10**6)}
    if kind == "draft.pick":
        seat = _parse_seat(state, form.get("seat", actor.get("seat") if actor else None))
        row = str(form.get("row", "")).strip().lower()
        if row not in ROWS:
            raise RuleError("Choose the front row or the rear row.")
        card = " ".join(str(form.get("card") or "").split())
        if len(card) > CARD_MAX:
            raise RuleError(f"A card name can be at most {CARD_MAX} characters.")
        return {"seat": seat, "row": row, "card": deck.canonical_name(card) if card else ""}
    if kind == "draft.unpick":
        return {"seat": _parse_seat(state, form.get("seat", actor.get("seat") if actor else None))}
    if kind == "penalty":
        seat = _parse_seat(state, form.get("seat"))
        delta = parse_int(form.get("delta"), "The change", -PENALTY_CHIPS, PENALTY_CHIPS)
        if delta == 0:
            raise RuleError("The change cannot be zero.")
        return {"seat": seat, "delta": delta}
    if kind == "ghost.deal":
        if not has_ghost(state):
            raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
        entries = form.get("deck")
        # The deck comes from the list stored on the server, handed in as data; a posted form
        # only ever carries text, so a phone cannot slip in a deck of its own.
        if isinstance(entries, str) and entries.strip():
            raise RuleError("The app deals the ghost only from the deck list stored in the app.")
        if not entries or not isinstance(entries, (list, tuple)):
            raise RuleError("The app can deal the ghost only with a complete deck list; deal by hand instead.")
        extras = deck.parse_extras(form.get("extras"))
        cards = deck.build_deck(entries, extras)
        dealt = deck.deal_ghost(cards, rng)
        return {"round": state["round"], "face_up": dealt["face_up"], "redeals": dealt["redeals"], "extras": extras}
    if kind == "ghost.record":
        if not has_ghost(state):
            raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
        names = [form.get(f"card{i}") for i in range(1, deck.GHOST_FACE_UP + 1)]
        if not any(names):
            names = _form_list(form.get("cards"))
        face_up = []
        for name in names:
            name = deck.canonical_name(name.get("name") if isinstance(name, dict) else name)
            if len(name) > CARD_MAX:
                raise RuleError(f"A card name can be at most {CARD_MAX} characters.")
            face_up.append({"name": name, "number": None})
        return {"round": state["round"], "face_up": face_up}
    raise RuleError("Unknown action.")


# ---- apply: the reducer --------------------------------------------------------------------

def _require_play(state):
    if state["phase"] == "ended":
        raise RuleError("The game is over.")
    problem = seat_problem(state)
    if problem:
        raise RuleError(problem)


def _check_round(state, data):
    if data.get("round") != state["round"]:
        raise RuleError(f"Round {data.get('round')} is already over; this is round {state['round']}.")



def _check_target(state, target):
    if target == GHOST:
        if not has_ghost(state):
            raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
    else:
        find_seat(state, target)


def _check_own_seat(event, seat):
    by = event.get("by") or {}
    if by.get("role") == "seat" and by.get("seat") != seat:
        raise RuleError("You can only record your own picks.")


def _start_round(state):
    state["resolve_number"] = None
    for seat in state["seats"]:
        state["preliminary"][seat["id"]] = 0
        state["killed"][seat["id"]] = False
        state["picks"][seat["id"]] = []
    state["ghost"] = _fresh_ghost()


def _bank(state, data):
    _check_round(state, data)
    banked = []
    for seat in state["seats"]:
        sid = seat["id"]
        points = 0 if state["killed"][sid] else state["preliminary"][sid]
        state["real"][sid] += points
        banked.append({"seat": sid, "points": points, "killed": state["killed"][sid], "real": state["real"][sid]})
    ghost = state["ghost"]
    state["history"].append({
        "round": state["round"],
        "banked": banked,
        # The ghost's points go back to the stock: she never banks.
        "ghost_returned": 0 if ghost["killed"] or not has_ghost(state) else ghost["preliminary"],
    })
    if any(state["real"][s["id"]] >= WIN_AT for s in state["seats"]):
        state["phase"] = "ended"
        state["resolve_number"] = None
    else:
        state["round"] += 1
        _start_round(state)


def _change_points(state, data):
    target, delta = data["seat"], data["delta"]
    _check_target(state, target)
    if not isinstance(delta, int) or delta == 0:
        raise RuleError("The amount must be a whole number other than zero.")
    name = _target_name(state, target)
    holder = state["ghost"] if target == GHOST else None
    killed = holder["killed"] if holder else state["killed"][target]
    if killed:
        raise RuleError(f"{name} was killed this round and cannot gain preliminary points until the next round.")
    current = holder["preliminary"] if holder else state["preliminary"][target]
    if current + delta < 0:
        raise RuleError(f"{name} has only {current} preliminary points; they cannot go below 0.")
    if holder:
        holder["preliminary"] = current + delta
    else:
        state["preliminary"][target] = current + delta


def _kill(state, data):
    target = data["seat"]
    _check_target(state, target)
    # A second kill of the same seat is no new killing: nothing changes.
    if target == GHOST:
        state["ghost"]["killed"] = True
        state["ghost"]["preliminary"] = 0
    else:
        state["killed"][target] = True
        state["preliminary"][target] = 0


def _pick(state, event):
    data = event["data"]
    seat = data["seat"]
    find_seat(state, seat)
    _check_own_seat(event, seat)
    row = data["row"]
    if row not in ROWS:
        raise RuleError("Choose the front row or the rear row.")
    name = seat_name(state, seat)
    if picks_left(state, seat) <= 0:
        raise RuleError(f"{name} has made all {PICKS} picks this round.")
    counts = row_counts(state, seat)
    if counts[row] >= ROWS[row]:
        other = "front" if row == "rear" else "rear"
        raise RuleError(f"{name}'s {row} row is full ({ROWS[row]} cards): this pick goes to the {other} row.")
    card = str(data.get("card") or "")
    if len(card) > CARD_MAX:
        raise RuleError(f"A card name can be at most {CARD_MAX} characters.")
    state["picks"][seat].append({"row": row, "card": card})


def _unpick(state, event):
    seat = event["data"]["seat"]
    find_seat(state, seat)
    _check_own_seat(event, seat)
    if not state["picks"][seat]:
        raise RuleError(f"{seat_name(state, seat)} has no pick to take back.")
    state["picks"][seat].pop()


def _penalty(state, data):
    seat, delta = data["seat"], data["delta"]
    find_seat(state, seat)
    if not isinstance(delta, int) or delta == 0:
        raise RuleError("The change must be a whole number other than zero.")
    new = state["penalty_chips"][seat] + delta
    if new < 0:
        raise RuleError(f"{seat_name(state, seat)} has only {state['penalty_chips'][seat]} penalty chips.")
    in_use = sum(state["penalty_chips"].values()) + delta
    if in_use > PENALTY_CHIPS:
        raise RuleError(f"The box has only {PENALTY_CHIPS} penalty chips.")
    state["penalty_chips"][seat] = new


def _ghost_cards(state, data, source):
    if not has_ghost(state):
        raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
    _check_round(state, data)
    ghost = state["ghost"]
    if ghost["face_up"] is not None and not ghost["three_magicians"]:
        raise RuleError("The ghost's cards for this round are already dealt.")
    face_up = data.get("face_up")
    if not isinstance(face_up, list) or len(face_up) != deck.GHOST_FACE_UP:
        raise RuleError(f"The ghost has exactly {deck.GHOST_FACE_UP} face-up cards.")
    cards = []
    for card in face_up:
        name = deck.canonical_name(card.get("name") if isinstance(card, dict) else card)
        if not name:
            raise RuleError(f"Name all {deck.GHOST_FACE_UP} of the ghost's face-up cards.")
        number = card.get("number") if isinstance(card, dict) else None
        cards.append({"name": name, "number": number})
    three = deck.magician_count(cards) >= deck.MAGICIANS_THAT_MISFIRE
    if three and source == "dealt":
        raise RuleError("A deal with three Magicians face up must be redone.")
    ghost.update({"face_up": cards, "source": source, "three_magicians": three,
                  "redeals": data.get("redeals", 0) if source == "dealt" else 0})


def apply(state, event):
    kind, data = event["kind"], event["data"]
    state = copy.deepcopy(state)
    if kind == "seat.join":
        if len(state["seats"]) > MAX_SEATS:
            raise RuleError(f"Age of Assassins is for at most {MAX_SEATS} players: this table is full.")
        if state["started"]:
            raise RuleError("The game has started: a new player cannot join now.")
        sid = data["seat"]
        for table in ("real", "preliminary", "penalty_chips"):
            state[table].setdefault(sid, 0)
        state["killed"].setdefault(sid, False)
        state["picks"].setdefault(sid, [])
        return state
    if kind == "seat.remove":
        gone = data["seat"]
        for table in ("real", "preliminary", "killed", "penalty_chips", "picks"):
            state[table].pop(gone, None)
        return state
    if kind in ROSTER_KINDS:
        return state
    if kind not in GAME_KINDS:
        raise RuleError("Unknown action.")
    _require_play(state)
    if kind == "resolve.step":
        number = data.get("number")
        if number not in deck.CARD_NUMBERS:
            raise RuleError(f"The card number must be between {deck.CARD_NUMBERS[0]} and {deck.CARD_NUMBERS[-1]}.")
        state["resolve_number"] = number
    elif kind == "points":
        _change_points(state, data)
    elif kind == "kill":
        _kill(state, data)
    elif kind == "bank":
        _bank(state, data)
    elif kind == "draft.pick":
        _pick(state, event)
    elif kind == "draft.unpick":
        _unpick(state, event)
    elif kind == "penalty":
        _penalty(state, data)
    elif kind == "ghost.deal":
        _ghost_cards(state, data, "dealt")
    elif kind == "ghost.record":
        _ghost_cards(state, data, "typed")
    state["started"] = True
    return state


