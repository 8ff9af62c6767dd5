"""Reducer tests for the dealt mode of Once You Go Blackmail... (companion/games/blackmail_deal.py
through blackmail.py): the shuffle, every card's effect and edge, private results, the
fingerprint and its one-line check, and who may see what."""

import copy
import hashlib
import json
import random
import secrets
import subprocess
import sys
from collections import Counter

import pytest

from companion.games import base
from companion.games import blackmail as bm
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY
from companion.games.blackmail import dealt as deal
from helpers import HOST, SCREEN, ev, stepped
from helpers import dealt_act as act
from helpers import dealt_hidden as hidden
from helpers import dealt_random_turn as random_turn
from helpers import dealt_table as table
from helpers import seat_viewer as phone

ANA, BO, CY, DI = 1, 2, 3, 4
SALT = "0123456789abcdef0123456789abcdef"


def rig(secret, hands, draws=(), lana=(0, 1, 2, 3, 4)):
    """A deal with a chosen top: the secret, the dealt cards (first player on, clockwise), then
    the draws in order; the rest of the deck follows, highest first."""
    top = [secret, *hands, *draws]
    rest = Counter(deal.full_deck())
    rest.subtract(top)
    assert all(v >= 0 for v in rest.values()), "more copies than the deck holds"
    order = top + sorted(rest.elements(), reverse=True)
    return {"order": order, "lana": list(lana), "salt": SALT}


def start(secret, hands, draws=(), first=ANA, names=("Ana", "Bo", "Cy"), lana=(0, 1, 2, 3, 4)):
    data = {
        "first_player": first,
        "picked_at_random": False,
        "tracking": "dealt",
        "deal": rig(secret, hands, draws, lana),
    }
    return bm.apply(table(names), ev("game.start", data))


def play(state, card, actor=None, **form):
    """The player whose turn it is plays card (from their phone unless actor says otherwise)."""
    r = state["round"]
    actor = actor or phone(r["turn"])
    form = dict(form, card=card)
    form.setdefault("turn", len(r["plays"]) + 1)
    return act(state, "dealt.play", form, actor)


def hand(state, seat):
    return sorted(hidden(state)["hands"][seat])


def dview(state, viewer):
    return bm.view_for(state, viewer)["round"]["dealt"]


def private(state, viewer):
    return [(p["what"], [c["number"] for c in p["cards"]]) for p in dview(state, viewer)["private"]]


def last(state):
    return state["round"]["plays"][-1]


def out(state):
    return bm.out_seats(state)


def consistent(state):
    """The public deck count is the real draw pile, and 16 cards are all accounted for."""
    r, d = state["round"], hidden(state)
    assert bm.deck_count(state) == len(d["deck"])
    in_hands = sum(len(h) for h in d["hands"].values())
    face_up = sum(r["seen"].values())
    assert in_hands + len(d["deck"]) + (d["secret"] is not None) + face_up == bm.DECK_SIZE


# ---------------------------------------------------------------- shuffle and deal


def test_the_deck_is_the_sixteen_cards_of_the_rules_data():
    assert Counter(deal.full_deck()) == {c["number"]: c["copies"] for c in bm.CHARACTERS}
    assert len(deal.full_deck()) == bm.DECK_SIZE == 16


def test_seeded_shuffle_is_repeatable_and_uses_only_the_rng_given():
    one, two = deal.new_deal(random.Random(42)), deal.new_deal(random.Random(42))
    assert one == two
    assert deal.new_deal(random.Random(43))["order"] != one["order"]
    assert Counter(one["order"]) == Counter(deal.full_deck())
    assert sorted(one["lana"]) == list(range(bm.MAX_SEATS + 1))
    assert len(one["salt"]) == 32 and int(one["salt"], 16) >= 0
    deal.check_deal(one)

    class Recording(random.Random):
        calls = []

        def shuffle(self, x):
            self.calls.append(len(x))
            super().shuffle(x)

    rng = Recording(5)
    deal.new_deal(rng)
    assert rng.calls == [16, 5]  # the deck, then Lana's hand-back order


def test_game_start_records_the_shuffle_from_the_rng_the_app_passes():
    state = table()
    data = bm.parse(
        "game.start",
        stepped("game.start", {"first_player": "1", "tracking": "dealt"}, state),
        state,
        HOST,
        random.Random(9),
    )
    assert data["deal"] == deal.new_deal(random.Random(9))
    real = bm.parse(
        "game.start",
        stepped("game.start", {"first_player": "1", "tracking": "dealt"}, state),
        state,
        HOST,
        secrets.SystemRandom(),
    )
    deal.check_deal(real["deal"])
    after = bm.apply(state, ev("game.start", real))
    assert hidden(after)["order"] == real["deal"]["order"]
    # The same event folds to the same cards, however often it is folded.
    assert bm.apply(state, ev("game.start", real))["round"]["deal"] == hidden(after)


def test_deal_sets_the_top_card_aside_and_deals_clockwise_from_the_first_player():
    state = start(MALORY, (PAM, CYRIL, KRUEGER), draws=(LANA,), first=BO)
    d = hidden(state)
    assert d["secret"] == MALORY
    assert hand(state, BO) == sorted([PAM, LANA]) and hand(state, CY) == [CYRIL]
    assert hand(state, ANA) == [KRUEGER]
    assert state["round"]["turn"] == BO
    assert len(d["deck"]) == 16 - 1 - 3 - 1 == bm.deck_count(state)
    consistent(state)


def test_a_forged_deal_is_refused():
    bad = rig(MALORY, (PAM, CYRIL, KRUEGER))
    bad["order"][0] = ARCHER  # six Sterling Archers
    with pytest.raises(base.RuleError, match="16 cards"):
        bm.apply(table(), ev("game.start", {"first_player": 1, "tracking": "dealt", "deal": bad}))
    with pytest.raises(base.RuleError, match="without a shuffle"):
        bm.apply(table(), ev("game.start", {"first_player": 1, "tracking": "dealt"}))


# ---------------------------------------------------------------- the fingerprint


def test_fingerprint_is_the_sha256_of_order_reshuffle_and_salt():
    d = rig(MALORY, (PAM, CYRIL, KRUEGER))
    text = deal.commit_text(d)
    assert text == ",".join(map(str, d["order"])) + "|0,1,2,3,4|" + SALT
    assert deal.fingerprint(d) == hashlib.sha256(text.encode()).hexdigest()
    assert deal.short(deal.fingerprint(d)) == " ".join(deal.fingerprint(d)[i : i + 4] for i in range(0, 16, 4))


def test_verify_accepts_the_revealed_text_and_refuses_a_changed_one():
    d = deal.new_deal(random.Random(3))
    text, full = deal.commit_text(d), deal.fingerprint(d)
    assert deal.verify(text, full)["ok"]
    assert deal.verify(text, deal.short(full))["ok"]  # spaces and short form are fine
    assert deal.verify(text, deal.short(full).upper())["ok"]
    swapped = d["order"][:]
    i = next(i for i in range(1, 16) if swapped[i] != swapped[0])
    swapped[0], swapped[i] = swapped[i], swapped[0]
    other = deal.commit_text(dict(d, order=swapped))
    answer = deal.verify(other, full)
    assert not answer["ok"] and "does not match" in answer["problem"]
    assert "16 cards" in deal.verify(text.replace("1,", "8,", 1), full)["problem"]
    assert "three parts" in deal.verify("nonsense", full)["problem"]
    assert "hex digits" in deal.verify(text, full[:8])["problem"]


def test_the_documented_one_line_command_prints_the_fingerprint():
    d = deal.new_deal(random.Random(11))
    command = deal.verify_command(deal.commit_text(d))
    assert command.startswith("python3 -c ")
    # The command as documented, run by a shell, with this interpreter standing in for python3.
    shell = command.replace("python3", sys.executable, 1)
    done = subprocess.run(shell, shell=True, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == deal.fingerprint(d)


def test_the_reveal_at_round_end_matches_the_fingerprint_shown_at_the_deal():
    # Bo names the secret with Dr. Krueger: the round ends at once.
    state = start(LANA, (ARCHER, KRUEGER, CYRIL), draws=(PAM, ARCHER))
    shown = dview(state, SCREEN)["fingerprint"]
    state = play(state, ARCHER, target=CY, named=PAM)
    state = play(state, KRUEGER, named=LANA)
    assert state["round"]["result"] == {"why": "secret_guessed", "winners": [BO]}
    reveal = dview(state, SCREEN)["reveal"]
    assert reveal["secret"] == LANA and reveal["salt"] == SALT
    assert deal.verify(reveal["text"], shown)["ok"]
    assert reveal["dealt"] == [
        {"seat": ANA, "card": ARCHER},
        {"seat": BO, "card": KRUEGER},
        {"seat": CY, "card": CYRIL},
    ]
    # Confirming files the reveal in the history and deals round 2 from a new shuffle.
    data = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, HOST, random.Random(2))
    assert "deal" in data
    after = bm.apply(state, ev("round.confirm", data))
    assert after["history"][-1]["reveal"]["text"] == reveal["text"]
    assert bm.view_for(after, SCREEN)["history"][-1]["reveal"]["fingerprint"] == reveal["fingerprint"]
    assert after["round"]["tracking"] == "dealt" and after["round"]["number"] == 2
    assert after["round"]["first_player"] == BO and hand(after, BO).__len__() == 2
    assert hidden(after)["fingerprint"] == deal.fingerprint(data["deal"])
    consistent(after)


# ---------------------------------------------------------------- each card


def test_sterling_archer_wrong_guess_shows_the_card_to_the_player_only():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM,))
    state = play(state, ARCHER, target=BO, named=PAM)
    assert last(state)["named"] == PAM and last(state)["eliminated"] is None
    assert private(state, phone(ANA)) == [("look", [LANA])]
    assert private(state, phone(BO)) == [] and private(state, phone(CY)) == []
    assert private(state, HOST) == [] and private(state, SCREEN) == []
    assert "Lana" not in bm.play_text(state, last(state))
    assert out(state) == [] and state["round"]["turn"] == BO
    consistent(state)


def test_sterling_archer_right_guess_puts_the_target_out_face_up():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM,))
    state = play(state, ARCHER, target=BO, named=LANA)
    assert out(state) == [BO]
    assert state["round"]["out"][0] == {"seat": BO, "why": ARCHER, "by": ANA, "card": LANA}
    assert hidden(state)["hands"][BO] == []
    assert state["round"]["seen"][LANA] == 1 and state["round"]["turn"] == CY
    consistent(state)


@pytest.mark.parametrize(
    "form,message",
    [
        ({"target": BO, "named": ARCHER}, "cannot name Sterling Archer"),
        ({"target": ANA, "named": PAM}, "another player, not yourself"),
        ({"named": PAM}, "Pick a target"),
        ({"target": BO}, "Name a character"),
        ({"target": 9, "named": PAM}, "no such seat"),
    ],
)
def test_sterling_archer_bad_input_is_refused(form, message):
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM,))
    with pytest.raises(base.RuleError, match=message):
        play(state, ARCHER, **form)


def test_protected_eliminated_and_self_targets_are_refused():
    # Ana protects herself; Bo's Archer puts Cy out; Ana's cover ends when her turn comes.
    state = start(MALORY, (CHERYL, ARCHER, KRUEGER), draws=(ARCHER, PAM, ARCHER))
    state = play(state, CHERYL, choice="protect")
    assert state["round"]["protected"] == [ANA]
    with pytest.raises(base.RuleError, match="protected"):
        play(state, ARCHER, target=ANA, named=PAM)
    with pytest.raises(base.RuleError, match="protected"):
        play(state, PAM, target=ANA)
    with pytest.raises(base.RuleError, match="not yourself"):
        play(state, ARCHER, target=BO, named=PAM)
    state = play(state, ARCHER, target=CY, named=KRUEGER)
    assert out(state) == [CY]
    assert state["round"]["turn"] == ANA and state["round"]["protected"] == []
    with pytest.raises(base.RuleError, match="already out"):
        play(state, ARCHER, target=CY, named=PAM)
    with pytest.raises(base.RuleError, match="Cy is out of this round"):
        act(state, "dealt.play", {"card": ARCHER, "target": BO, "named": PAM, "turn": 3}, phone(CY))


def test_all_other_players_protected_archer_and_cyril_go_off_with_no_effect():
    state = start(MALORY, (CHERYL, CHERYL, ARCHER), draws=(ARCHER, PAM, CYRIL))
    state = play(state, CHERYL, choice="protect")  # Ana
    state = play(state, CHERYL, choice="protect")  # Bo
    assert sorted(state["round"]["protected"]) == [ANA, BO] and state["round"]["turn"] == CY
    assert bm.valid_targets(state, CY, ARCHER) == [] and bm.valid_targets(state, CY, CYRIL) == []
    with pytest.raises(base.RuleError, match="protected"):
        play(state, CYRIL, target=ANA)
    duel = play(state, CYRIL)
    assert last(duel)["target"] is None and out(duel) == [] and private(duel, phone(CY)) == []
    assert "nobody to duel" in bm.play_text(duel, last(duel))
    archer = play(state, ARCHER)
    assert last(archer)["target"] is None and private(archer, phone(CY)) == []
    assert "nobody to target" in bm.play_text(archer, last(archer))
    # Pam and Ray may always pick yourself: with everyone else protected, that is the one pick.
    assert bm.valid_targets(state, CY, PAM) == [CY] and bm.valid_targets(state, CY, RAY) == [CY]


def test_dr_krueger_wrong_guess_peeks_privately_and_the_game_goes_on():
    state = start(LANA, (KRUEGER, ARCHER, CYRIL), draws=(PAM,))
    state = play(state, KRUEGER, named=MALORY)
    assert last(state)["correct"] is False and state["round"]["result"] is None
    assert private(state, phone(ANA)) == [("secret", [LANA])]
    assert private(state, phone(BO)) == [] and private(state, SCREEN) == []
    text = dview(state, phone(ANA))["private"][0]["text"]
    assert "secret character" in text and "Lana Kane (7)" in text


def test_dr_krueger_right_guess_wins_the_round_at_once():
    state = start(LANA, (KRUEGER, ARCHER, CYRIL), draws=(PAM,))
    state = play(state, KRUEGER, named=LANA)
    assert state["round"]["result"] == {"why": "secret_guessed", "winners": [ANA]}
    assert state["round"]["stage"] == "over" and bm.whose_turn(state) is None
    with pytest.raises(base.RuleError, match="round is over"):
        act(state, "dealt.play", {"card": ARCHER, "target": CY, "named": PAM, "turn": 2}, phone(BO))


def test_cyril_lower_card_is_out_and_both_duelists_see_both_cards():
    state = start(MALORY, (CYRIL, PAM, KRUEGER), draws=(LANA,))
    state = play(state, CYRIL, target=CY)  # Ana keeps Lana (7) against Cy's Krueger (2)
    assert out(state) == [CY] and last(state)["revealed"] == KRUEGER
    assert private(state, phone(ANA)) == [("duel", [LANA, KRUEGER])]
    assert private(state, phone(CY)) == [("duel", [LANA, KRUEGER])]
    assert private(state, phone(BO)) == [] and private(state, SCREEN) == []
    assert "Lana" not in bm.play_text(state, last(state))  # the winner's card stays hidden
    assert "your Lana Kane (7)" in dview(state, phone(ANA))["private"][0]["text"]
    assert "your Dr. Krueger (2)" in dview(state, phone(CY))["private"][0]["text"]


def test_cyril_can_put_its_own_player_out_and_equal_cards_do_nothing():
    lost = play(start(MALORY, (CYRIL, PAM, LANA), draws=(ARCHER,)), CYRIL, target=CY)
    assert out(lost) == [ANA] and last(lost)["revealed"] == ARCHER
    assert lost["round"]["turn"] == BO
    equal = play(start(MALORY, (CYRIL, PAM, ARCHER), draws=(ARCHER,)), CYRIL, target=CY)
    assert out(equal) == [] and last(equal)["eliminated"] is None
    assert private(equal, phone(CY)) == [("duel", [ARCHER, ARCHER])]
    assert "equal cards" in bm.play_text(equal, last(equal))


def test_cheryl_protects_until_your_next_turn_or_peeks_at_the_secret():
    state = start(RAY, (CHERYL, ARCHER, ARCHER), draws=(PAM, ARCHER, ARCHER))
    state = play(state, CHERYL, choice="protect")
    assert bm.valid_targets(state, BO, ARCHER) == [CY]
    state = play(state, ARCHER, target=CY, named=PAM)
    state = play(state, ARCHER, target=BO, named=PAM)
    assert state["round"]["turn"] == ANA and state["round"]["protected"] == []
    look = play(start(RAY, (CHERYL, ARCHER, ARCHER), draws=(PAM,)), CHERYL, choice="look")
    assert private(look, phone(ANA)) == [("secret", [RAY])] and look["round"]["protected"] == []
    with pytest.raises(base.RuleError, match="protection or a look"):
        play(start(RAY, (CHERYL, ARCHER, ARCHER), draws=(PAM,)), CHERYL)


def test_pam_on_another_player_drops_their_card_face_up_and_they_draw():
    state = start(RAY, (PAM, MALORY, ARCHER), draws=(ARCHER, LANA))
    deck_before = bm.deck_count(state)
    state = play(state, PAM, target=BO)
    assert last(state)["discarded"] == MALORY and out(state) == []  # dropped Malory does nothing
    assert hand(state, BO) == sorted([LANA, PAM])  # the redraw, then the turn's draw
    assert state["round"]["seen"][MALORY] == 1 and state["round"]["seen"][PAM] == 1
    assert bm.deck_count(state) == deck_before - 2  # Bo's redraw, then Bo's turn draw
    assert private(state, phone(BO)) == [("drew", [LANA])]
    assert private(state, phone(ANA)) == [] and private(state, phone(CY)) == []
    consistent(state)


def test_pam_targeting_yourself_swaps_the_card_you_kept():
    state = start(RAY, (PAM, MALORY, ARCHER), draws=(CYRIL, LANA))
    state = play(state, PAM, target=ANA)
    assert last(state)["discarded"] == CYRIL and hand(state, ANA) == [LANA]
    assert private(state, phone(ANA)) == [("drew", [LANA])]
    assert "on themself" in bm.play_text(state, last(state))


def test_ray_hands_over_the_secret_and_the_top_card_becomes_the_new_secret():
    state = start(LANA, (RAY, MALORY, ARCHER), draws=(ARCHER, KRUEGER))
    state = play(state, RAY, target=BO)
    assert hidden(state)["hands"][BO] == [LANA, PAM]  # the secret, then the turn's draw
    assert hidden(state)["secret"] == KRUEGER
    assert state["round"]["secret"]["status"] == "taken_by_ray"
    assert last(state)["discarded"] == MALORY and out(state) == []
    assert private(state, phone(BO)) == [("took_secret", [LANA])]
    assert private(state, phone(ANA)) == []
    consistent(state)


def test_lana_reshuffles_every_hand_and_the_secret_in_the_committed_order():
    # Pool in seat order: Ana's kept card, Bo's, Cy's, then the secret.
    state = start(RAY, (LANA, PAM, KRUEGER), draws=(ARCHER,), lana=(3, 1, 4, 0, 2))
    state = play(state, LANA)
    pool = [ARCHER, PAM, KRUEGER, RAY]  # positions 0..3; 4 is skipped
    mixed = [pool[i] for i in (3, 1, 0, 2)]
    assert mixed == [RAY, PAM, ARCHER, KRUEGER]
    assert hidden(state)["hands"][ANA] == [mixed[0]]
    # Bo has drawn for his turn since: his Lana card is the first of his two.
    assert hidden(state)["hands"][BO][0] == mixed[1]
    assert hidden(state)["hands"][CY] == [mixed[2]]
    assert hidden(state)["secret"] == mixed[3]
    assert state["round"]["secret"] == {"status": "on_table", "seat": None, "reshuffled": True}
    for seat, card in ((ANA, mixed[0]), (BO, mixed[1]), (CY, mixed[2])):
        assert private(state, phone(seat)) == [("lana", [card])]
    assert private(state, SCREEN) == [] and private(state, HOST) == []
    consistent(state)


def test_lana_with_two_players_left_mixes_two_hands_and_the_secret():
    # Ana's Archer puts Bo out (Bo holds Cyril); then Cy plays Lana with two players left.
    state = start(MALORY, (ARCHER, CYRIL, LANA), draws=(KRUEGER, PAM), lana=(4, 2, 0, 3, 1))
    state = play(state, ARCHER, target=BO, named=CYRIL)
    assert out(state) == [BO] and state["round"]["turn"] == CY
    state = play(state, LANA)
    pool = [KRUEGER, PAM, MALORY]  # Ana, Cy (kept Pam), the secret
    mixed = [pool[i] for i in (2, 0, 1)]  # positions 4 and 3 do not exist: skipped
    assert hidden(state)["hands"][ANA][0] == mixed[0]
    assert hidden(state)["hands"][CY] == [mixed[1]]
    assert hidden(state)["secret"] == mixed[2]
    assert hidden(state)["hands"][BO] == []
    assert private(state, phone(BO)) == []
    consistent(state)


def test_lana_leaves_a_protected_player_their_card():
    # Cheryl/Carol protects from card effects, and Lana's reshuffle is one.
    state = start(RAY, (CHERYL, LANA, PAM), draws=(ARCHER, KRUEGER), lana=(1, 0, 2, 3, 4))
    state = play(state, CHERYL, choice="protect")  # Ana keeps Archer, protected
    state = play(state, LANA)  # Bo keeps Krueger
    pool = [KRUEGER, PAM, RAY]  # Bo, Cy, the secret: not Ana's
    mixed = [pool[i] for i in (1, 0, 2)]
    assert hidden(state)["hands"][ANA] == [ARCHER]
    assert hidden(state)["hands"][BO] == [mixed[0]] == [PAM]
    assert hidden(state)["hands"][CY][0] == mixed[1] == KRUEGER  # then Cy drew for the turn
    assert hidden(state)["secret"] == mixed[2] == RAY
    assert private(state, phone(ANA)) == [] and private(state, phone(BO)) == [("lana", [PAM])]
    assert hidden(state)["got"][ANA] == [CHERYL, ARCHER]  # nothing new for Ana
    consistent(state)


def test_lana_with_everyone_else_protected_mixes_her_players_card_and_the_secret():
    state = start(RAY, (CHERYL, LANA), draws=(ARCHER, KRUEGER), names=("Ana", "Bo"), lana=(4, 3, 2, 1, 0))
    state = play(state, CHERYL, choice="protect")
    state = play(state, LANA)  # pool: Bo's Krueger, the secret Ray
    assert hidden(state)["hands"][ANA][0] == ARCHER
    assert hidden(state)["hands"][BO] == [RAY] and hidden(state)["secret"] == KRUEGER


def test_malory_played_puts_you_out_showing_the_card_you_kept():
    state = start(RAY, (MALORY, PAM, KRUEGER), draws=(LANA,))
    state = play(state, MALORY)
    assert out(state) == [ANA] and last(state)["revealed"] == LANA
    assert state["round"]["turn"] == BO and dview(state, phone(ANA))["hand"] == []
    assert "out of the round, showing Lana Kane (7)" in bm.play_text(state, last(state))


def test_last_player_standing_wins_the_round():
    state = start(RAY, (MALORY, PAM), draws=(LANA,), names=("Ana", "Bo"))
    state = play(state, MALORY)
    assert state["round"]["result"] == {"why": "last_seat", "winners": [BO]}
    assert dview(state, phone(ANA))["reveal"]["secret"] == RAY


# Two players who each keep a card while the deck runs down: the order is secret, Ana's card,
# Bo's card, then the 13 draws (odd turns Ana's, even turns Bo's), each played at once.
def two_player_round(order):
    d = {
        "first_player": ANA,
        "picked_at_random": False,
        "tracking": "dealt",
        "deal": {"order": order, "lana": [0, 1, 2, 3, 4], "salt": SALT},
    }
    return bm.apply(table(("Ana", "Bo")), ev("game.start", d))


HARMLESS_OPENING = [  # turns 1-10 with both players keeping a Sterling Archer
    (ARCHER, dict(target=BO, named=PAM)),
    (ARCHER, dict(target=ANA, named=PAM)),
    (ARCHER, dict(target=BO, named=PAM)),
    (KRUEGER, dict(named=PAM)),
    (KRUEGER, dict(named=PAM)),
    (CHERYL, dict(choice="look")),
    (CHERYL, dict(choice="look")),
    (CYRIL, dict(target=ANA)),
    (CYRIL, dict(target=BO)),  # Archer against Archer: equal
    (LANA, {}),
]


def test_pam_from_an_empty_deck_draws_the_secret_and_the_round_ends():
    state = two_player_round(
        [
            MALORY,
            ARCHER,
            ARCHER,
            ARCHER,
            ARCHER,
            ARCHER,
            KRUEGER,
            KRUEGER,
            CHERYL,
            CHERYL,
            CYRIL,
            CYRIL,
            LANA,
            RAY,
            PAM,
            PAM,
        ]
    )
    for card, form in HARMLESS_OPENING:
        state = play(state, card, **form)
        assert out(state) == [] and state["round"]["stage"] == "playing"
        consistent(state)
    state = play(state, RAY, target=BO)  # Bo drops his Archer, takes Malory; a Pam is the secret
    assert hidden(state)["hands"][BO] == [MALORY, PAM] and hidden(state)["secret"] == PAM
    assert bm.deck_count(state) == 0 and state["round"]["turn"] == BO
    state = play(state, PAM, target=BO)  # drops Malory (no effect), draws the secret
    assert out(state) == [] and last(state)["discarded"] == MALORY
    assert last(state)["secret_gone"] and hidden(state)["secret"] is None
    assert state["round"]["secret"]["status"] == "gone"
    assert private(state, phone(BO))[0] == ("drew", [PAM])
    assert "secret character drawn" in bm.play_text(state, last(state))
    assert state["round"]["result"] == {"why": "deck_out", "winners": [BO]}
    assert state["round"]["hands"] == {ANA: ARCHER, BO: PAM}
    assert dview(state, SCREEN)["reveal"]["secret"] is None


def test_ray_from_an_empty_deck_leaves_the_round_with_no_secret():
    state = two_player_round(
        [
            MALORY,
            ARCHER,
            ARCHER,
            ARCHER,
            ARCHER,
            ARCHER,
            KRUEGER,
            KRUEGER,
            CHERYL,
            CHERYL,
            CYRIL,
            CYRIL,
            LANA,
            PAM,
            PAM,
            RAY,
        ]
    )
    for card, form in HARMLESS_OPENING:
        state = play(state, card, **form)
    state = play(state, PAM, target=ANA)  # Ana drops her Archer and draws the other Pam
    assert hidden(state)["hands"][ANA] == [PAM]
    assert state["round"]["turn"] == BO and hidden(state)["hands"][BO] == [ARCHER, RAY]
    assert bm.deck_count(state) == 0
    state = play(state, RAY, target=BO)
    assert hidden(state)["hands"][BO] == [MALORY] and hidden(state)["secret"] is None
    assert state["round"]["secret"]["status"] == "gone"
    assert "none is left" in bm.play_text(state, last(state))
    assert private(state, phone(BO))[0] == ("took_secret", [MALORY])
    assert state["round"]["result"] == {"why": "deck_out", "winners": [BO]}


def test_deck_out_with_equal_best_cards_every_tied_player_scores():
    # Both keep a Sterling Archer; the Pams redraw Archers; Ray hides Malory as the new secret.
    state = two_player_round(
        [
            ARCHER,
            ARCHER,
            ARCHER,
            PAM,
            ARCHER,
            PAM,
            ARCHER,
            KRUEGER,
            KRUEGER,
            CHERYL,
            CHERYL,
            CYRIL,
            CYRIL,
            LANA,
            RAY,
            MALORY,
        ]
    )
    state = play(state, PAM, target=ANA)
    state = play(state, PAM, target=BO)
    assert hand(state, ANA) == [ARCHER, KRUEGER] and hand(state, BO) == [ARCHER]
    for card, form in [
        (KRUEGER, dict(named=PAM)),
        (KRUEGER, dict(named=PAM)),
        (CHERYL, dict(choice="look")),
        (CHERYL, dict(choice="look")),
        (CYRIL, dict(target=BO)),
        (CYRIL, dict(target=ANA)),
        (LANA, {}),
    ]:
        state = play(state, card, **form)
    assert bm.deck_count(state) == 1 and hand(state, BO) == [ARCHER, RAY]
    state = play(state, RAY, target=BO)  # the secret Archer to Bo, Malory becomes the secret
    assert hidden(state)["secret"] == MALORY
    r = state["round"]
    assert r["result"] == {"why": "deck_out", "winners": [ANA, BO]} and r["hands"] == {ANA: ARCHER, BO: ARCHER}
    data = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, HOST, random.Random(4))
    after = bm.apply(state, ev("round.confirm", data))
    assert after["vp"] == {ANA: 1, BO: 1} and after["round"]["first_player"] in (ANA, BO)
    assert after["history"][0]["why"] == "deck_out"


def test_the_fingerprint_is_on_every_screen_and_the_deal_only_after_the_round():
    state = start(RAY, (MALORY, PAM), draws=(LANA,), names=("Ana", "Bo"))
    full = hidden(state)["fingerprint"]
    for viewer in (SCREEN, HOST, phone(ANA), phone(BO)):
        v = dview(state, viewer)
        assert v["fingerprint"] == deal.short(full) and v["fingerprint_full"] == full
        assert v["reveal"] is None and SALT not in json.dumps(bm.view_for(state, viewer))
    state = play(state, MALORY)
    for viewer in (SCREEN, HOST, phone(ANA), phone(BO)):
        reveal = dview(state, viewer)["reveal"]
        assert reveal["salt"] == SALT and deal.verify(reveal["text"], full)["ok"]
        assert reveal["hands"] == [{"seat": BO, "cards": [PAM]}]


# ---------------------------------------------------------------- who may play, and bad input


def test_only_the_seat_whose_turn_it_is_plays_and_only_a_card_it_holds():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM,))
    with pytest.raises(base.RuleError, match="Ana's turn, not Bo's"):
        act(state, "dealt.play", {"card": LANA, "turn": 1}, phone(BO))
    with pytest.raises(base.RuleError, match="does not hold Lana Kane"):
        play(state, LANA)
    with pytest.raises(base.RuleError, match="only play your own hand"):
        act(state, "dealt.play", {"card": ARCHER, "seat": ANA, "turn": 1, "target": BO, "named": PAM}, phone(BO))
    # A forged event (a phone's actor on another seat's play) is refused by the reducer too.
    forged = {"seat": ANA, "turn": 1, "card": PAM, "target": ANA, "named": None, "choice": None}
    with pytest.raises(base.RuleError, match="Only Ana's phone"):
        bm.apply(state, ev("dealt.play", forged, by=phone(BO)))
    with pytest.raises(base.RuleError, match="one of the eight"):
        bm.apply(state, ev("dealt.play", dict(forged, card=9), by=phone(ANA)))


def test_a_replayed_tap_for_an_earlier_turn_is_refused():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(ARCHER, PAM))
    form = {"card": ARCHER, "target": BO, "named": PAM, "turn": 1}
    after = act(state, "dealt.play", form, phone(ANA))
    assert after["round"]["turn"] == BO
    with pytest.raises(base.RuleError, match="earlier turn"):
        act(after, "dealt.play", form, phone(ANA))
    with pytest.raises(base.RuleError, match="earlier turn"):
        act(after, "dealt.play", dict(form, turn=1, target=CY), phone(BO))
    with pytest.raises(base.RuleError, match="which turn"):
        act(after, "dealt.play", {"card": PAM, "target": BO}, phone(BO))


def test_the_host_plays_its_own_seat_and_a_dead_phone_only_after_confirming():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM, KRUEGER))
    host_bo = {"role": "host", "seat": BO}  # the host is seated as Bo
    host = {"role": "host", "seat": None}
    assert dview(state, host_bo)["hand"][0]["number"] == LANA
    assert dview(state, host)["hand"] is None and dview(state, host)["stand_in_hand"] is None
    with pytest.raises(base.RuleError, match="Only Ana's phone"):
        act(state, "dealt.play", {"card": PAM, "target": BO, "turn": 1}, host)
    view = bm.view_for(state, host)
    assert view["can"]["stand_in"] and not view["can"]["play"]
    with pytest.raises(base.RuleError, match="whose turn it is"):
        act(state, "dealt.stand_in", {"seat": CY, "turn": 1}, host)
    with pytest.raises(base.RuleError, match="Only the host"):
        bm.apply(state, ev("dealt.stand_in", {"seat": ANA, "turn": 1}, by=phone(BO)))
    state = act(state, "dealt.stand_in", {"seat": ANA, "turn": 1}, host)
    assert hidden(state)["stand_in"] == ANA
    assert [c["number"] for c in dview(state, host)["stand_in_hand"]] == [ARCHER, PAM]
    assert dview(state, phone(BO))["stand_in_hand"] is None and dview(state, SCREEN)["hand"] is None
    assert bm.view_for(state, host)["can"]["play"] and not bm.view_for(state, host)["can"]["stand_in"]
    with pytest.raises(base.RuleError, match="already playing"):
        act(state, "dealt.stand_in", {"seat": ANA, "turn": 1}, host)
    state = act(state, "dealt.play", {"card": ARCHER, "seat": ANA, "target": CY, "named": PAM, "turn": 1}, host)
    # What the card showed goes to Ana's phone and to the host who played it, no further.
    assert private(state, phone(ANA)) == [("look", [CYRIL])] and private(state, host) == [("look", [CYRIL])]
    assert "Ana looked at Cy's card" in dview(state, host)["private"][0]["text"]
    assert private(state, phone(CY)) == [] and private(state, SCREEN) == []
    # The stand-in ends with the turn: Ana's hand is hidden from the host again.
    assert hidden(state)["stand_in"] is None and dview(state, host)["stand_in_hand"] is None
    assert private(state, phone(BO)) == []
    with pytest.raises(base.RuleError, match="your own seat"):
        act(state, "dealt.stand_in", {"seat": BO, "turn": 2}, host_bo)
    assert "dealt.stand_in" in bm.HOST_ONLY


def test_companion_inputs_are_refused_while_the_app_deals():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM,))
    for kind, form in (("play", {"card": ARCHER}), ("hand", {"card": ARCHER}), ("round.score", {"winner": ANA})):
        with pytest.raises(base.RuleError, match="app holds the cards"):
            act(state, kind, form, HOST)
    with pytest.raises(base.RuleError, match="app holds the cards"):
        bm.apply(state, ev("play", {"seat": ANA, "card": ARCHER, "target": BO, "named": PAM}))
    with pytest.raises(base.RuleError, match="chosen when a game starts"):
        act(state, "tracking", {"tracking": "full"}, HOST)
    full = bm.apply(table(), ev("game.start", {"first_player": 1, "tracking": "full"}))
    with pytest.raises(base.RuleError, match="chosen when a game starts"):
        act(full, "tracking", {"tracking": "dealt"}, HOST)
    with pytest.raises(base.RuleError, match="does not hold the cards"):
        act(full, "dealt.play", {"card": ARCHER, "turn": 1}, phone(ANA))
    # Before a game, the table can pick the dealt mode as its option.
    assert act(table(), "tracking", {"tracking": "dealt"}, HOST)["tracking"] == "dealt"


# ---------------------------------------------------------------- hidden information in views


def test_views_hold_only_the_viewers_own_hand_until_the_round_ends():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM, KRUEGER))
    for viewer in (SCREEN, HOST, phone(ANA), phone(BO), phone(CY)):
        v = bm.view_for(state, viewer)
        json.dumps(v)  # JSON-safe
        d = v["round"]["dealt"]
        seat = viewer["seat"] if viewer["role"] == "seat" else None
        if seat is None:
            assert d["hand"] is None
        else:
            assert [c["number"] for c in d["hand"]] == hidden(state)["hands"][seat]
        assert d["stand_in_hand"] is None and d["private"] == [] and d["reveal"] is None
        for key in ("order", "deck", "secret", "salt", "lana", "hands"):
            assert key not in d
        text = json.dumps(v)
        # Lana Kane (Bo's) and Cyril Figgis (Cy's) are named only in the public card list.
        for name in ("Lana Kane", "Cyril Figgis", "Malory Archer"):
            if seat == BO and name == "Lana Kane" or seat == CY and name == "Cyril Figgis":
                continue
            assert text.count(name) == json.dumps(v["characters"]).count(name), (viewer, name)


def test_log_lines_say_only_what_the_table_sees():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM, KRUEGER, CHERYL))
    steps = [(ARCHER, dict(target=BO, named=PAM)), (KRUEGER, dict(named=PAM)), (CHERYL, dict(choice="look"))]
    for card, form in steps:
        before = state
        r = state["round"]
        data = bm.parse(
            "dealt.play",
            {k: str(v) for k, v in dict(form, card=card, turn=len(r["plays"]) + 1).items()},
            state,
            phone(r["turn"]),
            random.Random(0),
        )
        event = ev("dealt.play", data, by=phone(r["turn"]))
        state = bm.apply(state, event)
        line = bm.describe(before, state, event)
        undone = bm.describe(before, before, event)
        for text in (line, undone):
            assert "Lana Kane" not in text and "Cyril Figgis" not in text and "Malory Archer" not in text
    assert bm.describe(before, before, event) == "Cy played Cheryl/Carol Tunt (4)."
    start_event = ev("game.start", {"first_player": 1, "tracking": "dealt", "deal": rig(MALORY, (ARCHER, LANA, CYRIL))})
    text = bm.describe(table(), bm.apply(table(), start_event), start_event)
    assert "Deal fingerprint: " + deal.short(deal.fingerprint(start_event["data"]["deal"])) in text


def test_public_data_keeps_the_fingerprint_and_drops_the_shuffle():
    d = rig(MALORY, (ARCHER, LANA, CYRIL))
    data = {"first_player": 1, "tracking": "dealt", "deal": d}
    public = bm.public_data("game.start", data)
    assert "deal" not in public and public["fingerprint"] == deal.fingerprint(d)
    assert "deal" in data  # the event itself is untouched
    assert bm.public_data("dealt.play", {"card": 1}) == {"card": 1}
    confirm = bm.public_data("round.confirm", {"winners": [1], "deal": d})
    assert set(confirm) == {"winners", "fingerprint"}


def test_undo_is_refused_for_cards_and_deals_of_a_dealt_game():
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM,))
    for kind in ("dealt.play", "dealt.stand_in", "game.start", "round.confirm"):
        assert "cannot be undone" in bm.undo_refusal(state, kind)
    assert bm.undo_refusal(state, "tracking") == ""
    full = bm.apply(table(), ev("game.start", {"first_player": 1, "tracking": "full"}))
    assert bm.undo_refusal(full, "play") == "" and bm.undo_refusal(full, "game.start") == ""


def test_apply_does_not_change_its_input():
    state = start(RAY, (LANA, PAM, KRUEGER), draws=(ARCHER,))
    frozen = copy.deepcopy(state)
    play(state, LANA)
    assert state == frozen


def test_a_whole_game_dealt_by_a_seeded_rng_stays_consistent():
    """Random legal plays from seeded deals, to a game win: the books always add up."""
    rng = random.Random(2024)
    state = table(("Ana", "Bo", "Cy", "Di"))
    state = act(state, "game.start", {"first_player": "random", "tracking": "dealt"}, HOST)
    rounds = 0
    while state["phase"] == "round":
        r = state["round"]
        if r["result"]:
            data = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, HOST, rng)
            state = bm.apply(state, ev("round.confirm", data))
            rounds += 1
            continue
        state = random_turn(state, rng)
        if state["round"]["stage"] == "playing":
            consistent(state)
            assert len(hidden(state)["hands"][state["round"]["turn"]]) == 2
        for viewer in (SCREEN, phone(ANA), phone(DI)):
            json.dumps(bm.view_for(state, viewer))
    assert state["phase"] == "game_over" and rounds >= 3
    assert all(
        h["reveal"] and deal.verify(h["reveal"]["text"], h["reveal"]["fingerprint"])["ok"] for h in state["history"]
    )
