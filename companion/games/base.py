"""What every game module shares: the error a player sees, the seat roster, seat order.

A table's state is a plain dict owned by its game module. The roster lives in
state["seats"]: a list of {"id": int, "name": str, "phone": bool} in clockwise order.
The core applies roster events (ROSTER_KINDS) with `apply_roster` before handing every
event, roster ones included, to the game's own `apply`, so a game can set up or tidy
per-seat data when seats come and go.

An event is {"id": int, "kind": str, "by": actor, "data": dict, "at": str}, where actor is
{"role": "host" | "seat", "seat": int | None}.
"""

import copy
import json

ROSTER_KINDS = {"seat.join", "seat.rename", "seat.remove", "seat.reorder"}


def once_per_state(make):
    """make(state), kept for the last state asked about. Every kind of viewer asks for a view
    of the same state at each change, and a fold's state is replaced, never changed, so the
    same object is the same state. For the parts of a view that are the same for every
    viewer; what changes one of them copies it first."""
    last = (None, None)

    def kept(state):
        nonlocal last
        held, made = last  # one read: another thread may replace it meanwhile
        if held is not state:
            made = make(state)
            last = (state, made)
        return made

    return kept


class RuleError(ValueError):
    """A move the rules (or the app's readings) refuse; its text is shown to the player."""


class NotAllowed(RuleError):
    """This viewer may not do that at all (a 403), as opposed to a move the rules refuse."""


# --- who may act: one table per game, asked for posting and for undoing alike ----------
# A game declares WHO = {kind: HOST | OWN} (any other kind: ANY) and DRAWN, the kinds whose
# outcome the app drew at random. Undoing an entry needs the right to post it; undoing a
# drawn outcome would let a player pick which draw counts, so only the host may, as a redo.
HOST = "host"  # the host only
OWN = "own"  # the seat the entry concerns (its data's "seat", else whoever posted it), or the host
ANY = "any"  # any seat, and the host
ROSTER_WHO = {"seat.remove": HOST}  # joins, renames and reorders are fixed in place, not undone

# A shared screen (the tablet in the middle) posts for the seat whose panel was tapped, with
# that seat's rights, and marks the actor {"via": SHARED_SCREEN}. Only the kinds a game lists
# in SHARED may come that way; NOT_SHARED holds the rest (a hand, a pick, a hidden card, or a
# step only the host takes), so every kind is on one list (tests/routes/test_authority.py walks them).
# The refusal is one sentence, whatever the kind, the seat or any card.
SHARED_SCREEN = "tablet"
SHARED_REFUSAL = (
    "The tablet in the middle cannot do that: it is done on the player's own phone or by the host. Nothing changed."
)


def from_shared_screen(actor):
    return (actor or {}).get("via") == SHARED_SCREEN


def shared_screen_may(module, kind):
    """Whether a shared screen may post (and undo) this kind for a seat."""
    return kind in module.SHARED


def who_may(module, kind):
    if kind in ROSTER_KINDS:
        return ROSTER_WHO.get(kind)
    if kind in module.HOST_ONLY:
        return HOST
    return module.WHO.get(kind, ANY)


def concerned_seat(event):
    seat = (event.get("data") or {}).get("seat")
    return seat if isinstance(seat, int) else event["by"]["seat"]


def check_post(module, kind, actor, data):
    """Refuse (NotAllowed) a posted action its actor has no right to; data is the parsed event."""
    if from_shared_screen(actor) and not shared_screen_may(module, kind):
        raise NotAllowed(SHARED_REFUSAL)
    rule = who_may(module, kind)
    if actor["role"] == "host":
        return
    if rule == HOST:
        raise NotAllowed("Only the host can do that.")
    if rule == OWN and concerned_seat({"data": data, "by": actor}) != actor["seat"]:
        raise NotAllowed("Only that player (or the host) can do that.")


def undo_right(module, event):
    """Who may undo this event: HOST, ANY, a seat id (that seat or the host), or None (nobody)."""
    rule = who_may(module, event["kind"])
    if rule is None:
        return None
    if event["kind"] in module.DRAWN:
        return HOST
    return concerned_seat(event) if rule == OWN else rule


def may_undo(right, actor, shared=True):
    """`shared`: whether a shared screen may undo the entry (its kind is one it may post)."""
    if right is None or (from_shared_screen(actor) and not shared):
        return False
    return actor["role"] == "host" or right == ANY or right == actor["seat"]


def check_step(form, target, now, field="to"):
    """An action that moves the game on names the step it moves to (form field "to"), so a
    doubled or stale tap, sent after someone else already moved the game, changes nothing.
    target None: there is no step to move to now, so any step named is stale."""
    named = str(form.get(field) or "").strip()
    if not named:
        # Not stale: the request itself is incomplete, and blaming an older screen misleads.
        raise RuleError(
            f"That request did not name the step it moves the game to (its “{field}” "
            "field is missing), so the app cannot tell whether it is current. "
            "Nothing changed: reload the page and tap again."
        )
    if target is None or named != str(target):
        raise RuleError(f"The table is already at {now}: that tap came from an older screen. Nothing changed.")


# --- the step a tap belongs to: one check for every action of every game ----------------
# Every form names the step of the game its page showed (STEP_FIELD: an action's form
# includes it from the live fragment, written from the view's "step"), and store.act refuses a tap named for another step before the
# rules read it: a stale page, or a tap a phone kept through a lost connection while the game
# moved on, never lands in a later round, phase or turn. A game names its steps with
# `step_now(state)` (words, as the game counts them: shown in the refusal); the kinds in its
# ANY_STEP hold whatever the step (a correction, a table option). A game without step_now
# (the plain scoreboard) has no steps.
STEP_FIELD = "at_step"


def step_of(module, state):
    """The step the table is at now, in the game's words, or None for a game without steps."""
    return module.step_now(state)


def check_named_step(module, kind, form, state):
    """Refuse a tap whose form names another step than the table's now. A request naming no
    step (a script, an old test client) is left to the rules, which still refuse what does
    not fit; every form the app draws names one."""
    if kind in module.ANY_STEP or kind in ROSTER_KINDS:
        return
    named = " ".join(str((form or {}).get(STEP_FIELD) or "").split())[:120]  # echoed back: bounded
    now = step_of(module, state)
    if not named or now is None or named == now:
        return
    raise RuleError(
        f"That tap was made at {named}, but the table is at {now} now: it came from "
        "a screen that was behind, or waited on a phone while the game moved on. "
        "Nothing changed."
    )


def apply_roster(state, event):
    """Return a new state with the seat list changed by one roster event."""
    state = copy.deepcopy(state)
    seats = state["seats"]
    data = event["data"]
    kind = event["kind"]
    if kind == "seat.join":
        seats.append({"id": data["seat"], "name": data["name"], "phone": bool(data.get("phone", True))})
    elif kind == "seat.rename":
        find_seat(state, data["seat"])["name"] = data["name"]
    elif kind == "seat.remove":
        find_seat(state, data["seat"])
        state["seats"] = [s for s in seats if s["id"] != data["seat"]]
    elif kind == "seat.reorder":
        order = list(data["order"])
        if sorted(order) != sorted(s["id"] for s in seats):
            raise RuleError("The new order must list every seat exactly once.")
        by_id = {s["id"]: s for s in seats}
        state["seats"] = [by_id[i] for i in order]
    return state


def find_seat(state, seat_id):
    for seat in state["seats"]:
        if seat["id"] == seat_id:
            return seat
    raise RuleError("There is no such seat at this table.")


def seat_ids(state):
    return [s["id"] for s in state["seats"]]


def seat_name(state, seat_id):
    return find_seat(state, seat_id)["name"]


def clockwise_from(state, seat_id, skip=()):
    """Seat ids in clockwise order starting at seat_id, leaving out those in skip."""
    ids = seat_ids(state)
    start = ids.index(seat_id)
    return [i for i in ids[start:] + ids[:start] if i not in skip]


def next_clockwise(state, seat_id, skip=()):
    """The next seat to the left (clockwise) of seat_id that is not in skip, or None."""
    ids = seat_ids(state)
    start = ids.index(seat_id)
    for step in range(1, len(ids) + 1):
        candidate = ids[(start + step) % len(ids)]
        if candidate not in skip:
            return candidate
    return None


def parse_int(value, label, low, high):
    """A whole number from a form field, within [low, high], or a RuleError saying why not."""
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise RuleError(f"{label} must be a whole number.") from None
    if not low <= number <= high:
        raise RuleError(f"{label} must be between {low} and {high}.")
    return number


JSON_DEPTH = 20  # deeper than any file the app writes or reads needs
JSON_MAX_BYTES = 1024 * 1024


def read_json(text, what="That text"):
    """Parse JSON a person pasted or uploaded, or RuleError: never a RecursionError (a 500)
    from a hostile file nested a hundred thousand deep."""
    if len(text) > JSON_MAX_BYTES:
        raise RuleError(f"{what} is too big: at most {JSON_MAX_BYTES // 1024} KB.")
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > JSON_DEPTH:
                raise RuleError(
                    f"{what} is nested too deeply to be a Table Companion file (more than {JSON_DEPTH} levels)."
                )
        elif ch in "]}":
            depth -= 1
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError):
        raise RuleError(f"{what} is not JSON the app can read.") from None
