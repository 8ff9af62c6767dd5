"""Age of Assassins: the draft (picks into the front and rear rows, revealed together).

Pick k of every seat is revealed at once, so nobody makes pick k + 1 before the whole table has
made pick k; a revealed pick can be taken back only by the host.
"""

from ..base import RuleError, find_seat, parse_int, seat_name
from . import deck
from .ghost import no_three_face_up
from .rules import CARD_MAX, PICKS, ROWS
from .state import names, picks_left, revealed, row_counts

KINDS = ("draft.pick", "draft.unpick")


def parse_seat(state, value):
    seat = parse_int(value, "Seat", 0, 2**31)
    find_seat(state, seat)
    return seat


def parse_draft(kind, form, state, actor):
    """Event data for one of the draft's KINDS."""
    if kind == "draft.pick":
        seat = parse_seat(state, form.get("seat", actor.get("seat") if actor else None))
        row = str(form.get("row", "")).strip().lower()
        if row not in ROWS:
            raise RuleError("Choose the front row or the rear row.")
        card = " ".join(str(form.get("card") or "").split())
        if len(card) > CARD_MAX:
            raise RuleError(f"A card name can be at most {CARD_MAX} characters.")
        return {"seat": seat, "row": row, "card": deck.canonical_name(card) if card else ""}
    if kind == "draft.unpick":
        return {"seat": parse_seat(state, form.get("seat", actor.get("seat") if actor else None))}
    raise RuleError("Unknown action.")


def _check_own_seat(event, seat):
    by = event.get("by") or {}
    if by.get("role") == "seat" and by.get("seat") != seat:
        raise RuleError("You can only record your own picks.")


def _pick(state, event):
    data = event["data"]
    seat = data["seat"]
    find_seat(state, seat)
    _check_own_seat(event, seat)
    row = data["row"]
    if row not in ROWS:
        raise RuleError("Choose the front row or the rear row.")
    name = seat_name(state, seat)
    no_three_face_up(state)
    if picks_left(state, seat) <= 0:
        raise RuleError(f"{name} has made all {PICKS} picks this round.")
    shown = revealed(state)
    if len(state["picks"][seat]) > shown:
        # Everyone reveals pick k together: nobody moves on to the next one before that.
        behind = [s["id"] for s in state["seats"] if len(state["picks"][s["id"]]) == shown]
        raise RuleError(
            f"{name} has made pick {shown + 1}; the next waits until "
            f"{names(state, behind)} {'has' if len(behind) == 1 else 'have'} made it too."
        )
    counts = row_counts(state, seat)
    if counts[row] >= ROWS[row]:
        other = "front" if row == "rear" else "rear"
        raise RuleError(f"{name}'s {row} row is full ({ROWS[row]} cards): this pick goes to the {other} row.")
    card = str(data.get("card") or "")
    if len(card) > CARD_MAX:
        raise RuleError(f"A card name can be at most {CARD_MAX} characters.")
    state["picks"][seat].append({"row": row, "card": card})


def _unpick(state, event):
    seat = event["data"]["seat"]
    find_seat(state, seat)
    _check_own_seat(event, seat)
    if not state["picks"][seat]:
        raise RuleError(f"{seat_name(state, seat)} has no pick to take back.")
    by = event.get("by") or {}
    if len(state["picks"][seat]) <= revealed(state) and by.get("role") != "host":
        raise RuleError(
            f"Pick {len(state['picks'][seat])} is already revealed to the table: only the host can take it back."
        )
    state["picks"][seat].pop()


def apply_draft(state, event):
    """Apply one of the draft's KINDS to state (already a copy)."""
    if event["kind"] == "draft.pick":
        _pick(state, event)
    else:
        _unpick(state, event)
