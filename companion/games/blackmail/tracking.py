"""The "full" tracking mode: the table plays its own cards and each one is recorded (play),
then the cards in hand are entered at deck-out (hand). Form parsing and the reducer steps."""

from ..base import RuleError, seat_ids
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
    _yes,
    deck_count,
    seen_counts,
    still_in,
    whose_turn,
)
from .rules import ARCHER, BY_NUMBER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, NUMBERS, PAM, RAY, character_name

# ---------------------------------------------------------------- parse


def _check_duel_loser(state, revealed, face_up):
    """A Cyril loser's card is lower than the winner's: some higher card must still be unseen."""
    seen = seen_counts(state)
    unseen_higher = sum(BY_NUMBER[n]["copies"] - seen[n] - face_up.count(n) for n in NUMBERS if n > revealed)
    if unseen_higher <= 0:
        raise RuleError(f"{character_name(revealed)} cannot lose a Cyril duel: every higher card is already face up.")


def _acting_seat(form, state, actor):
    """A phone acts for its own seat; the host names a seat (defaulting to whose turn it is)."""
    if actor.get("role") == "seat":
        own = actor.get("seat")
        if not _blank(form.get("seat")) and _parse_seat(form.get("seat"), "Seat") != own:
            raise RuleError("From your phone you can only act for your own seat.")
        return own
    if _blank(form.get("seat")):
        turn = whose_turn(state)
        if turn is None:
            raise RuleError("Pick the seat this is for.")
        return turn
    return _parse_seat(form.get("seat"), "Seat")


def _parse_play(form, state, actor):
    r = state.get("round")
    if r and r["tracking"] != "full":
        raise RuleError("Card tracking is off for this round; record the round's winner instead.")
    seat = _acting_seat(form, state, actor)
    card = _parse_character(form.get("card"), "The card played")
    data = {"seat": seat, "card": card}
    if card == ARCHER:
        data["target"] = _opt_seat(form.get("target"), "The target")
        data["named"] = _opt_character(form.get("named"), "The named character")
        right = _yes(form.get("correct")) or (
            not _blank(form.get("eliminated"))
            and data["target"] is not None
            and _parse_seat(form.get("eliminated"), "The eliminated seat") == data["target"]
        )
        data["eliminated"] = data["target"] if right else None
    elif card == KRUEGER:
        data["named"] = _opt_character(form.get("named"), "The named character")
        data["correct"] = _yes(form.get("correct"))
    elif card == CYRIL:
        data["target"] = _opt_seat(form.get("target"), "The target")
        # The duel buttons say "the target lost" / "I lost" before a target is known to the page.
        loser = str(form.get("eliminated") or "").strip().lower()
        if loser == "target":
            if data["target"] is None:
                raise RuleError("Pick who Cyril dueled first.")
            data["eliminated"] = data["target"]
        elif loser in ("me", "self"):
            data["eliminated"] = seat
        elif loser == "equal":
            data["eliminated"] = None
        else:
            data["eliminated"] = _opt_seat(form.get("eliminated"), "The duel's loser")
        data["revealed"] = None
        if data["eliminated"] is not None:
            loser = _name(state, data["eliminated"])
            data["revealed"] = _shown_card(form, f"Which card did {loser} show on going out?")
        if data["revealed"] is not None and data["eliminated"] is not None:
            # Checked on entry only: a log recorded before this check still folds as it did.
            _check_duel_loser(state, data["revealed"], [CYRIL, data["revealed"]])
    elif card == CHERYL:
        data["choice"] = str(form.get("choice") or "").strip().lower()
    elif card in (PAM, RAY):
        data["target"] = _opt_seat(form.get("target"), "The target")
        data["discarded"] = _opt_character(form.get("discarded"), "The dropped card")
    elif card == MALORY:
        data["eliminated"] = seat
        data["revealed"] = _shown_card(form, f"Which card did {_name(state, seat)} have left in hand?")
    return data


NOT_SHOWN = "not_shown"  # the form's deliberate "Not shown" choice


def _shown_card(form, question):
    """A player going out lays their card face up (rulebook, Elimination), so the form asks for
    it; leaving it out takes the deliberate "Not shown" choice, never a blank."""
    value = str(form.get("revealed") or "").strip()
    if value.lower() == NOT_SHOWN:
        return None
    if _blank(value):
        raise RuleError(f"{question} Tap the card, or “Not shown” if nobody saw it.")
    return _parse_character(value, "The card shown")


# ---------------------------------------------------------------- apply


def _check_actor(event, seat, doing):
    by = event.get("by") or {}
    if by.get("role") == "seat" and by.get("seat") != seat:
        raise RuleError(f"Only that player's phone or the host can {doing}.")


def _check_count(state, face_up):
    """Refuse a play that would show more copies of a character than the deck holds."""
    seen = seen_counts(state)
    for n in sorted(set(face_up)):
        total = seen[n] + face_up.count(n)
        copies = BY_NUMBER[n]["copies"]
        if total > copies:
            already = seen[n]
            raise RuleError(
                f"Only {copies} {'copy' if copies == 1 else 'copies'} of {character_name(n)} "
                f"{'exists' if copies == 1 else 'exist'}, and {already} "
                f"{'is' if already == 1 else 'are'} already face up this round."
            )


def _apply_play(state, event):
    r = _live_round(state)
    data = event["data"]
    if r["tracking"] != "full":
        raise RuleError("Card tracking is off for this round; record the round's winner instead.")
    if r["stage"] != "playing":
        raise RuleError("The round is over: no more cards are played.")
    seat = data.get("seat")
    if seat not in seat_ids(state):
        raise RuleError("There is no such seat at this table.")
    _check_actor(event, seat, "record this card")
    if seat != r["turn"]:
        raise RuleError(f"It is {_name(state, r['turn'])}'s turn, not {_name(state, seat)}'s.")
    card = _character(data.get("card"), "The card played")
    entry = _play_entry(r, seat, card)
    face_up = [card]
    result = None

    if card == ARCHER:
        target = _check_target(state, seat, card, data.get("target"))
        entry["target"] = target
        if target is not None:
            named = _character(data.get("named"), "The named character")
            if named == ARCHER:
                raise RuleError("Sterling Archer cannot name Sterling Archer: pick another character.")
            entry["named"] = named
            if data.get("eliminated") not in (None, target):
                raise RuleError("Sterling Archer can only put out the player it targets.")
            if data.get("eliminated") == target:
                entry["eliminated"] = target
                entry["revealed"] = named  # the target's card is the one named
                face_up.append(named)
    elif card == KRUEGER:
        named = _character(data.get("named"), "The named character")
        entry["named"] = named
        entry["correct"] = bool(data.get("correct"))
    elif card == CYRIL:
        target = _check_target(state, seat, card, data.get("target"))
        entry["target"] = target
        loser = data.get("eliminated")
        if loser is not None:
            if target is None or loser not in (seat, target):
                raise RuleError("Only one of the two duelists can lose a Cyril duel.")
            entry["eliminated"] = loser
            if data.get("revealed") is not None:
                entry["revealed"] = _character(data["revealed"], "The loser's card")
                face_up.append(entry["revealed"])
    elif card == CHERYL:
        choice = data.get("choice")
        if choice not in ("protect", "look"):
            raise RuleError("Cheryl/Carol: pick protection or a look at the secret character.")
        entry["choice"] = choice
    elif card in (PAM, RAY):
        target = _check_target(state, seat, card, data.get("target"))
        entry["target"] = target
        if data.get("discarded") is None:
            raise RuleError(f"Which card did {_name(state, target)} drop?")
        entry["discarded"] = _character(data["discarded"], "The dropped card")
        face_up.append(entry["discarded"])
    elif card == MALORY:
        entry["eliminated"] = seat
        if data.get("revealed") is not None:
            entry["revealed"] = _character(data["revealed"], "The card left in hand")
            face_up.append(entry["revealed"])

    _check_count(state, face_up)
    if card == KRUEGER and entry["correct"]:
        if r["secret"]["status"] == "gone":
            raise RuleError("There is no secret character this round, so no guess can be right.")
        named = entry["named"]
        if seen_counts(state)[named] + face_up.count(named) >= BY_NUMBER[named]["copies"]:
            raise RuleError(f"Every copy of {character_name(named)} is face up, so it cannot be the secret character.")
        result = {"why": "secret_guessed", "winners": [seat]}

    # The count is fine: carry the card out.
    for n in face_up:
        r["seen"][n] += 1
    if entry["eliminated"] is not None:
        _eliminate(r, entry["eliminated"], card, seat, entry["revealed"])
    if card == CHERYL and entry["choice"] == "protect":
        r["protected"].append(seat)
    elif card in (PAM, RAY):
        _swap_effects(state, card, entry["target"])  # the dropped card itself does nothing
    elif card == LANA and r["secret"]["status"] != "gone":
        r["secret"] = {"status": "on_table", "seat": None, "reshuffled": True}

    entry["deck"] = deck_count(state)
    entry["event"] = event.get("id")
    r["plays"].append(entry)
    _after_play(state, seat, result)


def _swap_effects(state, card, target):
    """Pam and Ray: the deck count and the secret character; with an empty deck the secret goes."""
    r = state["round"]
    deck = deck_count(state)
    if card == PAM:
        if deck > 0:
            r["draws"] += 1
        elif r["secret"]["status"] != "gone":
            r["secret"] = {"status": "gone", "seat": target, "reshuffled": False}
    else:
        if r["secret"]["status"] == "gone":
            return
        if deck > 0:
            r["draws"] += 1
            r["secret"] = {"status": "taken_by_ray", "seat": target, "reshuffled": False}
        else:
            r["secret"] = {"status": "gone", "seat": target, "reshuffled": False}


def _apply_hand(state, event):
    r = _live_round(state)
    data = event["data"]
    deck_out = r["stage"] == "hands" or (r["result"] and r["result"]["why"] == "deck_out")
    if not deck_out:
        raise RuleError("Cards in hand are entered only when the deck has run out.")
    seat = data.get("seat")
    if seat not in still_in(state):
        raise RuleError("Only players still in the round show a card.")
    _check_actor(event, seat, "enter this card")
    card = _character(data.get("card"), "The card in hand")
    others = dict(r["hands"])
    others.pop(seat, None)
    shown = r["seen"][card] + sum(1 for c in others.values() if c == card)
    copies = BY_NUMBER[card]["copies"]
    if shown >= copies:
        raise RuleError(
            f"{_name(state, seat)} cannot hold {character_name(card)}: all {copies} "
            f"{'copy is' if copies == 1 else 'copies are'} already accounted for."
        )
    r["hands"][seat] = card
    live = still_in(state)
    if all(s in r["hands"] for s in live):
        best = max(r["hands"][s] for s in live)
        r.update(stage="over", result={"why": "deck_out", "winners": [s for s in live if r["hands"][s] == best]})
