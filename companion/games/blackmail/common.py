"""What the tracked mode and the dealt mode share: questions about the round, form parsing
helpers, the checks and the turn passing both reducers use. Both modes import this module,
never each other."""

from ..base import RuleError, next_clockwise, parse_int, seat_ids
from .rules import BY_NUMBER, CARD_BY_CARD, CHARACTERS, DEALT, DECK_SIZE, NUMBERS, SECRET_CARDS, character_name

# ---------------------------------------------------------------- derived questions


def _name(state, seat_id):
    for seat in state["seats"]:
        if seat["id"] == seat_id:
            return seat["name"]
    return f"Seat {seat_id}"


def out_seats(state):
    r = state["round"]
    return [o["seat"] for o in r["out"]] if r else []


def still_in(state):
    """Seats still in the current round, clockwise."""
    gone = set(out_seats(state))
    return [s for s in seat_ids(state) if s not in gone]


def whose_turn(state):
    r = state["round"]
    if not r or r["tracking"] not in CARD_BY_CARD or r["stage"] != "playing":
        return None
    return r["turn"]


def deck_count(state):
    """16 - the secret - one card per seat dealt - every draw so far (the current turn's included)."""
    r = state["round"]
    if not r:
        return None
    return DECK_SIZE - SECRET_CARDS - r["dealt"] - r["draws"]


def seen_counts(state):
    """For each character number, how many copies are face up this round (hands at deck-out too)."""
    r = state["round"]
    counts = {n: 0 for n in NUMBERS}
    if not r:
        return counts
    for n in NUMBERS:
        counts[n] = r["seen"][n]
    for card in r["hands"].values():
        counts[card] += 1
    return counts


def valid_targets(state, seat, card):
    """Seats the player may pick for this card right now ([] when the card takes no target)."""
    kind = BY_NUMBER[card]["target"]
    if kind is None or not state["round"]:
        return []
    protected = set(state["round"]["protected"])
    targets = []
    for other in still_in(state):
        if other == seat:
            if kind == "any":
                targets.append(other)
        elif other not in protected:
            targets.append(other)
    return targets


def rounds_won(state):
    won = {s: 0 for s in seat_ids(state)}
    for record in state["history"]:
        for w in record["winners"]:
            if w in won:
                won[w] += 1
    return won


def leaders(state):
    if not state["vp"]:
        return []
    top = max(state["vp"].values())
    return [s for s in seat_ids(state) if state["vp"].get(s, 0) == top]


def _would_end_game(state, winners):
    return any(state["vp"].get(w, 0) + 1 >= state["target"] for w in winners)


# ---------------------------------------------------------------- parse (forms -> event data)


def _yes(value):
    return str(value or "").strip().lower() in ("1", "yes", "y", "true", "on", "right", "correct")


def _blank(value):
    return value is None or str(value).strip().lower() in ("", "none", "-", "no")


def _parse_seat(value, label):
    return parse_int(value, label, 0, 2**31)


def _opt_seat(value, label):
    return None if _blank(value) else _parse_seat(value, label)


def _parse_character(value, label):
    text = str(value or "").strip()
    for c in CHARACTERS:
        if text.lower() == c["name"].lower():
            return c["number"]
    return parse_int(text, label, min(NUMBERS), max(NUMBERS))


def _opt_character(value, label):
    return None if _blank(value) else _parse_character(value, label)


# ---------------------------------------------------------------- shared by both reducers


def _in_game(state):
    return state["phase"] == "round"


def _live_round(state):
    if not _in_game(state) or not state["round"]:
        raise RuleError("No round is being played.")
    return state["round"]


def _character(value, label):
    if value not in BY_NUMBER:
        raise RuleError(f"{label} must be one of the eight characters.")
    return value


def _play_entry(r, seat, card, **more):
    """A card's play as the round records it, before its effect fills in what it chose."""
    return {
        "turn": len(r["plays"]) + 1,
        "seat": seat,
        "card": card,
        **dict.fromkeys(("target", "named", "choice", "discarded", "eliminated", "revealed", "correct")),
        **more,
    }


def _check_target(state, seat, card, target):
    """Return the checked target, or None when the card goes off with nobody to pick."""
    r = state["round"]
    kind = BY_NUMBER[card]["target"]
    if target is None:
        options = valid_targets(state, seat, card)
        if options:
            names = ", ".join(_name(state, s) for s in options)
            raise RuleError(f"Pick a target for {character_name(card)}: {names}.")
        return None
    if target not in seat_ids(state):
        raise RuleError("There is no such seat at this table.")
    if target == seat and kind != "any":
        raise RuleError(f"{character_name(card)} must target another player, not yourself.")
    if target in out_seats(state):
        raise RuleError(f"{_name(state, target)} is already out of this round.")
    if target != seat and target in r["protected"]:
        raise RuleError(f"{_name(state, target)} is protected by Cheryl/Carol until their next turn.")
    return target


def _eliminate(r, seat, card_played, by, card):
    r["out"].append({"seat": seat, "why": card_played, "by": by, "card": card})
    if seat in r["protected"]:
        r["protected"].remove(seat)


def _after_play(state, seat, result):
    """End the round if it is over, else pass the turn clockwise to the next seat still in."""
    r = state["round"]
    live = still_in(state)
    if result is None and len(live) == 1:
        result = {"why": "last_seat", "winners": live}
    if result is not None:
        r.update(stage="over", turn=None, result=result)
        return
    if deck_count(state) <= 0:
        r.update(stage="hands", turn=None)  # everyone still in shows the card in hand
        return
    nxt = next_clockwise(state, seat, skip=set(out_seats(state)))
    r["turn"] = nxt
    r["draws"] += 1
    if nxt in r["protected"]:
        r["protected"].remove(nxt)  # Cheryl/Carol's cover ends when that seat's turn comes round


def is_dealt(state):
    r = state.get("round")
    return bool(r) and r.get("tracking") == DEALT
