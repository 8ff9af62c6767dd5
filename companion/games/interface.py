"""What a game module provides: the one list of every name the core reads from it.

`Game` is the required part, as a typing.Protocol; OPTIONAL holds the rest with what a game
that leaves a name out gets. games.register() checks a module against both and fills in the
defaults, so the core reads `module.WHO` and never guesses with getattr.
"""

from typing import Any, Protocol, runtime_checkable

State = dict
Event = dict  # {"id", "kind", "by": {"role", "seat"}, "data", "at"}
Viewer = dict  # {"role": "host" | "seat" | "screen", "seat": int | None}


@runtime_checkable
class Game(Protocol):
    SLUG: str  # the table's game in URLs and templates/games/<slug>/
    TITLE: str
    MIN_SEATS: int
    MAX_SEATS: int
    KINDS: tuple  # the game's own event kinds (the roster's are the core's)
    SHARED: set  # kinds the tablet in the middle may post for a seat
    NOT_SHARED: set  # the others: every kind is in one of the two

    def new_state(self, options: dict) -> State:
        """A fresh table; holds "seats": []."""

    def parse(self, kind: str, form: dict, state: State, actor: dict, rng: Any) -> dict:
        """A posted form (strings) as an event's data, or RuleError; randomness only from rng."""

    def apply(self, state: State, event: Event) -> State:
        """The reducer: a new state (the old one untouched), or RuleError."""

    def describe(self, before: State, after: State, event: Event) -> str:
        """The public log line of one of the game's own events ("" leaves it out)."""

    def view_for(self, state: State, viewer: Viewer) -> dict:
        """All this viewer may see: the only place hidden information is filtered."""


def _no_steps(state):
    return None


def _as_is(kind, data):
    return data


def _undoable(state, kind):
    return ""


OPTIONAL: dict[str, Any] = {
    "HOST_ONLY": frozenset(),  # kinds only the host may post
    "WHO": {},  # kind -> who else may post it (games.base: OWN, HOST, ANY); ANY when absent
    "DRAWN": frozenset(),  # kinds that draw at random: only the host may undo them
    "ANY_STEP": frozenset(),  # kinds that hold whatever the game's step (corrections, options)
    "step_now": _no_steps,  # (state) -> the step in words, checked against what a form names
    "public_data": _as_is,  # (kind, data) -> the data with secrets left out, for the export
    "undo_refusal": _undoable,  # (state, kind) -> why it cannot be undone, "" when it can
    "standings": None,  # (state) -> [{"seat", "rank", …}], the places the game gives, or None
}
REQUIRED = tuple(Game.__annotations__) + ("new_state", "parse", "apply", "describe", "view_for")


def check(module):
    """Refuse (TypeError) a module that lacks a required name, and give it the defaults of
    the optional ones it leaves out."""
    missing = [name for name in REQUIRED if not hasattr(module, name)]
    if missing:
        raise TypeError(f"game {getattr(module, '__name__', module)!r} lacks {', '.join(missing)}")
    not_callable = [
        name for name in ("new_state", "parse", "apply", "describe", "view_for") if not callable(getattr(module, name))
    ]
    if not_callable:
        raise TypeError(f"game {module.__name__!r}: {', '.join(not_callable)} must be functions")
    for name, default in OPTIONAL.items():
        if not hasattr(module, name):
            setattr(module, name, default)
    unknown = set(module.KINDS) - set(module.SHARED) - set(module.NOT_SHARED)
    if unknown:
        raise TypeError(f"game {module.__name__!r}: {sorted(unknown)} in neither SHARED nor NOT_SHARED")
    return module
