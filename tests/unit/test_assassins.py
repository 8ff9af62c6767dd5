import json
import random
from math import comb

import pytest

from companion.games import assassins as aoa
from companion.games import base
from companion.games.assassins import deck
from companion.games.base import RuleError
from helpers import BASE_DECK, CHEF, HOST, WIZARD, ev


def run(state, kind, data, by=None):
    e = ev(kind, data, by=by)
    if kind in base.ROSTER_KINDS:
        return aoa.apply(base.apply_roster(state, e), e)
    return aoa.apply(state, e)


def act(state, kind, form, actor=HOST, rng=None):
    """Parse a form as the app does, then apply the event."""
    data = aoa.parse(kind, form, state, actor, rng or random.Random(1))
    return run(state, kind, data, by=actor)


def table(n=3):
    state = aoa.new_state({})
    for i, name in enumerate(["Ana", "Bo", "Cy", "Di"][:n], start=1):
        state = run(state, "seat.join", {"seat": i, "name": name})
    return state


def give(state, seat, delta, reason="Card effect"):
    return act(state, "points", {"seat": str(seat), "delta": str(delta), "reason": reason})


def to_six(state):
    """Resolve up to the last number (banking waits for it)."""
    if state["resolve_number"] != aoa.deck.CARD_NUMBERS[-1]:
        state = run(state, "resolve.step", {"number": aoa.deck.CARD_NUMBERS[-1]})
    return state


def bank(state):
    state = to_six(state)
    return act(state, "bank", {"to": str(state["round"] + 1)})


DECK_LIST = BASE_DECK + [WIZARD, CHEF]

# Chi-square critical values at p = 0.001, by degrees of freedom.
CHI2_CRIT_001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322}


def chi_square(observed, expected):
    return sum((observed[k] - expected[k]) ** 2 / expected[k] for k in expected)


# ---- seats -------------------------------------------------------------------------------


def test_three_or_four_seats_join_and_a_fifth_is_refused():
    state = table(4)
    assert len(state["seats"]) == 4
    with pytest.raises(RuleError, match="at most 4"):
        run(state, "seat.join", {"seat": 5, "name": "Ed"})


def test_two_seats_cannot_play():
    state = table(2)
    assert aoa.seat_problem(state)
    with pytest.raises(RuleError, match="3 or 4"):
        give(state, 1, 2)
    with pytest.raises(RuleError, match="3 or 4"):
        run(state, "bank", {"round": 1})


def test_no_join_after_the_game_starts():
    state = give(table(3), 1, 2)
    with pytest.raises(RuleError, match="started"):
        run(state, "seat.join", {"seat": 4, "name": "Di"})


def test_removing_a_seat_drops_its_data():
    state = run(table(4), "seat.remove", {"seat": 4})
    assert 4 not in state["real"] and 4 not in state["picks"]
    assert aoa.has_ghost(state)


# ---- points and kills ----------------------------------------------------------------------


def test_points_up_and_down_with_a_reason():
    state = give(table(), 1, 5, "Cook")
    state = give(state, 1, -2, "Correction")
    assert state["preliminary"][1] == 3
    with pytest.raises(RuleError, match="below 0"):
        give(state, 1, -4)
    with pytest.raises(RuleError, match="zero"):
        give(state, 1, 0)
    with pytest.raises(RuleError):
        give(state, 9, 1)
    with pytest.raises(RuleError):
        give(state, "x", 1)


def test_kill_wipes_only_preliminary_and_blocks_more_points():
    state = table()
    state = give(state, 1, 6)
    state = bank(state)
    state = give(state, 1, 4)
    state = act(state, "kill", {"seat": "1"})
    assert state["preliminary"][1] == 0
    assert state["killed"][1] is True
    assert state["real"][1] == 6
    with pytest.raises(RuleError, match="killed"):
        give(state, 1, 2)
    with pytest.raises(RuleError, match="killed"):
        give(state, 1, -1)


def test_killing_a_killed_seat_changes_nothing():
    state = act(give(table(), 2, 3), "kill", {"seat": "2"})
    again = act(state, "kill", {"seat": "2"})
    assert again["killed"] == state["killed"] and again["preliminary"] == state["preliminary"]
    e = ev("kill", {"seat": 2})
    assert "already" in aoa.describe(state, aoa.apply(state, e), e)


def test_apply_does_not_mutate_its_input():
    state = give(table(), 1, 3)
    snapshot = json.dumps(state, sort_keys=True, default=str)
    run(state, "kill", {"seat": 1})
    bank(state)
    assert json.dumps(state, sort_keys=True, default=str) == snapshot


def test_resolve_steps_through_numbers():
    state = act(table(), "resolve.step", {"step": "next", "to": "1"})
    assert state["resolve_number"] == 1
    state = act(state, "resolve.step", {"number": "6", "at": "1"})
    with pytest.raises(RuleError, match="bank"):
        act(state, "resolve.step", {"step": "next", "to": "7"})
    state = act(state, "resolve.step", {"step": "back", "to": "5"})
    assert state["resolve_number"] == 5
    assert aoa.view_for(state, {"role": "screen", "seat": None})["resolve_number"] == 5
    with pytest.raises(RuleError):
        act(state, "resolve.step", {"number": "7", "at": "5"})
    with pytest.raises(RuleError):
        run(state, "resolve.step", {"number": 0})
    e = ev("points", aoa.parse("points", {"seat": "1", "delta": "2"}, state, HOST, None))
    assert "(at 5)" in aoa.describe(state, aoa.apply(state, e), e)


# ---- banking and the end -------------------------------------------------------------------


def test_bank_moves_survivors_preliminary_to_real_and_starts_a_new_round():
    state = table()
    state = give(give(give(state, 1, 4), 2, 5), 3, 2)
    state = act(state, "kill", {"seat": "2"})
    state = act(state, "resolve.step", {"number": "4", "at": "draft"})
    state = bank(state)
    assert state["real"] == {1: 4, 2: 0, 3: 2}
    assert state["round"] == 2 and state["phase"] == "playing"
    assert state["preliminary"] == {1: 0, 2: 0, 3: 0}
    assert state["killed"] == {1: False, 2: False, 3: False}
    assert state["resolve_number"] is None
    assert state["history"][0]["banked"][1] == {"seat": 2, "points": 0, "killed": True, "real": 0, "real_gained": 0}
    # Killed in round 1 does not carry into round 2.
    state = give(state, 2, 3)
    assert state["preliminary"][2] == 3


def test_banking_twice_is_refused():
    state = bank(give(table(), 1, 4))
    with pytest.raises(RuleError, match="already over"):
        run(state, "bank", {"round": 1})
    with pytest.raises(RuleError, match="already at number 6 of round 2"):
        act(to_six(state), "bank", {"to": "2"})
    with pytest.raises(RuleError, match="did not name the step"):  # malformed, not stale
        act(state, "bank", {})


def test_fifteen_real_points_end_the_game():
    state = bank(give(table(), 1, 14))
    assert state["phase"] == "playing"
    state = bank(give(state, 2, 15))
    assert state["phase"] == "ended"
    result = aoa.outcome(state)
    assert result["winner"] == 2 and not result["dog"]
    with pytest.raises(RuleError, match="over"):
        give(state, 1, 1)
    with pytest.raises(RuleError, match="over"):
        run(state, "bank", {"round": state["round"]})
    assert aoa.view_for(state, HOST)["result"]["winner"] == 2


def test_most_real_points_wins_even_if_someone_else_triggered_the_end():
    state = bank(give(table(4), 1, 10))
    state = bank(give(give(state, 1, 8), 3, 15))
    assert state["phase"] == "ended"
    assert aoa.outcome(state)["winner"] == 1


def test_a_killed_seat_cannot_end_the_game():
    state = act(give(table(), 1, 20), "kill", {"seat": "1"})
    state = bank(state)
    assert state["phase"] == "playing" and state["real"][1] == 0


@pytest.mark.parametrize(
    "points, winner",
    [
        ({1: 15, 2: 15, 3: 3}, 2),  # two tied, the later seat wins
        ({1: 15, 2: 3, 3: 15}, 3),
        ({1: 16, 2: 16, 3: 16, 4: 2}, 3),  # three tied of four
        ({1: 15, 2: 2, 3: 2, 4: 15}, 4),
        ({1: 15, 2: 15, 3: 15, 4: 14}, 3),
    ],
)
def test_tie_goes_to_the_tied_seat_last_clockwise_from_the_first(points, winner):
    state = table(len(points))
    for seat, amount in points.items():
        state = give(state, seat, amount)
    state = bank(state)
    result = aoa.outcome(state)
    assert result["winner"] == winner and not result["dog"]
    assert sorted(result["tied"]) == sorted(s for s, p in points.items() if p == max(points.values()))


def test_tie_break_follows_the_seat_order():
    state = table(3)
    state = run(state, "seat.reorder", {"order": [3, 1, 2]})
    state = bank(give(give(state, 1, 15), 3, 15))
    assert aoa.outcome(state)["winner"] == 1


@pytest.mark.parametrize("n", [3, 4])
def test_all_equal_the_dog_wins(n):
    state = table(n)
    for seat in range(1, n + 1):
        state = give(state, seat, 15)
    state = bank(state)
    result = aoa.outcome(state)
    assert result["dog"] and result["winner"] is None
    assert "dog" in result["text"]
    e = ev("bank", {"round": 1})
    before = table(n)
    for seat in range(1, n + 1):
        before = give(before, seat, 15)
    before = to_six(before)
    assert "dog" in aoa.describe(before, aoa.apply(before, e), e)


# ---- the ghost -----------------------------------------------------------------------------


def test_ghost_only_at_three_and_never_banks():
    assert aoa.view_for(table(4), HOST)["ghost"] is None
    with pytest.raises(RuleError, match="ghost"):
        give(table(4), "ghost", 2)
    state = give(table(3), "ghost", 20)
    state = bank(state)
    assert state["history"][0]["ghost_returned"] == 20
    assert state["phase"] == "playing"
    assert set(state["real"]) == {1, 2, 3}
    view = aoa.view_for(state, HOST)
    assert view["ghost"]["real"] == 0 and view["ghost"]["preliminary"] == 0
    assert len(view["ghost"]["rules"]) == len(aoa.GHOST_RULES)


def test_the_ghost_sits_after_the_last_seat_so_it_is_on_her_right():
    state = table(3)
    ghost = aoa.view_for(state, HOST)["ghost"]
    assert (ghost["on_her_right"], ghost["on_her_left"]) == ("Cy", "Ana")
    assert "Cy, on her right, is killed in her place" in ghost["rule"]["magician_redirect"]
    assert ghost["rule"]["magician_redirect"] in ghost["rules"]
    state = run(state, "seat.reorder", {"order": [3, 1, 2]})  # the host moves seats
    ghost = aoa.view_for(state, HOST)["ghost"]
    assert (ghost["on_her_right"], ghost["on_her_left"]) == ("Bo", "Cy")


def test_ghost_can_be_killed():
    state = act(give(table(), "ghost", 3), "kill", {"seat": "ghost"})
    assert state["ghost"]["killed"] and state["ghost"]["preliminary"] == 0
    with pytest.raises(RuleError, match="killed"):
        give(state, "ghost", 1)


def test_ghost_deal_from_a_deck_list():
    state = act(table(), "ghost.deal", {"deck": DECK_LIST}, rng=random.Random(7))
    ghost = state["ghost"]
    assert ghost["source"] == "dealt" and len(ghost["face_up"]) == 4
    assert deck.magician_count(ghost["face_up"]) < 3
    view = aoa.view_for(state, {"role": "screen", "seat": None})
    assert view["ghost"]["deal_steps"] == list(aoa.APP_DEAL_STEPS)
    with pytest.raises(RuleError, match="already dealt"):
        act(state, "ghost.deal", {"deck": DECK_LIST})
    # A new round needs a new deal.
    state = bank(state)
    assert state["ghost"]["face_up"] is None


def test_ghost_deal_refusals():
    with pytest.raises(RuleError, match="ghost"):
        act(table(4), "ghost.deal", {"deck": DECK_LIST})
    with pytest.raises(RuleError, match="deck list"):
        act(table(3), "ghost.deal", {})
    # A posted form carries only text: a deck sent by a phone is never used.
    with pytest.raises(RuleError, match="stored"):
        act(table(3), "ghost.deal", {"deck": json.dumps(DECK_LIST)})
    short = [dict(c) for c in DECK_LIST]
    short[0]["copies"] = 3
    with pytest.raises(RuleError, match="27"):
        act(table(3), "ghost.deal", {"deck": short})
    three = {
        "round": 1,
        "face_up": [{"name": "Magician", "number": 1}] * 3 + [{"name": "Cook", "number": 4}],
        "redeals": 0,
        "extras": [],
    }
    with pytest.raises(RuleError, match="redone"):
        run(table(3), "ghost.deal", three)


def test_ghost_record_typed_flags_three_magicians_and_allows_a_redo():
    state = table()
    form = {"card1": "magician", "card2": "Wizard", "card3": "Magician", "card4": "Cook"}
    state = act(state, "ghost.record", form)
    assert state["ghost"]["three_magicians"] is True
    assert state["ghost"]["face_up"][0]["name"] == "Magician"
    e = ev("ghost.record", aoa.parse("ghost.record", form, table(), HOST, None))
    assert "three Magicians" in aoa.describe(table(), aoa.apply(table(), e), e)
    state = act(state, "ghost.record", {"card1": "Cook", "card2": "Soldier", "card3": "Magician", "card4": "X"})
    assert state["ghost"]["three_magicians"] is False
    assert aoa.view_for(state, HOST)["ghost"]["deal_steps"] == list(aoa.PHYSICAL_DEAL_STEPS)
    with pytest.raises(RuleError, match="already dealt"):
        act(state, "ghost.record", form)
    with pytest.raises(RuleError, match="Name all"):
        act(table(), "ghost.record", {"card1": "Cook", "card2": "", "card3": "A", "card4": "B"})
    with pytest.raises(RuleError, match="exactly 4"):
        act(table(), "ghost.record", {"cards": json.dumps(["Cook", "Soldier"])})


def test_ghost_deal_never_leaves_three_magicians_face_up():
    # A deck heavy in Magicians, so the redeal happens often.
    heavy = [
        {"name": "Magician", "number": 1, "copies": 12},
        {"name": "Grave Digger", "number": 2, "copies": 6},
        {"name": "Soldier", "number": 3, "copies": 5},
        {"name": "Cook", "number": 4, "copies": 5},
        {"name": "Wizard", "number": 1, "copies": 1},
    ]
    cards = deck.build_deck(heavy, ["Wizard"])
    rng = random.Random(2024)
    redeals = 0
    for _ in range(5000):
        dealt = deck.deal_ghost(cards, rng)
        assert len(dealt["face_up"]) == 4
        assert deck.magician_count(dealt["face_up"]) <= 2
        redeals += dealt["redeals"]
    assert redeals > 0


def test_ghost_deal_card_frequencies_match_the_deck():
    cards = deck.build_deck(DECK_LIST)
    names = sorted({c["name"] for c in cards})
    copies = {n: sum(1 for c in cards if c["name"] == n) for n in names}
    total, magicians = len(cards), copies["Magician"]
    # Exact chance of k Magicians among 4 cards, given fewer than 3 (the redeal rule).
    p = {k: comb(magicians, k) * comb(total - magicians, 4 - k) / comb(total, 4) for k in range(3)}
    kept = sum(p.values())
    expected_magicians = sum(k * pk for k, pk in p.items()) / kept
    # The first face-up card of each deal: by symmetry its chance per name follows the copies.
    chance = {}
    for name in names:
        if name == "Magician":
            chance[name] = expected_magicians / 4
        else:
            chance[name] = (4 - expected_magicians) / 4 * copies[name] / (total - magicians)
    assert abs(sum(chance.values()) - 1) < 1e-12
    rng = random.Random(12345)
    runs = 20000
    observed = {n: 0 for n in names}
    observed_k = {k: 0 for k in range(3)}
    for _ in range(runs):
        face_up = deck.deal_ghost(cards, rng)["face_up"]
        observed[face_up[0]["name"]] += 1
        observed_k[deck.magician_count(face_up)] += 1
    stat = chi_square(observed, {n: runs * chance[n] for n in names})
    assert stat < CHI2_CRIT_001[len(names) - 1], (stat, observed)
    stat_k = chi_square(observed_k, {k: runs * p[k] / kept for k in range(3)})
    assert stat_k < CHI2_CRIT_001[2], (stat_k, observed_k)


def test_ghost_deal_with_a_skewed_rng_fails_the_check():
    # The chi-square check above can tell a wrong deal apart: always taking the deck's first cards.
    cards = deck.build_deck(DECK_LIST)
    names = sorted({c["name"] for c in cards})
    observed = {n: 0 for n in names}
    for _ in range(2000):
        observed[cards[4]["name"]] += 1
    expected = {n: 2000 / len(names) for n in names}
    assert chi_square(observed, expected) > CHI2_CRIT_001[len(names) - 1]


# ---- deck list ----------------------------------------------------------------------------


def test_deck_list_validation():
    clean = deck.validate_deck_list([{**c, "number": str(c["number"]), "copies": str(c["copies"])} for c in DECK_LIST])
    assert sum(c["copies"] for c in clean if c["name"] not in deck.EXTRAS) == deck.DECK_SIZE
    assert deck.import_deck_list(deck.export_deck_list(DECK_LIST)) == clean
    assert deck.import_deck_list(json.dumps({"cards": DECK_LIST})) == clean


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d[4].update(copies=5), "add up to 27"),
        (lambda d: d[4].update(number=7), "between 1 and 6"),
        (lambda d: d[4].update(number=0), "between 1 and 6"),
        (lambda d: d[4].update(number="five"), "whole number"),
        (lambda d: d[0].update(copies=2) or d[4].update(copies=8), "at least 3"),
        (lambda d: d.pop(1) and d[3].update(copies=9), "Grave Digger is missing"),
        (lambda d: d[5].update(name="card e"), "listed twice"),
        (lambda d: d[6].update(copies=2), "one Wizard"),
        (lambda d: d[4].update(name=" "), "no card name"),
    ],
)
def test_bad_deck_lists_are_refused(change, message):
    entries = [dict(c) for c in DECK_LIST]
    change(entries)
    assert deck.deck_list_problems(entries)
    with pytest.raises(RuleError, match=message):
        deck.validate_deck_list(entries)


def test_bad_deck_json_is_refused():
    with pytest.raises(RuleError, match="JSON"):
        deck.import_deck_list("not json")
    with pytest.raises(RuleError, match="empty"):
        deck.import_deck_list("[]")


def test_extras_replace_one_regular_copy_and_keep_28():
    cards = deck.build_deck(DECK_LIST, ["Wizard", "chef"])
    assert len(cards) == deck.DECK_SIZE
    names = [c["name"] for c in cards]
    assert names.count("Magician") == 3 and names.count("Wizard") == 1
    assert names.count("Cook") == 3 and names.count("Chef") == 1
    assert deck.magician_count(cards) == 4  # the Wizard counts as a Magician
    with pytest.raises(RuleError, match="Sergeant"):
        deck.build_deck(DECK_LIST, ["Sergeant"])  # switched on but not listed
    with pytest.raises(RuleError, match="not one of the extra"):
        deck.build_deck(DECK_LIST, ["Jester"])
    with pytest.raises(RuleError, match="twice"):
        deck.build_deck(DECK_LIST, "Wizard, Wizard")


def test_known_names_come_from_the_rulebook():
    assert deck.REGULAR_NAMES == ("Magician", "Grave Digger", "Soldier", "Cook")
    assert deck.EXTRAS == {"Sergeant": "Soldier", "Chef": "Cook", "Wizard": "Magician"}
    assert deck.MIN_COPIES["Magician"] == 3


# ---- draft helper -------------------------------------------------------------------------

SEAT1 = {"role": "seat", "seat": 1}


def pick(state, row, card="", actor=SEAT1, seat=None):
    form = {"row": row, "card": card}
    if seat is not None:
        form["seat"] = str(seat)
    return act(state, "draft.pick", form, actor=actor)


def everyone(state, row, card=""):
    """Seat 1 picks (on its phone), then the host records the same row for the others: pick k is
    revealed once all have made it."""
    state = pick(state, row, card)
    for seat in state["seats"][1:]:
        state = pick(state, row, actor=HOST, seat=seat["id"])
    return state


def test_draft_rows_are_enforced():
    state = table()
    for i in range(3):
        state = everyone(state, "rear", f"R{i}")
    with pytest.raises(RuleError, match="rear row is full"):
        pick(state, "rear")
    for i in range(4):
        state = everyone(state, "front", f"F{i}")
    assert aoa.picks_left(state, 1) == 0
    with pytest.raises(RuleError, match="all 7"):
        pick(state, "front")
    other = table()
    for _ in range(4):
        other = everyone(other, "front")
    with pytest.raises(RuleError, match="front row is full"):
        pick(other, "front")
    assert aoa.view_for(other, SEAT1)["seats"][0]["must_go"] == "rear"
    with pytest.raises(RuleError, match="front row or the rear"):
        pick(other, "middle")


def test_draft_unpick_and_own_seat_only():
    state = pick(table(), "rear", "Magician")
    with pytest.raises(RuleError, match="your own"):
        pick(state, "front", actor={"role": "seat", "seat": 2}, seat=1)
    state = act(state, "draft.unpick", {}, actor=SEAT1)
    assert state["picks"][1] == []
    with pytest.raises(RuleError, match="no pick"):
        act(state, "draft.unpick", {}, actor=SEAT1)
    # The host may record for a seat without a phone.
    state = pick(state, "front", actor=HOST, seat=3)
    assert len(state["picks"][3]) == 1


def test_view_never_shows_others_what_is_in_a_row():
    state = table()
    # Names that appear nowhere else in a view (the ghost's rules name real cards).
    state = everyone(state, "rear", "Hidden Rear")
    state = everyone(state, "front", "Shown Front")
    secret = "Hidden Rear"
    for viewer in ({"role": "seat", "seat": 2}, {"role": "screen", "seat": None}, HOST):
        view = aoa.view_for(state, viewer)
        assert secret not in json.dumps(view)
        mine = view["seats"][0]
        assert mine["front_count"] == 1 and mine["rear_count"] == 1 and mine["picks_left"] == 5
        assert "rear_cards" not in mine
        # The front row is face up at the table: once revealed, its named cards are public.
        assert mine["front_public"] == ["Shown Front"]
    own = aoa.view_for(state, SEAT1)["seats"][0]
    assert own["rear_cards"] == [secret] and own["front_cards"] == ["Shown Front"]
    e = ev("draft.pick", {"seat": 1, "row": "rear", "card": "Magician"}, by=SEAT1)
    assert "Magician" not in aoa.describe(state, aoa.apply(state, e), e)
    assert aoa.public_data("draft.pick", e["data"]) == {"seat": 1}
    # Picks are cleared by the next round.
    state = bank(state)
    assert aoa.view_for(state, SEAT1)["seats"][0]["picks_left"] == 7


def test_view_is_json_safe():
    state = act(give(table(), 1, 3), "ghost.deal", {"deck": DECK_LIST})
    state = bank(state)
    for viewer in (SEAT1, HOST, {"role": "screen", "seat": None}):
        json.dumps(aoa.view_for(state, viewer))


# ---- penalty chips ------------------------------------------------------------------------


def test_penalty_chips_counter():
    state = act(table(), "penalty", {"seat": "1", "delta": "3"})
    state = act(state, "penalty", {"seat": "2", "delta": "2"})
    assert aoa.view_for(state, HOST)["penalty_chips_left"] == 0
    with pytest.raises(RuleError, match="only 5"):
        act(state, "penalty", {"seat": "3", "delta": "1"})
    state = act(state, "penalty", {"seat": "1", "delta": "-1"})
    assert state["penalty_chips"][1] == 2
    with pytest.raises(RuleError, match="only 2"):
        act(state, "penalty", {"seat": "1", "delta": "-3"})
    # Chips stay over a new round.
    assert bank(state)["penalty_chips"] == {1: 2, 2: 2, 3: 0}


# ---- the whole flow ------------------------------------------------------------------------


def test_three_player_game_with_the_ghost_to_the_end():
    state = table(3)
    state = act(state, "ghost.deal", {"deck": DECK_LIST, "extras": "Wizard"}, rng=random.Random(3))
    for number in range(1, 7):
        state = act(state, "resolve.step", {"step": "next", "to": str(number)})
        if number == 2:
            state = give(state, 1, 5)
            state = give(state, 2, 4)
        if number == 3:
            state = act(state, "kill", {"seat": "1"})
        if number == 5:
            state = give(state, "ghost", 3)
    state = bank(state)
    assert state["real"] == {1: 0, 2: 4, 3: 0} and state["round"] == 2
    state = act(state, "ghost.record", {"card1": "Cook", "card2": "Soldier", "card3": "A", "card4": "B"})
    state = give(give(state, 2, 11), 3, 15)
    state = bank(state)
    assert state["phase"] == "ended"
    assert aoa.outcome(state)["winner"] == 3  # 15 v 15: Cy is later clockwise from Ana
    view = aoa.view_for(state, {"role": "screen", "seat": None})
    assert [h["round"] for h in view["history"]] == [1, 2]
