"""view_for (everything a screen shows, JSON-safe; nothing is hidden in this game) and
describe (one public log line per event), plus the Mission Leader preview."""

import copy

from ..base import RuleError, once_per_state, seat_ids
from .events import event_outcome, event_previews
from .odds import challenge_odds, skill_dice
from .rounds import _apply_enter, _pass_initiative
from .rules import (
    CARD_FACES,
    CHALLENGE_TYPES,
    CHARACTERS,
    CONTROL_ROOM,
    EVENTS,
    FIRST_PLAYER_TEXT,
    LOCATION_IDS,
    LOCATIONS,
    MALORYS_OFFICE,
    MAX_DIFFICULTY,
    MAX_REWARD,
    MIN_DIFFICULTY,
    MIN_REWARD,
    PHASES,
    QUICK_STEPS,
    SETUP,
    START_UPPER_HAND,
    TITLE,
    TOKEN_LOCATIONS,
    TOKENS,
    UPPER_HAND_REASONS,
    WINNING_UPPER_HAND,
)
from .setup import _apply_seat_roll
from .state import (
    _name,
    _names_and,
    challenges_to_draw,
    completed_types,
    event_step,
    first_at,
    initiative_rolloff,
    initiative_text,
    leader_text,
    leaders,
    location_effect_text,
    locations_to_use,
    mission_over,
    next_step,
    pending,
    pending_text,
    race_chart,
    reveal_order,
    roll_order,
    setup_problems,
    specialty,
    standings,
    step_now,
    whose_turn,
)

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
    if kind == "initiative.seat_roll":
        return _describe_seat_roll(state, data)
    if kind == "round.next":
        return _describe_next(state, event) + _forced_text(state, event)
    if kind == "order.confirm":
        return "Clockwise order confirmed: " + " → ".join(name(s) for s in data["order"])
    if kind == "token.move":
        if (event["by"] or {}).get("seat") == data["seat"]:
            return f"{name(data['seat'])} took the {TOKENS[data['token']]} by hand"
        return (
            f"{_actor(state, event['by']).capitalize()} moved the {TOKENS[data['token']]} "
            f"to {name(data['seat'])} by hand"
        )
    if kind == "challenge.correct":
        return (
            f"Correction by {_actor(state, event['by'])}: {name(data['seat'])} completed "
            f"{_card_text(data)}: +{data['reward']} Upper Hand"
        )
    if kind == "upper_hand.change":
        now = state["upper_hand"].get(data["seat"], 0) + data["delta"]
        reason = f", {data['reason'].lower()}" if data.get("reason") else ""
        return f"{name(data['seat'])} {data['delta']:+d} Upper Hand{reason} (now {now})"
    if kind == "movement.enter":
        return _describe_enter(state, data)
    if kind == "challenge.draw":
        return "Mission Challenges: " + ", ".join(_card_text(c) for c in data["cards"])
    if kind == "challenge.complete":
        return f"{name(data['seat'])} completed {_card_text(data)}: +{data['reward']} Upper Hand"
    if kind == "challenge.fail":
        return f"{name(data['seat'])} failed their Challenge roll"
    if kind in EVENTS:
        outcome = event_outcome(state, kind, data)
        return f"{EVENTS[kind]} (drawn by {name(data['drawer'])}): {outcome['why']}"
    if kind == "dice.roll":
        if data.get("rolloff"):
            return f"Roll-off: {name(data['rolloff']['winner'])} rolled highest"
        who = name(data["seat"]) if data.get("seat") is not None else "The table"
        faces = ", ".join(str(d) for d in data["roll"])
        if data.get("for") == "foes":
            cards = sum(1 for d in data["roll"] if d in CARD_FACES)
            draw = f": draw {cards} card{'' if cards == 1 else 's'}" if cards else ""
            return f"{who} rolled for the foes at {data['location']}: {faces}{draw}"
        if data.get("for") == "challenge":
            return f"{who} rolled for a Challenge: {faces} = {sum(data['roll'])}"
        return f"{who} rolled {faces}"
    return ""


def _describe_seat_roll(state, data):
    """ "Bo rolled 15 for the Initiative", and what it settled: a win, or a tie to roll again."""
    text = (
        f"{_name(state, data['seat'])} rolled {'+'.join(str(d) for d in data['dice'])} = "
        f"{data['total']} for the Initiative"
    )
    if data.get("round", 1) > 1:
        text += f" (roll {data['round']} of the roll-off)"
    after = copy.deepcopy(state)
    try:
        _apply_seat_roll(after, data)
    except RuleError:
        return text  # an undone roll, described with a state it no longer fits
    status = initiative_rolloff(after)
    if after["initiative"] is not None:
        last = status["rounds"][-1] if status["rounds"] else []
        rolls = ", ".join(f"{_name(state, r['seat'])} {r['total']}" for r in last)
        text += f"; {_name(state, after['initiative'])} won the Initiative roll-off ({rolls})"
    elif status["round"] > data.get("round", 1):
        text += f"; {_names_and(state, status['contenders'])} tie for the highest and roll again"
    return text


def _card_text(card):
    color = f", {card['color'].lower()}" if card.get("color") else ""
    return f"{card['type']} {card['difficulty']} (+{card['reward']}{color})"


def _actor(state, by):
    if by and by.get("seat") is not None:
        return _name(state, by["seat"])
    return "the host"


def _describe_next(state, event):
    data = event["data"]
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


def _forced_text(state, event):
    skipped = event["data"].get("forced") or []
    if not skipped:
        return ""
    verb = "revealed" if event["data"]["phase"] == "Movement" else "rolled"
    return f" ({_actor(state, event['by'])} went on before {_names_and(state, skipped)} {verb})"


def _describe_enter(state, data):
    """The reveal as the rules place it: a late token is slotted into the reveal order, so
    it may take "first" from someone who tapped earlier."""
    after = copy.deepcopy(state)
    _apply_enter(after, data)
    entry = next(e for e in after["entries"] if e["seat"] == data["seat"])
    who, where = _name(state, data["seat"]), data["location"]
    if not entry["first"]:
        here = entry["foes_here"]
        return f"{who} entered {where} and rolls {here} {'die' if here == 1 else 'dice'} for the foes there"
    text = f"{who} entered {where} first: {location_effect_text(where)}"
    bumped = first_at(state, where)
    if bumped is not None:
        text += f" ({who} reveals before {_name(state, bumped)}, who now rolls for the foes there)"
    return text


# view_for: everything a screen shows, JSON-safe. No hidden information in this game.

# All of a view but `you` is the same for every viewer: made once per state (once_per_state)
# and shared, as the table screen's view is (web/pages.public_view): what changes a part
# copies it first (box_text.with_box, routes.seats_view).


def view_for(state, viewer):
    view = dict(_view_of(state))
    you = (viewer or {}).get("seat")
    if you in seat_ids(state):
        character = state["character"].get(you)
        known = skill_dice(character) if character else None
        view["you"] = {
            "seat": you,
            "character": character,
            "skill_dice": known,
            "specialty": specialty(known),
            "notice": _forced_notice(state, you),
            "odds": [
                dict(challenge_odds(character, c["type"], c["difficulty"]), card=i + 1)
                for i, c in enumerate(state["mission"]["cards"])
                if c["done_by"] is None
            ],
        }
    return view


@once_per_state
def _view_of(state):
    """What every viewer's view holds: all but `you`."""
    order = seat_ids(state)
    entries = {e["seat"]: e for e in state["entries"]}
    seats = []
    for seat in state["seats"]:
        sid = seat["id"]
        pile = state["challenges"].get(sid, [])
        seats.append(
            {
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
                "foes_here": entries[sid]["foes_here"] if sid in entries else None,
                "first": entries[sid]["first"] if sid in entries else None,
                "colors": sorted({c["color"] for c in pile if c.get("color")}),
            }
        )
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
        "initiative": {
            "seat": state["initiative"],
            "why": initiative_text(state),
            "rolloff": (state["initiative_why"] or {}).get("rolloff"),
            "by_seats": bool((state["initiative_why"] or {}).get("by_seats")),
            # The roll-off the seats are rolling themselves, while it goes on.
            "rolling": (
                initiative_rolloff(state)
                if state["phase"] == SETUP and state["initiative"] is None and len(order) > 1
                else None
            ),
        },
        "mission_leader": {
            "seat": state["mission_leader"],
            "why": leader_text(
                state, state["mission_leader_why"] and dict(state["mission_leader_why"], seat=state["mission_leader"])
            ),
            "rolloff": (state["mission_leader_why"] or {}).get("rolloff"),
        },
        "reveal_order": reveal_order(state),
        "next_step": next_step(state),
        "step": step_now(state),  # the step every form names (games.base.check_named_step)
        "step_now": step_now(state),
        "pending": pending(state),
        "pending_text": pending_text(state),
        "forced": state["forced"],
        "tokens": dict(TOKENS),
        "by_hand": list(state["by_hand"]),
        "order_confirmed": state["order_confirmed"] == order and len(order) > 1,
        "roll_order": roll_order(state),
        "challenges_to_draw": challenges_to_draw(len(order)),
        "entries": list(state["entries"]),
        "mission": {
            "cards": state["mission"]["cards"],
            "completed": state["mission"]["completed"],
            "attempted": list(state["mission"]["attempted"]),
            "rolled": list(state["mission"].get("rolled", [])),
            "over": mission_over(state),
        },
        "foes_rolled": list(state.get("foes_rolled", [])),
        "event_step": event_step(state),
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
    return view


def _forced_notice(state, seat):
    """One line for a phone whose reveal or roll was skipped when a phase ended early."""
    forced = state["forced"]
    if not forced or seat not in forced["seats"]:
        return None
    who = _actor(state, forced["by"])
    who = who[0].upper() + who[1:]
    if forced["phase"] == "Movement":
        return f"{who} started the Mission before you revealed your token."
    return f"{who} ended the Mission before you rolled."


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


def leader_preview(state):
    """Who would lead the Mission if it started now, and why, without rolling anything.

    {"seat": int | None, "tied": [seats], "text": str}; None outside Movement.
    """
    if state["phase"] != "Movement" or state["winners"]:
        return None
    ids = seat_ids(state)
    holder = state["mission_leader"]
    if "mission_leader" in state["by_hand"] and holder in ids:
        text = f"{_name(state, holder)} leads the Mission: the token was moved by hand."
        return {"seat": holder, "tied": [], "text": text, "short": "moved by hand"}
    if (
        CONTROL_ROOM in state["locations"]
        and holder not in ids
        and first_at(state, CONTROL_ROOM) is None
        and pending(state)
    ):
        # Someone may still enter the Control Room: no least-Upper-Hand guess yet.
        return {
            "seat": None,
            "tied": [],
            "short": f"first into the {CONTROL_ROOM} leads",
            "text": f"Whoever enters the {CONTROL_ROOM} first takes the Mission Leader Token and leads the Mission.",
        }
    if CONTROL_ROOM in state["locations"] and holder in ids:
        if first_at(state, CONTROL_ROOM) == holder:
            text = f"{_name(state, holder)} leads the Mission: first into the {CONTROL_ROOM}."
            short = f"first into the {CONTROL_ROOM}"
        else:
            text = (
                f"{_name(state, holder)} keeps the Mission Leader Token unless someone enters the {CONTROL_ROOM} first."
            )
            short = f"keeps it unless someone enters the {CONTROL_ROOM} first"
        return {"seat": holder, "tied": [], "text": text, "short": short}
    if not ids:
        return None
    least = min(state["upper_hand"][s] for s in ids)
    tied = [s for s in ids if state["upper_hand"][s] == least]
    reason = (
        "the Control Room is not in play"
        if CONTROL_ROOM not in state["locations"]
        else "nobody entered the Control Room"
    )
    if len(tied) == 1:
        text = f"{_name(state, tied[0])} would lead: least Upper Hand ({least}), as {reason}."
        short = f"{_name(state, tied[0])} has the least Upper Hand ({least}) right now"
        return {"seat": tied[0], "tied": [], "text": text, "short": short}
    names = _names_and(state, tied)
    text = (
        f"{names} tie for the least Upper Hand ({least}), as {reason}: the app rolls "
        f"off between them when the Mission starts."
    )
    short = f"least Upper Hand decides; {names} tie at {least} (roll-off)"
    return {"seat": None, "tied": tied, "text": text, "short": short}
