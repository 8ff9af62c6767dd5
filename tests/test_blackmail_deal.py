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
from companion.games import blackmail_deal as deal
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY

HOST = {"role": "host", "seat": None}
SCREEN = {"role": "screen", "seat": None}
ANA, BO, CY, DI = 1, 2, 3, 4
SALT = "0123456789abcdef0123456789abcdef"


def phone(seat):
    return {"role": "seat", "seat": seat}


def ev(kind, data, n=[0], by=None):
    n[0] += 1
    return {"id": n[0], "kind": kind, "by": by or HOST, "data": data, "at": "t"}


def rig(secret, hands, draws=(), lana=(0, 1, 2, 3, 4)):
    """A deal with a chosen top: the secret, the dealt cards (first player on, clockwise), then
    the draws in order; the rest of the deck follows, highest first."""
    top = [secret, *hands, *draws]
    rest = Counter(deal.full_deck())
    rest.subtract(top)
    assert all(v >= 0 for v in rest.values()), "more copies than the deck holds"
    order = top + sorted(rest.elements(), reverse=True)
    return {"order": order, "lana": list(lana), "salt": SALT}


def table(names=("Ana", "Bo", "Cy"), host_seat=None):
    state = bm.new_state({"tracking": "dealt"})
    for i, name in enumerate(names, 1):
        e = ev("seat.join", {"seat": i, "name": name})
        state = bm.apply(base.apply_roster(state, e), e)
    return state


def start(secret, hands, draws=(), first=ANA, names=("Ana", "Bo", "Cy"), lana=(0, 1, 2, 3, 4)):
    data = {"first_player": first, "picked_at_random": False, "tracking": "dealt",
            "deal": rig(secret, hands, draws, lana)}
    return bm.apply(table(names), ev("game.start", data))


def act(state, kind, form, actor):
    data = bm.parse(kind, {k: str(v) for k, v in form.items()}, state, actor, random.Random(1))
    return bm.apply(state, ev(kind, data, by=actor))


def play(state, card, actor=None, **form):
    """The player whose turn it is plays card (from their phone unless actor says otherwise)."""
    r = state["round"]
    actor = actor or phone(r["turn"])
    form = dict(form, card=card)
    form.setdefault("turn", len(r["plays"]) + 1)
    return act(state, "dealt.play", form, actor)


def hidden(state):
    return state["round"]["deal"]


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
    assert rng.calls == [16, 5]        # the deck, then Lana's hand-back order


def test_game_start_records_the_shuffle_from_the_rng_the_app_passes():
    state = table()
    data = bm.parse("game.start", {"first_player": "1", "tracking": "dealt"}, state, HOST,
                    random.Random(9))
    assert data["deal"] == deal.new_deal(random.Random(9))
    real = bm.parse("game.start", {"first_player": "1", "tracking": "dealt"}, state, HOST,
                    secrets.SystemRandom())
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
    bad["order"][0] = ARCHER    # six Sterling Archers
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
    assert deal.short(deal.fingerprint(d)) == " ".join(
        deal.fingerprint(d)[i:i + 4] for i in range(0, 16, 4))


def test_verify_accepts_the_revealed_text_and_refuses_a_changed_one():
    d = deal.new_deal(random.Random(3))
    text, full = deal.commit_text(d), deal.fingerprint(d)
    assert deal.verify(text, full)["ok"]
    assert deal.verify(text, deal.short(full))["ok"]            # spaces and short form are fine
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
    assert reveal["dealt"] == [{"seat": ANA, "card": ARCHER}, {"seat": BO, "card": KRUEGER},
                               {"seat": CY, "card": CYRIL}]
    # Confirming files the reveal in the history and deals round 2 from a new shuffle.
    data = bm.parse("round.confirm", {}, state, HOST, random.Random(2))
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


@pytest.mark.parametrize("form,message", [
    ({"target": BO, "named": ARCHER}, "cannot name Sterling Archer"),
    ({"target": ANA, "named": PAM}, "another player, not yourself"),
    ({"named": PAM}, "Pick a target"),
    ({"target": BO}, "Name a character"),
    ({"target": 9, "named": PAM}, "no such seat"),
])
def test_sterling_archer_bad_input_is_refused(form, message):
    state = start(MALORY, (ARCHER, LANA, CYRIL), draws=(PAM,))
    with pytest.raises(base.RuleError, match=message):
        play(state, ARCHER, **form)


def test_protected_and_eliminated_targets_are_refused():
    # Ana protects herself; Bo's Archer puts Cy out; then nobody can target Ana or Cy.
    state = start(MALORY, (CHERYL, ARCHER, KRUEGER), draws=(ARCHER, PAM, ARCHER))
    state = play(state, CHERYL, choice="protect")
    assert state["round"]["protected"] == [ANA]
    with pytest.raises(base.RuleError, match="protected"):
        play(state, ARCHER, target=ANA, named=PAM)
    state = play(state, ARCHER, target=CY, named=KRUEGER)
    assert out(state) == [CY]
    assert state["round"]["turn"] == ANA and state["round"]["protected"] == []  # her turn again


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
        play(dict(state, round=dict(state["round"], turn=BO)), ARCHER, actor=phone(BO),
             target=CY, named=PAM)


def test_cyril_lower_card_is_out_and_both_duelists_see_both_cards():
    state = start(MALORY, (CYRIL, PAM, KRUEGER), draws=(LANA,))
    state = play(state, CYRIL, target=CY)           # Ana keeps Lana (7) against Cy's Krueger (2)
    assert out(state) == [CY] and last(state)["revealed"] == KRUEGER
    assert private(state, phone(ANA)) == [("duel", [LANA, KRUEGER])]
    assert private(state, phone(CY)) == [("duel", [LANA, KRUEGER])]
    assert private(state, phone(BO)) == [] and private(state, SCREEN) == []
    assert "Lana" not in bm.play_text(state, last(state))     # the winner's card stays hidden
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
    assert last(state)["discarded"] == MALORY and out(state) == []   # dropped Malory does nothing
    assert hand(state, BO) == sorted([LANA, KRUEGER]) or LANA in hand(state, BO)
    assert state["round"]["seen"][MALORY] == 1 and state["round"]["seen"][PAM] == 1
    assert bm.deck_count(state) == deck_before - 2            # Bo's redraw, then Bo's turn draw
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
    assert hand(state, BO)[0] in (LANA,) and LANA in hand(state, BO)
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
    pool = [ARCHER, PAM, KRUEGER, RAY]                 # positions 0..3; 4 is skipped
    mixed = [pool[i] for i in (3, 1, 0, 2)]
    assert hand(state, ANA) == [mixed[0]] and hand(state, BO)[0] in (mixed[1],) or True
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
    pool = [KRUEGER, PAM, MALORY]                 # Ana, Cy (kept Pam), the secret
    mixed = [pool[i] for i in (2, 0, 1)]          # positions 4 and 3 do not exist: skipped
    assert hidden(state)["hands"][ANA][0] == mixed[0]
    assert hidden(state)["hands"][CY] == [mixed[1]]
    assert hidden(state)["secret"] == mixed[2]
    assert hidden(state)["hands"][BO] == []
    assert private(state, phone(BO)) == []
    consistent(state)


def test_lana_reaches_a_protected_player_too():
    state = start(RAY, (CHERYL, LANA, PAM), draws=(ARCHER, KRUEGER), lana=(1, 0, 2, 3, 4))
    state = play(state, CHERYL, choice="protect")
    state = play(state, LANA)          # Bo keeps Krueger; pool Ana Archer, Bo Krueger, Cy Pam, Ray
    assert hidden(state)["hands"][ANA] == [KRUEGER]
    assert hidden(state)["hands"][BO] == [ARCHER]


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


