"""Reducer tests for Archer: Once You Go Blackmail... (companion/games/blackmail.py)."""

import copy
import json
import random

import pytest

from companion.games import base
from companion.games import blackmail as bm
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY
from helpers import HOST, ev, stepped
from helpers import seat_viewer as phone


def table(names=("Ana", "Bo", "Cy"), tracking="full"):
    state = bm.new_state({"tracking": tracking})
    for i, name in enumerate(names, 1):
        e = ev("seat.join", {"seat": i, "name": name})
        state = bm.apply(base.apply_roster(state, e), e)
    return state


def act(state, kind, form=None, actor=HOST, seed=1):
    """Parse a form the way the app does, then apply the event."""
    data = bm.parse(
        kind, stepped(kind, {k: str(v) for k, v in (form or {}).items()}, state), state, actor, random.Random(seed)
    )
    return bm.apply(state, ev(kind, data, by=actor))


def start(names=("Ana", "Bo", "Cy"), first=1, tracking="full"):
    return act(table(names, tracking), "game.start", {"first_player": first})


def play(state, card, actor=HOST, **form):
    return act(state, "play", dict(form, card=card), actor=actor)


def rnd(state):
    return state["round"]


# A play that changes nothing but the turn and the count (a wrong Sterling Archer guess).
def miss(state, target, named=PAM):
    return play(state, ARCHER, target=target, named=named)


# ---------------------------------------------------------------- rules data


def test_eight_characters_with_their_copies():
    by_number = {c["number"]: (c["name"], c["copies"]) for c in bm.CHARACTERS}
    assert by_number == {
        8: ("Malory Archer", 1),
        7: ("Lana Kane", 1),
        6: ("Ray Gillette", 1),
        5: ("Pam Poovey", 2),
        4: ("Cheryl/Carol Tunt", 2),
        3: ("Cyril Figgis", 2),
        2: ("Dr. Krueger", 2),
        1: ("Sterling Archer", 5),
    }
    assert [c["copies"] for c in sorted(bm.CHARACTERS, key=lambda c: -c["number"])] == [1, 1, 1, 2, 2, 2, 2, 5]
    assert bm.DECK_SIZE == 16
    assert all(c["effect"] for c in bm.CHARACTERS)


@pytest.mark.parametrize("players,target", [(2, 6), (3, 4), (4, 3)])
def test_victory_points_to_win_by_player_count(players, target):
    assert bm.vp_target(players) == target
    state = start(names=[f"P{i}" for i in range(players)])
    assert state["target"] == target
    assert bm.view_for(state, HOST)["target"] == target


def test_game_needs_two_to_four_players():
    state = table(names=("Ana",))
    with pytest.raises(base.RuleError, match="2 to 4"):
        act(state, "game.start", {"first_player": 1})
    with pytest.raises(base.RuleError, match="2 to 4"):
        bm.apply(state, ev("game.start", {"first_player": 1}))
    state = table(names=("Ana", "Bo", "Cy", "Di"))
    e = ev("seat.join", {"seat": 5, "name": "Ed"})
    with pytest.raises(base.RuleError, match="at most 4"):
        bm.apply(base.apply_roster(state, e), e)


# ---------------------------------------------------------------- first player


def test_first_player_chosen_by_the_table():
    state = start(first=2)
    assert rnd(state)["first_player"] == 2 and rnd(state)["first_pick"] == "table"
    assert bm.whose_turn(state) == 2


def test_first_player_at_random_is_recorded_and_replayable():
    state = table()
    data = bm.parse(
        "game.start", stepped("game.start", {"first_player": "random"}, state), state, HOST, random.Random(7)
    )
    assert data["picked_at_random"] is True and data["first_player"] in (1, 2, 3)
    e = ev("game.start", data)
    a, b = bm.apply(state, e), bm.apply(state, e)
    assert a == b and rnd(a)["first_player"] == data["first_player"]
    assert rnd(a)["first_pick"] == "random"
    picks = {
        bm.parse("game.start", stepped("game.start", {}, state), state, HOST, random.Random(s))["first_player"]
        for s in range(30)
    }
    assert picks == {1, 2, 3}


def test_next_round_first_player_is_the_winner():
    state = start(tracking="scores", first=1)
    state = act(state, "round.score", {"winners": "3"})
    assert rnd(state)["number"] == 2
    assert rnd(state)["first_player"] == 3 and rnd(state)["first_pick"] == "last_winner"
    assert state["history"][-1]["next_first_player"] == 3
    assert state["history"][-1]["picked_at_random"] is False


def test_several_winners_next_first_player_drawn_among_them_and_logged():
    state = start(tracking="scores")
    seen = set()
    for seed in range(20):
        data = bm.parse(
            "round.score", stepped("round.score", {"winners": "1,3"}, state), state, HOST, random.Random(seed)
        )
        assert data["winners"] == [1, 3] and data["picked_at_random"] is True
        seen.add(data["next_first_player"])
        after = bm.apply(state, ev("round.score", data))
        assert rnd(after)["first_player"] == data["next_first_player"]
        assert rnd(after)["first_pick"] == "random_among_winners"
        assert after["history"][-1]["picked_at_random"] is True
    assert seen == {1, 3}
    with pytest.raises(base.RuleError, match="winners"):
        bm.apply(state, ev("round.score", {"winners": [1, 3], "next_first_player": 2, "picked_at_random": True}))


# ---------------------------------------------------------------- scores only


def test_scores_only_one_tap_per_round_to_game_end():
    state = start(names=("Ana", "Bo"), tracking="scores")
    with pytest.raises(base.RuleError, match="tracking is off"):
        play(state, LANA)
    for _ in range(5):
        state = act(state, "round.score", {"winner_1": "on"}, actor=phone(2))
    assert state["vp"] == {1: 5, 2: 0} and state["phase"] == "round"
    state = act(state, "round.score", {"winners": "1"})
    assert state["phase"] == "game_over" and state["winners"] == [1]
    assert state["round"] is None and bm.rounds_won(state) == {1: 6, 2: 0}
    with pytest.raises(base.RuleError):
        act(state, "round.score", {"winners": "1"})


def test_several_seats_reaching_the_target_at_once_all_win():
    state = start(names=("Ana", "Bo", "Cy", "Di"), tracking="scores")  # 3 to win
    for winners in ("1", "2", "1,2"):
        state = act(state, "round.score", {"winners": winners})
    assert state["vp"] == {1: 2, 2: 2, 3: 0, 4: 0}
    data = bm.parse("round.score", stepped("round.score", {"winners": "1,2"}, state), state, HOST, random.Random(0))
    assert data["next_first_player"] is None  # nobody opens a round after the game ends
    state = bm.apply(state, ev("round.score", data))
    assert state["phase"] == "game_over" and state["winners"] == [1, 2]


def test_round_score_needs_a_winner():
    state = start(tracking="scores")
    with pytest.raises(base.RuleError, match="won"):
        act(state, "round.score", {})


# ---------------------------------------------------------------- turn, deck, who is in


def test_turn_goes_clockwise_from_first_player_and_skips_eliminated():
    state = start(names=("Ana", "Bo", "Cy", "Di"), first=3)
    order = []
    for card, form in (
        (CHERYL, {"choice": "look"}),
        (CHERYL, {"choice": "look"}),
        (KRUEGER, {"named": LANA}),
        (KRUEGER, {"named": LANA}),
    ):
        order.append(bm.whose_turn(state))
        state = play(state, card, **form)
    assert order == [3, 4, 1, 2]
    # Cy names Di's card right: Di is out, so after Cy comes Ana.
    state = play(state, ARCHER, target=4, named=CYRIL, correct="yes")
    assert bm.still_in(state) == [1, 2, 3] and bm.whose_turn(state) == 1
    state = miss(state, target=2)
    state = miss(state, target=3)
    assert bm.whose_turn(state) == 3


def test_deck_count_is_16_less_secret_hands_and_draws():
    state = start(names=("Ana", "Bo", "Cy"))
    assert bm.deck_count(state) == 16 - 1 - 3 - 1  # first player has drawn
    state = miss(state, 2)
    assert bm.deck_count(state) == 10
    state = play(state, PAM, target=3, discarded=CYRIL)  # Pam's redraw comes off the deck too
    assert bm.deck_count(state) == 8
    state = play(state, RAY, target=3, discarded=KRUEGER)  # so does Ray's new secret
    assert bm.deck_count(state) == 6
    assert bm.view_for(state, HOST)["round"]["deck"] == 6


def test_playing_out_of_turn_is_refused():
    state = start(first=1)
    with pytest.raises(base.RuleError, match="Ana's turn"):
        play(state, LANA, actor=phone(2))
    with pytest.raises(base.RuleError, match="Ana's turn"):
        play(state, LANA, seat=3)
    with pytest.raises(base.RuleError, match="your own seat"):
        play(state, LANA, actor=phone(2), seat=1)
    forged = ev("play", {"seat": 1, "card": LANA}, by=phone(2))
    with pytest.raises(base.RuleError, match="phone"):
        bm.apply(state, forged)
    after = play(state, LANA, actor=phone(1))
    assert bm.whose_turn(after) == 2


# ---------------------------------------------------------------- the characters


def test_malory_played_eliminates_her_player():
    state = start()
    state = play(state, MALORY, revealed=PAM)
    assert bm.still_in(state) == [2, 3]
    out = rnd(state)["out"][0]
    assert out["seat"] == 1 and out["why"] == MALORY and out["card"] == PAM
    assert rnd(state)["plays"][-1]["eliminated"] == 1
    assert bm.seen_counts(state)[MALORY] == 1 and bm.seen_counts(state)[PAM] == 1
    assert bm.whose_turn(state) == 2


@pytest.mark.parametrize("card", [PAM, RAY])
def test_malory_dropped_through_pam_or_ray_does_not_eliminate(card):
    state = start()
    state = play(state, card, target=2, discarded=MALORY)
    assert bm.still_in(state) == [1, 2, 3] and rnd(state)["out"] == []
    assert rnd(state)["plays"][-1]["eliminated"] is None
    assert bm.seen_counts(state)[MALORY] == 1
    # Dropping your own Malory with Pam on yourself is just as harmless.
    state = start()
    state = play(state, PAM, target=1, discarded=MALORY)
    assert bm.still_in(state) == [1, 2, 3]


def test_pam_and_ray_need_the_dropped_card():
    state = start()
    with pytest.raises(base.RuleError, match="drop"):
        play(state, PAM, target=2)


def test_sterling_archer_right_guess_eliminates_in_one_tap():
    state = start()
    state = play(state, ARCHER, target=2, named=CYRIL, correct="yes")
    entry = rnd(state)["plays"][-1]
    assert entry["eliminated"] == 2 and entry["revealed"] == CYRIL
    assert bm.still_in(state) == [1, 3]
    assert bm.seen_counts(state)[CYRIL] == 1 and bm.seen_counts(state)[ARCHER] == 1


def test_sterling_archer_wrong_guess_changes_nothing():
    state = start()
    state = play(state, ARCHER, target=2, named=CYRIL)
    assert bm.still_in(state) == [1, 2, 3] and bm.seen_counts(state)[CYRIL] == 0


def test_sterling_archer_cannot_name_sterling_archer():
    state = start()
    with pytest.raises(base.RuleError, match="cannot name Sterling Archer"):
        play(state, ARCHER, target=2, named=ARCHER)
    with pytest.raises(base.RuleError, match="cannot name Sterling Archer"):
        play(state, ARCHER, target=2, named="Sterling Archer", correct="yes")


def test_targeting_yourself_or_an_eliminated_seat_is_refused():
    state = start()
    with pytest.raises(base.RuleError, match="another player"):
        play(state, ARCHER, target=1, named=PAM)
    with pytest.raises(base.RuleError, match="another player"):
        play(state, CYRIL, target=1)
    state = play(state, ARCHER, target=2, named=CYRIL, correct="yes")  # Bo is out
    with pytest.raises(base.RuleError, match="Bo is already out"):
        play(state, PAM, target=2, discarded=KRUEGER)
    with pytest.raises(base.RuleError, match="no such seat"):
        play(state, PAM, target=9, discarded=KRUEGER)


def test_cyril_duel_loser_is_one_tap_and_equal_cards_do_nothing():
    state = start()
    state = play(state, CYRIL, target=3)  # equal cards
    assert bm.still_in(state) == [1, 2, 3]
    state = play(state, CYRIL, target=1, eliminated=2, revealed=ARCHER)  # the player loses
    assert bm.still_in(state) == [1, 3]
    assert rnd(state)["out"][0] == {"seat": 2, "why": CYRIL, "by": 2, "card": ARCHER}
    assert bm.seen_counts(state)[CYRIL] == 2 and bm.seen_counts(state)[ARCHER] == 1


def test_a_cyril_loser_shows_a_card_some_unseen_card_beats():
    state = start()
    with pytest.raises(base.RuleError, match="Malory.*cannot lose a Cyril duel"):
        play(state, CYRIL, target=2, eliminated=2, revealed=MALORY)
    state = play(state, CYRIL, target=2, eliminated=2, revealed=LANA)  # Malory may be the winner's
    assert bm.still_in(state) == [1, 3]


def test_cyril_loser_must_be_a_duelist():
    state = start()
    with pytest.raises(base.RuleError, match="duelists"):
        play(state, CYRIL, target=2, eliminated=3, revealed="not_shown")


def test_cheryl_protects_until_that_seats_next_turn():
    state = start()
    state = play(state, CHERYL, choice="protect")  # Ana protected
    assert rnd(state)["protected"] == [1]
    for card, form in ((ARCHER, {"named": PAM}), (CYRIL, {}), (PAM, {"discarded": CYRIL}), (RAY, {"discarded": CYRIL})):
        with pytest.raises(base.RuleError, match="protected"):
            play(state, card, target=1, **form)
    assert bm.valid_targets(state, 2, PAM) == [2, 3]
    state = miss(state, 3)  # Bo picks Cy instead
    state = miss(state, 2)  # Cy
    assert bm.whose_turn(state) == 1 and rnd(state)["protected"] == []
    state = miss(state, 2)
    state = miss(state, 1)  # Bo may target Ana again
    assert rnd(state)["plays"][-1]["target"] == 1


def test_cheryl_look_gives_no_protection():
    state = start()
    state = play(state, CHERYL, choice="look")
    assert rnd(state)["protected"] == []
    state = miss(state, 1)
    with pytest.raises(base.RuleError, match="protection"):
        play(state, CHERYL)


def test_with_every_other_player_protected_the_card_goes_off_with_no_effect():
    state = start(names=("Ana", "Bo"))
    state = play(state, CHERYL, choice="protect")
    with pytest.raises(base.RuleError, match="protected"):
        play(state, ARCHER, target=1, named=PAM)
    assert bm.valid_targets(state, 2, ARCHER) == []
    assert bm.valid_targets(state, 2, PAM) == [2]  # yourself is always there for Pam
    state = play(state, ARCHER)
    assert rnd(state)["plays"][-1]["target"] is None and bm.still_in(state) == [1, 2]
    # With a legal target in reach, a target must be picked.
    with pytest.raises(base.RuleError, match="Pick a target"):
        play(state, CYRIL)


def test_ray_takes_the_secret_and_the_deck_replaces_it():
    state = start()
    state = play(state, RAY, target=2, discarded=ARCHER)
    assert rnd(state)["secret"] == {"status": "taken_by_ray", "seat": 2, "reshuffled": False}
    assert bm.view_for(state, HOST)["round"]["secret"]["label"].startswith("taken by Ray")


def test_lana_reshuffle_keeps_a_secret_and_the_deck():
    state = start()
    state = play(state, RAY, target=2, discarded=ARCHER)
    deck = bm.deck_count(state)
    state = play(state, LANA)
    assert rnd(state)["secret"] == {"status": "on_table", "seat": None, "reshuffled": True}
    assert bm.deck_count(state) == deck - 1  # only Cy's turn draw
    assert bm.still_in(state) == [1, 2, 3]


def test_lana_does_not_bring_back_a_gone_secret():
    state = start()
    state["round"]["secret"] = {"status": "gone", "seat": 2, "reshuffled": False}
    state = play(state, LANA)
    assert rnd(state)["secret"]["status"] == "gone"


def test_krueger_right_guess_ends_the_round_at_once():
    state = start()
    state = miss(state, 2)
    state = play(state, KRUEGER, named=MALORY, correct="yes")
    r = rnd(state)
    assert r["result"] == {"why": "secret_guessed", "winners": [2]}
    assert r["stage"] == "over" and bm.whose_turn(state) is None
    with pytest.raises(base.RuleError, match="round is over"):
        play(state, LANA, seat=3)
    assert state["vp"][2] == 0  # not until the confirm tap
    state = act(state, "round.confirm")
    assert state["vp"] == {1: 0, 2: 1, 3: 0}
    assert state["history"][-1]["why"] == "secret_guessed"
    assert rnd(state)["number"] == 2 and rnd(state)["first_player"] == 2


def test_krueger_wrong_guess_goes_on():
    state = start()
    state = play(state, KRUEGER, named=MALORY)
    assert rnd(state)["result"] is None and bm.whose_turn(state) == 2


def test_krueger_cannot_be_right_about_a_character_all_face_up():
    state = start()
    state = play(state, LANA)
    with pytest.raises(base.RuleError, match="face up"):
        play(state, KRUEGER, named=LANA, correct="yes")


def test_krueger_cannot_be_right_with_no_secret():
    state = start()
    state["round"]["secret"] = {"status": "gone", "seat": 2, "reshuffled": False}
    with pytest.raises(base.RuleError, match="no secret"):
        play(state, KRUEGER, named=MALORY, correct="yes")


# ---------------------------------------------------------------- the card count


def test_card_count_is_public_and_counts_played_and_dropped():
    state = start()
    state = play(state, PAM, target=2, discarded=PAM)
    view = bm.view_for(state, {"role": "screen", "seat": None})
    pam = next(c for c in view["characters"] if c["number"] == PAM)
    assert (pam["copies"], pam["seen"], pam["unaccounted"]) == (2, 2, 0)
    archer = next(c for c in view["characters"] if c["number"] == ARCHER)
    assert (archer["copies"], archer["seen"], archer["unaccounted"]) == (5, 0, 5)


def test_more_copies_seen_than_exist_is_refused_and_nothing_applied():
    state = start()
    state = play(state, MALORY, revealed="not_shown")
    before = copy.deepcopy(state)
    with pytest.raises(base.RuleError, match="Only 1 copy of Malory Archer"):
        play(state, PAM, target=3, discarded=MALORY)
    with pytest.raises(base.RuleError, match="Malory Archer"):
        play(state, MALORY, revealed="not_shown")
    with pytest.raises(base.RuleError, match="Malory Archer"):
        play(state, ARCHER, target=3, named=MALORY, correct="yes")
    assert state == before
    state = play(state, PAM, target=2, discarded=PAM)
    with pytest.raises(base.RuleError, match="Only 2 copies of Pam Poovey"):
        play(state, PAM, target=3, discarded=ARCHER)


def test_apply_never_changes_its_input():
    state = start()
    frozen = copy.deepcopy(state)
    bm.apply(state, ev("play", {"seat": 1, "card": ARCHER, "target": 2, "named": PAM, "eliminated": 2}))
    assert state == frozen


# ---------------------------------------------------------------- round end


def test_one_seat_left_wins_the_round():
    state = start(names=("Ana", "Bo"))
    state = play(state, ARCHER, target=2, named=CHERYL, correct="yes")
    assert rnd(state)["result"] == {"why": "last_seat", "winners": [1]}
    state = act(state, "round.confirm", actor=phone(2))
    assert state["vp"] == {1: 1, 2: 0} and rnd(state)["first_player"] == 1


def test_malory_with_two_left_hands_the_round_to_the_other():
    state = start(names=("Ana", "Bo"), first=2)
    state = play(state, MALORY, revealed="not_shown")
    assert rnd(state)["result"] == {"why": "last_seat", "winners": [1]}


def deck_out_round():
    """Three players, eleven turns that empty the deck, leaving two Pams, a Cyril and Malory unseen."""
    state = start(first=1)
    state = play(state, RAY, target=1, discarded=ARCHER)  # Ana; the extra draw
    state = miss(state, 3, named=PAM)  # Bo
    state = miss(state, 1, named=PAM)  # Cy
    state = miss(state, 2, named=PAM)  # Ana
    state = play(state, KRUEGER, named=MALORY)  # Bo
    state = play(state, KRUEGER, named=MALORY)  # Cy
    state = play(state, CHERYL, choice="look")  # Ana
    state = play(state, CHERYL, choice="look")  # Bo
    state = play(state, CYRIL, target=1)  # Cy, equal cards
    state = play(state, LANA)  # Ana
    assert bm.deck_count(state) == 0 and rnd(state)["stage"] == "playing"
    state = miss(state, 3, named=PAM)  # Bo draws the last card
    return state


def test_deck_out_ends_the_round_at_the_end_of_the_turn():
    state = deck_out_round()
    r = rnd(state)
    assert r["stage"] == "hands" and r["result"] is None and bm.whose_turn(state) is None
    assert bm.view_for(state, HOST)["round"]["awaiting_hands"] == [1, 2, 3]
    with pytest.raises(base.RuleError, match="round is over"):
        play(state, PAM, seat=3, target=3, discarded=PAM)
    with pytest.raises(base.RuleError, match="confirm"):
        act(state, "round.confirm")


def test_tie_at_deck_out_every_tied_seat_scores():
    state = deck_out_round()
    state = act(state, "hand", {"card": PAM}, actor=phone(1))
    state = act(state, "hand", {"card": CYRIL}, actor=phone(2))
    assert rnd(state)["result"] is None
    with pytest.raises(base.RuleError, match="only that player's phone|own seat"):
        act(state, "hand", {"card": PAM, "seat": 3}, actor=phone(2))
    state = act(state, "hand", {"card": PAM, "seat": 3})
    assert rnd(state)["result"] == {"why": "deck_out", "winners": [1, 3]}
    data = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, phone(2), random.Random(3))
    assert data["picked_at_random"] is True and data["next_first_player"] in (1, 3)
    state = bm.apply(state, ev("round.confirm", data, by=phone(2)))
    assert state["vp"] == {1: 1, 2: 0, 3: 1}
    assert bm.rounds_won(state) == {1: 1, 2: 0, 3: 1}
    record = state["history"][-1]
    assert record["winners"] == [1, 3] and record["why"] == "deck_out" and len(record["plays"]) == 11
    assert rnd(state)["first_player"] == data["next_first_player"]
    assert rnd(state)["plays"] == [] and bm.deck_count(state) == 11


def test_impossible_hand_card_at_deck_out_is_refused():
    state = deck_out_round()
    with pytest.raises(base.RuleError, match="Sterling Archer"):
        act(state, "hand", {"card": ARCHER, "seat": 1})  # all five are face up
    with pytest.raises(base.RuleError, match="Lana Kane"):
        act(state, "hand", {"card": LANA, "seat": 1})
    state = act(state, "hand", {"card": PAM, "seat": 1})
    state = act(state, "hand", {"card": PAM, "seat": 2})
    with pytest.raises(base.RuleError, match="Cy cannot hold Pam Poovey"):
        act(state, "hand", {"card": PAM, "seat": 3})
    state = act(state, "hand", {"card": MALORY, "seat": 3})
    assert rnd(state)["result"]["winners"] == [3]
    # A seat may correct its entry before the confirm; the result follows.
    state = act(state, "hand", {"card": CYRIL, "seat": 3})
    assert rnd(state)["result"]["winners"] == [1, 2]


def test_hand_cards_only_at_deck_out_and_only_from_seats_still_in():
    state = start()
    with pytest.raises(base.RuleError, match="deck has run out"):
        act(state, "hand", {"card": PAM, "seat": 1})


def test_ray_from_an_empty_deck_leaves_no_secret_and_the_round_goes_to_the_hands():
    state = start(first=1)
    state = play(state, PAM, target=1, discarded=ARCHER)  # extra draw instead of Ray's
    for target in (3, 1, 2):
        state = miss(state, target)
    state = play(state, KRUEGER, named=MALORY)
    state = play(state, KRUEGER, named=MALORY)
    state = play(state, CHERYL, choice="look")
    state = play(state, CHERYL, choice="look")
    state = play(state, CYRIL, target=1)
    state = play(state, LANA)
    assert bm.deck_count(state) == 0 and bm.whose_turn(state) == 2
    state = play(state, RAY, target=3, discarded=CYRIL)
    r = rnd(state)
    assert r["secret"] == {"status": "gone", "seat": 3, "reshuffled": False}
    assert bm.deck_count(state) == 0 and r["result"] is None and r["stage"] == "hands"
    assert bm.view_for(state, HOST)["round"]["secret"]["label"].startswith("gone")


def test_pam_from_an_empty_deck_takes_the_secret():
    state = start(names=("Ana", "Bo"))
    state["round"]["draws"] = 13  # the deck is down to nothing
    assert bm.deck_count(state) == 0
    state = play(state, PAM, target=2, discarded=CYRIL)
    assert rnd(state)["secret"]["status"] == "gone" and bm.deck_count(state) == 0
    assert rnd(state)["stage"] == "hands"


def test_confirm_refused_if_the_result_changed():
    state = deck_out_round()
    for seat, card in ((1, PAM), (2, CYRIL), (3, PAM)):
        state = act(state, "hand", {"card": card, "seat": seat})
    stale = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, HOST, random.Random(0))
    state = act(state, "hand", {"card": MALORY, "seat": 2})
    with pytest.raises(base.RuleError, match="changed"):
        bm.apply(state, ev("round.confirm", stale))


def test_double_confirm_is_refused():
    state = start(names=("Ana", "Bo"))
    state = play(state, MALORY, revealed="not_shown")
    data = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, HOST, random.Random(0))
    state = bm.apply(state, ev("round.confirm", data))
    with pytest.raises(base.RuleError, match="not ended"):
        bm.apply(state, ev("round.confirm", data))


def test_full_game_to_a_win_with_tracking():
    state = start(names=("Ana", "Bo", "Cy"))  # 4 to win
    for _ in range(4):
        first = bm.whose_turn(state)
        state = play(state, KRUEGER, named=MALORY, correct="yes")
        assert rnd(state)["result"]["winners"] == [first]
        state = act(state, "round.confirm")
    assert state["phase"] == "game_over" and state["winners"] == [1] and state["vp"][1] == 4
    assert len(state["history"]) == 4
    view = bm.view_for(state, HOST)
    assert view["winners"] == [1] and view["seats"][0]["rounds_won"] == 4
    # A rematch starts over with the same seats and keeps a summary of the last game.
    state = act(state, "game.start", {"first_player": 2})
    assert state["vp"] == {1: 0, 2: 0, 3: 0} and state["history"] == []
    assert state["games"][0]["winners"] == ["Ana"]


# ---------------------------------------------------------------- options, roster, history, view


def test_tracking_switch_waits_for_a_round_already_tracked():
    state = start(tracking="scores")
    state = act(state, "tracking", {"tracking": "full"})
    assert rnd(state)["tracking"] == "full"  # nothing recorded yet: switch now
    state = miss(state, 2)
    state = act(state, "tracking", {"tracking": "scores"})
    assert state["tracking"] == "scores" and rnd(state)["tracking"] == "full"
    state = act(state, "round.score", {"winners": "1"})  # the table can still close by hand
    assert rnd(state)["tracking"] == "scores"
    with pytest.raises(base.RuleError):
        act(state, "tracking", {"tracking": "sometimes"})
    assert "tracking" in bm.HOST_ONLY and "game.start" in bm.HOST_ONLY


def test_players_cannot_join_or_leave_mid_game_but_can_be_renamed():
    state = start()
    e = ev("seat.join", {"seat": 4, "name": "Di"})
    with pytest.raises(base.RuleError, match="under way"):
        bm.apply(base.apply_roster(state, e), e)
    e = ev("seat.remove", {"seat": 2})
    with pytest.raises(base.RuleError, match="reset"):
        bm.apply(base.apply_roster(state, e), e)
    e = ev("seat.rename", {"seat": 2, "name": "Bob"})
    state = bm.apply(base.apply_roster(state, e), e)
    state = act(state, "game.reset")
    assert state["phase"] == "setup"
    e = ev("seat.join", {"seat": 4, "name": "Di"})
    state = bm.apply(base.apply_roster(state, e), e)
    state = act(state, "game.start", {"first_player": 4})
    assert state["target"] == 3


def test_history_keeps_the_card_log_per_round():
    state = start()
    state = play(state, CHERYL, choice="protect")
    state = play(state, PAM, target=3, discarded=MALORY)
    state = play(state, ARCHER, target=2, named=KRUEGER, correct="yes")
    state = act(state, "round.score", {"winners": "3"})
    view = bm.view_for(state, HOST)
    texts = [p["text"] for p in view["history"][0]["plays"]]
    assert texts == [
        "Ana played Cheryl/Carol Tunt (4): protected until their next turn.",
        "Bo played Pam Poovey (5) on Cy: Malory Archer (8) dropped with no effect, and a new card drawn.",
        "Cy played Sterling Archer (1) on Bo, naming Dr. Krueger: right, Bo is out of the round.",
    ]
    assert view["history"][0]["winners"] == [3]
    # the past is the same for every viewer: made once for a state, made anew for the next
    assert bm.view_for(state, phone(2))["history"] is view["history"]
    later = play(state, CHERYL, choice="protect")
    assert bm.view_for(later, phone(1))["history"] is not view["history"]
    assert bm.view_for(later, phone(1))["history"] == view["history"]


def test_view_is_json_safe_and_public_for_every_viewer():
    state = deck_out_round()
    state = act(state, "hand", {"card": PAM, "seat": 1})
    for viewer in (HOST, phone(1), phone(2), {"role": "screen", "seat": None}):
        view = bm.view_for(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert view["round"]["deck"] == 0 and view["round"]["secret"]["status"] == "on_table"
    assert bm.view_for(state, phone(2))["can"]["enter_hand"] is True
    assert bm.view_for(state, {"role": "screen", "seat": None})["can"]["enter_hand"] is False
    state = start()
    view = bm.view_for(state, phone(1))
    assert view["can"]["play"] is True and bm.view_for(state, phone(2))["can"]["play"] is False
    assert view["round"]["targets"][str(PAM)] == [1, 2, 3]
    assert view["round"]["targets"][str(ARCHER)] == [2, 3]
    assert json.loads(json.dumps(view)) == view
    scores = bm.view_for(start(tracking="scores"), HOST)
    assert "deck" not in scores["round"] and "seen" not in scores["characters"][0]


def test_describe_has_a_line_for_each_of_the_games_events():
    state = table()
    e = ev(
        "game.start",
        bm.parse("game.start", stepped("game.start", {"first_player": "2"}, state), state, HOST, random.Random(0)),
    )
    after = bm.apply(state, e)
    assert bm.describe(state, after, e) == (
        "New game: 3 players, 4 Victory Points to win. Bo goes first (chosen by the table)."
    )
    state = after
    e = ev("play", {"seat": 2, "card": ARCHER, "target": 3, "named": CYRIL, "eliminated": 3})
    after = bm.apply(state, e)
    assert "Cy is out of the round" in bm.describe(state, after, e)
    state = after
    e = ev("play", {"seat": 1, "card": MALORY})
    after = bm.apply(state, e)
    line = bm.describe(state, after, e)
    assert "Ana played Malory Archer (8)" in line and "Bo is the last one left" in line
    state = after
    data = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, HOST, random.Random(0))
    e = ev("round.confirm", data)
    after = bm.apply(state, e)
    assert bm.describe(state, after, e) == ("Bo scores a Victory Point (1 of 4). Round 2: Bo goes first.")
    assert bm.describe(after, after, ev("seat.join", {"seat": 9, "name": "X"})) == ""


def test_unknown_action_is_refused():
    state = start()
    with pytest.raises(base.RuleError):
        bm.parse("shuffle", {}, state, HOST, random.Random(0))
    with pytest.raises(base.RuleError):
        bm.apply(state, ev("shuffle", {}))


# ---------------------------------------------------------------- what the screens rely on


def test_start_can_carry_the_tracking_mode():
    state = table(tracking="scores")
    state = act(state, "game.start", {"first_player": 2, "tracking": "full"})
    assert state["tracking"] == "full" and rnd(state)["tracking"] == "full"
    with pytest.raises(base.RuleError, match="scores only or full"):
        act(table(), "game.start", {"first_player": 1, "tracking": "maybe"})
    with pytest.raises(base.RuleError, match="scores only or full"):
        bm.apply(table(), ev("game.start", {"first_player": 1, "tracking": "maybe"}))


def test_cyril_loser_can_be_posted_as_target_me_or_equal():
    state = start()
    after = play(state, CYRIL, target=3, eliminated="target", revealed="not_shown")
    assert bm.out_seats(after) == [3]
    after = play(state, CYRIL, target=3, eliminated="me", revealed="not_shown")
    assert bm.out_seats(after) == [1]
    after = play(state, CYRIL, target=3, eliminated="equal")
    assert bm.out_seats(after) == []
    with pytest.raises(base.RuleError, match="dueled"):
        play(state, CYRIL, eliminated="target", revealed="not_shown")


def test_undone_events_are_described_from_their_data():
    state = start()
    for data in (
        {"seat": 1, "card": CHERYL, "choice": "protect"},
        {"seat": 1, "card": ARCHER, "target": 2, "named": PAM, "eliminated": 2},
        {"seat": 1, "card": CYRIL, "target": 3, "eliminated": None},
    ):
        line = bm.describe(state, state, ev("play", data))
        assert line.startswith("Ana played ")
    assert bm.describe(state, state, ev("hand", {"seat": 2, "card": PAM})) == "Bo shows Pam Poovey (5)."
    assert bm.describe(state, state, ev("round.confirm", {"winners": [1, 3]})) == "Ana and Cy: a Victory Point each."
    done = bm.apply(state, ev("round.score", {"winners": [2], "next_first_player": 2}))
    assert bm.describe(done, done, ev("round.score", {"winners": [2]})) == "Bo scores a Victory Point."


def test_view_gives_the_screens_names_short_names_and_rules_ids():
    view = bm.view_for(start(), HOST)
    assert view["names"] == {"1": "Ana", "2": "Bo", "3": "Cy"}
    cheryl = next(c for c in view["characters"] if c["number"] == CHERYL)
    assert cheryl["short"] == "Cheryl" and cheryl["rule"] == "cheryl-tunt"
    assert len({c["rule"] for c in view["characters"]}) == 8
