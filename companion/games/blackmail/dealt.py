"""Once You Go Blackmail... dealt by the app: the shuffle, the hands, every card carried out.

The "dealt" tracking mode (moves.py hands its kinds here) keeps its hidden part in
state["round"]["deal"]:
  order, lana, salt   the round's committed randomness (see new_deal)
  fingerprint         sha256 of commit_text(...): public from the deal on
  secret              the secret character's number, or None once it is gone
  deck                the draw pile, top card first
  hands               seat -> the cards in that seat's hand (one, two on its turn)
  private             what a card showed to some players only (see view)
  stand_in            the seat the host is playing for this turn, or None
  stand_in_why        why it may: "away" (no open page for AWAY_SECONDS, checked by routes.py),
                      "handed_over" (the phone asked) or "no_phone" (a seat the host added)
  handed_over         the seat whose phone handed this turn to the host, or None
  got                 seat -> every card that seat was dealt or received this round, in order
                      (its phone remembers them for the fairness check)
Nothing here is shown to anyone except through dealt_view.view(), which view.view_for calls.

All the round's randomness is drawn at the deal, so the fingerprint covers all of it: the
order of the 16 cards, and the order Lana's reshuffle will hand cards back in (a shuffled
list of the positions 0..4; with fewer cards in the pool the positions too high are skipped,
which leaves a uniformly shuffled order of the rest). Pure: no Flask, no SQL, no files.
"""

from ..base import RuleError, clockwise_from, parse_int, seat_ids
from .common import (
    _after_play,
    _blank,
    _character,
    _check_target,
    _eliminate,
    _live_round,
    _name,
    _opt_character,
    _opt_seat,
    _parse_character,
    _parse_seat,
    _play_entry,
    is_dealt,
    out_seats,
    still_in,
)
from .dealt_view import card_view, public_data, reveal, view
from .rules import ARCHER, CHERYL, CYRIL, DEALT, DEALT_KINDS, KRUEGER, LANA, MALORY, PAM, RAY, character_name
from .shuffle import (
    SALT_BITS,
    SALT_PATTERN,
    SHORT_FINGERPRINT,
    VERIFY_COMMAND,
    check_deal,
    commit_text,
    fingerprint,
    full_deck,
    lana_positions,
    new_deal,
    parse_commit,
    short,
    verify,
    verify_command,
)

KINDS = DEALT_KINDS

# ---------------------------------------------------------------- opening a round


def open_round(state, deal):
    """Deal a round already opened by moves._open_round: secret, one card a seat, first draw."""
    check_deal(deal)
    r = state["round"]
    order = list(deal["order"])
    seats = clockwise_from(state, r["first_player"])
    hands = {seat: [order[1 + i]] for i, seat in enumerate(seats)}
    deck = order[1 + len(seats) :]
    hands[r["first_player"]].append(deck.pop(0))  # the first player draws at once

    r["tracking"] = DEALT
    r["deal"] = {
        "order": order,
        "lana": list(deal["lana"]),
        "salt": deal["salt"],
        "fingerprint": fingerprint(deal),
        "secret": order[0],
        "deck": deck,
        "hands": hands,
        "dealt_to": seats,
        "private": [],
        "stand_in": None,
        "stand_in_why": None,
        "handed_over": None,
        "got": {seat: list(cards) for seat, cards in hands.items()},
    }


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
    return _name(state, seat)


def _dealt_round(state, doing="play a card"):
    r = _live_round(state)
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
        raise RuleError(
            "That tap was for an earlier turn, so nothing was played. Your screen now shows the table as it is."
        )
    raise RuleError("That tap is not for the turn being played: reload the page and try again.")


# ---------------------------------------------------------------- parse


def parse(kind, form, state, actor):
    """Form -> event data for the dealt kinds. Only public facts: the card, target and name."""
    r = state.get("round")
    if not r or r.get("tracking") != DEALT:
        raise RuleError("The app does not hold the cards this round.")
    turn = _parse_turn(form)
    if kind == "dealt.stand_in":
        seat = _parse_seat(form.get("seat"), "The seat")
        return {"seat": seat, "turn": turn, "why": stand_in_why(state, seat)}
    if kind in ("dealt.hand_over", "dealt.reclaim"):
        return {"seat": _acting_seat(form, state, actor), "turn": turn}
    seat = _acting_seat(form, state, actor)
    return {
        "seat": seat,
        "turn": turn,
        "card": _parse_character(form.get("card"), "The card played"),
        "target": _opt_seat(form.get("target"), "The target"),
        "named": _opt_character(form.get("named"), "The named character"),
        "choice": None if _blank(form.get("choice")) else str(form.get("choice")).strip().lower(),
    }


def stand_in_why(state, seat):
    """Why the host may play this seat's turn, as far as the state knows: its phone handed the
    turn over, or the seat has no phone; else "away", which routes.py checks against the live
    pages before the action reaches parse."""
    for s in state["seats"]:
        if s["id"] == seat and not s.get("phone", True):
            return "no_phone"
    if state["round"]["deal"].get("handed_over") == seat:
        return "handed_over"
    return "away"


def _parse_turn(form):
    if _blank(form.get("turn")):
        raise RuleError("This tap does not say which turn it is for: reload the page and try again.")
    return parse_int(form.get("turn"), "The turn", 1, 999)


def _acting_seat(form, state, actor):
    """A phone plays its own hand; the host names the seat (default: whose turn it is)."""
    if actor.get("role") == "seat":
        own = actor.get("seat")
        if not _blank(form.get("seat")) and _parse_seat(form.get("seat"), "Seat") != own:
            raise RuleError("From your phone you can only play your own hand.")
        return own
    if _blank(form.get("seat")):
        return state["round"]["turn"]
    return _parse_seat(form.get("seat"), "Seat")


# ---------------------------------------------------------------- apply


def apply(state, event):
    """The reducer for the dealt kinds; state is already a copy (blackmail.apply made it)."""
    if event["kind"] == "dealt.stand_in":
        _apply_stand_in(state, event)
    elif event["kind"] == "dealt.hand_over":
        _apply_hand_over(state, event)
    elif event["kind"] == "dealt.reclaim":
        _apply_reclaim(state, event)
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
    why = data.get("why", "away")  # older logs carry no reason: their phone was away
    if why == "handed_over" and r["deal"].get("handed_over") != seat:
        raise RuleError(f"{_who(state, seat)} has not handed this turn to the host.")
    r["deal"]["stand_in"] = seat
    r["deal"]["stand_in_why"] = why


def _apply_hand_over(state, event):
    """A phone asks the host to play its turn (say a player who wants help or must step out)."""
    r = _dealt_round(state, "hand over a turn")
    data, by = event["data"], event.get("by") or {}
    _check_turn_number(r, data.get("turn"))
    seat = data.get("seat")
    if by.get("role") != "seat" or by.get("seat") != seat:
        raise RuleError("Only the player's own phone can hand their turn to the host.")
    if seat != r["turn"]:
        raise RuleError("You can hand over only your own turn, while it is yours.")
    if r["deal"].get("handed_over") == seat:
        raise RuleError("You have already handed this turn to the host.")
    r["deal"]["handed_over"] = seat


def _apply_reclaim(state, event):
    """The phone is back (it tapped "Take my turn back", or it opened the table again): a
    stand-in not played yet is cancelled, so the host stops seeing that hand."""
    r = _dealt_round(state, "take a turn back")
    data = event["data"]
    d = r["deal"]
    _check_turn_number(r, data.get("turn"))
    seat = data.get("seat")
    if d["stand_in"] != seat and d.get("handed_over") != seat:
        raise RuleError("The host is not playing this turn: it is still yours.")
    d["handed_over"] = None
    if d["stand_in"] == seat:
        d["stand_in"] = d["stand_in_why"] = None


def _apply_play(state, event):
    r = _dealt_round(state)
    d = r["deal"]
    data = event["data"]
    seat = data.get("seat")
    if seat not in seat_ids(state):
        raise RuleError("There is no such seat at this table.")
    _check_turn_number(r, data.get("turn"))
    if seat in out_seats(state):
        raise RuleError(f"{_who(state, seat)} is out of this round: no more cards to play.")
    if seat != r["turn"]:
        raise RuleError(f"It is {_who(state, r['turn'])}'s turn, not {_who(state, seat)}'s.")
    if not may_play(state, event.get("by"), seat):
        raise RuleError(
            f"Only {_who(state, seat)}'s phone can play this hand. If it is away, "
            "the host can confirm playing this turn for them."
        )
    card = _character(data.get("card"), "The card played")
    hand = d["hands"][seat]
    if card not in hand:
        raise RuleError(f"{_who(state, seat)} does not hold {character_name(card)}: play one of the two cards in hand.")
    hand.remove(card)
    kept = hand[0]
    entry = _play_entry(r, seat, card, secret_gone=False)
    face_up = [card]
    result = None
    private = []

    def tell(to, what, **facts):
        private.append({"to": list(to), "what": what, **facts})

    if card == ARCHER:
        entry["target"] = target = _check_target(state, seat, card, data.get("target"))
        if target is not None:
            named = _named(data, "Name a character for Sterling Archer.")
            if named == ARCHER:
                raise RuleError("Sterling Archer cannot name Sterling Archer: pick another character.")
            entry["named"] = named
            theirs = d["hands"][target][0]
            tell([seat], "look", seat=target, card=theirs)
            if theirs == named:
                entry["eliminated"], entry["revealed"] = target, theirs
    elif card == KRUEGER:
        entry["named"] = named = _named(data, "Name a character for Dr. Krueger.")
        tell([seat], "secret", card=d["secret"])
        entry["correct"] = d["secret"] is not None and named == d["secret"]
        if entry["correct"]:
            result = {"why": "secret_guessed", "winners": [seat]}
    elif card == CYRIL:
        entry["target"] = target = _check_target(state, seat, card, data.get("target"))
        if target is not None:
            theirs = d["hands"][target][0]
            tell([seat, target], "duel", cards=[[seat, kept], [target, theirs]])
            if kept != theirs:
                loser = seat if kept < theirs else target
                entry["eliminated"], entry["revealed"] = loser, min(kept, theirs)
    elif card == CHERYL:
        choice = data.get("choice")
        if choice not in ("protect", "look"):
            raise RuleError("Cheryl/Carol: pick protection or a look at the secret character.")
        entry["choice"] = choice
        if choice == "protect":
            r["protected"].append(seat)
        else:
            tell([seat], "secret", card=d["secret"])
    elif card in (PAM, RAY):
        entry["target"] = target = _check_target(state, seat, card, data.get("target"))
        if target is None:  # "any" always allows yourself, so this only guards a bad event
            raise RuleError(f"Pick who {character_name(card)} is played on.")
        if card == RAY and d["secret"] is None:
            raise RuleError("There is no secret character left for Ray Gillette to hand over.")
        entry["discarded"] = d["hands"][target].pop()  # dropped face up, with no effect
        face_up.append(entry["discarded"])
        if card == PAM:
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
        _got(d, target, new)
    elif card == LANA:
        # Cheryl/Carol's cover holds against Lana too: a protected player keeps their card.
        live = [s for s in still_in(state) if s not in r["protected"]]
        pool = [d["hands"][s][0] for s in live] + ([d["secret"]] if d["secret"] is not None else [])
        mixed = [pool[i] for i in d["lana"] if i < len(pool)]
        for s, new in zip(live, mixed):
            d["hands"][s] = [new]
            _got(d, s, new)
            tell([s], "lana", card=new)
        if d["secret"] is not None:
            d["secret"] = mixed[-1]
            r["secret"] = {"status": "on_table", "seat": None, "reshuffled": True}
    elif card == MALORY:
        entry["eliminated"], entry["revealed"] = seat, kept

    if entry["revealed"] is not None:
        face_up.append(entry["revealed"])
    for n in face_up:
        r["seen"][n] += 1
    if entry["eliminated"] is not None:
        d["hands"][entry["eliminated"]] = []  # the hand lies face up now (in r["out"])
        _eliminate(r, entry["eliminated"], card, seat, entry["revealed"])
    host_played = (event.get("by") or {}).get("role") == "host" and (event.get("by") or {}).get("seat") != seat
    for note in private:
        note.update(turn=entry["turn"], by=seat, played=card, host=host_played)
        d["private"].append(note)

    entry["deck"] = len(d["deck"])
    entry["event"] = event.get("id")
    r["plays"].append(entry)
    d["stand_in"] = d["stand_in_why"] = d["handed_over"] = None
    _after_play(state, seat, result)
    if r["stage"] == "hands":
        # The deck ran out: everyone still in shows their card, the highest wins (ties all win).
        live = still_in(state)
        r["hands"] = {s: d["hands"][s][0] for s in live}
        best = max(r["hands"].values())
        r.update(stage="over", result={"why": "deck_out", "winners": [s for s in live if r["hands"][s] == best]})
    elif r["stage"] == "playing":
        drawn = d["deck"].pop(0)
        d["hands"][r["turn"]].append(drawn)  # the next player draws
        _got(d, r["turn"], drawn)


def _got(d, seat, card):
    d.setdefault("got", {}).setdefault(seat, []).append(card)


def _named(data, missing):
    if data.get("named") is None:
        raise RuleError(missing)
    return _character(data.get("named"), "The named character")


def _draw_or_secret(r, seat):
    """Pam's redraw: the top card, or the secret character when the deck is empty."""
    d = r["deal"]
    if d["deck"]:
        r["draws"] += 1
        return d["deck"].pop(0), "deck"
    new, d["secret"] = d["secret"], None
    r["secret"] = {"status": "gone", "seat": seat, "reshuffled": False}
    return new, "secret"
