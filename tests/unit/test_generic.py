"""The scoreboard's reducer (companion/games/generic.py): a score shares the seats with the
state before it, so no later step may change an earlier state."""

import copy

from companion.games import generic
from companion.games.base import apply_roster


def step(state, kind, data, event_id):
    event = {"id": event_id, "kind": kind, "data": data, "by": {"role": "host", "seat": None}}
    if kind.startswith("seat."):
        state = apply_roster(state, event)
    return generic.apply(state, event)


def test_apply_never_changes_its_input():
    state = generic.new_state()
    history = []
    for n, (kind, data) in enumerate(
        [
            ("seat.join", {"seat": 1, "name": "Ana"}),
            ("seat.join", {"seat": 2, "name": "Bo"}),
            ("score", {"seat": 1, "delta": 3, "reason": "Points"}),
            ("seat.rename", {"seat": 1, "name": "Anna"}),
            ("score", {"seat": 2, "delta": -1, "reason": "Penalty"}),
            ("seat.join", {"seat": 3, "name": "Cy"}),
            ("score", {"seat": 3, "delta": 5, "reason": "Bonus"}),
            ("seat.remove", {"seat": 2}),
        ],
        start=1,
    ):
        history.append((state, copy.deepcopy(state)))
        state = step(state, kind, data, n)
    for before, frozen in history:
        assert before == frozen
    assert state["score"] == {1: 3, 2: -1, 3: 5}
    assert [s["name"] for s in state["seats"]] == ["Anna", "Cy"]
    assert state["last_change"] == {"seat": 3, "delta": 5, "event": 7}
