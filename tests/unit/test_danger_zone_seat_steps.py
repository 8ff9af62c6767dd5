"""Danger Zone steps a seat takes itself, as the tablet's panels post them: its own
Initiative roll (ties roll again, in the order the rules give, whatever order taps arrive),
the dice for the foes at its Location, its Challenge roll, the round's Event card, and a token
a card hands it. Each is safe against a doubled tap."""

import json
import random

import pytest

from companion.games import base
from companion.games import danger_zone as dz
from companion.games.base import RuleError
from helpers import DZ_NO_TOKENS as NO_TOKENS
from helpers import HOST, Scripted
from helpers import dz_act as act
from helpers import dz_enter as enter
from helpers import dz_seated as seated
from helpers import dz_started as started
from helpers import dz_step as step
from helpers import dz_to_mission as to_mission

TABLET = lambda seat: {"role": "seat", "seat": seat, "via": base.SHARED_SCREEN}  # noqa: E731


def roll(state, seat, to, faces):
    """Seat `seat` rolls its own three dice for the roll-off round `to`."""
    return act(state, "initiative.seat_roll", {"seat": seat, "to": to}, by=TABLET(seat), rng=Scripted(faces))


def describe_last(state, kind, form, by, rng):
    data = json.loads(json.dumps(dz.parse(kind, form, state, by, rng)))
    event = {"id": 99, "kind": kind, "by": by, "data": data, "at": "t"}
    return dz.describe(state, dz.apply(state, event), event)


# --- the Initiative roll-off, seat by seat --------------------------------------------------


def test_each_seat_rolls_its_own_dice_and_the_tied_roll_again():
    state = seated(3)
    view = dz.view_for(state, HOST)["initiative"]["rolling"]
    assert view["round"] == 1 and view["waiting"] == [1, 2, 3] and view["rounds"] == []
    # Taps arrive Cy, Ana, Bo: the rows read in seat order all the same.
    state = roll(state, 3, 1, [6, 5, 1])
    state = roll(state, 1, 1, [4, 4, 4])
    assert dz.view_for(state, HOST)["initiative"]["rolling"]["waiting"] == [2]
    line = describe_last(state, "initiative.seat_roll", {"seat": 2, "to": 1}, TABLET(2), Scripted([1, 1, 1]))
    assert line == "Bo rolled 1+1+1 = 3 for the Initiative; Ana and Cy tie for the highest and roll again"
    state = roll(state, 2, 1, [1, 1, 1])
    rolling = dz.view_for(state, HOST)["initiative"]["rolling"]
    assert rolling["round"] == 2 and rolling["contenders"] == [1, 3] and rolling["waiting"] == [1, 3]
    assert [[r["seat"] for r in rows] for rows in rolling["rounds"]] == [[1, 2, 3]]
    assert state["initiative"] is None

    # Bo lost: the next roll is not his, and Ana's doubled tap from round 1 is stale.
    with pytest.raises(RuleError, match="older screen"):
        roll(state, 2, 2, [6, 6, 6])
    with pytest.raises(RuleError, match="roll 2 of the Initiative roll-off, Ana and Cy tied"):
        roll(state, 1, 1, [6, 6, 6])
    state = roll(state, 3, 2, [2, 2, 2])
    with pytest.raises(RuleError, match="older screen"):  # Cy's second tap
        roll(state, 3, 2, [6, 6, 6])
    line = describe_last(state, "initiative.seat_roll", {"seat": 1, "to": 2}, TABLET(1), Scripted([3, 3, 3]))
    assert line == (
        "Ana rolled 3+3+3 = 9 for the Initiative (roll 2 of the roll-off); "
        "Ana won the Initiative roll-off (Ana 9, Cy 6)"
    )
    state = roll(state, 1, 2, [3, 3, 3])
    assert state["initiative"] == 1
    why = state["initiative_why"]
    assert why["rule"] == "rolloff" and why["by_seats"]
    assert [[(r["seat"], r["total"]) for r in rows] for rows in why["rolloff"]["rounds"]] == [
        [(1, 12), (2, 3), (3, 12)],
        [(1, 9), (3, 6)],
    ]
    view = dz.view_for(state, HOST)["initiative"]
    assert view["rolling"] is None and view["rolloff"]["winner"] == 1 and "won the roll-off" in view["why"]
    # Settled: no more rolls, and the reveal order starts with Ana.
    with pytest.raises(RuleError, match="Ana holds the token"):
        roll(state, 2, 3, [6, 6, 6])
    assert dz.reveal_order(state) == [1, 2, 3]


def test_a_seat_rolls_only_for_itself_and_names_the_round():
    state = seated(2)
    with pytest.raises(RuleError, match="only roll for the Initiative for your own seat"):
        act(state, "initiative.seat_roll", {"seat": 2, "to": 1}, by=TABLET(1))
    with pytest.raises(RuleError, match="did not name the step"):
        act(state, "initiative.seat_roll", {"seat": 1}, by=TABLET(1))
    data = dz.parse("initiative.seat_roll", {"seat": "1", "to": "1"}, state, TABLET(1), random.Random(3))
    assert set(data) == {"seat", "round", "dice", "total"} and len(data["dice"]) == dz.INITIATIVE_DICE
    assert data["total"] == sum(data["dice"]) and data["round"] == 1
    # The rights: the seat's own (or the host's), from the tablet too; undoing it is a redo.
    assert dz.WHO["initiative.seat_roll"] == base.OWN and "initiative.seat_roll" in dz.SHARED
    assert "initiative.seat_roll" in dz.DRAWN
    base.check_post(dz, "initiative.seat_roll", TABLET(1), {"seat": 1})
    with pytest.raises(base.NotAllowed):
        base.check_post(dz, "initiative.seat_roll", TABLET(1), {"seat": 2})
    # A made-up roll is refused by apply (a stored event is checked again on every fold).
    with pytest.raises(RuleError, match="3 dice"):
        step(state, "initiative.seat_roll", {"seat": 1, "round": 1, "dice": [6, 6, 7], "total": 19})


def test_the_host_roll_off_replaces_the_seats_and_a_leaver_settles_it():
    state = roll(seated(3), 1, 1, [6, 6, 6])
    hosted = act(state, "initiative.roll", rng=Scripted([1, 1, 1, 2, 2, 2, 3, 3, 3]))
    assert hosted["initiative"] == 3 and hosted["initiative_rolls"] == []
    assert not dz.view_for(hosted, HOST)["initiative"]["by_seats"]
    # Ana and Bo rolled; Cy, the last to roll, leaves the table: Ana wins at once.
    state = roll(state, 2, 1, [1, 2, 3])
    state = step(state, "seat.remove", {"seat": 3})
    assert state["initiative"] == 1


# --- the foes, a Challenge roll, the Event card, a token -------------------------------------


def test_the_foes_dice_are_the_rules_count_and_rolled_once():
    state = started(3, NO_TOKENS, initiative=1)
    state = enter(state, 1, "Breakroom")
    with pytest.raises(RuleError, match="first: there are no foes"):
        act(state, "dice.roll", {"for": "foes", "seat": 1}, by=TABLET(1))
    with pytest.raises(RuleError, match="not revealed"):
        act(state, "dice.roll", {"for": "foes", "seat": 2}, by=TABLET(2))
    state = enter(state, 2, "Breakroom")
    state = enter(state, 3, "Breakroom")
    # Cy found two foes: two dice, whatever the form says.
    data = dz.parse("dice.roll", {"for": "foes", "seat": "3", "dice": "1"}, state, TABLET(3), Scripted([5, 2]))
    assert data == {"for": "foes", "seat": 3, "location": "Breakroom", "dice": 2, "roll": [5, 2]}
    line = describe_last(state, "dice.roll", {"for": "foes", "seat": 3}, TABLET(3), Scripted([5, 2]))
    assert line == "Cy rolled for the foes at Breakroom: 5, 2: draw 1 card"
    state = act(state, "dice.roll", {"for": "foes", "seat": 3}, by=TABLET(3), rng=Scripted([5, 2]))
    assert state["foes_rolled"] == [3] and state["last_roll"]["roll"] == [5, 2]
    with pytest.raises(RuleError, match="already rolled for the foes"):
        act(state, "dice.roll", {"for": "foes", "seat": 3}, by=TABLET(3))
    with pytest.raises(RuleError, match="for your own seat"):
        act(state, "dice.roll", {"for": "foes", "seat": 2}, by=TABLET(3))
    # A new round: everyone rolls for the foes again.
    state = act(act(to_mission(state), "round.next"), "round.next")
    assert state["phase"] == "Movement" and state["foes_rolled"] == []


def test_a_challenge_roll_once_per_mission():
    state = started(3, NO_TOKENS, initiative=1)
    for seat in (1, 2, 3):
        state = enter(state, seat, "Breakroom")
    state = to_mission(state)
    with pytest.raises(RuleError, match="between 1 and 3"):
        act(state, "dice.roll", {"for": "challenge", "seat": 1, "dice": "4"}, by=TABLET(1))
    state = act(state, "dice.roll", {"for": "challenge", "seat": 1, "dice": "2"}, by=TABLET(1), rng=Scripted([6, 3]))
    assert state["last_roll"]["roll"] == [6, 3] and state["mission"]["rolled"] == [1]
    with pytest.raises(RuleError, match="each player rolls once"):
        act(state, "dice.roll", {"for": "challenge", "seat": 1, "dice": "2"}, by=TABLET(1))
    state = act(state, "challenge.fail", {"seat": 2}, by=TABLET(2))
    with pytest.raises(RuleError, match="each player rolls once"):
        act(state, "dice.roll", {"for": "challenge", "seat": 2, "dice": "1"}, by=TABLET(2))
    # Free dice stay free.
    state = act(state, "dice.roll", {"dice": "3"}, by=TABLET(3))
    state = act(state, "dice.roll", {"dice": "3"}, by=TABLET(3))
    with pytest.raises(RuleError, match="for the foes or for a Challenge"):
        act(state, "dice.roll", {"for": "fun"}, by=TABLET(3))


def test_the_tablets_event_card_names_the_round_and_is_applied_once():
    state = started(3, [dz.MALORYS_OFFICE, "Breakroom", "Bullpen"], initiative=1)
    state = enter(state, 1, dz.MALORYS_OFFICE)
    view = dz.view_for(state, HOST)
    assert view["event_step"] == "round 1, Event card"
    state = act(state, "event.rona_thorne", {"drawer": 1, "to": view["event_step"]}, by=TABLET(1))
    assert state["last_event"]["round"] == 1 and dz.view_for(state, HOST)["event_step"] is None
    with pytest.raises(RuleError, match="Event card applied: that tap came from an older screen"):
        act(state, "event.rona_thorne", {"drawer": 1, "to": "round 1, Event card"}, by=TABLET(1))
    # The host page names no step: a card may call for another Event.
    state = act(state, "event.woodhouse", {"drawer": 1, "amount": "1"})
    assert state["last_event"]["kind"] == "event.woodhouse"


def test_a_seat_takes_a_token_a_card_hands_it_once():
    state = started(3, NO_TOKENS, initiative=1)
    base.check_post(dz, "token.move", TABLET(2), {"token": "initiative", "seat": 2})
    with pytest.raises(base.NotAllowed):
        base.check_post(dz, "token.move", TABLET(2), {"token": "initiative", "seat": 3})
    line = describe_last(state, "token.move", {"token": "initiative", "seat": 2}, TABLET(2), random.Random(1))
    assert line == "Bo took the Initiative Token by hand"
    state = act(state, "token.move", {"token": "initiative", "seat": 2}, by=TABLET(2))
    assert state["initiative"] == 2 and state["initiative_why"] == {"rule": "by_hand"}
    with pytest.raises(RuleError, match="Bo already holds the Initiative Token"):
        act(state, "token.move", {"token": "initiative", "seat": 2}, by=TABLET(2))
    # Without a seat named, a seat takes it for itself.
    assert dz.parse("token.move", {"token": "mission_leader"}, state, TABLET(3), random.Random(1))["seat"] == 3


def test_the_host_only_steps_left():
    assert dz.HOST_ONLY == {
        "locations.draw",
        "initiative.roll",
        "initiative.record",
        "order.confirm",
        "challenge.correct",
    }
    assert dz.NOT_SHARED == dz.HOST_ONLY and dz.SHARED == set(dz.KINDS) - dz.HOST_ONLY
