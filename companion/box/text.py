""" "From your box" text as people type it: checked before it is stored, and read back.

What a table may type is what the rules lookup marks "printed on your component" (its
"missing" entries). The Age of Assassins deck list is kept as JSON for the ghost deal;
Danger Zone skill dice in the one form the odds helper reads.
"""

import json
import re

from companion import box
from companion.games import danger_zone as dz
from companion.games.assassins import deck
from companion.games.base import RuleError, read_json
from companion.lookup import search as rules

DECK_ENTRY = ("assassins", "deck-list")


def deck_lines(body):
    """The stored Age of Assassins deck list as [{"number", "name", "copies"}], or None."""
    try:
        return deck.import_deck_list(body)
    except RuleError:
        return None


def readable(game, entry, body):
    """Stored text as people read it (the deck list is kept as JSON for the ghost deal)."""
    if (game, entry) == DECK_ENTRY:
        cards = deck_lines(body)
        if cards:
            return "\n".join(f"{c['number']} {c['name']} ×{c['copies']}" for c in cards)
    return body


def box_items(db, game=None, table=None):
    """Box text (a table's, or the defaults) as search.search wants it: [{game, id, title, body}]."""
    stored = box.export(db, table)["entries"]
    items = []
    for row in stored:
        if game and row["game"] != game:
            continue
        shipped = rules.get(row["game"], row["entry"])
        items.append(
            {
                "game": row["game"],
                "id": row["entry"],
                "title": shipped["title"] if shipped else row["entry"],
                "body": readable(row["game"], row["entry"], row["body"]),
            }
        )
    return items


_DECK_LINE = re.compile(r"^\s*#?(\d+)\s*[.,:;)\-–]?\s*(.+?)\s*[,;:]?\s*[x×*]?\s*(\d+)\s*(?:copies|copy)?\s*$", re.I)


def parse_deck_text(text):
    """A deck list typed one card a line ("1 Magician 5": number, name, copies) or pasted as
    JSON, checked by the game's own rules data; RuleError says what is wrong."""
    if text.lstrip().startswith(("[", "{")):
        return deck.import_deck_list(text)
    cards = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        found = _DECK_LINE.match(line)
        if not found:
            raise RuleError(f"Line {n} should read number, name, copies (like “1 Magician 5”).")
        cards.append({"number": found.group(1), "name": found.group(2), "copies": found.group(3)})
    return deck.validate_deck_list(cards)


def dice_text(text):
    """Skill dice typed for a Danger Zone character, in the one form the odds helper reads."""
    found = dz.parse_typed_dice(text)
    if set(found) != set(dz.SKILLS):
        raise RuleError("Type all four skills with their dice, 1 to 3 each: Booze N, Guns N, Sex N, Smarts N.")
    return ", ".join(f"{skill} {found[skill]}" for skill in dz.SKILLS)


def checked_text(game, entry, text):
    """The text to store for one "missing" entry, or RuleError. Empty text means remove."""
    text = (text or "").replace("\r\n", "\n").strip()
    if not text:
        return ""
    if len(text) > box.MAX_BODY:
        raise RuleError(f"That text is too long: at most {box.MAX_BODY} characters.")
    if (game, entry) == DECK_ENTRY:
        return json.dumps(parse_deck_text(text), separators=(",", ":"))
    if game == dz.SLUG and entry.endswith("-dice"):
        return dice_text(text)
    return text


def box_entry(game, entry_id):
    """The shipped entry a table may type text for, or None."""
    entry = rules.get(game, entry_id)
    return entry if entry and entry["kind"] == "missing" else None


def import_box(db, text):
    """Merge an exported box file: every entry checked first, then all stored or none."""
    data = read_json(text, "That “from your box” file")
    items = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise RuleError("That file has no list of entries: export one from this page and try again.")
    if len(items) > box.MAX_IMPORT_ENTRIES:
        raise RuleError(f"That file has {len(items)} entries; at most {box.MAX_IMPORT_ENTRIES} can be imported.")
    clean = []
    for n, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not all(isinstance(item.get(k), str) for k in ("game", "entry", "body")):
            raise RuleError(f"Entry {n} in that file needs a game, an entry and a text.")
        game, entry = item["game"], item["entry"]
        if not box_entry(game, entry):
            raise RuleError(
                f"Entry {n} in that file is for “{game[:40]} / {entry[:80]}”, which is not "
                "something the rules lookup asks for."
            )
        try:
            body = checked_text(game, entry, item["body"])
        except RuleError as error:
            raise RuleError(f"{box_entry(game, entry)['title']}: {error}") from None
        clean.append({"game": game, "entry": entry, "body": body})
    return box.import_json(db, json.dumps({"entries": clean}))
