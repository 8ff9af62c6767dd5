"""Age of Assassins deck data: the card names the rulebook gives, deck-list checks, the ghost deal.

Pure: the table's own deck list (typed in from its box) is handed in as data by the caller;
nothing here reads a store. Only the names below come from the rulebook; every number and
copy count of a deck list comes from the table.
"""

import json

from ..base import RuleError, parse_int, read_json

DECK_SIZE = 28  # regular character cards in the box
CARD_NUMBERS = tuple(range(1, 7))  # resolve order printed top left
HAND_SIZE = 7  # cards each player drafts, and the ghost gets
GHOST_FACE_UP = 4
GHOST_FACE_DOWN = 3
MAGICIAN = "Magician"
MAGICIANS_THAT_MISFIRE = 3  # three Magicians face up at the ghost means a redeal
REGULAR_NAMES = ("Magician", "Grave Digger", "Soldier", "Cook")
MIN_COPIES = {"Magician": 3}  # the three-Magicians rule needs at least three in the deck
# Each extra card stands in for one copy of its regular card and counts as it for all purposes.
EXTRAS = {"Sergeant": "Soldier", "Chef": "Cook", "Wizard": "Magician"}
EXTRA_COPIES = 1
NAME_MAX = 40
COPIES_MAX = DECK_SIZE
MAX_DEALS = 1000  # a guard only: a valid deck redeals far less often than this

_KNOWN = {name.lower(): name for name in REGULAR_NAMES + tuple(EXTRAS)}


def canonical_name(name):
    """A card name stripped, with the rulebook's spelling for the names it gives."""
    text = " ".join(str(name or "").split())
    return _KNOWN.get(text.lower(), text)


def counts_as(name):
    """The regular card a name counts as (an extra counts as its regular)."""
    name = canonical_name(name)
    return EXTRAS.get(name, name)


def is_magician(name):
    return counts_as(name) == MAGICIAN


def magician_count(cards):
    """How many of these cards (names or {"name": ...}) count as Magicians."""
    return sum(1 for card in cards if is_magician(card["name"] if isinstance(card, dict) else card))


def deck_list_problems(entries):
    """Every reason a typed deck list is not usable, as messages (empty when it is fine).

    entries: a list of {"name", "number", "copies"}; numbers may be ints or form strings.
    Regular cards must total DECK_SIZE; extras may be listed (one copy each) and do not count.
    """
    if not isinstance(entries, (list, tuple)) or not entries:
        return ["The deck list is empty."]
    problems, seen, regular_total, copies_of, duplicates = [], {}, 0, {}, set()
    for row, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            problems.append(f"Line {row} is not a card.")
            continue
        name = canonical_name(entry.get("name"))
        label = name or f"Line {row}"
        if not name:
            problems.append(f"Line {row} has no card name.")
        elif len(name) > NAME_MAX:
            problems.append(f"Line {row}: a card name can be at most {NAME_MAX} characters.")
        elif name.lower() in seen:
            problems.append(
                f"{name} is listed twice (line {seen[name.lower()][1]} and line {row}): "
                "keep one line and put all its copies there."
            )
        duplicate = name.lower() in seen
        seen.setdefault(name.lower(), (name, row))
        # An empty field is a line not finished yet: say what is missing, not "not a number".
        if str(entry.get("number", "")).strip() == "":
            problems.append(f"{label} needs its number ({CARD_NUMBERS[0]}–{CARD_NUMBERS[-1]}).")
        else:
            try:
                parse_int(entry.get("number"), f"{label}'s number", CARD_NUMBERS[0], CARD_NUMBERS[-1])
            except RuleError as error:
                problems.append(str(error))
        if str(entry.get("copies", "")).strip() == "":
            problems.append(f"{label} needs how many copies the deck has.")
            continue
        try:
            copies = parse_int(entry.get("copies"), f"{label}'s copies", 1, COPIES_MAX)
        except RuleError as error:
            problems.append(str(error))
            continue
        if name in EXTRAS:
            if copies != EXTRA_COPIES:
                problems.append(f"The box has one {name}.")
            continue
        regular_total += copies
        copies_of[name] = copies_of.get(name, 0) + copies
        if duplicate:
            duplicates.add(name)
    for name, least in MIN_COPIES.items():
        # A duplicate line is the problem to name, not the copies on each of its lines.
        if name.lower() in seen and name not in duplicates and copies_of.get(name, least) < least:
            problems.append(f"The deck has at least {least} copies of {name}.")
    for name in REGULAR_NAMES:
        if name.lower() not in seen:
            problems.append(f"{name} is missing from the deck list.")
    if regular_total != DECK_SIZE:
        problems.append(f"The regular cards add up to {regular_total}; the deck has {DECK_SIZE}.")
    return problems


def validate_deck_list(entries):
    """A clean copy of a typed deck list ({"name", "number", "copies"} with ints), or RuleError."""
    problems = deck_list_problems(entries)
    if problems:
        raise RuleError(" ".join(problems))
    return [
        {
            "name": canonical_name(e["name"]),
            "number": int(str(e["number"]).strip()),
            "copies": int(str(e["copies"]).strip()),
        }
        for e in entries
    ]


def export_deck_list(entries):
    """The deck list as JSON text, for a table to keep or share."""
    return json.dumps(validate_deck_list(entries), indent=2)


def import_deck_list(text):
    """A deck list from JSON text (a list, or {"cards": [...]}), checked, or RuleError."""
    if not isinstance(text, str):
        raise RuleError("That is not a deck list in JSON.")
    try:
        data = read_json(text, "That deck list")
    except RuleError as error:
        # Past the size or nesting limit, say so; otherwise the plain "not a deck list".
        if "too big" in str(error) or "nested" in str(error):
            raise
        raise RuleError("That is not a deck list in JSON.") from None
    if isinstance(data, dict):
        data = data.get("cards")
    return validate_deck_list(data)


def parse_extras(value):
    """Extras switched on, from a list or comma-separated text, with rulebook spelling."""
    if value is None or value == "":
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    extras = []
    for item in items:
        name = canonical_name(item)
        if not name:
            continue
        if name not in EXTRAS:
            raise RuleError(f"{name} is not one of the extra cards ({', '.join(EXTRAS)}).")
        if name in extras:
            raise RuleError(f"{name} is switched on twice.")
        extras.append(name)
    return extras


def build_deck(entries, extras=()):
    """The 28 cards to play with, as {"name", "number"}: each extra on replaces one of its regular."""
    cards = validate_deck_list(entries)
    by_name = {c["name"]: c for c in cards}
    copies = {c["name"]: c["copies"] for c in cards if c["name"] not in EXTRAS}
    extras = parse_extras(extras)
    for extra in extras:
        if extra not in by_name:
            raise RuleError(f"Add the {extra} to the deck list, with its number, before switching it on.")
        copies[EXTRAS[extra]] -= 1  # MIN_COPIES keeps this from going below 0 for a listed regular
        if copies[EXTRAS[extra]] < 0:
            raise RuleError(f"There is no {EXTRAS[extra]} left for the {extra} to replace.")
    deck = []
    for card in cards:
        if card["name"] in EXTRAS:
            if card["name"] in extras:
                deck.append({"name": card["name"], "number": card["number"]})
            continue
        deck.extend({"name": card["name"], "number": card["number"]} for _ in range(copies[card["name"]]))
    return deck


def deal_ghost(deck, rng):
    """The ghost's four face-up cards drawn at random from deck, redrawn while three Magicians show.

    Drawing four and redrawing on three Magicians is the rulebook's deal-and-redo, so the chances
    match it. Returns {"face_up": [card, ...], "redeals": int}.
    """
    if len(deck) < GHOST_FACE_UP + GHOST_FACE_DOWN:
        raise RuleError("The deck is too small to deal the ghost.")
    for redeals in range(MAX_DEALS):
        face_up = rng.sample(list(deck), GHOST_FACE_UP)
        if magician_count(face_up) < MAGICIANS_THAT_MISFIRE:
            return {"face_up": [dict(card) for card in face_up], "redeals": redeals}
    raise RuleError("The ghost kept getting three Magicians; check the deck list.")
