import itertools
import json
import random
from fractions import Fraction

import pytest

from companion.games.danger_zone import dice
from helpers import Scripted


def brute(dice_count):
    return list(itertools.product(range(1, 7), repeat=dice_count))


@pytest.mark.parametrize("dice_count", [1, 2, 3])
@pytest.mark.parametrize("target", range(6, 15))
def test_chance_at_least_matches_enumeration(dice_count, target):
    rolls = brute(dice_count)
    expected = Fraction(sum(1 for r in rolls if sum(r) >= target), len(rolls))
    assert dice.chance_at_least(dice_count, target) == expected


@pytest.mark.parametrize("dice_count", [1, 2, 3, 4])
def test_chance_at_least_every_target(dice_count):
    rolls = brute(dice_count)
    for target in range(-1, 6 * dice_count + 3):
        expected = Fraction(sum(1 for r in rolls if sum(r) >= target), len(rolls))
        assert dice.chance_at_least(dice_count, target) == expected


@pytest.mark.parametrize("dice_count", [1, 2, 3])
def test_chance_of_a_five_or_six_matches_enumeration(dice_count):
    rolls = brute(dice_count)
    expected = Fraction(sum(1 for r in rolls if any(f in (5, 6) for f in r)), len(rolls))
    assert dice.chance_any_face(dice_count, (5, 6)) == expected


def test_known_values():
    assert dice.chance_at_least(1, 6) == Fraction(1, 6)
    assert dice.chance_at_least(1, 7) == 0
    assert dice.chance_at_least(2, 7) == Fraction(21, 36)
    assert dice.chance_at_least(3, 14) == Fraction(35, 216)
    assert dice.chance_any_face(3, (5, 6)) == Fraction(19, 27)
    assert dice.percent(Fraction(1, 3)) == 33.3


def test_total_ways_sums_to_all_combinations():
    ways = dice.total_ways(3)
    assert sum(ways.values()) == 216
    assert min(ways) == 3 and max(ways) == 18
    assert ways[10] == ways[11] == 27


def test_bad_dice_count():
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError):
            dice.chance_at_least(bad, 6)


def test_roll_uses_the_rng():
    assert dice.roll(3, Scripted([4, 1, 6])) == [4, 1, 6]
    faces = dice.roll(50, random.Random(7))
    assert all(1 <= f <= 6 for f in faces)
    assert dice.roll(5, random.Random(3)) == dice.roll(5, random.Random(3))


def test_roll_off_rerolls_only_the_tied():
    # Round 1: seat 1 -> 6, seat 2 -> 6, seat 3 -> 2. Round 2 only seats 1 and 2: 3 vs 5.
    result = dice.roll_off([1, 2, 3], Scripted([6, 6, 2, 3, 5]), dice_count=1)
    assert [[r["seat"] for r in rows] for rows in result["rounds"]] == [[1, 2, 3], [1, 2]]
    assert result["winner"] == 2
    assert json.loads(json.dumps(result)) == result


def test_roll_off_with_three_dice_and_bonus():
    # Seat 7 rolls 1+1+1 +1 bonus = 4; seat 8 rolls 1+1+2 = 4: tie, then 6+6+6+1 vs 1+1+1.
    rng = Scripted([1, 1, 1, 1, 1, 2, 6, 6, 6, 1, 1, 1])
    result = dice.roll_off([7, 8], rng, dice_count=3, bonus={7: 1})
    assert result["rounds"][0][0] == {"seat": 7, "dice": [1, 1, 1], "bonus": 1, "total": 4}
    assert len(result["rounds"]) == 2
    assert result["winner"] == 7


def test_roll_off_single_seat_and_seeded():
    assert dice.roll_off([5], random.Random(1)) == {"rounds": [], "winner": 5}
    a = dice.roll_off([1, 2, 3, 4], random.Random(42))
    b = dice.roll_off([1, 2, 3, 4], random.Random(42))
    assert a == b
    last = a["rounds"][-1]
    assert dice.highest(last) == [a["winner"]]
    with pytest.raises(ValueError):
        dice.roll_off([], random.Random(1))


def test_roll_off_gives_up_on_a_stuck_rng():
    class Stuck:
        def randint(self, low, high):
            return 3

    with pytest.raises(RuntimeError):
        dice.roll_off([1, 2], Stuck(), dice_count=1)


def test_roll_once_and_lowest():
    rows = dice.roll_once([1, 2, 3], Scripted([2, 5, 2]), 1, bonus={3: 1})
    assert [r["total"] for r in rows] == [2, 5, 3]
    assert dice.lowest(rows) == [1]
    assert dice.highest(rows) == [2]
