"""parse (a posted form -> event data, dice rolled here and nowhere else) and apply (the
reducer). Each action's details live beside it: forms, setup, rounds, mission."""

import copy

from ..base import ROSTER_KINDS, RuleError, check_step, find_seat, parse_int, seat_ids, seat_name
from . import dice
from .guards import _require_phase, _require_playing, _require_seat_count, _require_setup
from .mission import _apply_complete, _apply_event, _apply_fail, _apply_roll, _check_win
from .parsing import (
    _choice,
    _form_cards,
    _form_challenge,
    _form_delta,
    _form_drawer,
    _form_reason,
    _form_seat,
    _own_seat,
    _parse_dice,
    _parse_uta,
)
from .rounds import _apply_enter, _apply_next, _apply_token_move
from .rules import (
    CHARACTERS,
    DIRECTIONS,
    EVENTS,
    INITIATIVE_DICE,
    LOCATIONS,
    LOWEST_UPPER_HAND,
    MAX_WOODHOUSE_AMOUNT,
    TOKENS,
)
from .setup import _apply_pick, _apply_roster, _apply_seat_roll
from .state import (
    _name,
    challenges_to_draw,
    event_step,
    initiative_rolloff,
    locations_to_use,
    mission_leader_choice,
    next_step,
    pending,
    pending_text,
    rolloff_step_text,
    step_now,
)

# parse: a posted form (strings) -> event data; rolls dice here and nowhere else.


def parse(kind, form, state, actor, rng):
    form = form or {}
    if kind == "character.pick":
        seat = _form_seat(form, state, actor)
        if actor.get("role") != "host" and actor.get("seat") != seat:
            raise RuleError("You can only pick the character for your own seat.")
        return {"seat": seat, "character": _choice(form.get("character"), CHARACTERS, "a character")}
    if kind == "locations.draw":
        _require_setup(state, "The Locations can only be drawn again before the first round.")
        _require_seat_count(state)
        count = locations_to_use(len(state["seats"]))
        drawn = set(rng.sample(LOCATIONS, count))
        return {"locations": [name for name in LOCATIONS if name in drawn], "draw": state["location_draws"] + 1}
    if kind == "initiative.roll":
        _require_setup(state, "The Initiative roll-off happens before the first round.")
        _require_seat_count(state)
        return {"rolloff": dice.roll_off(seat_ids(state), rng, INITIATIVE_DICE)}
    if kind == "initiative.record":
        _require_setup(state, "The Initiative roll-off happens before the first round.")
        return {"seat": _form_seat(form, state, None)}
    if kind == "initiative.seat_roll":
        # A seat rolls its own three dice; the roll names the round of the roll-off it is for
        # (form "to"), so a doubled tap, or one from before a tie, is refused.
        _require_setup(state, "The Initiative roll-off happens before the first round.")
        _require_seat_count(state)
        seat = _own_seat(form, state, actor, "roll for the Initiative")
        if state["initiative"] is not None:
            raise RuleError(
                f"The Initiative is settled: {_name(state, state['initiative'])} holds the token. Nothing changed."
            )
        status = initiative_rolloff(state)
        check_step(form, status["round"] if seat in status["waiting"] else None, rolloff_step_text(state, status))
        faces = dice.roll(INITIATIVE_DICE, rng)
        return {"seat": seat, "round": status["round"], "dice": faces, "total": sum(faces)}
    if kind == "order.confirm":
        _require_setup(state, "The seating order is confirmed before the first round.")
        shown = [part for part in str(form.get("order") or "").split(",") if part.strip()]
        if [str(s) for s in seat_ids(state)] != [part.strip() for part in shown]:
            raise RuleError("The seats changed since this page was drawn; check the order again and confirm.")
        return {"order": seat_ids(state)}
    if kind == "round.next":
        check_step(form, next_step(state), step_now(state))
        data = {"round": state["round"], "phase": state["phase"], "leader": None, "forced": pending(state)}
        if data["forced"] and not form.get("force"):
            raise RuleError(f"{pending_text(state)}. Confirm to go on without them.")
        if state["phase"] == "Movement" and not state["winners"]:
            pick = form.get("leader")
            pick = None if pick in (None, "") else parse_int(pick, "The Mission Leader", 0, 2**31)
            data["leader"] = mission_leader_choice(state, rng, pick)
        return data
    if kind == "token.move":
        token = (form.get("token") or "").strip()
        if token not in TOKENS:
            raise RuleError("Pick the Initiative Token or the Mission Leader Token.")
        _require_playing(state)
        seat = _form_seat(form, state, actor)
        if state[token] == seat and token in state["by_hand"]:
            # Already put there by hand: a doubled tap changes nothing.
            raise RuleError(f"{_name(state, seat)} already holds the {TOKENS[token]}. Nothing changed.")
        return {"token": token, "seat": seat}
    if kind == "upper_hand.change":
        seat = _form_seat(form, state, actor)
        delta = _form_delta(form)
        if delta == 0:
            raise RuleError("The change cannot be zero.")
        return {"seat": seat, "delta": delta, "reason": _form_reason(form)}
    if kind == "movement.enter":
        seat = _own_seat(form, state, actor, "reveal")
        return {"seat": seat, "location": _choice(form.get("location"), LOCATIONS, "a Location")}
    if kind == "challenge.draw":
        return {"cards": _form_cards(form, state)}
    if kind in ("challenge.complete", "challenge.correct"):
        seat = _own_seat(form, state, actor, "record a Challenge")
        card = form.get("card")
        if card not in (None, ""):
            if not state["mission"]["cards"]:
                raise RuleError("No Challenge cards were recorded for this Mission.")
            index = parse_int(card, "The Challenge", 1, len(state["mission"]["cards"])) - 1
            picked = state["mission"]["cards"][index]
            return {
                "seat": seat,
                "card": index,
                "type": picked["type"],
                "difficulty": picked["difficulty"],
                "reward": picked["reward"],
                "color": picked.get("color", ""),
            }
        return {"seat": seat, "card": None, **_form_challenge(form, "")}
    if kind == "challenge.fail":
        return {"seat": _own_seat(form, state, actor, "record a roll")}
    if kind in EVENTS and "to" in form:
        # The tablet names the round's Event card it applies: a doubled tap is refused. (The
        # host page may apply more than one, a card having said so.)
        check_step(form, event_step(state), step_now(state) + ", its Event card applied")
    if kind == "event.embarrassing_pictures":
        direction = (form.get("direction") or "left").strip().lower()
        if direction not in DIRECTIONS:
            raise RuleError("Pass the card left or right.")
        return {"drawer": _form_drawer(form, state), "direction": direction}
    if kind == "event.rona_thorne":
        return {"drawer": _form_drawer(form, state)}
    if kind == "event.uta":
        return _parse_uta(form, state, rng)
    if kind == "event.woodhouse":
        if form.get("sign") in ("+", "-"):
            amount = parse_int(form.get("amount"), "Woodhouse's amount", 1, MAX_WOODHOUSE_AMOUNT)
            amount = amount if form["sign"] == "+" else -amount
        else:
            amount = parse_int(
                str(form.get("amount") or "").replace("\u2212", "-"),
                "Woodhouse's amount",
                -MAX_WOODHOUSE_AMOUNT,
                MAX_WOODHOUSE_AMOUNT,
            )
        if amount == 0:
            raise RuleError("Woodhouse's amount cannot be zero.")
        return {"drawer": _form_drawer(form, state), "amount": amount}
    if kind == "dice.roll":
        return _parse_dice(form, state, actor, rng)
    raise RuleError("Unknown action.")


# apply: the reducer. Checks every rule against the state (it also runs when an undo
# re-folds the log) and never mutates its input.


def apply(state, event):
    kind, data = event["kind"], event["data"]
    state = copy.deepcopy(state)
    if kind in ROSTER_KINDS:
        _apply_roster(state, kind, data)
    elif kind == "character.pick":
        _apply_pick(state, data)
    elif kind == "locations.draw":
        _require_setup(state, "The Locations can only be drawn again before the first round.")
        _require_seat_count(state)
        state["locations"] = [name for name in LOCATIONS if name in data["locations"]]
        state["location_draws"] = data["draw"]
    elif kind in ("initiative.roll", "initiative.record"):
        _require_setup(state, "The Initiative roll-off happens before the first round.")
        seat = data["rolloff"]["winner"] if kind == "initiative.roll" else data["seat"]
        find_seat(state, seat)
        state["initiative"] = seat
        state["initiative_why"] = (
            {"rule": "rolloff", "rolloff": data["rolloff"]} if kind == "initiative.roll" else {"rule": "table"}
        )
        state["initiative_rolls"] = []  # the host's roll-off replaces one the seats began
    elif kind == "initiative.seat_roll":
        _apply_seat_roll(state, data)
    elif kind == "order.confirm":
        _require_setup(state, "The seating order is confirmed before the first round.")
        if data["order"] != seat_ids(state):
            raise RuleError("The seats changed since; confirm the order again.")
        state["order_confirmed"] = list(data["order"])
    elif kind == "round.next":
        _apply_next(state, data, event)
    elif kind == "token.move":
        _apply_token_move(state, data)
    elif kind == "upper_hand.change":
        _require_playing(state)
        seat = data["seat"]
        find_seat(state, seat)
        now = state["upper_hand"][seat]
        if now + data["delta"] < LOWEST_UPPER_HAND:
            raise RuleError(
                f"{seat_name(state, seat)} has {now} Upper Hand; losing "
                f"{-data['delta']} would go below {LOWEST_UPPER_HAND}."
            )
        state["upper_hand"][seat] = now + data["delta"]
        state["last_change"] = {
            "seat": seat,
            "delta": data["delta"],
            "reason": data["reason"],
            "by": event["by"],
            "event": event["id"],
        }
        _check_win(state)
    elif kind == "movement.enter":
        _apply_enter(state, data)
    elif kind == "challenge.draw":
        _require_phase(state, "Mission", "Challenge cards are drawn in the Mission phase.")
        if state["mission"]["completed"]:
            raise RuleError("A Challenge of this Mission is already completed; undo it to change the cards.")
        limit = challenges_to_draw(len(state["seats"]))
        if len(data["cards"]) > limit:
            raise RuleError(f"This Mission draws {limit} Challenge cards.")
        state["mission"]["cards"] = [dict(card, color=card.get("color", ""), done_by=None) for card in data["cards"]]
    elif kind in ("challenge.complete", "challenge.correct"):
        _apply_complete(state, data, event, correction=kind == "challenge.correct")
    elif kind == "challenge.fail":
        _apply_fail(state, data)
    elif kind in EVENTS:
        _apply_event(state, kind, data, event)
    elif kind == "dice.roll":
        _apply_roll(state, data)
        state["last_roll"] = dict(data, by=event["by"], event=event["id"])
    else:
        raise RuleError("Unknown action.")
    return state
