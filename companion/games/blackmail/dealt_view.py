"""What each viewer sees of a dealt round: their own hand and private results, the fingerprint
for all, the whole deal once the round is over; and the export without the shuffle."""

from .common import _name
from .rules import BY_NUMBER, RULE_IDS, SHORT_NAMES, card_label
from .shuffle import commit_text, fingerprint, short, verify_command


def _who(state, seat):
    return _name(state, seat)


# ---------------------------------------------------------------- what each viewer sees


def card_view(number):
    c = BY_NUMBER[number]
    return {
        "number": number,
        "name": c["name"],
        "short": SHORT_NAMES[number],
        "label": card_label(number),
        "rule": RULE_IDS[number],
        "effect": c["effect"],
        "target": c["target"],
        "names": c["names"],
    }


def _viewer_seats(state, viewer):
    """Seats whose hand and private results this viewer may see, and whether it is the host."""
    viewer = viewer or {}
    role = viewer.get("role")
    if role == "seat":
        return {viewer.get("seat")} - {None}, False
    if role == "host":
        return {viewer.get("seat")} - {None}, True
    return set(), False


def _private_text(state, note, viewer_seat, host_view):
    """One private result in words, for the viewer it is shown to."""
    you = note["by"] == viewer_seat and not host_view
    actor = "You" if you else _who(state, note["by"])
    what = note["what"]
    if what == "look":
        return f"{actor} looked at {_who(state, note['seat'])}'s card: {card_label(note['card'])}."
    if what == "secret":
        if note["card"] is None:
            return f"{actor} looked for the secret character: there is none this round."
        return f"{actor} looked at the secret character: {card_label(note['card'])}."
    if what == "duel":
        (a, a_card), (b, b_card) = note["cards"]

        def side(s, c):
            mine = s == viewer_seat and not host_view
            return f"{'your' if mine else _who(state, s) + chr(39) + 's'} {card_label(c)}"

        line = f"Cyril Figgis duel: {side(a, a_card)} against {side(b, b_card)}"
        return line + (": equal, nobody is out." if a_card == b_card else ".")
    holder = "you" if viewer_seat in note["to"] and not host_view else _who(state, note["to"][0])
    if what == "drew":
        got = "with the deck empty, took the secret character:" if note["source"] == "secret" else "drew"
        return f"Pam Poovey: {holder} dropped {card_label(note['dropped'])} and {got} {card_label(note['card'])}."
    if what == "took_secret":
        return (
            f"Ray Gillette: {holder} dropped {card_label(note['dropped'])} and took the "
            f"secret character, {card_label(note['card'])}."
        )
    if what == "lana":
        holds = "you now hold" if holder == "you" else f"{holder} now holds"
        return f"Lana Kane's reshuffle: {holds} {card_label(note['card'])}."
    return ""


def _note_cards(note):
    if note["what"] == "duel":
        return [c for _, c in note["cards"]]
    return [note["card"]] if note.get("card") is not None else []


def view(state, viewer):
    """The dealt part of a viewer's view: the fingerprint for all; a hand and private results
    only for the seat they belong to; the whole deal once the round is over.

    A host standing in sees the hand it plays, and afterwards exactly what the acting player
    learnt on that turn (a look, a duel, their own new card), only until the next card is
    played: never a card that went to another player (Lana's deal, Pam's or Ray's target)."""
    r = state["round"]
    d = r["deal"]
    seats, is_host = _viewer_seats(state, viewer)
    stand_in = d["stand_in"]
    over = r["stage"] != "playing"
    own = next(iter(seats), None)
    out = {
        "fingerprint": short(d["fingerprint"]),
        "fingerprint_full": d["fingerprint"],
        "turn_no": len(r["plays"]) + 1,
        "stand_in": stand_in,
        "stand_in_why": d.get("stand_in_why"),
        "handed_over": d.get("handed_over"),
        "seat": own,
        "hand": [card_view(c) for c in d["hands"].get(own, [])] if own is not None else None,
        # This phone's own cards this round, in the order it got them: remembered on the phone.
        "got": list(d.get("got", {}).get(own, [])) if own is not None else [],
        "stand_in_hand": None,
        "private": [],
        "reveal": reveal(state) if over else None,
    }
    if is_host and stand_in is not None and stand_in != own:
        out["stand_in_hand"] = [card_view(c) for c in d["hands"].get(stand_in, [])]
    played = len(r["plays"])
    for note in d["private"]:
        mine = own is not None and own in note["to"]
        as_host = (
            is_host and note["host"] and not mine and note["by"] in note["to"] and note["turn"] == played and not over
        )
        if not (mine or as_host):
            continue
        out["private"].append(
            {
                "turn": note["turn"],
                "what": note["what"],
                "by": note["by"],
                "played": card_label(note["played"]),
                "text": _private_text(state, note, own if mine else None, as_host),
                "cards": [card_view(c) for c in _note_cards(note)],
            }
        )
    out["private"].reverse()  # latest first
    return out


def reveal(state):
    """Everything about the round once it is over: the deal, the commitment and the final cards."""
    r = state["round"]
    d = r["deal"]
    text = commit_text(d)
    return {
        "fingerprint": d["fingerprint"],
        "short": short(d["fingerprint"]),
        "order": list(d["order"]),
        "lana": list(d["lana"]),
        "salt": d["salt"],
        "text": text,
        "command": verify_command(text),
        "secret": d["secret"],
        "first_secret": d["order"][0],
        "dealt": [{"seat": s, "card": d["order"][1 + i]} for i, s in enumerate(d["dealt_to"])],
        "hands": [{"seat": s, "cards": list(cards)} for s, cards in d["hands"].items() if cards],
    }


def public_data(kind, data):
    """An event's data without the deal's secrets (its fingerprint stays), for the export."""
    if not isinstance(data, dict) or "deal" not in data:
        return data
    data = dict(data)
    deal = data.pop("deal")
    try:
        data["fingerprint"] = fingerprint(deal)
    except (KeyError, TypeError):
        data["fingerprint"] = None
    return data
