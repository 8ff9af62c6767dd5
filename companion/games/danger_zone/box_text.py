"""The table's own text ("from your box"): typed tile text and skill dice, folded into a
view. The routes read the box; this module only reads the dict it is given."""

import re

from ..base import RuleError, read_json
from .odds import challenge_odds, skill_dice
from .rules import LOCATION_IDS, MAX_SKILL_DICE, MIN_SKILL_DICE, SKILLS
from .state import location_effect_text


def location_box_ids(location):
    """Entry ids a table's typed tile text may be stored under, in the order to try."""
    slug = LOCATION_IDS[location]
    return [f"location-{slug}", slug]


def dice_box_ids(character):
    name = character.lower()
    return [f"dice-{name}", f"{name}-dice"]


def _typed(box, ids):
    for entry in ids:
        text = (box.get(entry) or "").strip()
        if text:
            return text
    return None


def parse_typed_dice(text):
    """{skill: dice} from what a table typed, e.g. "Booze 2, Guns 3, Sex 1, Smarts 2" or a
    JSON object; counts outside 1-3 and unknown words are left out, never guessed."""
    found = {}
    try:
        # As every person's JSON is read: nested a thousand deep, it is text, not a 500.
        data = read_json(str(text or ""), "That dice text")
    except RuleError:
        data = None
    if isinstance(data, dict):
        pairs = [(str(k), v) for k, v in data.items()]
    else:
        pairs = re.findall(r"(booze|guns|sex|smarts)\W{0,3}(\d+)", str(text or ""), re.I)
    for skill, count in pairs:
        skill = skill.strip().capitalize()
        try:
            count = int(count)
        except (TypeError, ValueError):
            continue
        if skill in SKILLS and MIN_SKILL_DICE <= count <= MAX_SKILL_DICE:
            found.setdefault(skill, count)
    return found


def with_box(view, box):
    """A view with the table's typed text folded in: each Location's FIRST PLAYER text and
    the viewer's skill dice and odds. box is {entry id: text} for this game."""
    # Copies of just the parts written below: the rest may be shared with the cached state.
    view = dict(view, locations=[dict(location) for location in view["locations"]])
    box = box or {}
    for location in view["locations"]:
        typed = _typed(box, location_box_ids(location["name"]))
        location["box_text"] = typed
        location["effect"] = location_effect_text(location["name"], typed)
    you = view.get("you")
    if you and you.get("character"):
        you = view["you"] = dict(you)
        typed = _typed(box, dice_box_ids(you["character"]))
        table_dice = parse_typed_dice(typed) if typed else {}
        you["skill_dice"] = skill_dice(you["character"], table_dice)
        you["odds"] = [
            dict(challenge_odds(you["character"], o["type"], o["difficulty"], table_dice), card=o["card"])
            for o in you["odds"]
        ]
    return view
