"""Age of Assassins moves: parse (form -> event data) and apply (the reducer).

The app keeps the score beside the physical cards: players resolve card effects themselves
and tap the points in. This module resolves the numbers, moves points, kills, banks and ends the
game, and hands the draft's kinds to draft.py and the ghost's to ghost.py. Deck data and the
ghost deal live in deck.py.

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

from ..base import ROSTER_KINDS, RuleError, check_step, find_seat, parse_int, seat_name
from . import deck
from .draft import KINDS as DRAFT_KINDS
from .draft import apply_draft, parse_draft, parse_seat
from .ghost import KINDS as GHOST_KINDS
from .ghost import apply_ghost, check_round, no_three_face_up, parse_ghost
from .rules import (
    BANK_AFTER,
    GAME_KINDS,
    GHOST,
    GHOST_AT,
    MAX_SEATS,
    MAX_STEP,
    PENALTY_CHIPS,
    REASON_MAX,
    REASONS,
    WIN_AT,
)
from .state import _fresh_ghost, _target_name, has_ghost, names, seat_problem, step_now, still_picking

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
    if kind in DRAFT_KINDS:
        return parse_draft(kind, form, state, actor)
    if kind == "penalty":
        seat = parse_seat(state, form.get("seat"))
        delta = parse_int(form.get("delta"), "The change", -PENALTY_CHIPS, PENALTY_CHIPS)
        if delta == 0:
            raise RuleError("The change cannot be zero.")
        return {"seat": seat, "delta": delta}
    if kind in GHOST_KINDS:
        return parse_ghost(kind, form, state, rng)
    if kind == "tiebreak.seat":
        return {"seat": parse_seat(state, form.get("seat"))}
    raise RuleError("Unknown action.")


def _where(state):
    """Where the table is now, in words, for a refused stale tap."""
    return step_now(state)


def _not_over(state):
    if state["phase"] == "ended":
        raise RuleError("The game is over.")


def _bank_too_early(state):
    now = state["resolve_number"]
    where = "the table is still drafting" if now is None else f"the table is at number {now}"
    return f"Round {state['round']} can be banked only once number {BANK_AFTER} is resolved; {where}. Nothing changed."


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
        check_step(form, "draft" if current is None else current, _where(state), field="at")
        number = parse_int(form.get("number"), "The card number", first, last)
    data = {"number": number}
    if current is None:
        left = still_picking(state)
        if left:
            if not str(form.get("force") or "").strip():
                raise RuleError(
                    f"{names(state, left)} {'has' if len(left) == 1 else 'have'} not "
                    "finished picking. Nothing changed: confirm to start resolving anyway."
                )
            data["forced"] = left
    return data


# ---- apply: the reducer --------------------------------------------------------------------


def _require_play(state):
    if state["phase"] == "ended":
        raise RuleError("The game is over.")
    problem = seat_problem(state)
    if problem:
        raise RuleError(problem)


def _check_target(state, target):
    if target == GHOST:
        if not has_ghost(state):
            raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
    else:
        find_seat(state, target)


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
    check_round(state, data)
    if state["resolve_number"] != BANK_AFTER:
        raise RuleError(_bank_too_early(state))
    banked = []
    for seat in state["seats"]:
        sid = seat["id"]
        points = 0 if state["killed"][sid] else state["preliminary"][sid]
        state["real"][sid] += points
        banked.append(
            {
                "seat": sid,
                "points": points,
                "killed": state["killed"][sid],
                "real": state["real"][sid],
                "real_gained": state["round_real"].get(sid, 0),
            }
        )
    ghost = state["ghost"]
    kept = 0 if ghost["killed"] or not has_ghost(state) else ghost["preliminary"]
    state["history"].append(
        {
            "round": state["round"],
            "banked": banked,
            # The ghost's points go back to the stock: she never banks.
            "ghost_returned": kept + (ghost["returned"] if has_ghost(state) else 0),
        }
    )
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


def _step_to(state, event):
    data = event["data"]
    number = data.get("number")
    if number not in deck.CARD_NUMBERS:
        raise RuleError(f"The card number must be between {deck.CARD_NUMBERS[0]} and {deck.CARD_NUMBERS[-1]}.")
    no_three_face_up(state)
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
    elif kind in DRAFT_KINDS:
        apply_draft(state, event)
    elif kind == "penalty":
        _penalty(state, data)
    elif kind in GHOST_KINDS:
        apply_ghost(state, kind, data)
    state["started"] = True
    return state
