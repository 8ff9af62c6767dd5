"""Exact odds for a Danger Zone skill roll, and a character's odds on a Challenge."""

from ..base import RuleError
from . import dice
from .rules import (
    CARD_FACES,
    CHALLENGE_TYPES,
    CHARACTERS,
    MAX_DIFFICULTY,
    MAX_SKILL_DICE,
    MIN_DIFFICULTY,
    MIN_SKILL_DICE,
    PERSONAL,
    RULEBOOK_SKILL_DICE,
    SKILLS,
)


def odds(dice_count, difficulty):
    """Exact chances for one skill roll: {"dice", "difficulty", "success", "card"} (Fractions)."""
    if dice_count not in range(MIN_SKILL_DICE, MAX_SKILL_DICE + 1):
        raise RuleError(f"A skill rolls {MIN_SKILL_DICE} to {MAX_SKILL_DICE} dice.")
    if difficulty not in range(MIN_DIFFICULTY, MAX_DIFFICULTY + 1):
        raise RuleError(f"The difficulty must be between {MIN_DIFFICULTY} and {MAX_DIFFICULTY}.")
    return {
        "dice": dice_count,
        "difficulty": difficulty,
        "success": dice.chance_at_least(dice_count, difficulty),
        "card": dice.chance_any_face(dice_count, CARD_FACES),
    }


def odds_table():
    """Every dice count against every difficulty, as percentages (JSON-safe)."""
    return [
        {
            "dice": n,
            "difficulty": d,
            "success": dice.percent(odds(n, d)["success"]),
            "card": dice.percent(odds(n, d)["card"]),
        }
        for n in range(MIN_SKILL_DICE, MAX_SKILL_DICE + 1)
        for d in range(MIN_DIFFICULTY, MAX_DIFFICULTY + 1)
    ]


def skill_dice(character, table_dice=None):
    """{skill: {"dice": n or None, "source": "rulebook" | "box" | None}} for a character.

    table_dice is what the table typed from its own box, {skill: n}; the rulebook's numbers
    win where both exist.
    """
    if character not in CHARACTERS:
        raise RuleError("Pick one of the eight characters.")
    known = RULEBOOK_SKILL_DICE.get(character, {})
    typed = table_dice or {}
    out = {}
    for skill in SKILLS:
        if skill in known:
            out[skill] = {"dice": known[skill], "source": "rulebook"}
        elif typed.get(skill) is not None:
            count = typed[skill]
            if count not in range(MIN_SKILL_DICE, MAX_SKILL_DICE + 1):
                raise RuleError(f"{character}'s {skill} must be {MIN_SKILL_DICE} to {MAX_SKILL_DICE} dice.")
            out[skill] = {"dice": count, "source": "box"}
        else:
            out[skill] = {"dice": None, "source": None}
    return out


def challenge_odds(character, challenge_type, difficulty, table_dice=None):
    """The odds a character has on one Challenge (JSON-safe percentages).

    Returns {"type", "difficulty", "options": [{"dice", "success", "card", "source"}]}: one
    option when the dice are known, else one per possible count. A Personal Challenge lets
    the roller pick any skill, so it lists every count the character could choose.
    """
    if challenge_type not in CHALLENGE_TYPES:
        raise RuleError("Pick a Challenge type.")
    dice_by_skill = (
        skill_dice(character, table_dice) if character else {skill: {"dice": None, "source": None} for skill in SKILLS}
    )
    every = list(range(MAX_SKILL_DICE, MIN_SKILL_DICE - 1, -1))
    if challenge_type == PERSONAL:
        known = [v for v in dice_by_skill.values() if v["dice"] is not None]
        if len(known) == len(SKILLS):
            counts = sorted({v["dice"] for v in known}, reverse=True)
            choices = [(n, "choice") for n in counts]
        else:
            choices = [(n, "choice") for n in every]
    else:
        mine = dice_by_skill[challenge_type]
        choices = [(mine["dice"], mine["source"])] if mine["dice"] is not None else [(n, None) for n in every]
    options = []
    for count, source in choices:
        chance = odds(count, difficulty)
        options.append(
            {
                "dice": count,
                "source": source,
                "success": dice.percent(chance["success"]),
                "card": dice.percent(chance["card"]),
            }
        )
    return {"type": challenge_type, "difficulty": difficulty, "options": options}
