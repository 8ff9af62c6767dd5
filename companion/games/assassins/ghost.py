"""Age of Assassins: the ghost's moves at a table of three (parse and apply for her kinds).

Her four face-up cards are dealt by the app from the stored deck list or typed after a physical
deal; her three face-down cards are typed or drawn once the rear rows turn over. Deck data and
the deal itself live in deck.py.
"""

from ..base import RuleError, read_json
from . import deck
from .rules import CARD_MAX, GHOST_AT
from .state import ghost_cards, has_ghost

KINDS = ("ghost.deal", "ghost.record", "ghost.down", "ghost.down.deal")


# ---- parse: form -> event data -------------------------------------------------------------


def _form_list(value):
    """A list from a form value that may already be a list or be JSON text."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, str) and value.strip():
        data = read_json(value, "That list")
        if isinstance(data, dict):
            data = data.get("cards")
        if isinstance(data, list):
            return data
        raise RuleError("That list could not be read.")
    return []


def parse_ghost(kind, form, state, rng):
    """Event data for one of the ghost's KINDS."""
    if kind == "ghost.deal":
        if not has_ghost(state):
            raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
        entries = form.get("deck")
        # The deck comes from the list stored on the server, handed in as data; a posted form
        # only ever carries text, so a phone cannot slip in a deck of its own.
        if isinstance(entries, str) and entries.strip():
            raise RuleError("The app deals the ghost only from the deck list stored in the app.")
        if not entries or not isinstance(entries, (list, tuple)):
            raise RuleError("The app can deal the ghost only with a complete deck list; deal by hand instead.")
        extras = deck.parse_extras(form.get("extras"))
        cards = deck.build_deck(entries, extras)
        dealt = deck.deal_ghost(cards, rng)
        return {"round": state["round"], "face_up": dealt["face_up"], "redeals": dealt["redeals"], "extras": extras}
    if kind in ("ghost.down", "ghost.down.deal"):
        return _parse_face_down(kind, form, state, rng)
    if kind == "ghost.record":
        if not has_ghost(state):
            raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
        names = [form.get(f"card{i}") for i in range(1, deck.GHOST_FACE_UP + 1)]
        if not any(names):
            names = _form_list(form.get("cards"))
        face_up = []
        for name in names:
            name = deck.canonical_name(name.get("name") if isinstance(name, dict) else name)
            if len(name) > CARD_MAX:
                raise RuleError(f"A card name can be at most {CARD_MAX} characters.")
            face_up.append({"name": name, "number": None})
        return {"round": state["round"], "face_up": face_up}
    raise RuleError("Unknown action.")


def _parse_face_down(kind, form, state, rng):
    if not has_ghost(state):
        raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
    if state["resolve_number"] is None:
        raise RuleError("The ghost's face-down cards are turned over with the rear rows, when resolving starts.")
    count = deck.GHOST_FACE_DOWN
    if kind == "ghost.down":
        cards = []
        for i in range(1, count + 1):
            name = deck.canonical_name(form.get(f"down{i}"))
            if not name:
                raise RuleError(f"Name all {count} of the ghost's face-down cards.")
            if len(name) > CARD_MAX:
                raise RuleError(f"A card name can be at most {CARD_MAX} characters.")
            cards.append({"name": name, "number": None})
        return {"round": state["round"], "face_down": cards}
    entries = form.get("deck")
    if not entries or not isinstance(entries, (list, tuple)):
        raise RuleError("The app can draw her face-down cards only with a complete deck list; type them instead.")
    # What is left unseen: the deck (with this round's extras) less every card known by name.
    rest = deck.build_deck(entries, state["ghost"].get("extras") or [])
    known = [c["name"] for c in ghost_cards(state)]
    for picks in state["picks"].values():
        known += [p["card"] for p in picks if p["card"]]
    for name in known:
        for i, card in enumerate(rest):
            if deck.canonical_name(card["name"]) == deck.canonical_name(name):
                del rest[i]
                break
    if len(rest) < count:
        raise RuleError("Too few cards are left unseen to draw her face-down cards; type them instead.")
    drawn = rng.sample(rest, count)
    return {"round": state["round"], "face_down": [dict(c) for c in drawn]}


# ---- apply ---------------------------------------------------------------------------------


def check_round(state, data):
    if data.get("round") != state["round"]:
        raise RuleError(f"Round {data.get('round')} is already over; this is round {state['round']}.")


def no_three_face_up(state):
    if has_ghost(state) and state["ghost"]["three_magicians"]:
        raise RuleError("Three Magicians are face up at the ghost: deal her again before going on.")


def _ghost_cards(state, data, source):
    if not has_ghost(state):
        raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
    check_round(state, data)
    ghost = state["ghost"]
    if ghost["face_up"] is not None and not ghost["three_magicians"]:
        raise RuleError("The ghost's cards for this round are already dealt.")
    cards = _named_cards(data.get("face_up"), deck.GHOST_FACE_UP, "face-up")
    three = deck.magician_count(cards) >= deck.MAGICIANS_THAT_MISFIRE
    if three and source == "dealt":
        raise RuleError("A deal with three Magicians face up must be redone.")
    # Her cards may come late (the table started resolving without them), but once known
    # they stay for the round.
    if state["resolve_number"] is not None and ghost["face_up"] is not None:
        raise RuleError("Resolving has started: the ghost's face-up cards are set for this round.")
    ghost.update(
        {
            "face_up": cards,
            "source": source,
            "three_magicians": three,
            "redeals": data.get("redeals", 0) if source == "dealt" else 0,
            "extras": list(data.get("extras") or []),
        }
    )


def _named_cards(cards, count, side):
    """The ghost's cards of one side as [{"name", "number"}] (each a name or such a dict)."""
    if not isinstance(cards, list) or len(cards) != count:
        raise RuleError(f"The ghost has exactly {count} {side} cards.")
    named = []
    for card in cards:
        name = deck.canonical_name(card.get("name") if isinstance(card, dict) else card)
        if not name:
            raise RuleError(f"Name all {count} of the ghost's {side} cards.")
        named.append({"name": name, "number": card.get("number") if isinstance(card, dict) else None})
    return named


def _ghost_face_down(state, data, source):
    if not has_ghost(state):
        raise RuleError(f"The ghost only plays at a table of {GHOST_AT}.")
    check_round(state, data)
    ghost = state["ghost"]
    if state["resolve_number"] is None:
        raise RuleError("The ghost's face-down cards are turned over with the rear rows, when resolving starts.")
    if ghost["face_down"] is not None:
        raise RuleError(
            "The ghost's face-down cards for this round are already recorded: undo that entry to change them."
        )
    ghost["face_down"] = _named_cards(data.get("face_down"), deck.GHOST_FACE_DOWN, "face-down")
    ghost["face_down_source"] = source


def apply_ghost(state, kind, data):
    """Apply one of the ghost's KINDS to state (already a copy)."""
    if kind == "ghost.deal":
        _ghost_cards(state, data, "dealt")
    elif kind == "ghost.record":
        _ghost_cards(state, data, "typed")
    elif kind == "ghost.down":
        _ghost_face_down(state, data, "typed")
    elif kind == "ghost.down.deal":
        _ghost_face_down(state, data, "dealt")
