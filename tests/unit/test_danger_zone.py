import copy
import itertools
import json
import random
from fractions import Fraction

import pytest

from companion.games import base
from companion.games import danger_zone as dz
from companion.games.base import RuleError
from helpers import DZ_NO_TOKENS as NO_TOKENS
from helpers import HOST, Scripted, ev
from helpers import dz_act as act
from helpers import dz_confirm_order as confirm_order
from helpers import dz_enter as enter
from helpers import dz_ready as ready
from helpers import dz_seated as seated
from helpers import dz_started as started
from helpers import dz_step as step
from helpers import dz_to_mission as to_mission

ALL = list(dz.LOCATIONS)


def set_upper_hand(state, values):
    """Move each seat to the given Upper Hand with Correction events."""
    for seat, target in values.items():
        delta = target - state["upper_hand"][seat]
        if delta:
            state = act(state, "upper_hand.change", {"seat": seat, "delta": delta, "reason": "Correction"})
    return state


# --- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize("players,count", [(2, 3), (3, 3), (4, 3), (5, 4), (6, 4), (7, 5), (8, 5)])
def test_location_count_by_players(players, count):
    state = seated(players)
    data = dz.parse("locations.draw", {}, state, HOST, random.Random(players))
    assert len(data["locations"]) == count == len(set(data["locations"]))
    assert set(data["locations"]) <= set(dz.LOCATIONS)
    assert dz.challenges_to_draw(players) == count


def test_location_draw_is_random_from_the_rng():
    state = seated(3)
    draws = {tuple(dz.parse("locations.draw", {}, state, HOST, random.Random(seed))["locations"]) for seed in range(40)}
    assert len(draws) > 5
    again = dz.parse("locations.draw", {}, state, HOST, random.Random(9))
    assert again == dz.parse("locations.draw", {}, state, HOST, random.Random(9))


def test_redraw_before_the_first_round_only_and_logged():
    state = seated(2)
    for seat in (1, 2):
        state = act(state, "character.pick", {"seat": seat, "character": dz.CHARACTERS[seat]})
    first = act(state, "locations.draw", rng=random.Random(1))
    second_event = ev("locations.draw", dz.parse("locations.draw", {}, first, HOST, random.Random(2)))
    second = dz.apply(first, second_event)
    assert second["location_draws"] == 2
    assert "re-drawn (draw 2)" in dz.describe(first, second, second_event)
    second = confirm_order(act(second, "initiative.record", {"seat": "1"}))
    playing = act(second, "round.next")
    with pytest.raises(RuleError, match="before the first round"):
        act(playing, "locations.draw")
    with pytest.raises(RuleError, match="before the first round"):
        step(playing, "locations.draw", {"locations": ALL[:3], "draw": 3})


def test_tokens_back_in_the_box_and_event_deck_reminder():
    state = ready(3, [dz.MALORYS_OFFICE, "Bullpen", dz.RECEPTION])
    setup = dz.view_for(state, HOST)["setup"]
    assert setup["tokens_to_box"] == ["Breakroom", dz.CONTROL_ROOM, "Applied Research Laboratories"]
    assert setup["event_deck"] is True
    state = ready(3, ["Breakroom", "Bullpen", dz.RECEPTION])
    assert dz.view_for(state, HOST)["setup"]["event_deck"] is False


@pytest.mark.parametrize("players", [0, 1])
def test_too_few_players_refused(players):
    state = seated(players)
    with pytest.raises(RuleError, match="2 to 8 players"):
        act(state, "locations.draw")
    with pytest.raises(RuleError, match="2 to 8 players"):
        act(state, "round.next")


def test_ninth_seat_refused():
    state = seated(8)
    with pytest.raises(RuleError, match="at most 8"):
        step(state, "seat.join", {"seat": 9, "name": "Ivy"})


def test_character_pick_rules():
    state = seated(3)
    state = act(state, "character.pick", {"seat": "1", "character": "archer"})
    assert state["character"][1] == "Archer"
    with pytest.raises(RuleError, match="Ana already plays Archer"):
        act(state, "character.pick", {"seat": "2", "character": "Archer"})
    with pytest.raises(RuleError, match="Pick a character"):
        act(state, "character.pick", {"seat": "2", "character": "Woodhouse"})
    # a phone picks its own, not someone else's; the host may pick for anyone
    bo = {"role": "seat", "seat": 2}
    with pytest.raises(RuleError, match="your own seat"):
        act(state, "character.pick", {"seat": "3", "character": "Lana"}, by=bo)
    state = act(state, "character.pick", {"character": "Lana"}, by=bo)
    assert state["character"][2] == "Lana"
    state = act(state, "character.pick", {"seat": "1", "character": "Pam"})  # change mind in Setup
    assert state["character"][1] == "Pam"
    # apply re-checks duplicates (two phones racing for the same character)
    with pytest.raises(RuleError, match="already plays"):
        step(state, "character.pick", {"seat": 3, "character": "Lana"})


def test_characters_fixed_after_start_but_late_joiner_may_pick():
    state = started(3)
    with pytest.raises(RuleError, match="fixed"):
        act(state, "character.pick", {"seat": "1", "character": "Ray"})
    state = step(state, "seat.join", {"seat": 4, "name": "Di"})
    assert state["upper_hand"][4] == dz.START_UPPER_HAND
    state = act(state, "character.pick", {"seat": "4", "character": "Ray"})
    assert state["character"][4] == "Ray"


def test_setup_problems_block_the_start():
    state = seated(3)
    problems = dz.setup_problems(state)
    assert any("character" in p for p in problems)
    assert "Draw the Locations." in problems
    assert "Roll off for the Initiative Token." in problems
    with pytest.raises(RuleError, match="Still to pick a character: Ana, Bo, Cy"):
        act(state, "round.next")
    # a fifth player after the draw changes the number of Locations
    state = ready(4, ALL[:3])
    state = step(state, "seat.join", {"seat": 5, "name": "Ed"})
    state = act(state, "character.pick", {"seat": "5", "character": "Ray"})
    with pytest.raises(RuleError, match="5 players use 4 Locations"):
        act(state, "round.next")


def test_initiative_roll_off_app_rolls_and_ties_reroll():
    state = seated(3)
    # seats 1 and 3 tie on 12, seat 2 has 3; then seat 1 rolls 3, seat 3 rolls 18
    faces = [4, 4, 4, 1, 1, 1, 6, 5, 1, 1, 1, 1, 6, 6, 6]
    state = act(state, "initiative.roll", rng=Scripted(faces))
    rolloff = state["initiative_why"]["rolloff"]
    assert [[r["seat"] for r in rows] for rows in rolloff["rounds"]] == [[1, 2, 3], [1, 3]]
    assert state["initiative"] == 3
    assert "won the roll-off" in dz.view_for(state, HOST)["initiative"]["why"]


def test_initiative_recorded_by_the_table():
    state = act(seated(2), "initiative.record", {"seat": "2"})
    assert state["initiative"] == 2
    with pytest.raises(RuleError, match="no such seat"):
        act(state, "initiative.record", {"seat": "7"})


def test_initiative_roll_is_host_only():
    assert {"locations.draw", "initiative.roll", "initiative.record"} <= dz.HOST_ONLY


# --- Upper Hand ---------------------------------------------------------------------------


def test_upper_hand_starts_at_five_and_changes_with_reason():
    state = started(3)
    assert state["upper_hand"] == {1: 5, 2: 5, 3: 5}
    bo = {"role": "seat", "seat": 2}
    state = act(state, "upper_hand.change", {"seat": "1", "delta": "-2", "reason": "Insult"}, by=bo)
    assert state["upper_hand"][1] == 3
    assert state["last_change"]["by"] == bo and state["last_change"]["reason"] == "Insult"
    state = act(state, "upper_hand.change", {"seat": "1", "delta": "4", "reason": "card"})
    assert state["upper_hand"][1] == 7 and state["last_change"]["reason"] == "Card"


def test_upper_hand_bad_input():
    state = started(3)
    with pytest.raises(RuleError, match="reason"):
        act(state, "upper_hand.change", {"seat": "1", "delta": "1", "reason": "Because"})
    with pytest.raises(RuleError, match="zero"):
        act(state, "upper_hand.change", {"seat": "1", "delta": "0", "reason": "Insult"})
    with pytest.raises(RuleError, match="whole number"):
        act(state, "upper_hand.change", {"seat": "1", "delta": "two", "reason": "Insult"})
    with pytest.raises(RuleError, match="not started"):
        act(seated(2), "upper_hand.change", {"seat": "1", "delta": "1", "reason": "Insult"})


def test_upper_hand_never_below_zero():
    state = started(2)
    state = act(state, "upper_hand.change", {"seat": "1", "delta": "-5", "reason": "Insult"})
    assert state["upper_hand"][1] == 0
    with pytest.raises(RuleError, match="Ana has 0 Upper Hand; losing 1 would go below 0"):
        act(state, "upper_hand.change", {"seat": "1", "delta": "-1", "reason": "Insult"})
    assert state["upper_hand"][1] == 0


def test_reaching_twenty_ends_the_game_and_undo_reopens_it():
    state = started(3)
    events = []
    for delta in (10, 5):
        data = dz.parse(
            "upper_hand.change", {"seat": "2", "delta": str(delta), "reason": "Card"}, state, HOST, random.Random(1)
        )
        events.append(ev("upper_hand.change", data))
        state = dz.apply(state, events[-1])
    assert state["upper_hand"][2] == 20 and dz.winners(state) == [2]
    before_win = state
    view = dz.view_for(state, {"role": "screen", "seat": None})
    assert view["over"] and view["winners"] == [2]
    assert view["standings"][0] == {"seat": 2, "name": "Bo", "upper_hand": 20, "rank": 1}
    assert view["race"]["rounds"] == [0, 1]  # the start, then the point where it ended
    assert "Bo reached 20 Upper Hand and won" in dz.describe(events_state(started(3), events[:-1]), state, events[-1])
    for kind, form in [
        ("upper_hand.change", {"seat": "1", "delta": "1", "reason": "Insult"}),
        ("round.next", {}),
        ("event.rona_thorne", {"drawer": "1"}),
    ]:
        with pytest.raises(RuleError, match="game is over: Bo reached 20"):
            act(before_win, kind, form)
    # undo = the core folds again without the voided event
    reopened = events_state(started(3), events[:-1])
    assert reopened["winners"] == [] and reopened["upper_hand"][2] == 15
    reopened = act(reopened, "upper_hand.change", {"seat": "1", "delta": "1", "reason": "Insult"})
    assert reopened["upper_hand"][1] == 6


def events_state(state, events):
    for event in events:
        state = dz.apply(state, event)
    return state


def test_highest_wins_when_two_cross_twenty_at_once():
    state = started(3, [dz.MALORYS_OFFICE, "Bullpen", "Breakroom"])
    state = set_upper_hand(state, {1: 18, 2: 18, 3: 19})
    state = act(state, "event.rona_thorne", {"drawer": "1"})
    assert state["upper_hand"] == {1: 22, 2: 20, 3: 19}
    assert dz.winners(state) == [1]


# --- rounds, phases, tokens ---------------------------------------------------------------


def test_round_cycle_and_race_chart():
    state = started(3, NO_TOKENS, initiative=2)
    assert (state["round"], state["phase"]) == (1, "Movement")
    state = act(state, "upper_hand.change", {"seat": "1", "delta": "2", "reason": "Insult"})
    state = to_mission(state)
    assert state["phase"] == "Mission"
    state = act(state, "round.next")
    assert state["phase"] == "Clean-up"
    state = act(state, "round.next")
    assert (state["round"], state["phase"]) == (2, "Movement")
    race = dz.view_for(state, HOST)["race"]
    assert race["rounds"] == [0, 1]
    assert race["series"][0] == {"seat": 1, "name": "Ana", "character": "Archer", "points": [5, 7]}
    assert race["top"] == 20
    json.dumps(race)


def test_stale_next_phase_cannot_skip_a_phase():
    state = started(3)
    form = {"to": "round 1, Mission", "force": "1"}
    data = dz.parse("round.next", form, state, HOST, random.Random(1))
    state = step(state, "round.next", data)
    with pytest.raises(RuleError, match="already moved on"):
        step(state, "round.next", data)  # a second phone's tap on the same phase
    with pytest.raises(RuleError, match="already at round 1, Mission"):
        dz.parse("round.next", form, state, HOST, random.Random(1))  # the same stale button
    with pytest.raises(RuleError, match="did not name the step"):  # malformed, not stale
        dz.parse("round.next", {"force": "1"}, state, HOST, random.Random(1))  # names no step
    state = act(state, "round.next", {"to": "round 1, Clean-up"})
    assert state["phase"] == "Clean-up"


def test_reveal_and_roll_order_and_challenges_to_draw():
    state = started(5, [dz.MALORYS_OFFICE, "Bullpen", "Breakroom", "Applied Research Laboratories"], initiative=4)
    view = dz.view_for(state, HOST)
    assert view["reveal_order"] == [4, 5, 1, 2, 3]
    assert view["challenges_to_draw"] == 4
    assert view["roll_order"] == []
    assert dz.whose_turn(state) == 4
    state = enter(state, 4, "Bullpen")
    assert dz.whose_turn(state) == 5
    state = set_upper_hand(state, {2: 3})
    state = to_mission(state)
    assert state["mission_leader"] == 2
    assert dz.view_for(state, HOST)["roll_order"] == [2, 3, 4, 5, 1]
    assert dz.whose_turn(state) == 2


def test_movement_entries_and_first_player_effects():
    state = started(4, [dz.MALORYS_OFFICE, dz.CONTROL_ROOM, dz.RECEPTION], initiative=1)
    state = enter(state, 1, dz.MALORYS_OFFICE)
    state = enter(state, 2, dz.MALORYS_OFFICE)
    assert state["entries"][1] == {"seat": 2, "location": dz.MALORYS_OFFICE, "first": False, "foes_here": 1}
    event = ev("movement.enter", {"seat": 3, "location": dz.MALORYS_OFFICE})
    after = dz.apply(state, event)
    assert "rolls 2 dice" in dz.describe(state, after, event)
    state = enter(state, 3, dz.RECEPTION)
    assert state["initiative"] == 3  # the token moves at once...
    assert dz.reveal_order(state)[0] == 1  # ...but this round's order does not
    state = enter(state, 4, dz.CONTROL_ROOM)
    assert state["mission_leader"] == 4
    locations = {loc["name"]: loc for loc in dz.view_for(state, HOST)["locations"]}
    assert locations[dz.MALORYS_OFFICE]["first"] == 1
    assert locations[dz.MALORYS_OFFICE]["text"] == "Draw an Event card."
    assert locations[dz.MALORYS_OFFICE]["here"] == [1, 2]
    assert locations[dz.RECEPTION]["token"] == "initiative"
    assert dz.whose_turn(state) is None


def test_movement_bad_input():
    state = started(3, NO_TOKENS)
    with pytest.raises(RuleError, match="not in play"):
        enter(state, 1, dz.RECEPTION)
    with pytest.raises(RuleError, match="Pick a Location"):
        enter(state, 1, "Kitchen")
    state = enter(state, 1, "Bullpen")
    with pytest.raises(RuleError, match="already entered Bullpen"):
        enter(state, 1, "Breakroom")
    state = to_mission(state)
    with pytest.raises(RuleError, match="Movement phase"):
        enter(state, 2, "Bullpen")


def test_location_effect_text():
    assert dz.location_effect_text(dz.MALORYS_OFFICE) == "Draw an Event card."
    assert dz.location_effect_text("Bullpen") == "See your tile."
    assert dz.location_effect_text("Bullpen", "  ") == "See your tile."
    assert dz.location_effect_text("Bullpen", "Typed from our box") == "Typed from our box"
    bullpen = dz._location_view(started(3), "Bullpen")
    assert bullpen["printed_on_tile"] and bullpen["box_text"] is None and bullpen["text"] is None


# --- Mission Leader -----------------------------------------------------------------------


def test_least_upper_hand_leads_without_control_room():
    state = started(3, NO_TOKENS)
    state = set_upper_hand(state, {1: 8, 2: 4, 3: 6})
    state = to_mission(state)
    assert state["mission_leader"] == 2
    why = dz.view_for(state, HOST)["mission_leader"]["why"]
    assert "Bo leads with the least Upper Hand (4)" in why and "not in play" in why


def test_least_upper_hand_tie_is_rolled_off():
    state = started(3, NO_TOKENS)
    state = set_upper_hand(state, {1: 4, 2: 9, 3: 4})
    # tied seats 1 and 3: 1 rolls 2+2+2, 3 rolls 5+5+5
    state = to_mission(state, rng=Scripted([2, 2, 2, 5, 5, 5]))
    assert state["mission_leader"] == 3
    view = dz.view_for(state, HOST)["mission_leader"]
    assert view["rolloff"]["rounds"][0][0]["seat"] == 1
    assert "Ana, Cy tied and Cy won the roll-off" in view["why"]


def test_least_upper_hand_is_recomputed_each_mission():
    state = started(2, NO_TOKENS)
    state = set_upper_hand(state, {1: 3})
    state = to_mission(state)
    assert state["mission_leader"] == 1
    state = act(act(state, "round.next"), "round.next")
    state = set_upper_hand(state, {1: 9})
    state = to_mission(state)
    assert state["mission_leader"] == 2


def test_control_room_in_play_but_nobody_holds_the_token():
    state = started(3, [dz.CONTROL_ROOM, "Bullpen", "Breakroom"])
    state = set_upper_hand(state, {3: 2})
    state = enter(state, 1, "Bullpen")
    state = to_mission(state)
    assert state["mission_leader"] == 3
    assert "nobody held the Mission Leader Token" in dz.view_for(state, HOST)["mission_leader"]["why"]


def test_control_room_entrant_leads_and_keeps_the_token():
    state = started(3, [dz.CONTROL_ROOM, "Bullpen", "Breakroom"])
    state = set_upper_hand(state, {1: 2})
    state = enter(state, 2, dz.CONTROL_ROOM)
    state = to_mission(state)
    assert state["mission_leader"] == 2  # not the least Upper Hand: the token rules
    assert "first into the Control Room" in dz.view_for(state, HOST)["mission_leader"]["why"]
    state = act(act(state, "round.next"), "round.next")  # round 2, nobody goes there
    state = enter(state, 3, "Bullpen")
    state = to_mission(state)
    assert state["mission_leader"] == 2
    assert "token stays" in dz.view_for(state, HOST)["mission_leader"]["why"]


# --- Clean-up: the Initiative Token -------------------------------------------------------


def through_round(state, entries=()):
    for seat, location in entries:
        state = enter(state, seat, location)
    state = to_mission(state)
    return act(state, "round.next")  # into Clean-up


def test_initiative_passes_left_without_reception():
    state = started(3, NO_TOKENS, initiative=3)
    state = through_round(state)
    assert state["initiative"] == 1  # wraps around the table
    assert "passed left to Ana" in dz.view_for(state, HOST)["initiative"]["why"]
    state = act(state, "round.next")
    assert dz.reveal_order(state) == [1, 2, 3]


def test_initiative_stays_when_reception_is_empty():
    state = started(3, [dz.RECEPTION, "Bullpen", "Breakroom"], initiative=2)
    state = through_round(state, [(2, "Bullpen"), (3, "Bullpen")])
    assert state["initiative"] == 2
    assert "nobody entered Reception" in dz.view_for(state, HOST)["initiative"]["why"]


def test_initiative_goes_to_first_at_reception():
    state = started(3, [dz.RECEPTION, "Bullpen", "Breakroom"], initiative=1)
    state = through_round(state, [(1, "Bullpen"), (2, dz.RECEPTION), (3, dz.RECEPTION)])
    assert state["initiative"] == 2
    state = act(state, "round.next")
    assert dz.reveal_order(state) == [2, 3, 1]


# --- Challenges ---------------------------------------------------------------------------


def test_challenge_only_in_the_mission():
    state = started(3)
    form = {"seat": "1", "type": "Booze", "difficulty": "8", "reward": "2"}
    with pytest.raises(RuleError, match="Mission phase.*Movement phase now"):
        act(state, "challenge.complete", form)
    state = to_mission(state)
    state = act(state, "challenge.complete", form)
    assert state["upper_hand"][1] == 7
    assert state["challenges"][1] == [{"type": "Booze", "difficulty": 8, "reward": 2, "color": "", "round": 1}]
    state = act(state, "round.next")
    with pytest.raises(RuleError, match="Clean-up phase now"):
        act(state, "challenge.complete", form)


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("reward", "0", "reward must be between 1 and 4"),
        ("reward", "5", "reward must be between 1 and 4"),
        ("difficulty", "5", "difficulty must be between 6 and 14"),
        ("difficulty", "15", "difficulty must be between 6 and 14"),
        ("type", "Charm", "Challenge type"),
    ],
)
def test_challenge_bad_input(field, value, message):
    state = to_mission(started(3))
    form = dict({"seat": "1", "type": "Guns", "difficulty": "10", "reward": "3"}, **{field: value})
    with pytest.raises(RuleError, match=message):
        act(state, "challenge.complete", form)
    with pytest.raises(RuleError, match=message):  # apply refuses it too
        step(
            state,
            "challenge.complete",
            {
                "seat": 1,
                "card": None,
                "type": "Guns",
                "difficulty": 10,
                "reward": 3,
                **{field: int(value) if value.isdigit() else value},
            },
        )


def test_completed_types_and_mission_limit():
    state = to_mission(started(3))
    for seat, kind in ((1, "Booze"), (2, "Smarts")):
        state = act(state, "challenge.complete", {"seat": str(seat), "type": kind, "difficulty": "6", "reward": "1"})
    state = act(
        state,
        "challenge.correct",  # a card let Ana take a second one
        {"seat": "1", "type": "Personal", "difficulty": "6", "reward": "1"},
    )
    assert dz.completed_types(state["challenges"][1]) == {"Booze": 1}
    assert dz.view_for(state, HOST)["seats"][0]["completed_types"] == {"Booze": 1}
    assert dz.mission_over(state)
    with pytest.raises(RuleError, match="All 3 Challenges"):
        act(state, "challenge.complete", {"seat": "3", "type": "Sex", "difficulty": "6", "reward": "1"})


def test_mission_cards_odds_and_whose_roll():
    state = to_mission(started(3, NO_TOKENS))  # everyone at 5: roll-off picks the leader
    leader = state["mission_leader"]
    order = dz.roll_order(state)
    state = act(
        state,
        "challenge.draw",
        {
            "type_1": "Booze",
            "difficulty_1": "8",
            "reward_1": "2",
            "type_2": "Guns",
            "difficulty_2": "12",
            "reward_2": "4",
            "type_3": "Personal",
            "difficulty_3": "9",
            "reward_3": "2",
        },
    )
    you = dz.view_for(state, {"role": "seat", "seat": 1})["you"]  # Ana plays Archer
    booze = you["odds"][0]
    assert booze["card"] == 1 and booze["options"][0]["dice"] == 3
    assert booze["options"][0]["success"] == dz.dice.percent(Fraction(181, 216))
    assert [o["dice"] for o in you["odds"][2]["options"]] == [3, 2, 1]
    assert dz.whose_turn(state) == leader
    state = act(state, "challenge.fail", {"seat": str(leader)})
    assert dz.whose_turn(state) == order[1]
    state = act(state, "challenge.complete", {"seat": str(order[1]), "card": "1"})
    assert state["mission"]["cards"][0]["done_by"] == order[1]
    assert state["upper_hand"][order[1]] == 7
    with pytest.raises(RuleError, match="already completed"):
        act(state, "challenge.complete", {"seat": str(order[2]), "card": "1"})
    with pytest.raises(RuleError, match="not among this Mission's open cards"):
        act(state, "challenge.complete", {"seat": str(order[2]), "type": "Sex", "difficulty": "6", "reward": "1"})
    state = act(state, "challenge.complete", {"seat": str(order[2]), "type": "Guns", "difficulty": "12", "reward": "4"})
    assert state["mission"]["cards"][1]["done_by"] == order[2]
    assert dz.mission_over(state) and dz.whose_turn(state) is None
    with pytest.raises(RuleError, match="already completed"):
        act(state, "challenge.draw", {"type_1": "Booze", "difficulty_1": "8", "reward_1": "2"})


def test_too_many_challenge_cards():
    state = to_mission(started(2))
    form = {f"{f}_{i}": v for i in range(1, 5) for f, v in (("type", "Sex"), ("difficulty", "7"), ("reward", "1"))}
    with pytest.raises(RuleError, match="draws 3 Challenge cards, not 4"):
        act(state, "challenge.draw", form)


# --- odds and skill dice ------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3])
def test_odds_against_enumeration(count):
    rolls = list(itertools.product(range(1, 7), repeat=count))
    for difficulty in range(6, 15):
        got = dz.odds(count, difficulty)
        assert got["success"] == Fraction(sum(sum(r) >= difficulty for r in rolls), len(rolls))
        assert got["card"] == Fraction(sum(any(f >= 5 for f in r) for r in rolls), len(rolls))


def test_odds_bad_input_and_table():
    with pytest.raises(RuleError, match="1 to 3 dice"):
        dz.odds(4, 8)
    with pytest.raises(RuleError, match="between 6 and 14"):
        dz.odds(2, 15)
    table = dz.odds_table()
    assert len(table) == 27
    assert {"dice": 1, "difficulty": 7, "success": 0.0, "card": 33.3} in table
    json.dumps(table)


def test_skill_dice_known_and_typed():
    archer = dz.skill_dice("Archer")
    assert {s: v["dice"] for s, v in archer.items()} == {"Booze": 3, "Guns": 2, "Sex": 2, "Smarts": 1}
    cheryl = dz.skill_dice("Cheryl", {"Booze": 3, "Sex": 1, "Guns": 2})
    assert cheryl["Sex"] == {"dice": 3, "source": "rulebook"}  # the rulebook wins
    assert cheryl["Booze"] == {"dice": 2, "source": "rulebook"}
    assert cheryl["Guns"] == {"dice": 2, "source": "box"}
    assert cheryl["Smarts"] == {"dice": None, "source": None}
    with pytest.raises(RuleError, match="1 to 3 dice"):
        dz.skill_dice("Lana", {"Guns": 4})
    with pytest.raises(RuleError, match="eight characters"):
        dz.skill_dice("Woodhouse")


def test_challenge_odds_per_character():
    assert [o["dice"] for o in dz.challenge_odds("Lana", "Guns", 10)["options"]] == [3, 2, 1]
    typed = dz.challenge_odds("Lana", "Guns", 10, {"Guns": 3})["options"]
    assert typed == [{"dice": 3, "source": "box", "success": 62.5, "card": 70.4}]
    smarts = dz.challenge_odds("Archer", "Smarts", 6)["options"]
    assert smarts == [{"dice": 1, "source": "rulebook", "success": 16.7, "card": 33.3}]
    assert [o["dice"] for o in dz.challenge_odds("Archer", "Personal", 8)["options"]] == [3, 2, 1]
    with pytest.raises(RuleError):
        dz.challenge_odds("Archer", "Charm", 8)


# --- Events -------------------------------------------------------------------------------

EVENT_LOCATIONS = [dz.MALORYS_OFFICE, "Bullpen", "Breakroom"]


def event_table(values):
    extra = ["Applied Research Laboratories"] * (dz.locations_to_use(len(values)) - 3)
    state = started(len(values), EVENT_LOCATIONS + extra)
    return set_upper_hand(state, dict(enumerate(values, start=1)))


def test_embarrassing_pictures_drawer_leads_no_loss():
    state = event_table([9, 9, 5, 4])
    after = act(state, "event.embarrassing_pictures", {"drawer": "1", "direction": "left"})
    assert after["upper_hand"] == state["upper_hand"]
    assert after["last_event"]["changes"] == []


def test_embarrassing_pictures_counts_passes_left_and_right():
    state = event_table([5, 6, 4, 12, 3])
    left = act(state, "event.embarrassing_pictures", {"drawer": "2", "direction": "left"})
    assert left["upper_hand"][4] == 10  # 2 -> 3 -> 4: two passes
    right = act(state, "event.embarrassing_pictures", {"drawer": "2", "direction": "right"})
    assert right["upper_hand"][4] == 9  # 2 -> 1 -> 5 -> 4: three passes
    nearest = act(state, "event.embarrassing_pictures", {"drawer": "3", "direction": "left"})
    assert nearest["upper_hand"][4] == 11
    outcome = dz.embarrassing_pictures(state, 2, "right")
    assert outcome["passes"] == 3 and outcome["target"] == 4
    with pytest.raises(RuleError, match="left or right"):
        act(state, "event.embarrassing_pictures", {"drawer": "2", "direction": "up"})


def test_embarrassing_pictures_stops_at_first_tied_leader_and_floors_at_zero():
    state = event_table([0, 0, 1, 0, 1])
    after = act(state, "event.embarrassing_pictures", {"drawer": "1", "direction": "left"})
    assert after["upper_hand"][3] == 0  # two passes but only 1 to lose
    assert after["upper_hand"][5] == 1
    assert after["last_event"]["changes"] == [{"seat": 3, "delta": -1}]


def test_rona_thorne():
    state = event_table([3, 7, 3, 5])
    after = act(state, "event.rona_thorne", {"drawer": "2"})
    assert after["upper_hand"] == {1: 5, 2: 7, 3: 5, 4: 5}
    after = act(state, "event.rona_thorne", {"drawer": "3"})
    assert after["upper_hand"] == {1: 5, 2: 7, 3: 7, 4: 5}


def test_event_drawer_defaults_to_first_at_malorys_office():
    state = event_table([3, 7, 4])
    with pytest.raises(RuleError, match="who drew"):
        act(state, "event.rona_thorne", {})
    state = enter(state, 1, dz.MALORYS_OFFICE)
    after = act(state, "event.rona_thorne", {})
    assert after["upper_hand"][1] == 7 and after["last_event"]["drawer"] == 1


def test_uta_app_rolls_with_the_drawers_bonus():
    state = event_table([6, 6, 6])
    # drawer 2 rolls 1 (+1 = 2); seats 1 and 3 roll 2: all three tie on 2 and each lose 2
    after = act(state, "event.uta", {"drawer": "2"}, rng=Scripted([2, 1, 2]))
    assert after["upper_hand"] == {1: 4, 2: 4, 3: 4}
    rolls = after["last_event"]
    assert rolls["changes"] == [{"seat": 1, "delta": -2}, {"seat": 2, "delta": -2}, {"seat": 3, "delta": -2}]
    # drawer 2 rolls 1 (+1 = 2), seat 1 rolls 1: only seat 1 is lowest
    after = act(state, "event.uta", {"drawer": "2"}, rng=Scripted([1, 1, 4]))
    assert after["upper_hand"] == {1: 5, 2: 6, 3: 6}


def test_uta_typed_rolls_and_floor():
    state = event_table([1, 6, 6])
    after = act(state, "event.uta", {"drawer": "3", "roll_1": "4", "roll_2": "6", "roll_3": "3"})
    assert after["upper_hand"] == {1: 0, 2: 6, 3: 2}  # Ana rolled 4, drawer 3+1: tie on 4
    assert after["last_event"]["changes"] == [{"seat": 1, "delta": -1}, {"seat": 3, "delta": -4}]
    assert after["upper_hand"][3] == 2  # the drawer tied on 4 too and loses it all
    with pytest.raises(RuleError, match="every player"):
        act(state, "event.uta", {"drawer": "3", "roll_1": "4"})
    with pytest.raises(RuleError, match="between 1 and 6"):
        act(state, "event.uta", {"drawer": "3", "roll_1": "7", "roll_2": "1", "roll_3": "1"})


def test_woodhouse_alone_from_recorded_movement():
    state = event_table([5, 5, 5, 5])
    state = enter(state, 1, dz.MALORYS_OFFICE)
    state = enter(state, 2, "Bullpen")
    state = enter(state, 3, "Bullpen")
    state = enter(state, 4, "Breakroom")
    assert dz.alone_at_location(state) == [1, 4]
    after = act(state, "event.woodhouse", {"amount": "2"})
    assert after["upper_hand"] == {1: 7, 2: 5, 3: 5, 4: 7}
    with pytest.raises(RuleError, match="zero"):
        act(state, "event.woodhouse", {"amount": "0"})


def test_events_need_malorys_office_and_a_running_game():
    state = started(3, NO_TOKENS[1:] + [dz.RECEPTION])
    with pytest.raises(RuleError, match="not in play"):
        act(state, "event.rona_thorne", {"drawer": "1"})
    with pytest.raises(RuleError, match="not started"):
        act(ready(3, EVENT_LOCATIONS), "event.rona_thorne", {"drawer": "1"})


def test_an_event_is_one_undoable_event():
    base_state = event_table([3, 7, 3])
    data = dz.parse("event.rona_thorne", {"drawer": "1"}, base_state, HOST, random.Random(1))
    event = ev("event.rona_thorne", data)
    after = dz.apply(base_state, event)
    assert after["upper_hand"] == {1: 7, 2: 7, 3: 5}
    text = dz.describe(base_state, after, event)
    assert "Rona Thorne" in text and "Ana +4" in text and "Cy +2" in text
    # the core describes an undone event with before == after: still a sentence
    assert "Rona Thorne" in dz.describe(base_state, base_state, event)


# --- roster, dice, views ------------------------------------------------------------------


def test_token_holder_leaving_passes_the_token_on():
    state = started(4, NO_TOKENS, initiative=2)
    state = set_upper_hand(state, {3: 1})
    state = to_mission(state)
    assert state["mission_leader"] == 3
    state = step(state, "seat.remove", {"seat": 2})
    assert state["initiative"] == 3 and state["round_initiative"] == 3
    state = step(state, "seat.remove", {"seat": 3})
    assert state["initiative"] == 4 and state["mission_leader"] is None
    assert 3 not in state["upper_hand"]
    state = step(state, "seat.reorder", {"order": [4, 1]})
    assert dz.reveal_order(state) == [4, 1]


def test_digital_dice():
    state = seated(3)
    ana = {"role": "seat", "seat": 1}
    state = act(state, "dice.roll", {"dice": "2"}, by=ana, rng=Scripted([3, 5]))
    assert state["last_roll"]["roll"] == [3, 5] and state["last_roll"]["seat"] == 1
    state = act(state, "dice.roll", {"dice": "1", "seats": "1, 3"}, rng=Scripted([2, 6]))
    assert state["last_roll"]["rolloff"]["winner"] == 3
    with pytest.raises(RuleError, match="at least two"):
        act(state, "dice.roll", {"seats": "1"})


def test_unknown_action():
    with pytest.raises(RuleError, match="Unknown action"):
        dz.parse("score", {}, seated(2), HOST, random.Random(1))
    with pytest.raises(RuleError, match="Unknown action"):
        step(seated(2), "score", {})


def test_apply_does_not_mutate_its_input():
    state = to_mission(started(3, EVENT_LOCATIONS))
    frozen = json.dumps(state, sort_keys=True, default=str)
    act(state, "challenge.complete", {"seat": "1", "type": "Booze", "difficulty": "8", "reward": "2"})
    act(state, "event.rona_thorne", {"drawer": "2"})
    act(state, "round.next")
    assert json.dumps(state, sort_keys=True, default=str) == frozen


@pytest.mark.parametrize("viewer", [HOST, {"role": "screen", "seat": None}, {"role": "seat", "seat": 2}])
def test_view_is_json_safe_everywhere(viewer):
    for state in (seated(0), seated(3), ready(3), started(3), to_mission(started(3, EVENT_LOCATIONS))):
        view = dz.view_for(state, viewer)
        assert json.loads(json.dumps(view)) is not None
        for key in (
            "round",
            "phase",
            "seats",
            "locations",
            "initiative",
            "mission_leader",
            "reveal_order",
            "roll_order",
            "challenges_to_draw",
            "race",
            "standings",
        ):
            assert key in view


def test_leaders_and_standings():
    state = set_upper_hand(started(3), {1: 9, 2: 9, 3: 2})
    assert dz.leaders(state) == [1, 2]
    assert [(r["seat"], r["rank"]) for r in dz.standings(state)] == [(1, 1), (2, 1), (3, 3)]
    assert dz.winners(state) == []


# --- screens' helpers ---------------------------------------------------------------------


def test_a_phone_reveals_and_rolls_only_for_itself():
    state = started(3)
    bo = {"role": "seat", "seat": 2}
    with pytest.raises(RuleError, match="your own seat"):
        act(state, "movement.enter", {"seat": "1", "location": NO_TOKENS[0]}, by=bo)
    state = act(state, "movement.enter", {"location": NO_TOKENS[0]}, by=bo)
    state = to_mission(state)
    with pytest.raises(RuleError, match="your own seat"):
        act(state, "challenge.fail", {"seat": "3"}, by=bo)
    with pytest.raises(RuleError, match="your own seat"):
        act(state, "challenge.complete", {"seat": "1", "type": "Booze", "difficulty": "8", "reward": "2"}, by=bo)
    state = act(
        state, "challenge.complete", {"seat": "3", "type": "Booze", "difficulty": "8", "reward": "2"}
    )  # the host may
    assert state["upper_hand"][3] == 7


def test_signed_amounts_for_phone_keypads():
    state = started(3)
    state = act(state, "upper_hand.change", {"seat": "1", "amount": "3", "sign": "-", "reason": "Insult"})
    state = act(state, "upper_hand.change", {"seat": "2", "delta": "\u22122", "reason": "Insult"})
    assert state["upper_hand"][1] == 2 and state["upper_hand"][2] == 3
    with pytest.raises(RuleError, match="between 1 and 20"):
        act(state, "upper_hand.change", {"seat": "1", "amount": "0", "sign": "+", "reason": "Card"})


def test_woodhouse_amount_with_a_sign():
    state = started(3, EVENT_LOCATIONS)
    state = enter(state, 1, dz.MALORYS_OFFICE)
    state = act(state, "event.woodhouse", {"amount": "2", "sign": "-"})
    assert state["upper_hand"][1] == 3


def test_roll_off_from_ticked_players_or_everyone():
    state = seated(3)
    state = act(state, "dice.roll", {"rolloff": "1", "with_1": "1", "with_3": "1", "dice": "1"}, rng=Scripted([2, 6]))
    assert state["last_roll"]["rolloff"]["winner"] == 3
    state = act(state, "dice.roll", {"seats": "all", "dice": "1"}, rng=Scripted([1, 2, 3]))
    assert [r["seat"] for r in state["last_roll"]["rolloff"]["rounds"][0]] == [1, 2, 3]
    with pytest.raises(RuleError, match="Tick at least two"):
        act(state, "dice.roll", {"rolloff": "1"})


def test_leader_preview_explains_who_would_lead():
    state = started(3)
    assert "Ana, Bo and Cy tie for the least Upper Hand (5)" in dz.leader_preview(state)["text"]
    state = set_upper_hand(state, {2: 3})
    preview = dz.leader_preview(state)
    assert preview["seat"] == 2 and "the Control Room is not in play" in preview["text"]
    with_room = started(3, [dz.CONTROL_ROOM, "Bullpen", "Breakroom"])
    # Round 1: the Control Room may still be entered, so no least-Upper-Hand guess.
    hint = dz.leader_preview(with_room)
    assert hint["seat"] is None and "least" not in hint["text"] + hint["short"]
    assert "enters the Control Room first" in hint["text"]
    empty = enter(enter(enter(with_room, 1, "Bullpen"), 2, "Bullpen"), 3, "Breakroom")
    assert "nobody entered the Control Room" in dz.leader_preview(empty)["text"]
    with_room = enter(with_room, 1, dz.CONTROL_ROOM)
    assert dz.leader_preview(with_room) == {
        "seat": 1,
        "tied": [],
        "short": "first into the Control Room",
        "text": "Ana leads the Mission: first into the Control Room.",
    }
    assert dz.leader_preview(to_mission(with_room)) is None


def test_event_previews_follow_the_drawer_at_malorys_office():
    state = event_table([5, 9, 7])
    assert dz.event_previews(state) == {"drawer": None, "alone": []}
    state = enter(state, 1, dz.MALORYS_OFFICE)
    previews = dz.event_previews(state)
    assert previews["drawer"] == 1 and previews["alone"] == [1]
    assert previews["embarrassing_pictures"]["left"].startswith("passed left 1 time to Bo")
    assert previews["embarrassing_pictures"]["right"].startswith("passed right 2 times to Bo")
    assert previews["rona_thorne"] == "least Upper Hand (5): Ana +4"
    assert dz.event_previews(started(3, NO_TOKENS[1:] + ["Applied Research Laboratories"])) is None


def test_with_box_folds_in_tile_text_and_typed_dice():
    state = started(3, ["Bullpen", "Breakroom", dz.RECEPTION])
    state = to_mission(state)
    state = act(state, "challenge.draw", {"type_1": "Guns", "difficulty_1": "10", "reward_1": "3"})
    view = dz.view_for(state, {"role": "seat", "seat": 2})  # Bo plays Lana
    assert [o["dice"] for o in view["you"]["odds"][0]["options"]] == [3, 2, 1]
    before = copy.deepcopy(view)
    boxed = dz.with_box(
        view, {"location-bullpen": "Gain 1.", "breakroom": " ", "lana-dice": "Booze 2, Guns 3, Sex 1, Smarts 2"}
    )
    by_name = {loc["name"]: loc for loc in boxed["locations"]}
    assert by_name["Bullpen"]["effect"] == "Gain 1." and by_name["Bullpen"]["box_text"] == "Gain 1."
    assert by_name["Breakroom"]["effect"] == dz.SEE_YOUR_TILE
    assert by_name[dz.RECEPTION]["effect"] == "Take the Initiative Token."
    assert boxed["you"]["odds"][0]["options"] == [{"dice": 3, "source": "box", "success": 62.5, "card": 70.4}]
    assert boxed["you"]["skill_dice"]["Booze"] == {"dice": 2, "source": "box"}
    assert view["you"]["odds"][0]["options"][0]["source"] is None  # the input is untouched
    assert view == before


# --- reveal order, one Challenge each, tokens by hand, seating, forcing ----------

FOUR = [dz.MALORYS_OFFICE, dz.RECEPTION, dz.CONTROL_ROOM]


def test_first_at_a_location_follows_the_reveal_order_not_the_taps():
    # Ana holds the Initiative; Cy (third) taps Malory's Office early, then Ana reveals it.
    state = started(4, FOUR, initiative=1)
    state = enter(state, 3, dz.MALORYS_OFFICE)
    assert dz.first_at(state, dz.MALORYS_OFFICE) == 3
    late = ev("movement.enter", {"seat": 1, "location": dz.MALORYS_OFFICE})
    line = dz.describe(state, dz.apply(state, late), late)
    assert "Ana entered Malory's Office first" in line and "before Cy" in line
    state = dz.apply(state, late)
    assert dz.first_at(state, dz.MALORYS_OFFICE) == 1
    by_seat = {e["seat"]: e for e in state["entries"]}
    assert by_seat[1]["first"] and by_seat[1]["foes_here"] == 0
    assert not by_seat[3]["first"] and by_seat[3]["foes_here"] == 1  # Cy rolls 1 die
    assert dz.event_previews(state)["drawer"] == 1


def test_late_recording_in_reveal_order_with_all_four_seats():
    # Initiative with Bo: the reveal order is Bo, Cy, Di, Ana. Taps arrive Ana, Di, Cy, Bo.
    state = started(4, FOUR, initiative=2)
    assert dz.reveal_order(state) == [2, 3, 4, 1]
    for seat in (1, 4, 3, 2):
        state = enter(state, seat, dz.RECEPTION)
    assert [e["seat"] for e in state["entries"]] == [2, 3, 4, 1]
    assert [e["foes_here"] for e in state["entries"]] == [0, 1, 2, 3]
    assert state["initiative"] == 2 and state["initiative_why"] == {"rule": "reception"}
    view = dz.view_for(state, HOST)
    reception = next(loc for loc in view["locations"] if loc["name"] == dz.RECEPTION)
    assert reception["here"] == [2, 3, 4, 1] and reception["first"] == 2


def test_tokens_are_recomputed_when_an_earlier_seat_reveals_late():
    state = started(4, FOUR, initiative=1)
    state = enter(state, 3, dz.CONTROL_ROOM)
    state = enter(state, 4, dz.RECEPTION)
    assert state["mission_leader"] == 3 and state["initiative"] == 4
    state = enter(state, 2, dz.CONTROL_ROOM)  # Bo reveals before Cy
    state = enter(state, 1, dz.RECEPTION)  # Ana (the holder) reveals before Di
    assert state["mission_leader"] == 2 and state["initiative"] == 1
    assert state["initiative_why"] == {"rule": "reception"}
    assert dz.reveal_order(state) == [1, 2, 3, 4]  # this round's order stays
    state = to_mission(state)
    assert dz.roll_order(state) == [2, 3, 4, 1]


def test_undoing_a_late_reveal_gives_first_back():
    state = started(3, FOUR, initiative=1)
    state = enter(state, 3, dz.RECEPTION)
    before = state
    state = enter(state, 2, dz.RECEPTION)
    assert state["initiative"] == 2
    # An undo re-folds the log without that event: the state before it is the answer.
    assert before["initiative"] == 3 and dz.first_at(before, dz.RECEPTION) == 3


def test_cheryls_dice_come_from_the_rulebook():
    cheryl = dz.skill_dice("Cheryl")
    assert cheryl["Booze"] == {"dice": 2, "source": "rulebook"}
    assert cheryl["Sex"] == {"dice": 3, "source": "rulebook"}
    assert dz.specialty(cheryl) == "Sex"
    booze = dz.challenge_odds("Cheryl", "Booze", 8)["options"]
    assert [o["dice"] for o in booze] == [2] and booze[0]["source"] == "rulebook"
    # The Mission example: 2 dice need 8 or more for the difficulty 8 Booze card.
    assert booze[0]["success"] == dz.dice.percent(Fraction(15, 36))


def test_one_challenge_per_player_per_mission():
    state = to_mission(started(3))
    state = act(
        state,
        "challenge.draw",
        {
            "type_1": "Booze",
            "difficulty_1": "8",
            "reward_1": "2",
            "type_2": "Guns",
            "difficulty_2": "9",
            "reward_2": "3",
        },
    )
    state = act(state, "challenge.complete", {"seat": "1", "card": "1"})
    with pytest.raises(RuleError, match="Ana completed Booze 8 in this Mission.*one Challenge"):
        act(state, "challenge.complete", {"seat": "1", "card": "2"})
    with pytest.raises(RuleError, match="one Challenge"):
        act(state, "challenge.fail", {"seat": "1"})
    state = act(state, "challenge.fail", {"seat": "2"})
    with pytest.raises(RuleError, match="Bo already rolled"):
        act(state, "challenge.complete", {"seat": "2", "card": "2"})
    event = ev(
        "challenge.correct", dz.parse("challenge.correct", {"seat": "1", "card": "2"}, state, HOST, random.Random(1))
    )
    after = dz.apply(state, event)
    assert after["upper_hand"][1] == 5 + 2 + 3
    assert dz.describe(state, after, event).startswith("Correction by the host: Ana completed Guns 9")
    assert "challenge.correct" in dz.HOST_ONLY


def test_tokens_moved_by_hand_are_logged_and_stay_at_clean_up():
    state = started(3, NO_TOKENS, initiative=1)
    with pytest.raises(RuleError, match="Pick the Initiative Token"):
        act(state, "token.move", {"token": "hat", "seat": "2"})
    event = ev(
        "token.move", dz.parse("token.move", {"token": "initiative", "seat": "3"}, state, HOST, random.Random(1))
    )
    moved = dz.apply(state, event)
    assert dz.describe(state, moved, event) == "The host moved the Initiative Token to Cy by hand"
    assert moved["initiative"] == 3 and dz.reveal_order(moved) == [1, 2, 3]  # this round's order stays
    moved = act(moved, "token.move", {"token": "mission_leader", "seat": "2"})
    moved = to_mission(moved)
    assert moved["mission_leader"] == 2 and moved["mission_leader_why"] == {"rule": "by_hand"}
    moved = act(moved, "round.next")  # Clean-up: no passing left, the card had its say
    assert moved["initiative"] == 3
    # A token a card hands over is taken by the seat it goes to (or put there by the host).
    assert "order.confirm" in dz.HOST_ONLY and "token.move" not in dz.HOST_ONLY
    assert dz.WHO["token.move"] == base.OWN and "token.move" in dz.SHARED


def test_a_token_moved_by_hand_is_not_taken_back_by_a_late_reveal():
    state = started(3, FOUR, initiative=1)
    state = enter(state, 2, dz.RECEPTION)
    state = act(state, "token.move", {"token": "initiative", "seat": "3"})
    state = enter(state, 1, dz.RECEPTION)
    assert state["initiative"] == 3 and dz.first_at(state, dz.RECEPTION) == 1


def test_the_clockwise_order_is_confirmed_before_round_one():
    state = seated(3)
    for seat in (1, 2, 3):
        state = act(state, "character.pick", {"seat": seat, "character": dz.CHARACTERS[seat]})
    state = act(state, "initiative.record", {"seat": "1"})
    state = step(state, "locations.draw", {"locations": NO_TOKENS, "draw": 1})
    assert dz.setup_problems(state) == ["Check that the seats are listed clockwise, as you sit, and confirm it."]
    with pytest.raises(RuleError, match="seats changed since this page"):
        act(state, "order.confirm", {"order": "1,3,2"})
    state = step(state, "seat.reorder", {"order": [1, 3, 2]})
    state = act(state, "order.confirm", {"order": "1,3,2"})
    assert dz.setup_problems(state) == [] and dz.view_for(state, HOST)["order_confirmed"]
    event = ev("order.confirm", {"order": [1, 3, 2]})
    assert dz.describe(state, state, event) == "Clockwise order confirmed: Ana → Cy → Bo"
    state = step(state, "seat.join", {"seat": 4, "name": "Di"})
    assert "clockwise" in dz.setup_problems(state)[-1]  # a newcomer needs a place


def test_next_phase_names_its_step_and_a_stale_tap_changes_nothing():
    state = ready(3, NO_TOKENS)
    assert dz.next_step(state) == "round 1, Movement"
    with pytest.raises(RuleError, match="already at Setup"):
        dz.parse("round.next", {"to": "round 1, Mission"}, state, HOST, random.Random(1))
    state = act(state, "round.next", {"to": "round 1, Movement"})
    assert dz.next_step(state) == "round 1, Mission"
    state = act(state, "round.next", {"to": "round 1, Mission"})
    assert dz.next_step(state) == "round 1, Clean-up"
    state = act(state, "round.next", {"to": "round 1, Clean-up"})
    assert dz.next_step(state) == "round 2, Movement"


def test_starting_the_mission_early_names_who_and_logs_who_forced_it():
    state = started(3, NO_TOKENS, initiative=1)
    state = enter(state, 1, "Bullpen")
    with pytest.raises(RuleError, match="^Bo and Cy have not revealed yet"):
        dz.parse("round.next", {"to": "round 1, Mission"}, state, HOST, random.Random(1))
    assert dz.view_for(state, HOST)["pending_text"] == "Bo and Cy have not revealed yet"
    ana = {"role": "seat", "seat": 1}
    data = dz.parse("round.next", {"to": "round 1, Mission", "force": "1"}, state, ana, random.Random(1))
    assert data["forced"] == [2, 3]
    event = ev("round.next", data, by=ana)
    after = dz.apply(state, event)
    assert dz.describe(state, after, event).endswith("(Ana went on before Bo and Cy revealed)")
    assert dz.view_for(after, {"role": "seat", "seat": 2})["you"]["notice"] == (
        "Ana started the Mission before you revealed your token."
    )
    assert dz.view_for(after, ana)["you"]["notice"] is None
    # Ending the Mission early names who has not rolled; once everyone is done, no question.
    with pytest.raises(RuleError, match="have not rolled yet"):
        dz.parse("round.next", {"to": "round 1, Clean-up"}, after, HOST, random.Random(1))
    for seat in dz.roll_order(after):
        after = act(after, "challenge.fail", {"seat": str(seat)})
    assert dz.pending(after) == []
    done = act(after, "round.next", {"to": "round 1, Clean-up", "force": ""})
    assert done["phase"] == "Clean-up" and done["forced"] is None


def test_mission_leader_tie_can_be_rolled_at_the_table():
    state = started(3, NO_TOKENS)
    with pytest.raises(RuleError, match="Only Ana, Bo and Cy tied"):
        act(state, "round.next", {"leader": "9"})
    state = set_upper_hand(state, {1: 7})
    with pytest.raises(RuleError, match="Only Bo and Cy tied"):
        act(state, "round.next", {"leader": "1"})
    state = act(state, "round.next", {"leader": "3"})
    assert state["mission_leader"] == 3
    assert "Bo, Cy tied and Cy won the roll at the table" in dz.view_for(state, HOST)["mission_leader"]["why"]


def test_a_quick_change_without_a_reason_logs_none():
    state = started(3)
    event = ev(
        "upper_hand.change", dz.parse("upper_hand.change", {"seat": "1", "delta": "1"}, state, HOST, random.Random(1))
    )
    assert event["data"]["reason"] == ""
    assert dz.describe(state, dz.apply(state, event), event) == "Ana +1 Upper Hand (now 6)"


def test_challenge_colours_and_the_personal_switch():
    state = to_mission(started(3))
    state = act(
        state,
        "challenge.draw",
        {
            "type_1": "Booze",
            "difficulty_1": "8",
            "reward_1": "2",
            "color_1": " red ",
            "personal_2": "1",
            "difficulty_2": "9",
            "reward_2": "2",
            "color_2": "Blue",
        },
    )
    cards = state["mission"]["cards"]
    assert [(c["type"], c["color"]) for c in cards] == [("Booze", "Red"), ("Personal", "Blue")]
    with pytest.raises(RuleError, match="colour"):
        act(state, "challenge.draw", {"type_1": "Booze", "difficulty_1": "8", "reward_1": "2", "color_1": "<b>x</b>"})
    state = act(state, "challenge.complete", {"seat": "1", "card": "1"})
    seat = dz.view_for(state, HOST)["seats"][0]
    assert seat["challenges"][0]["color"] == "Red" and seat["colors"] == ["Red"]


def test_app_dice_for_a_challenge_count_cards_and_compare():
    state = to_mission(started(3))
    state = act(state, "challenge.draw", {"type_1": "Booze", "difficulty_1": "8", "reward_1": "2"})
    state = act(state, "dice.roll", {"dice": "3", "card": "1"}, by={"role": "seat", "seat": 1}, rng=Scripted([5, 6, 1]))
    roll = state["last_roll"]
    assert roll["roll"] == [5, 6, 1] and roll["difficulty"] == 8 and roll["type"] == "Booze"
