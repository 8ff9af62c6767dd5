"""parse and apply for every mode: the table options, starting and closing rounds, Victory
Points. Card-by-card kinds are handed to tracking.py (the table's own cards) or dealt.py (the
app deals)."""

import copy

from ..base import ROSTER_KINDS, RuleError, check_step, find_seat, seat_ids
from . import dealt as deal
from .common import _blank, _in_game, _live_round, _name, _parse_character, _parse_seat, _would_end_game, _yes
from .rules import MAX_SEATS, MIN_SEATS, NUMBERS, TRACKING_MODES, vp_target
from .tracking import _acting_seat, _apply_hand, _apply_play, _parse_play

# ---------------------------------------------------------------- state


def new_state(options=None):
    tracking = (options or {}).get("tracking", "scores")
    if tracking not in TRACKING_MODES:
        raise RuleError("Tracking must be scores only or full tracking, or the app dealing.")
    return {
        "seats": [],
        "tracking": tracking,  # the table option; a round keeps the mode it started with
        "phase": "setup",  # setup | round | game_over
        "target": None,  # Victory Points to win, fixed at game.start
        "vp": {},
        "round": None,
        "history": [],  # finished rounds of this game
        "winners": [],  # game winners once phase is game_over
        "games": [],  # short summaries of earlier games at this table
    }


def _open_round(state, first_player, first_pick):
    state["round"] = {
        "number": len(state["history"]) + 1,
        "tracking": state["tracking"],
        "first_player": first_player,
        "first_pick": first_pick,
        "dealt": len(state["seats"]),
        "stage": "playing",  # playing | hands (deck out, cards being entered) | over
        "turn": first_player,
        "draws": 1,  # the first player's draw counts as soon as the turn opens
        "out": [],  # [{"seat", "why", "by", "card"}] in order of elimination
        "protected": [],
        "secret": {"status": "on_table", "seat": None, "reshuffled": False},
        "seen": {n: 0 for n in NUMBERS},  # face up this round: played, dropped, revealed
        "plays": [],
        "hands": {},  # seat -> card shown at deck-out
        "result": None,  # {"why", "winners"} once the round has ended, until confirmed
    }


def _next_first(state, winners, rng):
    """Who opens the next round: the winner, or one winner drawn at random (recorded)."""
    if _would_end_game(state, winners):
        return {"next_first_player": None, "picked_at_random": False}
    if len(winners) == 1:
        return {"next_first_player": winners[0], "picked_at_random": False}
    return {"next_first_player": rng.choice(list(winners)), "picked_at_random": True}


def _parse_winners(form, state):
    picked = []
    raw = str(form.get("winners") or "").replace(",", " ").split()
    for token in raw:
        picked.append(_parse_seat(token, "Winner"))
    for key, value in form.items():
        if key.startswith("winner_") and _yes(value):
            picked.append(_parse_seat(key[len("winner_") :], "Winner"))
    if not picked and not _blank(form.get("winner")):
        picked.append(_parse_seat(form.get("winner"), "Winner"))
    for seat in picked:
        find_seat(state, seat)
    chosen = set(picked)
    return [s for s in seat_ids(state) if s in chosen]


# ---------------------------------------------------------------- steps (a doubled tap moves once)


def start_step(state):
    """The step "Start" moves to ("game 2"), or None while a game is under way."""
    if state["phase"] == "round":
        return None
    return f"game {len(state['games']) + (2 if state['phase'] == 'game_over' else 1)}"


def next_round_step(state):
    """The step closing the current round moves to ("round 3"), or None with no round."""
    r = state.get("round")
    return f"round {r['number'] + 1}" if r and state["phase"] == "round" else None


def where_now(state):
    """Where the table is, in words, for a refused stale tap."""
    if state["phase"] == "setup":
        return "the game's setup"
    game = len(state["games"]) + 1
    if state["phase"] == "game_over":
        return f"the end of game {game}"
    return f"round {state['round']['number']} of game {game}"


def step_now(state):
    """The step a tap belongs to, as the game counts it ("turn 5 of round 2 of game 1"): every
    form names it (games.base.check_named_step), so a card kept through a lost connection is
    not recorded as a later turn's."""
    where = where_now(state)
    r = state.get("round")
    if state["phase"] != "round" or not r:
        return where
    if r["result"] or r["stage"] == "over":
        return f"the end of {where}"
    if r["stage"] == "hands":
        return f"the cards in hand at the end of {where}"
    return f"turn {len(r['plays']) + 1} of {where}"


def _check_step(form, target, state):
    # With no step to move to (a game under way, no round), any "to" is stale: refuse it.
    check_step(form, target or None, where_now(state))


def parse(kind, form, state, actor, rng):
    form = form or {}
    if kind == "game.start":
        _check_step(form, start_step(state), state)
    elif kind in ("round.confirm", "round.score"):
        _check_step(form, next_round_step(state), state)
    if kind == "tracking":
        mode = str(form.get("tracking") or "").strip()
        if mode not in TRACKING_MODES:
            raise RuleError("Pick scores only or full tracking, or let the app deal.")
        return {"tracking": mode}
    if kind == "game.start":
        seats = seat_ids(state)
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise RuleError(f"This game needs {MIN_SEATS} to {MAX_SEATS} players.")
        # The setup form may carry the tracking mode too, so the host starts with one tap.
        mode = {}
        if not _blank(form.get("tracking")):
            mode["tracking"] = str(form.get("tracking")).strip()
            if mode["tracking"] not in TRACKING_MODES:
                raise RuleError("Pick scores only or full tracking, or let the app deal.")
        if mode.get("tracking", state["tracking"]) == deal.DEALT:
            mode["deal"] = deal.new_deal(rng)  # recorded, so the fold deals the same cards
        choice = str(form.get("first_player") or "random").strip()
        if choice == "random":
            return {"first_player": rng.choice(seats), "picked_at_random": True, **mode}
        first = _parse_seat(choice, "The first player")
        find_seat(state, first)
        return {"first_player": first, "picked_at_random": False, **mode}
    if kind == "game.reset":
        return {}
    if kind in deal.KINDS:
        return deal.parse(kind, form, state, actor)
    if kind in ("play", "hand", "round.score") and deal.is_dealt(state):
        raise RuleError(_DEALT_REFUSAL)
    if kind == "play":
        return _parse_play(form, state, actor)
    if kind == "hand":
        return {
            "seat": _acting_seat(form, state, actor),
            "card": _parse_character(form.get("card"), "The card in hand"),
        }
    if kind == "round.confirm":
        r = state.get("round")
        if not r or not r["result"]:
            raise RuleError("There is no round result to confirm yet.")
        winners = list(r["result"]["winners"])
        data = {"winners": winners, **_next_first(state, winners, rng)}
        if data["next_first_player"] is not None and state["tracking"] == deal.DEALT:
            data["deal"] = deal.new_deal(rng)  # the next round's shuffle
        return data
    if kind == "round.score":
        if state["phase"] != "round":
            raise RuleError("No round is being played.")
        winners = _parse_winners(form, state)
        if not winners:
            raise RuleError("Tap who won the round.")
        return {"winners": winners, **_next_first(state, winners, rng)}
    raise RuleError("Unknown action.")


_DEALT_REFUSAL = (
    "The app holds the cards this round: each player plays from the hand on their "
    "phone, and the app works out what happens."
)

# ---------------------------------------------------------------- apply (the reducer)


def apply(state, event):
    kind, data = event["kind"], event["data"]
    state = copy.deepcopy(state)
    if kind in ROSTER_KINDS:
        _apply_roster(state, kind, data)
    elif kind == "tracking":
        _apply_tracking(state, data)
    elif kind == "game.start":
        _apply_start(state, data)
    elif kind == "game.reset":
        _apply_reset(state)
    elif kind in deal.KINDS:
        deal.apply(state, event)
    elif kind in ("play", "hand", "round.score") and deal.is_dealt(state):
        raise RuleError(_DEALT_REFUSAL)
    elif kind == "play":
        _apply_play(state, event)
    elif kind == "hand":
        _apply_hand(state, event)
    elif kind == "round.confirm":
        _apply_confirm(state, data)
    elif kind == "round.score":
        _apply_score(state, data)
    else:
        raise RuleError("Unknown action.")
    return state


def _apply_roster(state, kind, data):
    if kind == "seat.join":
        if _in_game(state):
            raise RuleError("A game is under way: new players can join once it ends (or after the host resets it).")
        if len(state["seats"]) > MAX_SEATS:
            raise RuleError(f"This game seats at most {MAX_SEATS} players.")
        state["vp"][data["seat"]] = 0
    elif kind == "seat.remove":
        if _in_game(state):
            raise RuleError("A game is under way: the host can reset it before removing a seat.")
        state["vp"].pop(data["seat"], None)
    # Renames and reorders are harmless mid-game: turn order simply follows the new seating.


def _apply_tracking(state, data):
    mode = data.get("tracking")
    if mode not in TRACKING_MODES:
        raise RuleError("Pick scores only or full tracking, or let the app deal.")
    if _in_game(state) and deal.DEALT in (mode, state["tracking"]) and mode != state["tracking"]:
        raise RuleError("Whether the app deals is chosen when a game starts: the host can reset the game to change it.")
    state["tracking"] = mode
    r = state["round"]
    # A round already being tracked card by card keeps its mode; the switch applies next round.
    if r and not r["plays"] and not r["result"]:
        r["tracking"] = mode


def _apply_start(state, data):
    if _in_game(state):
        raise RuleError("A game is already under way; the host can reset it first.")
    players = len(state["seats"])
    target = vp_target(players)
    first = data.get("first_player")
    find_seat(state, first)
    if "tracking" in data:
        if data["tracking"] not in TRACKING_MODES:
            raise RuleError("Pick scores only or full tracking, or let the app deal.")
        state["tracking"] = data["tracking"]
    if state["phase"] == "game_over":
        state["games"].append(
            {
                "winners": [_name(state, w) for w in state["winners"]],
                "rounds": len(state["history"]),
                "vp": {_name(state, s): v for s, v in state["vp"].items()},
            }
        )
    state.update(phase="round", target=target, history=[], winners=[], vp={s: 0 for s in seat_ids(state)})
    _open_round(state, first, "random" if data.get("picked_at_random") else "table")
    _deal_if_dealt(state, data)


def _deal_if_dealt(state, data):
    """A round opened in the dealt mode gets its cards from the deal recorded in the event."""
    if state["round"]["tracking"] == deal.DEALT:
        if "deal" not in data:
            raise RuleError("This round was opened without a shuffle: start it again.")
        deal.open_round(state, data["deal"])


def _apply_reset(state):
    state.update(phase="setup", target=None, round=None, history=[], winners=[], vp={s: 0 for s in seat_ids(state)})


def _apply_confirm(state, data):
    r = _live_round(state)
    if not r["result"]:
        raise RuleError("The round has not ended yet.")
    if sorted(data.get("winners") or []) != sorted(r["result"]["winners"]):
        raise RuleError("The round's result has changed since that tap; confirm it again.")
    _close_round(state, r["result"]["winners"], r["result"]["why"], data)


def _apply_score(state, data):
    _live_round(state)
    winners = data.get("winners") or []
    if not winners:
        raise RuleError("Tap who won the round.")
    if len(set(winners)) != len(winners) or any(w not in seat_ids(state) for w in winners):
        raise RuleError("Pick each winner once, from the players at this table.")
    ordered = [s for s in seat_ids(state) if s in winners]
    _close_round(state, ordered, "recorded", data)


def _close_round(state, winners, why, data):
    """Award one Victory Point per winner, file the round, then end the game or open the next round."""
    r = state["round"]
    ends = _would_end_game(state, winners)
    nxt = data.get("next_first_player")
    if not ends and nxt not in winners:
        raise RuleError("The next first player must be one of this round's winners.")
    for w in winners:
        state["vp"][w] = state["vp"].get(w, 0) + 1
    state["history"].append(
        {
            "number": r["number"],
            "tracking": r["tracking"],
            "first_player": r["first_player"],
            "first_pick": r["first_pick"],
            "winners": list(winners),
            "why": why,
            "plays": r["plays"],
            "out": r["out"],
            "hands": [{"seat": s, "card": c} for s, c in r["hands"].items()],
            "secret": r["secret"],
            # A dealt round's whole deal is public once it is over: the players can check it.
            "reveal": deal.reveal(state) if r["tracking"] == deal.DEALT else None,
            "vp": [{"seat": s, "vp": state["vp"].get(s, 0)} for s in seat_ids(state)],
            "next_first_player": None if ends else nxt,
            "picked_at_random": bool(data.get("picked_at_random")) and not ends,
        }
    )
    if ends:
        state["phase"] = "game_over"
        state["round"] = None
        state["winners"] = [s for s in seat_ids(state) if state["vp"].get(s, 0) >= state["target"]]
        return
    pick = "random_among_winners" if data.get("picked_at_random") and len(winners) > 1 else "last_winner"
    _open_round(state, nxt, pick)
    _deal_if_dealt(state, data)


def undo_refusal(state, kind):
    """Why an event of this kind cannot be undone now ("" when it can).

    In a game the app deals, undoing a card would let a player take back a look at hidden
    cards, and undoing a deal would re-shuffle: both stand, like cards on a real table."""
    dealt = state["tracking"] == deal.DEALT and (_in_game(state) or state["phase"] == "game_over")
    if kind in deal.KINDS or (dealt and kind in ("game.start", "round.confirm")):
        return (
            "In a game the app deals, cards played and deals stand: they cannot be undone. "
            "The host can reset the game instead."
        )
    return ""
