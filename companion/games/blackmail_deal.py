"""Once You Go Blackmail... dealt by the app: the shuffle, the hands, every card carried out.

The "dealt" tracking mode of blackmail.py keeps its hidden part in state["round"]["deal"]:
  order, lana, salt   the round's committed randomness (see new_deal)
  fingerprint         sha256 of commit_text(...): public from the deal on
  secret              the secret character's number, or None once it is gone
  deck                the draw pile, top card first
  hands               seat -> the cards in that seat's hand (one, two on its turn)
  private             what a card showed to some players only (see view)
  stand_in            the seat the host is playing for this turn (its phone is away), or None
Nothing here is shown to anyone except through view(), which blackmail.view_for calls.

All the round's randomness is drawn at the deal, so the fingerprint covers all of it: the
order of the 16 cards, and the order Lana's reshuffle will hand cards back in (a shuffled
list of the positions 0..4; with fewer cards in the pool the positions too high are skipped,
which leaves a uniformly shuffled order of the rest). Pure: no Flask, no SQL, no files.
"""

import hashlib
import re

from . import blackmail as bm
from .base import RuleError, clockwise_from, parse_int, seat_ids

DEALT = "dealt"
KINDS = ("dealt.play", "dealt.stand_in")
SALT_BITS = 128
SHORT_FINGERPRINT = 16       # hex digits shown on the screens, in groups of four
SALT_PATTERN = re.compile(r"[0-9a-f]{32}")
# One line, Python's standard library only: prints the hash of the text the app revealed.
VERIFY_COMMAND = ("python3 -c 'import hashlib,sys;print(hashlib.sha256(sys.argv[1].encode())"
                  ".hexdigest())' '{text}'")


# ---------------------------------------------------------------- the deck and the commitment

def full_deck():
    """The 16 cards by number, from the rules data (copies per character)."""
    return [c["number"] for c in bm.CHARACTERS for _ in range(c["copies"])]


def lana_positions():
    """Hands that can be in Lana's pool (every seat) plus the secret character."""
    return bm.MAX_SEATS + bm.SECRET_CARDS


def new_deal(rng):
    """A round's randomness, drawn from rng (secrets.SystemRandom in the app)."""
    order = full_deck()
    rng.shuffle(order)
    lana = list(range(lana_positions()))
    rng.shuffle(lana)
    return {"order": order, "lana": lana, "salt": f"{rng.getrandbits(SALT_BITS):032x}"}


def check_deal(deal):
    """Refuse a deal that is not a shuffle of the 16 cards (a forged or damaged event)."""
    if not isinstance(deal, dict):
        raise RuleError("This round has no deal.")
    order, lana, salt = deal.get("order"), deal.get("lana"), deal.get("salt")
    if not isinstance(order, list) or sorted(order) != sorted(full_deck()):
        raise RuleError(f"A deal must hold the {bm.DECK_SIZE} cards of the deck exactly.")
    if not isinstance(lana, list) or sorted(lana) != list(range(lana_positions())):
        raise RuleError("A deal's reshuffle order is damaged.")
    if not isinstance(salt, str) or not SALT_PATTERN.fullmatch(salt):
        raise RuleError("A deal's salt is damaged.")


def commit_text(deal):
    """What the fingerprint is the hash of: order|lana|salt, e.g. '1,8,5,...|3,0,4,1,2|9f0c...'."""
    return "|".join((",".join(str(n) for n in deal["order"]),
                     ",".join(str(i) for i in deal["lana"]), deal["salt"]))


def fingerprint(deal):
    return hashlib.sha256(commit_text(deal).encode()).hexdigest()


def short(fingerprint_hex):
    """The first hex digits, grouped to read aloud: '3f2a 9c1b 0e77 d4a2'."""
    head = fingerprint_hex[:SHORT_FINGERPRINT]
    return " ".join(head[i:i + 4] for i in range(0, len(head), 4))


def verify_command(text):
    return VERIFY_COMMAND.format(text=text)


def parse_commit(text):
    """A revealed text back into a deal dict, or a RuleError saying what is wrong with it."""
    parts = str(text or "").strip().split("|")
    if len(parts) != 3:
        raise RuleError("The revealed text has three parts separated by |: order, reshuffle, salt.")
    try:
        order = [int(n) for n in parts[0].split(",")]
        lana = [int(n) for n in parts[1].split(",")]
    except ValueError:
        raise RuleError("The order and the reshuffle are numbers separated by commas.") from None
    deal = {"order": order, "lana": lana, "salt": parts[2]}
    check_deal(deal)
    return deal


def verify(text, shown):
    """Check a revealed text against the fingerprint shown at the deal (full or its short form).

    Returns {"ok", "computed", "problem", "deal"}: ok when the text is a fair deck and its hash
    starts with the digits shown (spaces ignored, at least the short form's length)."""
    computed = hashlib.sha256(str(text or "").strip().encode()).hexdigest()
    digits = re.sub(r"\s+", "", str(shown or "")).lower()
    answer = {"ok": False, "computed": computed, "problem": None, "deal": None}
    try:
        answer["deal"] = parse_commit(text)
    except RuleError as error:
        answer["problem"] = str(error)
        return answer
    if len(digits) < SHORT_FINGERPRINT or not re.fullmatch(r"[0-9a-f]+", digits):
        answer["problem"] = f"Give at least the {SHORT_FINGERPRINT} hex digits shown at the deal."
    elif not computed.startswith(digits):
        answer["problem"] = "The hash of this text does not match the fingerprint shown at the deal."
    else:
        answer["ok"] = True
    return answer


# ---------------------------------------------------------------- opening a round

def open_round(state, deal):
    """Deal a round already opened by blackmail._open_round: secret, one card a seat, first draw."""
    check_deal(deal)
    r = state["round"]
    order = list(deal["order"])
    seats = clockwise_from(state, r["first_player"])
    hands = {seat: [order[1 + i]] for i, seat in enumerate(seats)}
    deck = order[1 + len(seats):]
    hands[r["first_player"]].append(deck.pop(0))     # the first player draws at once
    r["tracking"] = DEALT
    r["deal"] = {"order": order, "lana": list(deal["lana"]), "salt": deal["salt"],
                 "fingerprint": fingerprint(deal), "secret": order[0], "deck": deck,
                 "hands": hands, "dealt_to": seats, "private": [], "stand_in": None}


def is_dealt(state):
    r = state.get("round")
    return bool(r) and r.get("tracking") == DEALT


# ---------------------------------------------------------------- who plays a hand

def may_play(state, actor, seat):
    """Whether this actor may play seat's hand: its own phone, or the host for its own seat or
    for the seat it confirmed standing in for."""
    actor = actor or {}
    if actor.get("role") == "seat":
        return actor.get("seat") == seat
    if actor.get("role") == "host":
        return actor.get("seat") == seat or state["round"]["deal"]["stand_in"] == seat
    return False


def _who(state, seat):
    return bm._name(state, seat)


def _dealt_round(state, doing="play a card"):
    r = bm._live_round(state)
    if r.get("tracking") != DEALT:
        raise RuleError("The app does not hold the cards this round: record plays by hand.")
    if r["stage"] != "playing":
        raise RuleError(f"The round is over: nobody can {doing} now.")
    return r


def _check_turn_number(r, value):
    """A tap carries the turn it was made on: a resent or stale one must not act again."""
    now = len(r["plays"]) + 1
    if value == now:
        return
    if isinstance(value, int) and value < now:
        raise RuleError("That tap was for an earlier turn, so nothing was played. Your screen "
                        "now shows the table as it is.")
    raise RuleError("That tap is not for the turn being played: reload the page and try again.")


# ---------------------------------------------------------------- parse

def parse(kind, form, state, actor):
    """Form -> event data for the dealt kinds. Only public facts: the card, target and name."""
    r = state.get("round")
    if not r or r.get("tracking") != DEALT:
        raise RuleError("The app does not hold the cards this round.")
    turn = _parse_turn(form)
    if kind == "dealt.stand_in":
        seat = bm._parse_seat(form.get("seat"), "The seat")
        return {"seat": seat, "turn": turn}
    seat = _acting_seat(form, state, actor)
    return {"seat": seat, "turn": turn,
            "card": bm._parse_character(form.get("card"), "The card played"),
            "target": bm._opt_seat(form.get("target"), "The target"),
            "named": bm._opt_character(form.get("named"), "The named character"),
            "choice": None if bm._blank(form.get("choice")) else str(form.get("choice")).strip().lower()}


def _parse_turn(form):
    if bm._blank(form.get("turn")):
        raise RuleError("This tap does not say which turn it is for: reload the page and try again.")
    return parse_int(form.get("turn"), "The turn", 1, 999)


def _acting_seat(form, state, actor):
    """A phone plays its own hand; the host names the seat (default: whose turn it is)."""
    if actor.get("role") == "seat":
        own = actor.get("seat")
        if not bm._blank(form.get("seat")) and bm._parse_seat(form.get("seat"), "Seat") != own:
            raise RuleError("From your phone you can only play your own hand.")
        return own
    if bm._blank(form.get("seat")):
        return state["round"]["turn"]
    return bm._parse_seat(form.get("seat"), "Seat")


# ---------------------------------------------------------------- apply

def apply(state, event):
    """The reducer for the dealt kinds; state is already a copy (blackmail.apply made it)."""
    if event["kind"] == "dealt.stand_in":
        _apply_stand_in(state, event)
    else:
        _apply_play(state, event)


def _apply_stand_in(state, event):
    r = _dealt_round(state, "take over a turn")
    data, by = event["data"], event.get("by") or {}
    if by.get("role") != "host":
        raise RuleError("Only the host can play a turn for another player.")
    _check_turn_number(r, data.get("turn"))
    seat = data.get("seat")
    if seat != r["turn"]:
        raise RuleError("The host can only play the turn of the player whose turn it is.")
    if seat == by.get("seat"):
        raise RuleError("That is your own seat: play from your hand.")
    if r["deal"]["stand_in"] == seat:
        raise RuleError(f"You are already playing {_who(state, seat)}'s turn.")
    r["deal"]["stand_in"] = seat


def _apply_play(state, event):
    r = _dealt_round(state)
    d = r["deal"]
    data = event["data"]
    seat = data.get("seat")
    if seat not in seat_ids(state):
        raise RuleError("There is no such seat at this table.")
    _check_turn_number(r, data.get("turn"))
    if seat in bm.out_seats(state):
        raise RuleError(f"{_who(state, seat)} is out of this round: no more cards to play.")
    if seat != r["turn"]:
        raise RuleError(f"It is {_who(state, r['turn'])}'s turn, not {_who(state, seat)}'s.")
    if not may_play(state, event.get("by"), seat):
        raise RuleError(f"Only {_who(state, seat)}'s phone can play this hand. If it is away, "
                        "the host can confirm playing this turn for them.")
    card = bm._character(data.get("card"), "The card played")
    hand = d["hands"][seat]
    if card not in hand:
        raise RuleError(f"{_who(state, seat)} does not hold {bm.character_name(card)}: play one of "
                        "the two cards in hand.")
    hand.remove(card)
    kept = hand[0]
    entry = {"turn": len(r["plays"]) + 1, "seat": seat, "card": card, "target": None,
             "named": None, "choice": None, "discarded": None, "eliminated": None,
             "revealed": None, "correct": None, "secret_gone": False}
    face_up = [card]
    result = None
    private = []

    def tell(to, what, **facts):
        private.append({"to": list(to), "what": what, **facts})

    if card == bm.ARCHER:
        entry["target"] = target = bm._check_target(state, seat, card, data.get("target"))
        if target is not None:
            named = _named(data, "Name a character for Sterling Archer.")
            if named == bm.ARCHER:
                raise RuleError("Sterling Archer cannot name Sterling Archer: pick another character.")
            entry["named"] = named
            theirs = d["hands"][target][0]
            tell([seat], "look", seat=target, card=theirs)
            if theirs == named:
                entry["eliminated"], entry["revealed"] = target, theirs
    elif card == bm.KRUEGER:
        entry["named"] = named = _named(data, "Name a character for Dr. Krueger.")
        tell([seat], "secret", card=d["secret"])
        entry["correct"] = d["secret"] is not None and named == d["secret"]
        if entry["correct"]:
            result = {"why": "secret_guessed", "winners": [seat]}
    elif card == bm.CYRIL:
        entry["target"] = target = bm._check_target(state, seat, card, data.get("target"))
        if target is not None:
            theirs = d["hands"][target][0]
            tell([seat, target], "duel", cards=[[seat, kept], [target, theirs]])
            if kept != theirs:
                loser = seat if kept < theirs else target
                entry["eliminated"], entry["revealed"] = loser, min(kept, theirs)
    elif card == bm.CHERYL:
        choice = data.get("choice")
        if choice not in ("protect", "look"):
            raise RuleError("Cheryl/Carol: pick protection or a look at the secret character.")
        entry["choice"] = choice
        if choice == "protect":
            r["protected"].append(seat)
        else:
            tell([seat], "secret", card=d["secret"])
    elif card in (bm.PAM, bm.RAY):
        entry["target"] = target = bm._check_target(state, seat, card, data.get("target"))
        if target is None:   # "any" always allows yourself, so this only guards a bad event
            raise RuleError(f"Pick who {bm.character_name(card)} is played on.")
        if card == bm.RAY and d["secret"] is None:
            raise RuleError("There is no secret character left for Ray Gillette to hand over.")
        entry["discarded"] = d["hands"][target].pop()    # dropped face up, with no effect
        face_up.append(entry["discarded"])
        if card == bm.PAM:
            new, source = _draw_or_secret(r, target)
            entry["secret_gone"] = source == "secret"
            tell([target], "drew", card=new, source=source, dropped=entry["discarded"])
        else:
            new = d["secret"]
            if d["deck"]:
                d["secret"] = d["deck"].pop(0)
                r["draws"] += 1
                r["secret"] = {"status": "taken_by_ray", "seat": target, "reshuffled": False}
            else:
                d["secret"] = None
                r["secret"] = {"status": "gone", "seat": target, "reshuffled": False}
                entry["secret_gone"] = True
            tell([target], "took_secret", card=new, dropped=entry["discarded"])
        d["hands"][target] = [new]
    elif card == bm.LANA:
        live = bm.still_in(state)
        pool = [d["hands"][s][0] for s in live] + ([d["secret"]] if d["secret"] is not None else [])
        mixed = [pool[i] for i in d["lana"] if i < len(pool)]
        for s, new in zip(live, mixed):
            d["hands"][s] = [new]
            tell([s], "lana", card=new)
        if d["secret"] is not None:
            d["secret"] = mixed[-1]
            r["secret"] = {"status": "on_table", "seat": None, "reshuffled": True}
    elif card == bm.MALORY:
        entry["eliminated"], entry["revealed"] = seat, kept

    if entry["revealed"] is not None:
        face_up.append(entry["revealed"])
    for n in face_up:
        r["seen"][n] += 1
    if entry["eliminated"] is not None:
        d["hands"][entry["eliminated"]] = []      # the hand lies face up now (in r["out"])
        bm._eliminate(r, entry["eliminated"], card, seat, entry["revealed"])
    host_played = (event.get("by") or {}).get("role") == "host" and (event.get("by") or {}).get("seat") != seat
    for note in private:
        note.update(turn=entry["turn"], by=seat, played=card, host=host_played)
        d["private"].append(note)

    entry["deck"] = len(d["deck"])
    entry["event"] = event.get("id")
    r["plays"].append(entry)
    d["stand_in"] = None
    bm._after_play(state, seat, result)
    if r["stage"] == "hands":
        # The deck ran out: everyone still in shows their card, the highest wins (ties all win).
        live = bm.still_in(state)
        r["hands"] = {s: d["hands"][s][0] for s in live}
        best = max(r["hands"].values())
        r.update(stage="over", result={"why": "deck_out",
                                       "winners": [s for s in live if r["hands"][s] == best]})
    elif r["stage"] == "playing":
        d["hands"][r["turn"]].append(d["deck"].pop(0))   # the next player draws


def _named(data, missing):
    if data.get("named") is None:
        raise RuleError(missing)
    return bm._character(data.get("named"), "The named character")


def _draw_or_secret(r, seat):
    """Pam's redraw: the top card, or the secret character when the deck is empty."""
    d = r["deal"]
    if d["deck"]:
        r["draws"] += 1
        return d["deck"].pop(0), "deck"
    new, d["secret"] = d["secret"], None
    r["secret"] = {"status": "gone", "seat": seat, "reshuffled": False}
    return new, "secret"


# ---------------------------------------------------------------- what each viewer sees

def card_view(number):
    c = bm.BY_NUMBER[number]
    return {"number": number, "name": c["name"], "short": bm.SHORT_NAMES[number],
            "label": bm.card_label(number), "rule": bm.RULE_IDS[number], "effect": c["effect"],
            "target": c["target"], "names": c["names"]}


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
        return f"{actor} looked at {_who(state, note['seat'])}'s card: {bm.card_label(note['card'])}."
    if what == "secret":
        if note["card"] is None:
            return f"{actor} looked for the secret character: there is none this round."
        return f"{actor} looked at the secret character: {bm.card_label(note['card'])}."
    if what == "duel":
        (a, a_card), (b, b_card) = note["cards"]
        def side(s, c):
            mine = s == viewer_seat and not host_view
            return f"{'your' if mine else _who(state, s) + chr(39) + 's'} {bm.card_label(c)}"
        line = f"Cyril Figgis duel: {side(a, a_card)} against {side(b, b_card)}"
        return line + (": equal, nobody is out." if a_card == b_card else ".")
    holder = "you" if viewer_seat in note["to"] and not host_view else _who(state, note["to"][0])
    if what == "drew":
        got = ("with the deck empty, took the secret character:" if note["source"] == "secret"
               else "drew")
        return (f"Pam Poovey: {holder} dropped {bm.card_label(note['dropped'])} and {got} "
                f"{bm.card_label(note['card'])}.")
    if what == "took_secret":
        return (f"Ray Gillette: {holder} dropped {bm.card_label(note['dropped'])} and took the "
                f"secret character, {bm.card_label(note['card'])}.")
    if what == "lana":
        holds = "you now hold" if holder == "you" else f"{holder} now holds"
        return f"Lana Kane's reshuffle: {holds} {bm.card_label(note['card'])}."
    return ""


def _note_cards(note):
    if note["what"] == "duel":
        return [c for _, c in note["cards"]]
    return [note["card"]] if note.get("card") is not None else []


def view(state, viewer):
    """The dealt part of a viewer's view: the fingerprint for all; a hand and private results
    only for the seat they belong to (and the host standing in for it this turn); the whole
    deal once the round is over."""
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
        "seat": own,
        "hand": [card_view(c) for c in d["hands"].get(own, [])] if own is not None else None,
        "stand_in_hand": None,
        "private": [],
        "reveal": reveal(state) if over else None,
    }
    if is_host and stand_in is not None and stand_in != own:
        out["stand_in_hand"] = [card_view(c) for c in d["hands"].get(stand_in, [])]
    for note in d["private"]:
        mine = own is not None and own in note["to"]
        as_host = is_host and note["host"] and not mine
        if not (mine or as_host):
            continue
        out["private"].append({
            "turn": note["turn"], "what": note["what"], "by": note["by"],
            "played": bm.card_label(note["played"]),
            "text": _private_text(state, note, own if mine else None, as_host),
            "cards": [card_view(c) for c in _note_cards(note)],
        })
    out["private"].reverse()    # latest first
    return out


def reveal(state):
    """Everything about the round once it is over: the deal, the commitment and the final cards."""
    r = state["round"]
    d = r["deal"]
    text = commit_text(d)
    return {
        "fingerprint": d["fingerprint"], "short": short(d["fingerprint"]),
        "order": list(d["order"]), "lana": list(d["lana"]), "salt": d["salt"],
        "text": text, "command": verify_command(text),
        "secret": d["secret"], "first_secret": d["order"][0],
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
