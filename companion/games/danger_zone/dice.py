"""Six-sided dice for the table: exact odds of a roll, and fair roll-offs.

Pure: no I/O. Odds are exact fractions counted over every face combination; rolls take
the rng they are given (the app passes secrets.SystemRandom, tests a seeded Random) and
return plain lists and dicts, so a caller can store them in an event as JSON.
"""

from fractions import Fraction
from functools import cache

SIDES = 6
# A roll-off that stays tied this many times is a broken rng, not bad luck.
MAX_ROLL_OFF_ROUNDS = 200


@cache
def _ways(dice_count):
    """ways[t] = how many of the 6**n face combinations add up to t."""
    ways = [1]
    for _ in range(dice_count):
        nxt = [0] * (len(ways) + SIDES)
        for total, count in enumerate(ways):
            if count:
                for face in range(1, SIDES + 1):
                    nxt[total + face] += count
        ways = nxt
    return tuple(ways)


def _check_count(dice_count):
    if isinstance(dice_count, bool) or not isinstance(dice_count, int) or dice_count < 1:
        raise ValueError("Roll at least one die.")


def total_ways(dice_count):
    """{total: number of face combinations} for dice_count dice."""
    _check_count(dice_count)
    return {total: n for total, n in enumerate(_ways(dice_count)) if n}


def chance_at_least(dice_count, target):
    """Exact chance that dice_count dice add up to target or more."""
    _check_count(dice_count)
    ways = _ways(dice_count)
    hits = sum(n for total, n in enumerate(ways) if total >= target)
    return Fraction(hits, SIDES**dice_count)


def chance_any_face(dice_count, faces):
    """Exact chance that at least one of dice_count dice shows one of faces."""
    _check_count(dice_count)
    faces = {f for f in faces if 1 <= f <= SIDES}
    miss = Fraction(SIDES - len(faces), SIDES)
    return 1 - miss**dice_count


def percent(chance, places=1):
    """A Fraction as a percentage for display, e.g. Fraction(1, 3) -> 33.3."""
    return round(float(chance) * 100, places)


def roll(dice_count, rng):
    """A list of dice_count faces."""
    _check_count(dice_count)
    return [rng.randint(1, SIDES) for _ in range(dice_count)]


def roll_once(seats, rng, dice_count=1, bonus=None):
    """Every seat rolls once: [{"seat", "dice", "bonus", "total"}] in the given order.

    bonus maps a seat to a number added to its total (a card's +1, say).
    """
    bonus = bonus or {}
    rows = []
    for seat in seats:
        faces = roll(dice_count, rng)
        extra = bonus.get(seat, 0)
        rows.append({"seat": seat, "dice": faces, "bonus": extra, "total": sum(faces) + extra})
    return rows


def highest(rows):
    """Seats with the highest total in one round of rolls, in roll order."""
    top = max(r["total"] for r in rows)
    return [r["seat"] for r in rows if r["total"] == top]


def lowest(rows):
    """Seats with the lowest total in one round of rolls, in roll order."""
    low = min(r["total"] for r in rows)
    return [r["seat"] for r in rows if r["total"] == low]


def roll_off(seats, rng, dice_count=3, bonus=None):
    """High roll wins; a tie for the top re-rolls among the tied seats only.

    Returns {"rounds": [[row, ...], ...], "winner": seat}; each row as in roll_once.
    A single seat wins without rolling. The bonus applies in every round.
    """
    seats = list(seats)
    if not seats:
        raise ValueError("A roll-off needs at least one seat.")
    rounds = []
    contenders = seats
    while len(contenders) > 1:
        if len(rounds) >= MAX_ROLL_OFF_ROUNDS:
            raise RuntimeError("The roll-off never broke its tie.")
        rows = roll_once(contenders, rng, dice_count, bonus)
        rounds.append(rows)
        contenders = highest(rows)
    return {"rounds": rounds, "winner": contenders[0]}
