"""Age of Assassins moves: parse (form -> event data) and apply (the reducer).

The app keeps the score beside the physical cards: players resolve card effects themselves
and tap the points in. Deck data and the ghost deal live in deck.py.

Event kinds (data shapes are what `parse` returns):
  resolve.step  {"number": 1-6, "forced": [seat ids]}  the card number being resolved now; "forced"
                (only when starting at 1) lists who still had picks; the form names its step
                ("to": the number for next/back, "at": where the screen saw the table for a
                direct number) and carries "force" when its page asked to confirm
  points        {"seat": int | "ghost", "delta": int, "reason": str, "number": int | None}
  points.real   {"seat": int | "ghost", "delta": int, "reason": str, "number": int | None}
                real points from a card effect; a kill leaves them, the ghost's go to the stock
  kill          {"seat": int | "ghost", "instead_of": "ghost" (optional)}  three Magicians on the
                ghost kill the seat on her right (the last seat) in her place
  bank          {"round": int}   bank the round and end it; only at number 6; form "to": round + 1
  draft.pick    {"seat": int, "row": "front" | "rear", "card": str}
  draft.unpick  {"seat": int}                          take back the seat's last pick
  penalty       {"seat": int, "delta": int}            penalty chips in front of a seat
  ghost.deal    {"round": int, "face_up": [{"name", "number"}] * 4, "redeals": int, "extras": [str]}
                parse takes the deck as a list the server read from its stored deck list
                (routes.py); a posted form's text deck is refused.
  ghost.record  {"round": int, "face_up": [{"name", "number": None}] * 4}   typed after a physical deal
  ghost.down    {"round": int, "face_down": [{"name", "number": None}] * 3}  typed once the rear rows turn
  ghost.down.deal {"round": int, "face_down": [{"name", "number"}] * 3}   drawn by the app from the
                stored deck less every card known this round (routes.py hands in the deck)
  tiebreak.seat {"seat": int}    the tie-break's reference seat (host only, before the game ends)
"""

import copy

from ..base import ROSTER_KINDS, RuleError, check_step, find_seat, parse_int, read_json, seat_name
from . import deck
from .rules import (BANK_AFTER, CARD_MAX, GAME_KINDS, GHOST, GHOST_AT, MAX_SEATS, MAX_STEP,
                    PENALTY_CHIPS, PICKS, REASON_MAX, REASONS, ROWS, WIN_AT)
from .state import (_fresh_ghost, _target_name, ghost_cards, has_ghost, names, picks_left, revealed,
                    row_counts, seat_problem, still_picking)


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
        data = read_json(value, "That list")
        if isinstance(data, dict):
            data = data.get("cards")
        if isinstance(data, list):
            return data
        raise RuleError("That list could not be read.")
    return []


def parse(kind, form, state, actor, rng):
    form = form or {}
    if kind == "resolve.step":
        return _parse_step(form, state)
    if kind in ("points", "points.real"):
        seat = _parse_target(state, form.get("seat"))
        delta = parse_int(form.get("delta"), "The amount", -MAX_STEP, MAX_STEP)
        if delta == 0:
            raise RuleError("The amount cannot be zero.")
        reason = " ".join(str(form.get("reason") or REASONS[0]).split())
        if len(reason) > REASON_MAX:
            raise RuleError(f"Keep the reason under {REASON_MAX} characters.")
        return {"seat": seat, "delta": delta, "reason": reason, "number": state["resolve_number"]}
    if kind == "kill":
        target = _parse_target(state, form.get("seat"))
        if str(form.get("instead") or "").strip():
            if target != GHOST:
                raise RuleError("Only the ghost has someone killed in her place.")
            return {"seat": state["seats"][-1]["id"], "instead_of": GHOST}
        return {"seat": target}
    if kind == "bank":
        # Banking moves the table to the next round: the form names it, so a doubled tap is refused.
        _not_over(state)
        check_step(form, state["round"] + 1, _where(state))
        if state["resolve_number"] != BANK_AFTER:
            raise RuleError(_bank_too_early(state))
        return {"round": state["round"]}
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
    if kind in ("ghost.down", "ghost.down.deal"):
        return _parse_face_down(kind, form, state, rng)
    if kind == "tiebreak.seat":
        return {"seat": _parse_seat(state, form.get("seat"))}
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


def _where(state):
    """Where the table is now, in words, for a refused stale tap."""
    if state["phase"] == "ended":
        return "the end of the game"
    if state["resolve_number"] is None:
        return f"the draft of round {state['round']}"
    return f"number {state['resolve_number']} of round {state['round']}"


def _not_over(state):
    if state["phase"] == "ended":
        raise RuleError("The game is over.")


def _bank_too_early(state):
    now = state["resolve_number"]
    where = "the table is still drafting" if now is None else f"the table is at number {now}"
    return (f"Round {state['round']} can be banked only once number {BANK_AFTER} is resolved; "
            f"{where}. Nothing changed.")


def _parse_step(form, state):
    _not_over(state)
    step = str(form.get("step", "")).strip().lower()
    current = state["resolve_number"]
    first, last = deck.CARD_NUMBERS[0], deck.CARD_NUMBERS[-1]
    if step == "next":
        number = first if current is None else current + 1
        if number > last:
            raise RuleError(f"All numbers up to {last} are resolved: bank the round.")
        check_step(form, number, _where(state))
    elif step == "back":
        if current is None or current == first:
            raise RuleError("Resolve is already at the first number.")
        number = current - 1
        check_step(form, number, _where(state))
    else:
        # A tap straight on a number: the form says where its screen saw the table, so a tap
        # from a screen left behind cannot move the table back.
        check_step({"to": form.get("at")}, "draft" if current is None else current, _where(state))
        number = parse_int(form.get("number"), "The card number", first, last)
    data = {"number": number}
    if current is None:
        left = still_picking(state)
        if left:
            if not str(form.get("force") or "").strip():
                raise RuleError(f"{names(state, left)} {'has' if len(left) == 1 else 'have'} not "
                                "finished picking. Nothing changed: confirm to start resolving anyway.")
            data["forced"] = left
    return data


def _parse_face_down(kind, form, state, rng):
    if not has_ghost(state):
        raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
    if state["resolve_number"] is None:
        raise RuleError("The ghost's face-down cards are turned over with the rear rows, when resolving starts.")
    count = deck.GHOST_FACE_DOWN
    if kind == "ghost.down":
        cards = []
        for i in range(1, count + 1):
            name = deck.canonical_name(form.get(f"down{i}"))
            if not name:
                raise RuleError(f"Name all {count} of the ghost's face-down cards.")
            if len(name) > CARD_MAX:
                raise RuleError(f"A card name can be at most {CARD_MAX} characters.")
            cards.append({"name": name, "number": None})
        return {"round": state["round"], "face_down": cards}
    entries = form.get("deck")
    if not entries or not isinstance(entries, (list, tuple)):
        raise RuleError("The app can draw her face-down cards only with a complete deck list; type them instead.")
    # What is left unseen: the deck (with this round's extras) less every card known by name.
    rest = deck.build_deck(entries, state["ghost"].get("extras") or [])
    known = [c["name"] for c in ghost_cards(state)]
    for picks in state["picks"].values():
        known += [p["card"] for p in picks if p["card"]]
    for name in known:
        for i, card in enumerate(rest):
            if deck.canonical_name(card["name"]) == deck.canonical_name(name):
                del rest[i]
                break
    if len(rest) < count:
        raise RuleError("Too few cards are left unseen to draw her face-down cards; type them instead.")
    drawn = rng.sample(rest, count)
    return {"round": state["round"], "face_down": [dict(c) for c in drawn]}


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
    state["forced"] = None
    for seat in state["seats"]:
        state["preliminary"][seat["id"]] = 0
        state["killed"][seat["id"]] = False
        state["picks"][seat["id"]] = []
        state["round_real"][seat["id"]] = 0
    state["ghost"] = _fresh_ghost()


def _bank(state, data):
    _check_round(state, data)
    if state["resolve_number"] != BANK_AFTER:
        raise RuleError(_bank_too_early(state))
    banked = []
    for seat in state["seats"]:
        sid = seat["id"]
        points = 0 if state["killed"][sid] else state["preliminary"][sid]
        state["real"][sid] += points
        banked.append({"seat": sid, "points": points, "killed": state["killed"][sid], "real": state["real"][sid],
                       "real_gained": state["round_real"].get(sid, 0)})
    ghost = state["ghost"]
    kept = 0 if ghost["killed"] or not has_ghost(state) else ghost["preliminary"]
    state["history"].append({
        "round": state["round"],
        "banked": banked,
        # The ghost's points go back to the stock: she never banks.
        "ghost_returned": kept + (ghost["returned"] if has_ghost(state) else 0),
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


def _change_real(state, data):
    """Real points from a card effect: kept whatever happens later; the ghost's go to the stock."""
    target, delta = data["seat"], data["delta"]
    _check_target(state, target)
    if not isinstance(delta, int) or delta == 0:
        raise RuleError("The amount must be a whole number other than zero.")
    if target == GHOST:
        ghost = state["ghost"]
        if ghost["returned"] + delta < 0:
            raise RuleError(f"The ghost has sent only {ghost['returned']} real points back to the stock this round.")
        ghost["returned"] += delta
        return
    name = seat_name(state, target)
    if state["real"][target] + delta < 0:
        raise RuleError(f"{name} has only {state['real'][target]} real points; they cannot go below 0.")
    state["real"][target] += delta
    state["round_real"][target] = state["round_real"].get(target, 0) + delta


def _kill(state, data):
    target = data["seat"]
    _check_target(state, target)
    if data.get("instead_of") == GHOST:
        if not has_ghost(state):
            raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
        if target != state["seats"][-1]["id"]:
            raise RuleError("The seats have moved: the player on the ghost's right is someone else now.")
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
    _no_three_face_up(state)
    if picks_left(state, seat) <= 0:
        raise RuleError(f"{name} has made all {PICKS} picks this round.")
    shown = revealed(state)
    if len(state["picks"][seat]) > shown:
        # Everyone reveals pick k together: nobody moves on to the next one before that.
        behind = [s["id"] for s in state["seats"] if len(state["picks"][s["id"]]) == shown]
        raise RuleError(f"{name} has made pick {shown + 1}; the next waits until "
                        f"{names(state, behind)} {'has' if len(behind) == 1 else 'have'} made it too.")
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
    by = event.get("by") or {}
    if len(state["picks"][seat]) <= revealed(state) and by.get("role") != "host":
        raise RuleError(f"Pick {len(state['picks'][seat])} is already revealed to the table: only the host can take it back.")
    state["picks"][seat].pop()


def _no_three_face_up(state):
    if has_ghost(state) and state["ghost"]["three_magicians"]:
        raise RuleError("Three Magicians are face up at the ghost: deal her again before going on.")


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
    if state["resolve_number"] is not None:
        raise RuleError("Resolving has started: the ghost's face-up cards are set for this round.")
    ghost.update({"face_up": cards, "source": source, "three_magicians": three,
                  "redeals": data.get("redeals", 0) if source == "dealt" else 0,
                  "extras": list(data.get("extras") or [])})


def _ghost_face_down(state, data, source):
    if not has_ghost(state):
        raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
    _check_round(state, data)
    ghost = state["ghost"]
    if state["resolve_number"] is None:
        raise RuleError("The ghost's face-down cards are turned over with the rear rows, when resolving starts.")
    if ghost["face_down"] is not None:
        raise RuleError("The ghost's face-down cards for this round are already recorded: undo that entry to change them.")
    cards = data.get("face_down")
    if not isinstance(cards, list) or len(cards) != deck.GHOST_FACE_DOWN:
        raise RuleError(f"The ghost has exactly {deck.GHOST_FACE_DOWN} face-down cards.")
    clean = []
    for card in cards:
        name = deck.canonical_name(card.get("name") if isinstance(card, dict) else card)
        if not name:
            raise RuleError(f"Name all {deck.GHOST_FACE_DOWN} of the ghost's face-down cards.")
        clean.append({"name": name, "number": card.get("number") if isinstance(card, dict) else None})
    ghost["face_down"] = clean
    ghost["face_down_source"] = source


def _step_to(state, event):
    data = event["data"]
    number = data.get("number")
    if number not in deck.CARD_NUMBERS:
        raise RuleError(f"The card number must be between {deck.CARD_NUMBERS[0]} and {deck.CARD_NUMBERS[-1]}.")
    _no_three_face_up(state)
    if state["resolve_number"] is None and data.get("forced"):
        by = event.get("by") or {}
        who = "the host"
        if by.get("seat") is not None and any(s["id"] == by["seat"] for s in state["seats"]):
            who = seat_name(state, by["seat"])
        forced = [i for i in data["forced"] if any(s["id"] == i for s in state["seats"])]
        state["forced"] = {"by": who, "seats": forced}
    state["resolve_number"] = number


def apply(state, event):
    kind, data = event["kind"], event["data"]
    state = copy.deepcopy(state)
    if kind == "seat.join":
        if len(state["seats"]) > MAX_SEATS:
            raise RuleError(f"Age of Assassins is for at most {MAX_SEATS} players: this table is full.")
        if state["started"]:
            raise RuleError("The game has started: a new player cannot join now.")
        sid = data["seat"]
        for table in ("real", "preliminary", "penalty_chips", "round_real"):
            state[table].setdefault(sid, 0)
        state["killed"].setdefault(sid, False)
        state["picks"].setdefault(sid, [])
        return state
    if kind == "seat.remove":
        gone = data["seat"]
        for table in ("real", "preliminary", "killed", "penalty_chips", "picks", "round_real"):
            state[table].pop(gone, None)
        if state["tie_seat"] == gone:
            state["tie_seat"] = None
        return state
    if kind in ROSTER_KINDS:
        return state
    if kind not in GAME_KINDS:
        raise RuleError("Unknown action.")
    if kind == "tiebreak.seat":
        if state["phase"] == "ended":
            raise RuleError("The game is over: the tie-break's reference seat can no longer change.")
        find_seat(state, data["seat"])
        state["tie_seat"] = data["seat"]
        return state
    _require_play(state)
    if kind == "resolve.step":
        _step_to(state, event)
    elif kind == "points":
        _change_points(state, data)
    elif kind == "points.real":
        _change_real(state, data)
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
    elif kind == "ghost.down":
        _ghost_face_down(state, data, "typed")
    elif kind == "ghost.down.deal":
        _ghost_face_down(state, data, "dealt")
    state["started"] = True
    return state


