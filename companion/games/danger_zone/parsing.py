"""Reading a posted form (strings) into event data; the dice for Uta and free rolls are
rolled here, from the rng parse is given."""

from ..base import RuleError, find_seat, parse_int, seat_ids, seat_name
from . import dice
from .mission import roll_problem
from .rules import (
    CHALLENGE_TYPES,
    CHALLENGES_BY_PLAYERS,
    MALORYS_OFFICE,
    MAX_COLOR_LENGTH,
    MAX_DIFFICULTY,
    MAX_FOES,
    MAX_REWARD,
    MAX_SKILL_DICE,
    MAX_STEP,
    MIN_DIFFICULTY,
    MIN_REWARD,
    MIN_SKILL_DICE,
    PERSONAL,
    ROLLS_FOR,
    UPPER_HAND_REASONS,
    UTA_DRAWER_BONUS,
)
from .state import challenges_to_draw, first_at


def _form_seat(form, state, actor):
    raw = form.get("seat")
    if raw in (None, "") and actor and actor.get("role") == "seat":
        raw = actor.get("seat")
    if raw in (None, ""):
        raise RuleError("Pick a player.")
    seat = parse_int(raw, "The seat", 0, 2**31)
    find_seat(state, seat)
    return seat


def _form_delta(form):
    """A signed change: "delta" as typed (a phone's minus sign allowed), or a whole
    "amount" with a "sign" button, since numeric phone keypads often have no minus key."""
    if form.get("sign") in ("+", "-"):
        amount = parse_int(form.get("amount"), "The amount", 1, MAX_STEP)
        return amount if form["sign"] == "+" else -amount
    raw = str(form.get("delta") if form.get("delta") is not None else "")
    return parse_int(raw.replace("\u2212", "-"), "The change", -MAX_STEP, MAX_STEP)


def _own_seat(form, state, actor, what):
    """A phone reveals and rolls for itself; the host records for anyone."""
    seat = _form_seat(form, state, actor)
    if actor and actor.get("role") == "seat" and actor.get("seat") != seat:
        raise RuleError(f"You can only {what} for your own seat; the host can do it for others.")
    return seat


def _form_drawer(form, state):
    """The Event's drawer: as picked, else whoever entered Malory's Office first this round."""
    if form.get("drawer") not in (None, ""):
        seat = parse_int(form.get("drawer"), "The drawer", 0, 2**31)
        find_seat(state, seat)
        return seat
    first = first_at(state, MALORYS_OFFICE)
    if first is None:
        raise RuleError("Pick who drew the Event card.")
    return first


def _choice(value, options, what):
    value = (value or "").strip()
    for option in options:
        if value.casefold() == option.casefold():
            return option
    raise RuleError(f"Pick {what}: {', '.join(options)}.")


def _form_challenge(form, suffix):
    """One Challenge card: type (or the Personal switch), difficulty, reward, colour."""
    personal = form.get("personal" + suffix) not in (None, "", "0", "off")
    return {
        "type": PERSONAL if personal else _choice(form.get("type" + suffix), CHALLENGE_TYPES, "a Challenge type"),
        "difficulty": parse_int(form.get("difficulty" + suffix), "The difficulty", MIN_DIFFICULTY, MAX_DIFFICULTY),
        "reward": parse_int(form.get("reward" + suffix), "The Upper Hand reward", MIN_REWARD, MAX_REWARD),
        "color": _form_color(form.get("color" + suffix)),
    }


def _form_color(raw):
    """A Challenge's colour as typed (Events count one of each); the rulebook names none,
    so any short word goes, written the same way each time."""
    text = " ".join(str(raw or "").split())
    if len(text) > MAX_COLOR_LENGTH or any(not (ch.isalpha() or ch in " -") for ch in text):
        raise RuleError(f"A Challenge colour is a word of at most {MAX_COLOR_LENGTH} letters.")
    return text.capitalize()


def _form_cards(form, state):
    """Rows type_1/difficulty_1/reward_1 ... ; blank rows are skipped."""
    limit = challenges_to_draw(len(state["seats"])) or max(CHALLENGES_BY_PLAYERS.values())
    cards = []
    for row in range(1, max(CHALLENGES_BY_PLAYERS.values()) + 1):
        suffix = f"_{row}"
        if all(not (form.get(f + suffix) or "").strip() for f in ("type", "difficulty", "reward", "color", "personal")):
            continue
        cards.append(_form_challenge(form, suffix))
    if not cards:
        raise RuleError("Type at least one Challenge card.")
    if len(cards) > limit:
        raise RuleError(f"This Mission draws {limit} Challenge cards, not {len(cards)}.")
    return cards


def _form_reason(form):
    """A quick tap with no reason chosen logs none (not the first reason in the list)."""
    if not (form.get("reason") or "").strip():
        return ""
    return _choice(form.get("reason"), UPPER_HAND_REASONS, "a reason")


def _parse_uta(form, state, rng):
    drawer = _form_drawer(form, state)
    dice_count = state["options"]["uta_dice"]
    if form.get("dice") not in (None, ""):
        dice_count = parse_int(form.get("dice"), "The number of dice", MIN_SKILL_DICE, MAX_SKILL_DICE)
    seats = seat_ids(state)
    bonus = {drawer: UTA_DRAWER_BONUS}
    typed = {s: form.get(f"roll_{s}") for s in seats if form.get(f"roll_{s}") not in (None, "")}
    if typed:
        # The table rolled real dice and typed each player's roll (before the drawer's +1).
        if len(typed) != len(seats):
            raise RuleError("Type a roll for every player, or let the app roll for everyone.")
        rows = []
        for seat in seats:
            value = parse_int(typed[seat], f"{seat_name(state, seat)}'s roll", dice_count, dice_count * dice.SIDES)
            rows.append({"seat": seat, "dice": None, "bonus": bonus.get(seat, 0), "total": value + bonus.get(seat, 0)})
        return {"drawer": drawer, "dice": dice_count, "rolls": rows, "source": "table"}
    return {
        "drawer": drawer,
        "dice": dice_count,
        "source": "app",
        "rolls": dice.roll_once(seats, rng, dice_count, bonus),
    }


def _parse_dice(form, state, actor, rng):
    purpose = (form.get("for") or "").strip()
    if purpose:
        return _parse_roll_for(purpose, form, state, actor, rng)
    dice_count = parse_int(form.get("dice") or 1, "The number of dice", 1, MAX_SKILL_DICE)
    raw = (form.get("seats") or "").replace(" ", "")
    if raw.lower() == "all":
        raw = ",".join(str(s) for s in seat_ids(state))
    elif not raw:
        # Checkboxes named with_<seat>: a posted form keeps one value per name.
        raw = ",".join(str(s) for s in seat_ids(state) if form.get(f"with_{s}"))
        if not raw and form.get("rolloff"):
            raise RuleError("Tick at least two players for a roll-off.")
    if raw:
        seats = []
        for part in raw.split(","):
            seat = parse_int(part, "A seat", 0, 2**31)
            find_seat(state, seat)
            if seat not in seats:
                seats.append(seat)
        if len(seats) < 2:
            raise RuleError("A roll-off needs at least two players.")
        return {"dice": dice_count, "seat": None, "rolloff": dice.roll_off(seats, rng, dice_count)}
    seat = actor.get("seat") if actor else None
    data = {"dice": dice_count, "seat": seat, "roll": dice.roll(dice_count, rng)}
    if form.get("card") not in (None, "") and state["mission"]["cards"]:
        # A roll for one of this Mission's Challenges: the board compares it with the card.
        index = parse_int(form.get("card"), "The Challenge", 1, len(state["mission"]["cards"])) - 1
        picked = state["mission"]["cards"][index]
        data.update(card=index, type=picked["type"], difficulty=picked["difficulty"])
    return data


def _parse_roll_for(purpose, form, state, actor, rng):
    """A seat's roll for the foes at its Location (as many dice as foes there: the rules say,
    not the form) or for its Challenge (the skill's 1 to 3 dice): one each, see roll_problem."""
    if purpose not in ROLLS_FOR:
        raise RuleError("Roll for the foes or for a Challenge.")
    seat = _own_seat(form, state, actor, "roll")
    data = {"for": purpose, "seat": seat}
    problem = roll_problem(state, data)
    if problem:
        raise RuleError(problem)
    if purpose == "foes":
        entry = next(e for e in state["entries"] if e["seat"] == seat)
        dice_count = min(entry["foes_here"], MAX_FOES)
        data["location"] = entry["location"]
    else:
        dice_count = parse_int(form.get("dice"), "The number of dice", MIN_SKILL_DICE, MAX_SKILL_DICE)
    data.update(dice=dice_count, roll=dice.roll(dice_count, rng))
    return data
