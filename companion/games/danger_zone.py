"""Archer: The Danger Zone! — Upper Hand, Locations, the two tokens, rounds and Missions.

Layout: rules data; the reducer (new_state, parse, apply, describe, view_for); then the
derived questions (whose turn, who leads, who won) and the helpers screens call (odds for
a character, a Location's first-player text, Event outcomes for a confirmation screen).

Nothing here is hidden: Movement tokens are chosen in secret at the table, but the app only
records them once they are revealed, so every viewer sees the same table.
"""

import copy
import json
import re

from . import dice
from .base import (ROSTER_KINDS, RuleError, clockwise_from, find_seat, next_clockwise,
                   parse_int, seat_ids, seat_name)

SLUG = "danger-zone"
TITLE = "Archer: The Danger Zone!"
MIN_SEATS, MAX_SEATS = 2, 8

# --- rules data -------------------------------------------------------------------------

CHARACTERS = ("Archer", "Lana", "Malory", "Cyril", "Pam", "Cheryl", "Krieger", "Ray")

MALORYS_OFFICE = "Malory's Office"
CONTROL_ROOM = "Control Room"
RECEPTION = "Reception"
LOCATIONS = (MALORYS_OFFICE, "Breakroom", CONTROL_ROOM, "Bullpen", RECEPTION,
             "Applied Research Laboratories")

# How many of the six Locations are in play, and Challenges drawn per Mission, by players.
LOCATIONS_BY_PLAYERS = {2: 3, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5}
CHALLENGES_BY_PLAYERS = {2: 3, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5}

# What the first player at a Location gets, where the rulebook (or its example) says so.
# The other tiles print their own text; the app never invents it.
TOKEN_LOCATIONS = {RECEPTION: "initiative", CONTROL_ROOM: "mission_leader"}
FIRST_PLAYER_TEXT = {
    MALORYS_OFFICE: "Draw an Event card.",
    RECEPTION: "Take the Initiative Token.",
    CONTROL_ROOM: "Take the Mission Leader Token.",
}
SEE_YOUR_TILE = "See your tile."
# The rules-lookup id of each tile; a table's typed tile text is stored under
# "location-<id>" (or the bare id, as the rules lookup's own form keys it).
LOCATION_IDS = {MALORYS_OFFICE: "malorys-office", "Breakroom": "breakroom",
                CONTROL_ROOM: "control-room", "Bullpen": "bullpen", RECEPTION: "reception",
                "Applied Research Laboratories": "applied-research"}

START_UPPER_HAND = 5
WINNING_UPPER_HAND = 20
LOWEST_UPPER_HAND = 0
UPPER_HAND_REASONS = ("Insult", "Challenge", "Event", "Card", "Correction")
QUICK_STEPS = (1, -1, 2, -2)
MAX_STEP = 20  # the largest custom change in one tap; the whole track is 0..20

SETUP = "Setup"
PHASES = ("Movement", "Mission", "Clean-up")

SKILLS = ("Booze", "Guns", "Sex", "Smarts")
PERSONAL = "Personal"  # a wild card: the roller picks one of the four skills
CHALLENGE_TYPES = SKILLS + (PERSONAL,)
MIN_DIFFICULTY, MAX_DIFFICULTY = 6, 14
MIN_REWARD, MAX_REWARD = 1, 4
MIN_SKILL_DICE, MAX_SKILL_DICE = 1, 3
CARD_FACES = (5, 6)  # each 5 or 6 rolled draws a card

INITIATIVE_DICE = 3
# The rulebook says "roll off" for a Mission Leader tie without saying how; the app uses
# the Initiative roll-off's three dice.
ROLL_OFF_DICE = 3

# Skill dice the rulebook prints. Every other character's dice are on their card.
RULEBOOK_SKILL_DICE = {
    "Archer": {"Booze": 3, "Guns": 2, "Sex": 2, "Smarts": 1},
    "Cheryl": {"Sex": 3},
}

# Events the rulebook clarifies, by event kind.
EVENTS = {
    "event.embarrassing_pictures": "Embarrassing Pictures",
    "event.rona_thorne": "Rona Thorne",
    "event.uta": "Uta",
    "event.woodhouse": "Woodhouse",
}
EMBARRASSING_LOSS_PER_PASS = 1
DIRECTIONS = ("left", "right")  # left is clockwise, the way play goes
RONA_THORNE_GAIN = 2
RONA_THORNE_DRAWER_GAIN = 4
UTA_DRAWER_BONUS = 1
UTA_DICE = 1  # not in the rulebook; a table option ("uta_dice") can change it
MAX_WOODHOUSE_AMOUNT = 10  # the card's amount is typed by the table

# The app's readings where the rulebook is silent, for the rules lookup (our own words).
READINGS = (
    "Upper Hand never goes below 0. A change typed by hand that would go below 0 is refused; "
    "an Event that takes more than a player has takes them to 0.",
    "Reaching 20 Upper Hand ends the game at once. If one change takes several players to "
    "20 or more, the highest wins; an exact tie shares the win.",
    "The first player at Reception takes the Initiative Token straight away, but the "
    "current round's reveal order does not change.",
    "The first player at the Control Room takes the Mission Leader Token straight away.",
    "If the Control Room is in play but nobody holds the Mission Leader Token yet, the "
    "player with the least Upper Hand leads, as if the Control Room were not in play.",
    "A tie for the Mission Leader is broken by a roll-off with three dice; ties roll again.",
    "Uta: the drawer's +1 counts for finding the lowest roll and for what they lose.",
    "Woodhouse: a player is alone when theirs is the only token recorded at their Location "
    "this round; the table types the card's amount.",
)

# --- the reducer ------------------------------------------------------------------------

# Setup randomness and its re-roll are the host's to trigger; everything else any seat may
# post, and every event records who did it.
HOST_ONLY = {"locations.draw", "initiative.roll", "initiative.record"}

KINDS = ("character.pick", "locations.draw", "initiative.roll", "initiative.record",
         "round.next", "upper_hand.change", "movement.enter", "challenge.draw",
         "challenge.complete", "challenge.fail", "dice.roll") + tuple(EVENTS)


def new_state(options=None):
    options = options or {}
    uta_dice = options.get("uta_dice", UTA_DICE)
    if uta_dice not in range(MIN_SKILL_DICE, MAX_SKILL_DICE + 1):
        uta_dice = UTA_DICE
    return {
        "seats": [],
        "order": [],              # seat ids after the last roster event: finds a gone seat's neighbour
        "options": {"uta_dice": uta_dice},
        "character": {},          # seat -> character
        "upper_hand": {},         # seat -> Upper Hand
        "challenges": {},         # seat -> completed Challenge cards
        "locations": [],          # in play, in LOCATIONS order
        "location_draws": 0,
        "initiative": None,       # who holds the Initiative Token now
        "initiative_why": None,
        "round_initiative": None,  # who held it when this round began: reveal order starts there
        "mission_leader": None,
        "mission_leader_why": None,
        "round": 0,
        "phase": SETUP,
        "entries": [],            # this round's revealed tokens, in the order recorded
        "mission": _new_mission(),
        "race": [],               # {"round", "upper_hand": {seat: n}} at each round's end
        "winners": [],
        "last_change": None,
        "last_event": None,
        "last_roll": None,
    }


def _new_mission():
    return {"cards": [], "completed": 0, "attempted": []}


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
        return {"locations": [name for name in LOCATIONS if name in drawn],
                "draw": state["location_draws"] + 1}
    if kind == "initiative.roll":
        _require_setup(state, "The Initiative roll-off happens before the first round.")
        _require_seat_count(state)
        return {"rolloff": dice.roll_off(seat_ids(state), rng, INITIATIVE_DICE)}
    if kind == "initiative.record":
        _require_setup(state, "The Initiative roll-off happens before the first round.")
        return {"seat": _form_seat(form, state, None)}
    if kind == "round.next":
        _check_expected(form, state)
        data = {"round": state["round"], "phase": state["phase"], "leader": None}
        if state["phase"] == "Movement" and not state["winners"]:
            data["leader"] = mission_leader_choice(state, rng)
        return data
    if kind == "upper_hand.change":
        seat = _form_seat(form, state, actor)
        delta = _form_delta(form)
        if delta == 0:
            raise RuleError("The change cannot be zero.")
        reason = _choice(form.get("reason") or "", UPPER_HAND_REASONS, "a reason")
        return {"seat": seat, "delta": delta, "reason": reason}
    if kind == "movement.enter":
        seat = _own_seat(form, state, actor, "reveal")
        return {"seat": seat, "location": _choice(form.get("location"), LOCATIONS, "a Location")}
    if kind == "challenge.draw":
        return {"cards": _form_cards(form, state)}
    if kind == "challenge.complete":
        seat = _own_seat(form, state, actor, "record a Challenge")
        card = form.get("card")
        if card not in (None, ""):
            if not state["mission"]["cards"]:
                raise RuleError("No Challenge cards were recorded for this Mission.")
            index = parse_int(card, "The Challenge", 1, len(state["mission"]["cards"])) - 1
            picked = state["mission"]["cards"][index]
            return {"seat": seat, "card": index, "type": picked["type"],
                    "difficulty": picked["difficulty"], "reward": picked["reward"]}
        return {"seat": seat, "card": None, **_form_challenge(form, "")}
    if kind == "challenge.fail":
        return {"seat": _own_seat(form, state, actor, "record a roll")}
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
            amount = parse_int(str(form.get("amount") or "").replace("\u2212", "-"),
                               "Woodhouse's amount", -MAX_WOODHOUSE_AMOUNT, MAX_WOODHOUSE_AMOUNT)
        if amount == 0:
            raise RuleError("Woodhouse's amount cannot be zero.")
        return {"drawer": _form_drawer(form, state), "amount": amount}
    if kind == "dice.roll":
        return _parse_dice(form, state, actor, rng)
    raise RuleError("Unknown action.")


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
    return {
        "type": _choice(form.get("type" + suffix), CHALLENGE_TYPES, "a Challenge type"),
        "difficulty": parse_int(form.get("difficulty" + suffix), "The difficulty",
                                MIN_DIFFICULTY, MAX_DIFFICULTY),
        "reward": parse_int(form.get("reward" + suffix), "The Upper Hand reward",
                            MIN_REWARD, MAX_REWARD),
    }


def _form_cards(form, state):
    """Rows type_1/difficulty_1/reward_1 ... ; blank rows are skipped."""
    limit = challenges_to_draw(len(state["seats"])) or max(CHALLENGES_BY_PLAYERS.values())
    cards = []
    for row in range(1, max(CHALLENGES_BY_PLAYERS.values()) + 1):
        suffix = f"_{row}"
        if all(not (form.get(f + suffix) or "").strip() for f in ("type", "difficulty", "reward")):
            continue
        cards.append(_form_challenge(form, suffix))
    if not cards:
        raise RuleError("Type at least one Challenge card.")
    if len(cards) > limit:
        raise RuleError(f"This Mission draws {limit} Challenge cards, not {len(cards)}.")
    return cards


def _check_expected(form, state):
    """A stale screen's 'next phase' must not skip a phase someone else already started."""
    if form.get("round") not in (None, "") and str(form.get("round")) != str(state["round"]):
        raise RuleError("The table has already moved on; here is where it is now.")
    if form.get("phase") not in (None, "") and form.get("phase") != state["phase"]:
        raise RuleError("The table has already moved on; here is where it is now.")


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
            value = parse_int(typed[seat], f"{seat_name(state, seat)}'s roll",
                              dice_count, dice_count * dice.SIDES)
            rows.append({"seat": seat, "dice": None, "bonus": bonus.get(seat, 0),
                         "total": value + bonus.get(seat, 0)})
        return {"drawer": drawer, "dice": dice_count, "rolls": rows, "source": "table"}
    return {"drawer": drawer, "dice": dice_count, "source": "app",
            "rolls": dice.roll_once(seats, rng, dice_count, bonus)}


def _parse_dice(form, state, actor, rng):
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
    return {"dice": dice_count, "seat": seat, "roll": dice.roll(dice_count, rng)}


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
        state["initiative_why"] = ({"rule": "rolloff", "rolloff": data["rolloff"]}
                                   if kind == "initiative.roll" else {"rule": "table"})
    elif kind == "round.next":
        _apply_next(state, data)
    elif kind == "upper_hand.change":
        _require_playing(state)
        seat = data["seat"]
        find_seat(state, seat)
        now = state["upper_hand"][seat]
        if now + data["delta"] < LOWEST_UPPER_HAND:
            raise RuleError(f"{seat_name(state, seat)} has {now} Upper Hand; losing "
                            f"{-data['delta']} would go below {LOWEST_UPPER_HAND}.")
        state["upper_hand"][seat] = now + data["delta"]
        state["last_change"] = {"seat": seat, "delta": data["delta"], "reason": data["reason"],
                                "by": event["by"], "event": event["id"]}
        _check_win(state)
    elif kind == "movement.enter":
        _apply_enter(state, data)
    elif kind == "challenge.draw":
        _require_phase(state, "Mission", "Challenge cards are drawn in the Mission phase.")
        if state["mission"]["completed"]:
            raise RuleError("A Challenge of this Mission is already completed; undo it to "
                            "change the cards.")
        limit = challenges_to_draw(len(state["seats"]))
        if len(data["cards"]) > limit:
            raise RuleError(f"This Mission draws {limit} Challenge cards.")
        state["mission"]["cards"] = [dict(card, done_by=None) for card in data["cards"]]
    elif kind == "challenge.complete":
        _apply_complete(state, data, event)
    elif kind == "challenge.fail":
        _require_phase(state, "Mission", "Challenges are rolled in the Mission phase.")
        find_seat(state, data["seat"])
        _mark_attempted(state, data["seat"])
    elif kind in EVENTS:
        _apply_event(state, kind, data, event)
    elif kind == "dice.roll":
        state["last_roll"] = dict(data, by=event["by"], event=event["id"])
    else:
        raise RuleError("Unknown action.")
    return state


def _apply_roster(state, kind, data):
    ids = seat_ids(state)
    if kind == "seat.join":
        if len(ids) > MAX_SEATS:
            raise RuleError(f"{TITLE} seats at most {MAX_SEATS} players.")
        state["upper_hand"].setdefault(data["seat"], START_UPPER_HAND)
        state["challenges"].setdefault(data["seat"], [])
    elif kind == "seat.remove":
        gone = data["seat"]
        for per_seat in ("character", "upper_hand", "challenges"):
            state[per_seat].pop(gone, None)
        state["entries"] = [e for e in state["entries"] if e["seat"] != gone]
        state["mission"]["attempted"] = [s for s in state["mission"]["attempted"] if s != gone]
        state["winners"] = [s for s in state["winners"] if s != gone]
        # A token held by a leaving player goes to the next player on their left.
        for key in ("initiative", "round_initiative"):
            if state[key] == gone:
                state[key] = _next_remaining(state["order"], gone, ids)
        if state["mission_leader"] == gone:
            state["mission_leader"], state["mission_leader_why"] = None, None
    state["order"] = ids


def _next_remaining(old_order, gone, ids):
    if gone not in old_order:
        return ids[0] if ids else None
    start = old_order.index(gone)
    for step in range(1, len(old_order)):
        candidate = old_order[(start + step) % len(old_order)]
        if candidate in ids:
            return candidate
    return None


def _apply_pick(state, data):
    seat, character = data["seat"], data["character"]
    find_seat(state, seat)
    if character not in CHARACTERS:
        raise RuleError("Pick one of the eight characters.")
    if state["phase"] != SETUP and state["character"].get(seat):
        raise RuleError("Characters are fixed once the first round has started.")
    for other, taken in state["character"].items():
        if taken == character and other != seat:
            raise RuleError(f"{seat_name(state, other)} already plays {character}.")
    state["character"][seat] = character


def _apply_next(state, data):
    if state["winners"]:
        raise RuleError(_game_over_message(state))
    if data["round"] != state["round"] or data["phase"] != state["phase"]:
        raise RuleError("The table has already moved on; here is where it is now.")
    phase = state["phase"]
    if phase == SETUP:
        problems = setup_problems(state)
        if problems:
            raise RuleError(problems[0])
        state["race"] = [_race_point(state, 0)]
        _begin_round(state, 1)
    elif phase == "Movement":
        leader = data["leader"]
        if not leader:
            raise RuleError("The Mission Leader was not decided.")
        find_seat(state, leader["seat"])
        state["mission_leader"] = leader["seat"]
        state["mission_leader_why"] = {k: v for k, v in leader.items() if k != "seat"}
        state["phase"] = "Mission"
        state["mission"] = _new_mission()
    elif phase == "Mission":
        state["phase"] = "Clean-up"
        _pass_initiative(state)
    else:
        state["race"].append(_race_point(state, state["round"]))
        _begin_round(state, state["round"] + 1)


def _begin_round(state, number):
    state["round"] = number
    state["phase"] = "Movement"
    state["entries"] = []
    state["mission"] = _new_mission()
    state["round_initiative"] = state["initiative"]


def _pass_initiative(state):
    """Clean-up: where the Initiative Token goes for the next round."""
    holder = state["initiative"]
    if holder not in seat_ids(state):
        return
    if RECEPTION not in state["locations"]:
        state["initiative"] = next_clockwise(state, holder)
        state["initiative_why"] = {"rule": "passed_left", "from": holder}
    elif first_at(state, RECEPTION) is None:
        state["initiative_why"] = {"rule": "kept"}
    else:
        state["initiative"] = first_at(state, RECEPTION)
        state["initiative_why"] = {"rule": "reception"}


def _apply_enter(state, data):
    _require_phase(state, "Movement", "Tokens are revealed in the Movement phase.")
    seat, location = data["seat"], data["location"]
    find_seat(state, seat)
    if location not in state["locations"]:
        raise RuleError(f"{location} is not in play this game.")
    for entry in state["entries"]:
        if entry["seat"] == seat:
            raise RuleError(f"{seat_name(state, seat)} already entered {entry['location']} "
                            "this round.")
    foes = sum(1 for e in state["entries"] if e["location"] == location)
    state["entries"].append({"seat": seat, "location": location, "first": foes == 0,
                             "foes_here": foes})
    if foes == 0 and location == RECEPTION:
        state["initiative"] = seat
        state["initiative_why"] = {"rule": "reception"}
    elif foes == 0 and location == CONTROL_ROOM:
        state["mission_leader"] = seat
        state["mission_leader_why"] = {"rule": "control_room"}


def _apply_complete(state, data, event):
    _require_phase(state, "Mission", "Challenges are completed in the Mission phase.")
    seat = data["seat"]
    find_seat(state, seat)
    if data["type"] not in CHALLENGE_TYPES:
        raise RuleError("Pick a Challenge type.")
    if not MIN_DIFFICULTY <= data["difficulty"] <= MAX_DIFFICULTY:
        raise RuleError(f"The difficulty must be between {MIN_DIFFICULTY} and {MAX_DIFFICULTY}.")
    if not MIN_REWARD <= data["reward"] <= MAX_REWARD:
        raise RuleError(f"The Upper Hand reward must be between {MIN_REWARD} and {MAX_REWARD}.")
    mission = state["mission"]
    limit = challenges_to_draw(len(state["seats"]))
    if mission["completed"] >= limit:
        raise RuleError(f"All {limit} Challenges of this Mission are already completed.")
    if mission["cards"]:
        index = _match_card(mission["cards"], data)
        mission["cards"][index]["done_by"] = seat
    mission["completed"] += 1
    _mark_attempted(state, seat)
    card = {"type": data["type"], "difficulty": data["difficulty"], "reward": data["reward"],
            "round": state["round"]}
    state["challenges"].setdefault(seat, []).append(card)
    state["upper_hand"][seat] += data["reward"]
    state["last_change"] = {"seat": seat, "delta": data["reward"], "reason": "Challenge",
                            "by": event["by"], "event": event["id"]}
    _check_win(state)


def _match_card(cards, data):
    """The Mission card being completed: the one named, else the first open one alike."""
    wanted = (data["type"], data["difficulty"], data["reward"])
    index = data.get("card")
    if index is not None:
        if not 0 <= index < len(cards):
            raise RuleError("There is no such Challenge card in this Mission.")
        if cards[index]["done_by"] is not None:
            raise RuleError("That Challenge is already completed.")
        return index
    for i, card in enumerate(cards):
        if card["done_by"] is None and (card["type"], card["difficulty"], card["reward"]) == wanted:
            return i
    raise RuleError("That Challenge is not among this Mission's open cards.")


def _mark_attempted(state, seat):
    if seat not in state["mission"]["attempted"]:
        state["mission"]["attempted"].append(seat)


def _apply_event(state, kind, data, event):
    _require_playing(state)
    if MALORYS_OFFICE not in state["locations"]:
        raise RuleError(f"Event cards come from {MALORYS_OFFICE}, which is not in play.")
    outcome = event_outcome(state, kind, data)
    applied = []
    for change in outcome["changes"]:
        now = state["upper_hand"][change["seat"]]
        new = max(LOWEST_UPPER_HAND, now + change["delta"])
        state["upper_hand"][change["seat"]] = new
        applied.append({"seat": change["seat"], "delta": new - now})
    state["last_event"] = {"kind": kind, "name": EVENTS[kind], "drawer": data["drawer"],
                           "changes": applied, "event": event["id"]}
    _check_win(state)


def _check_win(state):
    """Reaching 20 ends the game at once; the highest at or past 20 wins."""
    reached = {s: n for s, n in state["upper_hand"].items() if n >= WINNING_UPPER_HAND}
    if reached and not state["winners"]:
        top = max(reached.values())
        state["winners"] = [s for s in seat_ids(state) if reached.get(s) == top]
        state["race"].append(_race_point(state, state["round"]))


def _race_point(state, number):
    return {"round": number, "upper_hand": dict(state["upper_hand"])}


def _require_setup(state, message):
    if state["phase"] != SETUP:
        raise RuleError(message)


def _require_seat_count(state):
    count = len(state["seats"])
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise RuleError(f"{TITLE} needs {MIN_SEATS} to {MAX_SEATS} players; "
                        f"this table has {count}.")


def _require_playing(state):
    if state["winners"]:
        raise RuleError(_game_over_message(state))
    if state["phase"] == SETUP:
        raise RuleError("The game has not started yet; everyone is at "
                        f"{START_UPPER_HAND} Upper Hand.")


def _require_phase(state, phase, message):
    _require_playing(state)
    if state["phase"] != phase:
        raise RuleError(f"{message} It is the {state['phase']} phase now.")


def _game_over_message(state):
    names = " and ".join(seat_name(state, s) for s in state["winners"])
    return (f"The game is over: {names} reached {WINNING_UPPER_HAND} Upper Hand. "
            "Undo the last change to play on.")


# describe: one public log line. It reads only `before` and the event, because the core
# also describes undone events with before == after.

def describe(before, after, event):
    try:
        text = _describe(before, event)
    except (RuleError, KeyError, ValueError, TypeError):
        text = event["kind"]
    if after["winners"] and not before["winners"]:
        names = " and ".join(_name(after, s) for s in after["winners"])
        text += f" — {names} reached {WINNING_UPPER_HAND} Upper Hand and won!"
    return text


def _name(state, seat):
    try:
        return seat_name(state, seat)
    except RuleError:
        return "a player who left"


def _describe(state, event):
    kind, data = event["kind"], event["data"]
    name = lambda seat: _name(state, seat)  # noqa: E731
    if kind == "character.pick":
        return f"{name(data['seat'])} plays {data['character']}"
    if kind == "locations.draw":
        verb = "drawn" if data["draw"] == 1 else f"re-drawn (draw {data['draw']})"
        return f"Locations {verb}: {', '.join(data['locations'])}"
    if kind == "initiative.roll":
        last = data["rolloff"]["rounds"][-1] if data["rolloff"]["rounds"] else []
        rolls = ", ".join(f"{name(r['seat'])} {r['total']}" for r in last)
        tail = f" ({rolls})" if rolls else ""
        return f"{name(data['rolloff']['winner'])} won the Initiative roll-off{tail}"
    if kind == "initiative.record":
        return f"{name(data['seat'])} won the Initiative roll at the table"
    if kind == "round.next":
        phase = data["phase"]
        if phase == SETUP:
            return "Round 1 begins: Movement"
        if phase == "Movement":
            return f"Mission: {leader_text(state, data['leader'])}"
        if phase == "Mission":
            preview = copy.deepcopy(state)
            _pass_initiative(preview)
            return f"Clean-up: {initiative_text(preview)}"
        return f"Round {data['round'] + 1} begins: Movement"
    if kind == "upper_hand.change":
        now = state["upper_hand"].get(data["seat"], 0) + data["delta"]
        return (f"{name(data['seat'])} {data['delta']:+d} Upper Hand, "
                f"{data['reason'].lower()} (now {now})")
    if kind == "movement.enter":
        here = sum(1 for e in state["entries"] if e["location"] == data["location"])
        if here:
            return (f"{name(data['seat'])} entered {data['location']} and rolls "
                    f"{here} {'die' if here == 1 else 'dice'} for the foes there")
        return (f"{name(data['seat'])} entered {data['location']} first: "
                f"{location_effect_text(data['location'])}")
    if kind == "challenge.draw":
        return "Mission Challenges: " + ", ".join(_card_text(c) for c in data["cards"])
    if kind == "challenge.complete":
        return (f"{name(data['seat'])} completed {_card_text(data)}: "
                f"+{data['reward']} Upper Hand")
    if kind == "challenge.fail":
        return f"{name(data['seat'])} failed their Challenge roll"
    if kind in EVENTS:
        outcome = event_outcome(state, kind, data)
        return f"{EVENTS[kind]} (drawn by {name(data['drawer'])}): {outcome['why']}"
    if kind == "dice.roll":
        if data.get("rolloff"):
            return f"Roll-off: {name(data['rolloff']['winner'])} rolled highest"
        who = name(data["seat"]) if data.get("seat") is not None else "The table"
        return f"{who} rolled {', '.join(str(d) for d in data['roll'])}"
    return ""


def _card_text(card):
    return f"{card['type']} {card['difficulty']} (+{card['reward']})"


# view_for: everything a screen shows, JSON-safe. No hidden information in this game.

def view_for(state, viewer):
    viewer = viewer or {"role": "screen", "seat": None}
    order = seat_ids(state)
    entries = {e["seat"]: e for e in state["entries"]}
    seats = []
    for seat in state["seats"]:
        sid = seat["id"]
        pile = state["challenges"].get(sid, [])
        seats.append({
            "id": sid,
            "name": seat["name"],
            "phone": seat["phone"],
            "character": state["character"].get(sid),
            "upper_hand": state["upper_hand"].get(sid, START_UPPER_HAND),
            "initiative": state["initiative"] == sid,
            "mission_leader": state["mission_leader"] == sid,
            "location": entries[sid]["location"] if sid in entries else None,
            "challenges": pile,
            "completed_types": completed_types(pile),
            "attempted": sid in state["mission"]["attempted"],
        })
    out_of_play = [name for name in LOCATIONS if name not in state["locations"]]
    view = {
        "title": TITLE,
        "round": state["round"],
        "phase": state["phase"],
        "phases": list(PHASES),
        "started": state["phase"] != SETUP,
        "over": bool(state["winners"]),
        "winners": list(state["winners"]),
        "winning_upper_hand": WINNING_UPPER_HAND,
        "seats": seats,
        "standings": standings(state),
        "leaders": leaders(state),
        "whose_turn": whose_turn(state),
        "setup": {
            "problems": setup_problems(state),
            "characters": list(CHARACTERS),
            "characters_free": [c for c in CHARACTERS if c not in state["character"].values()],
            "location_draws": state["location_draws"],
            "can_redraw": state["phase"] == SETUP,
            "locations_to_use": locations_to_use(len(order)),
            "tokens_to_box": out_of_play if state["locations"] else [],
            "event_deck": MALORYS_OFFICE in state["locations"],
        },
        "locations": [_location_view(state, name) for name in state["locations"]],
        "initiative": {"seat": state["initiative"], "why": initiative_text(state),
                       "rolloff": (state["initiative_why"] or {}).get("rolloff")},
        "mission_leader": {"seat": state["mission_leader"],
                           "why": leader_text(state, state["mission_leader_why"]
                                              and dict(state["mission_leader_why"],
                                                       seat=state["mission_leader"])),
                           "rolloff": (state["mission_leader_why"] or {}).get("rolloff")},
        "reveal_order": reveal_order(state),
        "roll_order": roll_order(state),
        "challenges_to_draw": challenges_to_draw(len(order)),
        "entries": list(state["entries"]),
        "mission": {"cards": state["mission"]["cards"], "completed": state["mission"]["completed"],
                    "attempted": list(state["mission"]["attempted"]),
                    "over": mission_over(state)},
        "race": race_chart(state),
        "last_change": state["last_change"],
        "last_event": state["last_event"],
        "last_roll": state["last_roll"],
        "reasons": list(UPPER_HAND_REASONS),
        "quick_steps": list(QUICK_STEPS),
        "challenge_types": list(CHALLENGE_TYPES),
        "difficulty_range": [MIN_DIFFICULTY, MAX_DIFFICULTY],
        "reward_range": [MIN_REWARD, MAX_REWARD],
        "you": None,
        "leader_preview": leader_preview(state),
        "event_previews": event_previews(state),
        "uta_dice": state["options"]["uta_dice"],
        "locations_all": list(LOCATIONS),
    }
    you = viewer.get("seat")
    if you in order:
        character = state["character"].get(you)
        view["you"] = {
            "seat": you,
            "character": character,
            "skill_dice": skill_dice(character) if character else None,
            "odds": [dict(challenge_odds(character, c["type"], c["difficulty"]), card=i + 1)
                     for i, c in enumerate(state["mission"]["cards"]) if c["done_by"] is None],
        }
    return view


def _location_view(state, name):
    token = TOKEN_LOCATIONS.get(name)
    return {
        "name": name,
        "first": first_at(state, name),
        "here": [e["seat"] for e in state["entries"] if e["location"] == name],
        "token": token,
        "event_card": name == MALORYS_OFFICE,
        "text": FIRST_PLAYER_TEXT.get(name),
        "printed_on_tile": name not in FIRST_PLAYER_TEXT,
        "box_text": None,  # with_box fills these from what the table typed in
        "effect": location_effect_text(name),
        "id": LOCATION_IDS[name],
    }


# --- derived questions ------------------------------------------------------------------

def locations_to_use(players):
    """How many Locations are in play for this many players (0 when the count is off)."""
    return LOCATIONS_BY_PLAYERS.get(players, 0)


def challenges_to_draw(players):
    return CHALLENGES_BY_PLAYERS.get(players, 0)


def first_at(state, location):
    """Who entered this Location first this round, or None."""
    for entry in state["entries"]:
        if entry["location"] == location:
            return entry["seat"]
    return None


def alone_at_location(state):
    """Seats whose token is the only one recorded at their Location this round."""
    counts = {}
    for entry in state["entries"]:
        counts[entry["location"]] = counts.get(entry["location"], 0) + 1
    return [e["seat"] for e in state["entries"] if counts[e["location"]] == 1]


def setup_problems(state):
    """What still stands between this table and round 1, in the order to fix it."""
    count = len(state["seats"])
    problems = []
    if not MIN_SEATS <= count <= MAX_SEATS:
        problems.append(f"{TITLE} needs {MIN_SEATS} to {MAX_SEATS} players; "
                        f"this table has {count}.")
    missing = [s["name"] for s in state["seats"] if s["id"] not in state["character"]]
    if missing:
        problems.append("Still to pick a character: " + ", ".join(missing) + ".")
    if not state["locations"]:
        problems.append("Draw the Locations.")
    elif locations_to_use(count) and len(state["locations"]) != locations_to_use(count):
        problems.append(f"{count} players use {locations_to_use(count)} Locations; "
                        "draw the Locations again.")
    if state["initiative"] is None:
        problems.append("Roll off for the Initiative Token.")
    return problems


def reveal_order(state):
    """Movement: from whoever held the Initiative Token as the round began, clockwise."""
    start = state["round_initiative"] if state["phase"] != SETUP else state["initiative"]
    if start is None or start not in seat_ids(state):
        return []
    return clockwise_from(state, start)


def roll_order(state):
    """Mission: from the Mission Leader, clockwise (once the Mission has a leader)."""
    if state["phase"] not in ("Mission", "Clean-up") or state["mission_leader"] not in seat_ids(state):
        return []
    return clockwise_from(state, state["mission_leader"])


def mission_over(state):
    """Every drawn Challenge done, or everyone has rolled."""
    if state["phase"] != "Mission":
        return state["phase"] == "Clean-up"
    mission = state["mission"]
    if mission["completed"] >= challenges_to_draw(len(state["seats"])):
        return True
    if mission["cards"] and all(c["done_by"] is not None for c in mission["cards"]):
        return True
    return all(s in mission["attempted"] for s in seat_ids(state))


def whose_turn(state):
    """The seat to reveal (Movement) or roll (Mission) next, or None."""
    if state["winners"]:
        return None
    if state["phase"] == "Movement":
        done = {e["seat"] for e in state["entries"]}
        return next((s for s in reveal_order(state) if s not in done), None)
    if state["phase"] == "Mission" and not mission_over(state):
        return next((s for s in roll_order(state) if s not in state["mission"]["attempted"]), None)
    return None


def leaders(state):
    """Seats with the most Upper Hand, in seat order."""
    if not state["seats"]:
        return []
    top = max(state["upper_hand"].get(s, START_UPPER_HAND) for s in seat_ids(state))
    return [s for s in seat_ids(state) if state["upper_hand"].get(s, START_UPPER_HAND) == top]


def winners(state):
    """Who reached 20 Upper Hand (empty while the game goes on)."""
    return list(state["winners"])


def standings(state):
    """[{"seat", "name", "upper_hand", "rank"}], most Upper Hand first; ties share a rank."""
    rows = sorted(((state["upper_hand"].get(s["id"], START_UPPER_HAND), i, s)
                   for i, s in enumerate(state["seats"])), key=lambda r: (-r[0], r[1]))
    out, rank, last = [], 0, None
    for place, (upper_hand, _, seat) in enumerate(rows, start=1):
        if upper_hand != last:
            rank, last = place, upper_hand
        out.append({"seat": seat["id"], "name": seat["name"], "upper_hand": upper_hand,
                    "rank": rank})
    return out


def completed_types(pile):
    """{type: count} of a seat's completed Challenges; Personal ones count as no type."""
    counts = {}
    for card in pile:
        if card["type"] != PERSONAL:
            counts[card["type"]] = counts.get(card["type"], 0) + 1
    return counts


def race_chart(state):
    """Each seat's Upper Hand at the end of each round (round 0 is the start)."""
    points = state["race"]
    series = []
    for seat in state["seats"]:
        series.append({"seat": seat["id"], "name": seat["name"],
                       "character": state["character"].get(seat["id"]),
                       "points": [p["upper_hand"].get(seat["id"]) for p in points]})
    highest = max([WINNING_UPPER_HAND] + [n for p in points for n in p["upper_hand"].values()])
    return {"rounds": [p["round"] for p in points], "series": series, "top": highest}


def mission_leader_choice(state, rng):
    """Who leads the Mission about to start, and why: {"seat", "rule", ...} (JSON-safe).

    The Control Room's token holder leads; when the Control Room is out of play or nobody
    holds the token, the least Upper Hand leads, a tie broken by a roll-off.
    """
    holder = state["mission_leader"]
    if CONTROL_ROOM in state["locations"] and holder in seat_ids(state):
        rule = "control_room" if first_at(state, CONTROL_ROOM) == holder else "kept"
        return {"seat": holder, "rule": rule}
    ids = seat_ids(state)
    if not ids:
        raise RuleError("Nobody is at the table to lead the Mission.")
    least = min(state["upper_hand"][s] for s in ids)
    tied = [s for s in ids if state["upper_hand"][s] == least]
    choice = {"seat": tied[0], "rule": "least", "least": least, "tied": tied, "rolloff": None,
              "control_room_in_play": CONTROL_ROOM in state["locations"]}
    if len(tied) > 1:
        choice["rolloff"] = dice.roll_off(tied, rng, ROLL_OFF_DICE)
        choice["seat"] = choice["rolloff"]["winner"]
    return choice


def leader_text(state, why):
    """Why the Mission Leader leads, in a sentence for the round tracker."""
    if not why or why.get("seat") is None:
        return "Nobody holds the Mission Leader Token yet."
    who = _name(state, why["seat"])
    rule = why.get("rule")
    if rule == "control_room":
        return f"{who} leads: first into the {CONTROL_ROOM} this round."
    if rule == "kept":
        return f"{who} leads: nobody entered the {CONTROL_ROOM}, so the token stays."
    if rule == "least":
        reason = ("the Control Room is not in play" if not why.get("control_room_in_play")
                  else "nobody held the Mission Leader Token")
        text = f"{who} leads with the least Upper Hand ({why['least']}), as {reason}"
        if why.get("rolloff"):
            tied = ", ".join(_name(state, s) for s in why["tied"])
            text += f"; {tied} tied and {who} won the roll-off"
        return text + "."
    return f"{who} leads."


def initiative_text(state):
    why, holder = state["initiative_why"], state["initiative"]
    if holder is None:
        return "Nobody holds the Initiative Token yet."
    who = _name(state, holder)
    rule = (why or {}).get("rule")
    if rule == "rolloff":
        return f"{who} holds the Initiative Token: won the roll-off."
    if rule == "table":
        return f"{who} holds the Initiative Token: won the roll at the table."
    if rule == "reception":
        return f"{who} holds the Initiative Token: first into {RECEPTION}."
    if rule == "kept":
        return f"{who} keeps the Initiative Token: nobody entered {RECEPTION}."
    if rule == "passed_left":
        return f"The Initiative Token passed left to {who} ({RECEPTION} is not in play)."
    return f"{who} holds the Initiative Token."


def location_effect_text(location, box_text=None):
    """What the first player at a Location gets: known text, the table's own, or the tile."""
    known = FIRST_PLAYER_TEXT.get(location)
    if known:
        return known
    return (box_text or "").strip() or SEE_YOUR_TILE


# --- odds -------------------------------------------------------------------------------

def odds(dice_count, difficulty):
    """Exact chances for one skill roll: {"dice", "difficulty", "success", "card"} (Fractions)."""
    if dice_count not in range(MIN_SKILL_DICE, MAX_SKILL_DICE + 1):
        raise RuleError(f"A skill rolls {MIN_SKILL_DICE} to {MAX_SKILL_DICE} dice.")
    if difficulty not in range(MIN_DIFFICULTY, MAX_DIFFICULTY + 1):
        raise RuleError(f"The difficulty must be between {MIN_DIFFICULTY} and {MAX_DIFFICULTY}.")
    return {"dice": dice_count, "difficulty": difficulty,
            "success": dice.chance_at_least(dice_count, difficulty),
            "card": dice.chance_any_face(dice_count, CARD_FACES)}


def odds_table():
    """Every dice count against every difficulty, as percentages (JSON-safe)."""
    return [{"dice": n, "difficulty": d,
             "success": dice.percent(odds(n, d)["success"]),
             "card": dice.percent(odds(n, d)["card"])}
            for n in range(MIN_SKILL_DICE, MAX_SKILL_DICE + 1)
            for d in range(MIN_DIFFICULTY, MAX_DIFFICULTY + 1)]


def skill_dice(character, table_dice=None):
    """{skill: {"dice": n or None, "source": "rulebook" | "box" | None}} for a character.

    table_dice is what the table typed from its own box, {skill: n}; the rulebook's numbers
    win where both exist.
    """
    if character not in CHARACTERS:
        raise RuleError("Pick one of the eight characters.")
    known = RULEBOOK_SKILL_DICE.get(character, {})
    typed = table_dice or {}
    out = {}
    for skill in SKILLS:
        if skill in known:
            out[skill] = {"dice": known[skill], "source": "rulebook"}
        elif typed.get(skill) is not None:
            count = typed[skill]
            if count not in range(MIN_SKILL_DICE, MAX_SKILL_DICE + 1):
                raise RuleError(f"{character}'s {skill} must be {MIN_SKILL_DICE} to "
                                f"{MAX_SKILL_DICE} dice.")
            out[skill] = {"dice": count, "source": "box"}
        else:
            out[skill] = {"dice": None, "source": None}
    return out


def challenge_odds(character, challenge_type, difficulty, table_dice=None):
    """The odds a character has on one Challenge (JSON-safe percentages).

    Returns {"type", "difficulty", "options": [{"dice", "success", "card", "source"}]}: one
    option when the dice are known, else one per possible count. A Personal Challenge lets
    the roller pick any skill, so it lists every count the character could choose.
    """
    if challenge_type not in CHALLENGE_TYPES:
        raise RuleError("Pick a Challenge type.")
    dice_by_skill = skill_dice(character, table_dice) if character else {
        skill: {"dice": None, "source": None} for skill in SKILLS}
    every = list(range(MAX_SKILL_DICE, MIN_SKILL_DICE - 1, -1))
    if challenge_type == PERSONAL:
        known = [v for v in dice_by_skill.values() if v["dice"] is not None]
        if len(known) == len(SKILLS):
            counts = sorted({v["dice"] for v in known}, reverse=True)
            choices = [(n, "choice") for n in counts]
        else:
            choices = [(n, "choice") for n in every]
    else:
        mine = dice_by_skill[challenge_type]
        choices = ([(mine["dice"], mine["source"])] if mine["dice"] is not None
                   else [(n, None) for n in every])
    options = []
    for count, source in choices:
        chance = odds(count, difficulty)
        options.append({"dice": count, "source": source,
                        "success": dice.percent(chance["success"]),
                        "card": dice.percent(chance["card"])})
    return {"type": challenge_type, "difficulty": difficulty, "options": options}


# --- Events the rulebook clarifies ------------------------------------------------------

def event_outcome(state, kind, data):
    """What an Event does to the table: {"changes": [{"seat", "delta"}], "why", ...}.

    The same function previews the Event on the confirmation screen and applies it, so the
    two cannot disagree. Deltas here are before the floor at 0.
    """
    find_seat(state, data["drawer"])
    if kind == "event.embarrassing_pictures":
        return embarrassing_pictures(state, data["drawer"], data["direction"])
    if kind == "event.rona_thorne":
        return rona_thorne(state, data["drawer"])
    if kind == "event.uta":
        return uta(state, data["drawer"], data["rolls"])
    if kind == "event.woodhouse":
        return woodhouse(state, data["drawer"], data["amount"])
    raise RuleError("Unknown Event.")


def embarrassing_pictures(state, drawer, direction):
    """The card travels from the drawer until it reaches the most Upper Hand; each pass costs 1."""
    upper = state["upper_hand"]
    most = max(upper[s] for s in seat_ids(state))
    if upper[drawer] == most:
        return {"changes": [], "target": None, "passes": 0,
                "why": f"{_name(state, drawer)} has the most Upper Hand, so nobody else saw it"}
    path = clockwise_from(state, drawer)
    if direction == "right":
        path = [drawer] + path[1:][::-1]
    passes, target = next((i, s) for i, s in enumerate(path) if i and upper[s] == most)
    loss = passes * EMBARRASSING_LOSS_PER_PASS
    return {"changes": [{"seat": target, "delta": -loss}], "target": target, "passes": passes,
            "why": (f"passed {direction} {passes} {'time' if passes == 1 else 'times'} to "
                    f"{_name(state, target)}, who loses {loss} Upper Hand")}


def rona_thorne(state, drawer):
    """Everyone tied for the least Upper Hand gains 2; the drawer gains 4 if among them."""
    upper = state["upper_hand"]
    least = min(upper[s] for s in seat_ids(state))
    lowest = [s for s in seat_ids(state) if upper[s] == least]
    changes = [{"seat": s, "delta": RONA_THORNE_DRAWER_GAIN if s == drawer else RONA_THORNE_GAIN}
               for s in lowest]
    why = ", ".join(f"{_name(state, c['seat'])} +{c['delta']}" for c in changes)
    return {"changes": changes, "lowest": lowest,
            "why": f"least Upper Hand ({least}): {why}"}


def uta(state, drawer, rolls):
    """Everyone rolls, the drawer adds 1; every seat tied for the lowest loses its total."""
    rolled = {r["seat"] for r in rolls}
    if rolled != set(seat_ids(state)):
        raise RuleError("Uta's rolls do not match the players at the table.")
    lowest = dice.lowest(rolls)
    totals = {r["seat"]: r["total"] for r in rolls}
    changes = [{"seat": s, "delta": -totals[s]} for s in lowest]
    shown = ", ".join(f"{_name(state, r['seat'])} {r['total']}" for r in rolls)
    losers = ", ".join(f"{_name(state, s)} loses {totals[s]}" for s in lowest)
    return {"changes": changes, "lowest": lowest, "why": f"rolls {shown}; {losers}"}


def woodhouse(state, drawer, amount):
    """The table's amount for each player alone at their Location this round."""
    alone = alone_at_location(state)
    changes = [{"seat": s, "delta": amount} for s in alone]
    if not alone:
        return {"changes": [], "alone": [], "why": "nobody is alone at their Location"}
    names = ", ".join(_name(state, s) for s in alone)
    return {"changes": changes, "alone": alone, "why": f"alone: {names} ({amount:+d} each)"}


# --- previews for the screens -----------------------------------------------------------

def leader_preview(state):
    """Who would lead the Mission if it started now, and why, without rolling anything.

    {"seat": int | None, "tied": [seats], "text": str}; None outside Movement.
    """
    if state["phase"] != "Movement" or state["winners"]:
        return None
    ids = seat_ids(state)
    holder = state["mission_leader"]
    if CONTROL_ROOM in state["locations"] and holder in ids:
        if first_at(state, CONTROL_ROOM) == holder:
            text = f"{_name(state, holder)} leads the Mission: first into the {CONTROL_ROOM}."
            short = f"first into the {CONTROL_ROOM}"
        else:
            text = (f"{_name(state, holder)} keeps the Mission Leader Token unless someone "
                    f"enters the {CONTROL_ROOM} first.")
            short = f"keeps it unless someone enters the {CONTROL_ROOM} first"
        return {"seat": holder, "tied": [], "text": text, "short": short}
    if not ids:
        return None
    least = min(state["upper_hand"][s] for s in ids)
    tied = [s for s in ids if state["upper_hand"][s] == least]
    reason = ("the Control Room is not in play" if CONTROL_ROOM not in state["locations"]
              else "nobody holds the Mission Leader Token yet")
    if len(tied) == 1:
        text = (f"{_name(state, tied[0])} would lead: least Upper Hand ({least}), as {reason}.")
        short = f"{_name(state, tied[0])} has the least Upper Hand ({least}) right now"
        return {"seat": tied[0], "tied": [], "text": text, "short": short}
    names = _names_and(state, tied)
    text = (f"{names} tie for the least Upper Hand ({least}), as {reason}: the app rolls "
            f"off between them when the Mission starts.")
    short = f"least Upper Hand decides; {names} tie at {least} (roll-off)"
    return {"seat": None, "tied": tied, "text": text, "short": short}


def _names_and(state, seats):
    names = [_name(state, s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def event_previews(state):
    """What each Event helper would do now, for its confirmation; None when no Event fits.

    The drawer is whoever entered Malory's Office first this round (None if nobody yet).
    """
    if state["phase"] == SETUP or state["winners"] or MALORYS_OFFICE not in state["locations"]:
        return None
    drawer = first_at(state, MALORYS_OFFICE)
    out = {"drawer": drawer, "alone": alone_at_location(state)}
    if drawer is None:
        return out
    out["embarrassing_pictures"] = {d: embarrassing_pictures(state, drawer, d)["why"]
                                    for d in DIRECTIONS}
    out["rona_thorne"] = rona_thorne(state, drawer)["why"]
    return out


# --- the table's own text ("from your box") ---------------------------------------------

def location_box_ids(location):
    """Entry ids a table's typed tile text may be stored under, in the order to try."""
    slug = LOCATION_IDS[location]
    return [f"location-{slug}", slug]


def dice_box_ids(character):
    name = character.lower()
    return [f"dice-{name}", f"{name}-dice"]


def _typed(box, ids):
    for entry in ids:
        text = (box.get(entry) or "").strip()
        if text:
            return text
    return None


def parse_typed_dice(text):
    """{skill: dice} from what a table typed, e.g. "Booze 2, Guns 3, Sex 1, Smarts 2" or a
    JSON object; counts outside 1-3 and unknown words are left out, never guessed."""
    found = {}
    try:
        data = json.loads(text)
    except (TypeError, ValueError):
        data = None
    if isinstance(data, dict):
        pairs = [(str(k), v) for k, v in data.items()]
    else:
        pairs = re.findall(r"(booze|guns|sex|smarts)\W{0,3}(\d+)", str(text or ""), re.I)
    for skill, count in pairs:
        skill = skill.strip().capitalize()
        try:
            count = int(count)
        except (TypeError, ValueError):
            continue
        if skill in SKILLS and MIN_SKILL_DICE <= count <= MAX_SKILL_DICE:
            found.setdefault(skill, count)
    return found


def with_box(view, box):
    """A view with the table's typed text folded in: each Location's FIRST PLAYER text and
    the viewer's skill dice and odds. box is {entry id: text} for this game."""
    # Copies of just the parts written below: the rest may be shared with the cached state.
    view = dict(view, locations=[dict(location) for location in view["locations"]])
    box = box or {}
    for location in view["locations"]:
        typed = _typed(box, location_box_ids(location["name"]))
        location["box_text"] = typed
        location["effect"] = location_effect_text(location["name"], typed)
    you = view.get("you")
    if you and you.get("character"):
        you = view["you"] = dict(you)
        typed = _typed(box, dice_box_ids(you["character"]))
        table_dice = parse_typed_dice(typed) if typed else {}
        you["skill_dice"] = skill_dice(you["character"], table_dice)
        you["odds"] = [dict(challenge_odds(you["character"], o["type"], o["difficulty"],
                                           table_dice), card=o["card"])
                       for o in you["odds"]]
    return view
