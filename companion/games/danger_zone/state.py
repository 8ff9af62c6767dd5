"""A fresh Danger Zone table, and read-only questions about one (whose turn, who leads, who
won), with the sentences that explain the two tokens."""

from ..base import RuleError, clockwise_from, seat_ids, seat_name
from . import dice
from .rules import (
    CHALLENGES_BY_PLAYERS,
    CONTROL_ROOM,
    FIRST_PLAYER_TEXT,
    LOCATIONS_BY_PLAYERS,
    MAX_SEATS,
    MAX_SKILL_DICE,
    MIN_SEATS,
    MIN_SKILL_DICE,
    PERSONAL,
    PHASES,
    RECEPTION,
    ROLL_OFF_DICE,
    SEE_YOUR_TILE,
    SETUP,
    SPECIALTY_DICE,
    START_UPPER_HAND,
    TITLE,
    UTA_DICE,
    WINNING_UPPER_HAND,
)


def new_state(options=None):
    options = options or {}
    uta_dice = options.get("uta_dice", UTA_DICE)
    if uta_dice not in range(MIN_SKILL_DICE, MAX_SKILL_DICE + 1):
        uta_dice = UTA_DICE
    return {
        "seats": [],
        "order": [],  # seat ids after the last roster event: finds a gone seat's neighbour
        "options": {"uta_dice": uta_dice},
        "character": {},  # seat -> character
        "upper_hand": {},  # seat -> Upper Hand
        "challenges": {},  # seat -> completed Challenge cards
        "locations": [],  # in play, in LOCATIONS order
        "location_draws": 0,
        "initiative": None,  # who holds the Initiative Token now
        "initiative_why": None,
        # The seats' own Initiative rolls, in the order they came ({"seat", "round", "dice",
        # "bonus", "total"}); initiative_rolloff() works the roll-off out from them.
        "initiative_rolls": [],
        "round_initiative": None,  # who held it when this round began: reveal order starts there
        "round_initiative_why": None,
        "mission_leader": None,
        "mission_leader_why": None,
        "round_mission_leader": None,  # who held it as this round began: kept if nobody takes it
        "round_mission_leader_why": None,
        "by_hand": [],  # tokens the host moved by hand this round (TOKENS keys)
        "order_confirmed": None,  # the clockwise seat order the host confirmed before round 1
        "forced": None,  # the last phase ended early: {"phase", "seats", "by"}
        "round": 0,
        "phase": SETUP,
        "entries": [],  # this round's revealed tokens, in reveal order (not tap order)
        "foes_rolled": [],  # seats that rolled for the foes at their Location this round
        "mission": _new_mission(),
        "race": [],  # {"round", "upper_hand": {seat: n}} at each round's end
        "winners": [],
        "last_change": None,
        "last_event": None,
        "last_roll": None,
    }


def _new_mission():
    # rolled: seats that rolled their Challenge dice in the app this Mission (one roll each)
    return {"cards": [], "completed": 0, "attempted": [], "leader": None, "rolled": []}


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
        problems.append(f"{TITLE} needs {MIN_SEATS} to {MAX_SEATS} players; this table has {count}.")
    missing = [s["name"] for s in state["seats"] if s["id"] not in state["character"]]
    if missing:
        problems.append("Still to pick a character: " + ", ".join(missing) + ".")
    if not state["locations"]:
        problems.append("Draw the Locations.")
    elif locations_to_use(count) and len(state["locations"]) != locations_to_use(count):
        problems.append(f"{count} players use {locations_to_use(count)} Locations; draw the Locations again.")
    if state["initiative"] is None:
        problems.append("Roll off for the Initiative Token.")
    if count >= MIN_SEATS and state["order_confirmed"] != seat_ids(state):
        problems.append("Check that the seats are listed clockwise, as you sit, and confirm it.")
    return problems


def initiative_rolloff(state):
    """The Initiative roll-off as the seats roll it themselves, worked out from their rolls.

    Everyone rolls once; when all have, the seats tied for the highest roll again, and only
    they. The rules set the order, not the taps: rows are in seat order whatever order they
    came in, and a roll belongs to one round of the roll-off. Returns {"round": the round
    being rolled (1 first), "rounds": [[row, ...], ...] rolled so far, "contenders": seats
    in this round, "waiting": those still to roll in it, "winner": seat or None}.
    """
    ids = seat_ids(state)
    rows = state.get("initiative_rolls") or []
    contenders, rounds, number = ids, [], 1
    while len(contenders) > 1 and number <= dice.MAX_ROLL_OFF_ROUNDS:
        got = {r["seat"]: r for r in rows if r["round"] == number and r["seat"] in contenders}
        rolled = [got[s] for s in contenders if s in got]
        if rolled:
            rounds.append(rolled)
        waiting = [s for s in contenders if s not in got]
        if waiting:
            return {"round": number, "rounds": rounds, "contenders": contenders, "waiting": waiting, "winner": None}
        top = dice.highest(rolled)
        if len(top) == 1:
            return {"round": number, "rounds": rounds, "contenders": contenders, "waiting": [], "winner": top[0]}
        contenders, number = top, number + 1
    return {"round": number, "rounds": rounds, "contenders": contenders, "waiting": [], "winner": None}


def rolloff_step_text(state, status=None):
    """Where the seats' Initiative roll-off is, in words, for a refused stale tap."""
    status = status or initiative_rolloff(state)
    if status["winner"] is not None:
        return f"the end of the Initiative roll-off ({_name(state, status['winner'])} won it)"
    tied = "" if status["round"] == 1 else f", {_names_and(state, status['contenders'])} tied and roll again"
    waiting = f" (waiting for {_names_and(state, status['waiting'])})" if status["waiting"] else ""
    return f"roll {status['round']} of the Initiative roll-off{tied}{waiting}"


def reveal_order(state):
    """Movement: from whoever held the Initiative Token as the round began, clockwise."""
    start = state["round_initiative"] if state["phase"] != SETUP else state["initiative"]
    if start is None or start not in seat_ids(state):
        return []
    return clockwise_from(state, start)


def roll_order(state):
    """Mission: from the Mission Leader, clockwise (once the Mission has a leader)."""
    # The leader the Mission started with: a token moved by hand mid-Mission counts next round.
    leader = state["mission"].get("leader", state["mission_leader"])
    if state["phase"] not in ("Mission", "Clean-up") or leader not in seat_ids(state):
        return []
    return clockwise_from(state, leader)


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
    rows = sorted(
        ((state["upper_hand"].get(s["id"], START_UPPER_HAND), i, s) for i, s in enumerate(state["seats"])),
        key=lambda r: (-r[0], r[1]),
    )
    out, rank, last = [], 0, None
    for place, (upper_hand, _, seat) in enumerate(rows, start=1):
        if upper_hand != last:
            rank, last = place, upper_hand
        out.append({"seat": seat["id"], "name": seat["name"], "upper_hand": upper_hand, "rank": rank})
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
        series.append(
            {
                "seat": seat["id"],
                "name": seat["name"],
                "character": state["character"].get(seat["id"]),
                "points": [p["upper_hand"].get(seat["id"]) for p in points],
            }
        )
    highest = max([WINNING_UPPER_HAND] + [n for p in points for n in p["upper_hand"].values()])
    return {"rounds": [p["round"] for p in points], "series": series, "top": highest}


def mission_leader_choice(state, rng, table_pick=None):
    """Who leads the Mission about to start, and why: {"seat", "rule", ...} (JSON-safe).

    A token moved by hand (a card said so) leads; else the Control Room's token holder;
    when the Control Room is out of play or nobody holds the token, the least Upper Hand
    leads, a tie broken by a roll-off in the app or, with table_pick, the table's own dice.
    """
    holder = state["mission_leader"]
    if "mission_leader" in state["by_hand"] and holder in seat_ids(state):
        return {"seat": holder, "rule": "by_hand"}
    if CONTROL_ROOM in state["locations"] and holder in seat_ids(state):
        rule = "control_room" if first_at(state, CONTROL_ROOM) == holder else "kept"
        return {"seat": holder, "rule": rule}
    ids = seat_ids(state)
    if not ids:
        raise RuleError("Nobody is at the table to lead the Mission.")
    least = min(state["upper_hand"][s] for s in ids)
    tied = [s for s in ids if state["upper_hand"][s] == least]
    choice = {
        "seat": tied[0],
        "rule": "least",
        "least": least,
        "tied": tied,
        "rolloff": None,
        "control_room_in_play": CONTROL_ROOM in state["locations"],
    }
    if len(tied) > 1 and table_pick is not None:
        if table_pick not in tied:
            raise RuleError(f"Only {_names_and(state, tied)} tied for the least Upper Hand.")
        choice["seat"], choice["table"] = table_pick, True
    elif len(tied) > 1:
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
        reason = (
            "the Control Room is not in play"
            if not why.get("control_room_in_play")
            else "nobody held the Mission Leader Token"
        )
        text = f"{who} leads with the least Upper Hand ({why['least']}), as {reason}"
        if why.get("rolloff") or why.get("table"):
            tied = ", ".join(_name(state, s) for s in why["tied"])
            how = "the roll at the table" if why.get("table") else "the roll-off"
            text += f"; {tied} tied and {who} won {how}"
        return text + "."
    if rule == "by_hand":
        return f"{who} holds the Mission Leader Token: moved by hand."
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
    if rule == "by_hand":
        return f"{who} holds the Initiative Token: moved by hand."
    return f"{who} holds the Initiative Token."


def location_effect_text(location, box_text=None):
    """What the first player at a Location gets: known text, the table's own, or the tile."""
    known = FIRST_PLAYER_TEXT.get(location)
    if known:
        return known
    return (box_text or "").strip() or SEE_YOUR_TILE


def _name(state, seat):
    try:
        return seat_name(state, seat)
    except RuleError:
        return "a player who left"


def _names_and(state, seats):
    names = [_name(state, s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --- steps: what the "next" button moves to, and who has not had their go yet ------------


def next_step(state):
    """The step round.next moves the table to, in words (the form's "to" field)."""
    phase, number = state["phase"], state["round"]
    if phase == SETUP:
        return "round 1, Movement"
    if phase == "Clean-up":
        return f"round {number + 1}, Movement"
    return f"round {number}, {PHASES[PHASES.index(phase) + 1]}"


def step_now(state):
    """Where the table is, in words, for a refused stale tap."""
    if state["phase"] == SETUP:
        return "Setup"
    if state["winners"]:
        return "the end of the game"
    return f"round {state['round']}, {state['phase']}"


def event_step(state):
    """The step an Event card applied from the tablet names: this round's Event card, until
    one is applied (then None: a doubled tap is stale)."""
    last = state["last_event"]
    if state["phase"] == SETUP or state["winners"] or (last and last.get("round") == state["round"]):
        return None
    return f"round {state['round']}, Event card"


def pending(state):
    """Seats that still have their go in this phase: a reveal (Movement) or a Challenge roll
    (Mission, until every Challenge is done). Ending the phase early skips them."""
    if state["winners"]:
        return []
    if state["phase"] == "Movement":
        done = {e["seat"] for e in state["entries"]}
        return [s for s in reveal_order(state) if s not in done]
    if state["phase"] == "Mission" and not mission_over(state):
        return [s for s in roll_order(state) if s not in state["mission"]["attempted"]]
    return []


def pending_text(state, seats=None):
    """ "Bo and Cy have not revealed yet" (None when nobody is left)."""
    seats = pending(state) if seats is None else seats
    if not seats:
        return None
    verb = "revealed" if state["phase"] == "Movement" else "rolled"
    have = "has" if len(seats) == 1 else "have"
    return f"{_names_and(state, seats)} {have} not {verb} yet"


def specialty(skill_dice_by_skill):
    """The 3-die skill, when known, from skill_dice() output; else None."""
    for skill, known in (skill_dice_by_skill or {}).items():
        if known.get("dice") == SPECIALTY_DICE:
            return skill
    return None
