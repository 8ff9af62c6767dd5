"""Archer: Once You Go Blackmail... — Victory Points, rounds and the card count.

The table plays with its own 16 cards; the app keeps the books. A table option picks how much:
  "scores"  one tap per round records who won it (round.score);
  "full"    every card played is recorded (play), and the app follows the turn, who is still
            in, Cheryl/Carol protection, the deck count, the secret character's status and the
            count of characters seen face up; it spots the round's end, and one tap
            (round.confirm) awards the Victory Points.
  "dealt"   the app shuffles and deals the 16 cards itself (blackmail_deal.py): each phone is
            that player's hand, every card is carried out by the app (dealt.play), and the round
            keeps the same public books as "full".
The public books are shared by all modes; the dealt mode's hidden part (the deck, the hands,
the secret character, private results) lives in state["round"]["deal"] and reaches a viewer
only through view_for. Event data holding the shuffle is stripped from the export by
public_data.
"""

import copy

from . import blackmail_deal as deal
from .base import ROSTER_KINDS, RuleError, find_seat, next_clockwise, parse_int, seat_ids

SLUG = "blackmail"
TITLE = "Archer: Once You Go Blackmail..."
MIN_SEATS, MAX_SEATS = 2, 4
# Table options, starting over, and the host taking over a turn for a phone that is away.
HOST_ONLY = {"tracking", "game.start", "game.reset", "dealt.stand_in"}

# ---------------------------------------------------------------- rules data

MALORY, LANA, RAY, PAM, CHERYL, CYRIL, KRUEGER, ARCHER = 8, 7, 6, 5, 4, 3, 2, 1

# "target": None (no target), "other" (another player in the round), "any" (you may pick yourself).
# Effects are summaries in our own words.
CHARACTERS = (
    {"number": MALORY, "name": "Malory Archer", "copies": 1, "target": None, "names": False,
     "effect": "Whoever plays her is out of the round."},
    {"number": LANA, "name": "Lana Kane", "copies": 1, "target": None, "names": False,
     "effect": "Gather the hands of everyone still in plus the secret character, unseen; mix "
               "them and give one back to each player. The spare card is the new secret."},
    {"number": RAY, "name": "Ray Gillette", "copies": 1, "target": "any", "names": False,
     "effect": "Pick a player (yourself allowed): they drop their card with no effect and take "
               "the secret character; the top card of the deck becomes the secret. With the "
               "deck empty, no secret is left."},
    {"number": PAM, "name": "Pam Poovey", "copies": 2, "target": "any", "names": False,
     "effect": "Pick a player (yourself allowed): they drop their card with no effect and draw "
               "a fresh one; with the deck empty, they draw the secret character."},
    {"number": CHERYL, "name": "Cheryl/Carol Tunt", "copies": 2, "target": None, "names": False,
     "effect": "Either no card can touch you until your next turn, or you peek at the secret "
               "character."},
    {"number": CYRIL, "name": "Cyril Figgis", "copies": 2, "target": "other", "names": False,
     "effect": "Pick another player and compare hands in private: the lower card is out of the "
               "round. Equal cards: nothing happens."},
    {"number": KRUEGER, "name": "Dr. Krueger", "copies": 2, "target": None, "names": True,
     "effect": "Name a character, then peek at the secret character. Named it right? You win "
               "the round on the spot."},
    {"number": ARCHER, "name": "Sterling Archer", "copies": 5, "target": "other", "names": True,
     "effect": "Pick another player, name any character except Sterling Archer, and see their "
               "card. Named it right? They are out of the round."},
)
# What a tile on a phone has room for, and the card's entry id in the rules lookup.
SHORT_NAMES = {MALORY: "Malory", LANA: "Lana", RAY: "Ray", PAM: "Pam", CHERYL: "Cheryl",
               CYRIL: "Cyril", KRUEGER: "Krueger", ARCHER: "Archer"}
RULE_IDS = {MALORY: "malory-archer", LANA: "lana-kane", RAY: "ray-gillette", PAM: "pam-poovey",
            CHERYL: "cheryl-tunt", CYRIL: "cyril-figgis", KRUEGER: "dr-krueger",
            ARCHER: "sterling-archer"}
BY_NUMBER = {c["number"]: c for c in CHARACTERS}
NUMBERS = tuple(sorted(BY_NUMBER))
DECK_SIZE = sum(c["copies"] for c in CHARACTERS)  # 16
SECRET_CARDS = 1
VP_TO_WIN = {2: 6, 3: 4, 4: 3}

TRACKING_MODES = ("scores", "full", "dealt")
TRACKING_LABELS = {"scores": "Scores only", "full": "Full tracking", "dealt": "The app deals"}
CARD_BY_CARD = ("full", "dealt")   # modes that follow every card played

FIRST_PICKS = {
    "table": "chosen by the table",
    "random": "picked at random",
    "last_winner": "won the last round",
    "random_among_winners": "picked at random among the last round's winners",
}
ROUND_ENDS = {
    "deck_out": "the deck ran out; highest card in hand",
    "last_seat": "last player left in the round",
    "secret_guessed": "named the secret character with Dr. Krueger",
    "recorded": "winners recorded by hand",
}
SECRET_LABELS = {
    "on_table": "on the table",
    "taken_by_ray": "taken by Ray; the top card of the deck replaced it",
    "gone": "gone: no secret character this round",
}
SECRET_SHORT = {"on_table": "On the table", "taken_by_ray": "Replaced", "gone": "Gone"}
OUT_REASONS = {
    MALORY: "played Malory Archer",
    ARCHER: "named by Sterling Archer",
    CYRIL: "lost a Cyril Figgis duel",
}

READINGS = (
    "Cyril's \"eliminated from the game\" means out of the current round.",
    "A card thrown away through Pam or Ray does nothing: dropping Malory that way does not put "
    "anyone out.",
    "The round ends when a turn ends with the draw deck empty.",
    "Lana hands one card back to each player still in the round; the card left over is the new "
    "secret character.",
    "After Ray (or Pam) takes the secret character from an empty deck, the round goes on with no "
    "secret, so a Dr. Krueger guess cannot win it.",
    "If several players won the last round, the app picks the next first player among them at "
    "random.",
    "Sterling Archer or Cyril with every other player protected or out is played with no effect.",
    "When the app deals, Lana's reshuffle takes a card from every player still in, protected "
    "ones too: she picks no target, so Cheryl/Carol's cover does not stop her.",
)


def character_name(number):
    return BY_NUMBER[number]["name"]


def card_label(number):
    return f"{character_name(number)} ({number})"


def vp_target(players):
    """Victory Points needed to win with this many players."""
    if players not in VP_TO_WIN:
        raise RuleError(f"This game is for {MIN_SEATS} to {MAX_SEATS} players.")
    return VP_TO_WIN[players]


# ---------------------------------------------------------------- state

def new_state(options=None):
    tracking = (options or {}).get("tracking", "scores")
    if tracking not in TRACKING_MODES:
        raise RuleError("Tracking must be scores only or full tracking, or the app dealing.")
    return {
        "seats": [],
        "tracking": tracking,      # the table option; a round keeps the mode it started with
        "phase": "setup",          # setup | round | game_over
        "target": None,            # Victory Points to win, fixed at game.start
        "vp": {},
        "round": None,
        "history": [],             # finished rounds of this game
        "winners": [],             # game winners once phase is game_over
        "games": [],               # short summaries of earlier games at this table
    }


def _open_round(state, first_player, first_pick):
    state["round"] = {
        "number": len(state["history"]) + 1,
        "tracking": state["tracking"],
        "first_player": first_player,
        "first_pick": first_pick,
        "dealt": len(state["seats"]),
        "stage": "playing",        # playing | hands (deck out, cards being entered) | over
        "turn": first_player,
        "draws": 1,                # the first player's draw counts as soon as the turn opens
        "out": [],                 # [{"seat", "why", "by", "card"}] in order of elimination
        "protected": [],
        "secret": {"status": "on_table", "seat": None, "reshuffled": False},
        "seen": {n: 0 for n in NUMBERS},   # face up this round: played, dropped, revealed
        "plays": [],
        "hands": {},               # seat -> card shown at deck-out
        "result": None,            # {"why", "winners"} once the round has ended, until confirmed
    }


# ---------------------------------------------------------------- derived questions

def _name(state, seat_id):
    for seat in state["seats"]:
        if seat["id"] == seat_id:
            return seat["name"]
    return f"Seat {seat_id}"


def out_seats(state):
    r = state["round"]
    return [o["seat"] for o in r["out"]] if r else []


def still_in(state):
    """Seats still in the current round, clockwise."""
    gone = set(out_seats(state))
    return [s for s in seat_ids(state) if s not in gone]


def whose_turn(state):
    r = state["round"]
    if not r or r["tracking"] not in CARD_BY_CARD or r["stage"] != "playing":
        return None
    return r["turn"]


def deck_count(state):
    """16 - the secret - one card per seat dealt - every draw so far (the current turn's included)."""
    r = state["round"]
    if not r:
        return None
    return DECK_SIZE - SECRET_CARDS - r["dealt"] - r["draws"]


def seen_counts(state):
    """For each character number, how many copies are face up this round (hands at deck-out too)."""
    r = state["round"]
    counts = {n: 0 for n in NUMBERS}
    if not r:
        return counts
    for n in NUMBERS:
        counts[n] = r["seen"][n]
    for card in r["hands"].values():
        counts[card] += 1
    return counts


def _check_duel_loser(state, revealed, face_up):
    """A Cyril loser's card is lower than the winner's: some higher card must still be unseen."""
    seen = seen_counts(state)
    unseen_higher = sum(BY_NUMBER[n]["copies"] - seen[n] - face_up.count(n) for n in NUMBERS if n > revealed)
    if unseen_higher <= 0:
        raise RuleError(f"{character_name(revealed)} cannot lose a Cyril duel: every higher card "
                        "is already face up.")


def valid_targets(state, seat, card):
    """Seats the player may pick for this card right now ([] when the card takes no target)."""
    kind = BY_NUMBER[card]["target"]
    if kind is None or not state["round"]:
        return []
    protected = set(state["round"]["protected"])
    targets = []
    for other in still_in(state):
        if other == seat:
            if kind == "any":
                targets.append(other)
        elif other not in protected:
            targets.append(other)
    return targets


def rounds_won(state):
    won = {s: 0 for s in seat_ids(state)}
    for record in state["history"]:
        for w in record["winners"]:
            if w in won:
                won[w] += 1
    return won


def leaders(state):
    if not state["vp"]:
        return []
    top = max(state["vp"].values())
    return [s for s in seat_ids(state) if state["vp"].get(s, 0) == top]


def _would_end_game(state, winners):
    return any(state["vp"].get(w, 0) + 1 >= state["target"] for w in winners)


# ---------------------------------------------------------------- parse (forms -> event data)

def _yes(value):
    return str(value or "").strip().lower() in ("1", "yes", "y", "true", "on", "right", "correct")


def _blank(value):
    return value is None or str(value).strip().lower() in ("", "none", "-", "no")


def _parse_seat(value, label):
    return parse_int(value, label, 0, 2**31)


def _opt_seat(value, label):
    return None if _blank(value) else _parse_seat(value, label)


def _parse_character(value, label):
    text = str(value or "").strip()
    for c in CHARACTERS:
        if text.lower() == c["name"].lower():
            return c["number"]
    return parse_int(text, label, min(NUMBERS), max(NUMBERS))


def _opt_character(value, label):
    return None if _blank(value) else _parse_character(value, label)


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
            picked.append(_parse_seat(key[len("winner_"):], "Winner"))
    if not picked and not _blank(form.get("winner")):
        picked.append(_parse_seat(form.get("winner"), "Winner"))
    for seat in picked:
        find_seat(state, seat)
    chosen = set(picked)
    return [s for s in seat_ids(state) if s in chosen]


def parse(kind, form, state, actor, rng):
    form = form or {}
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
            mode["deal"] = deal.new_deal(rng)    # recorded, so the fold deals the same cards
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
        return {"seat": _acting_seat(form, state, actor),
                "card": _parse_character(form.get("card"), "The card in hand")}
    if kind == "round.confirm":
        r = state.get("round")
        if not r or not r["result"]:
            raise RuleError("There is no round result to confirm yet.")
        winners = list(r["result"]["winners"])
        data = {"winners": winners, **_next_first(state, winners, rng)}
        if data["next_first_player"] is not None and state["tracking"] == deal.DEALT:
            data["deal"] = deal.new_deal(rng)    # the next round's shuffle
        return data
    if kind == "round.score":
        if state["phase"] != "round":
            raise RuleError("No round is being played.")
        winners = _parse_winners(form, state)
        if not winners:
            raise RuleError("Tap who won the round.")
        return {"winners": winners, **_next_first(state, winners, rng)}
    raise RuleError("Unknown action.")


_DEALT_REFUSAL = ("The app holds the cards this round: each player plays from the hand on their "
                  "phone, and the app works out what happens.")


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
            not _blank(form.get("eliminated")) and data["target"] is not None
            and _parse_seat(form.get("eliminated"), "The eliminated seat") == data["target"])
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
        data["revealed"] = _opt_character(form.get("revealed"), "The loser's card")
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
        data["revealed"] = _opt_character(form.get("revealed"), "The card left in hand")
    return data


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


def _in_game(state):
    return state["phase"] == "round"


def _apply_roster(state, kind, data):
    if kind == "seat.join":
        if _in_game(state):
            raise RuleError("A game is under way: new players can join once it ends "
                            "(or after the host resets it).")
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
        raise RuleError("Whether the app deals is chosen when a game starts: the host can reset "
                        "the game to change it.")
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
        state["games"].append({
            "winners": [_name(state, w) for w in state["winners"]],
            "rounds": len(state["history"]),
            "vp": {_name(state, s): v for s, v in state["vp"].items()},
        })
    state.update(phase="round", target=target, history=[], winners=[],
                 vp={s: 0 for s in seat_ids(state)})
    _open_round(state, first, "random" if data.get("picked_at_random") else "table")
    _deal_if_dealt(state, data)


def _deal_if_dealt(state, data):
    """A round opened in the dealt mode gets its cards from the deal recorded in the event."""
    if state["round"]["tracking"] == deal.DEALT:
        if "deal" not in data:
            raise RuleError("This round was opened without a shuffle: start it again.")
        deal.open_round(state, data["deal"])


def _apply_reset(state):
    state.update(phase="setup", target=None, round=None, history=[], winners=[],
                 vp={s: 0 for s in seat_ids(state)})


def _live_round(state):
    if not _in_game(state) or not state["round"]:
        raise RuleError("No round is being played.")
    return state["round"]


def _check_actor(event, seat, doing):
    by = event.get("by") or {}
    if by.get("role") == "seat" and by.get("seat") != seat:
        raise RuleError(f"Only that player's phone or the host can {doing}.")


def _character(value, label):
    if value not in BY_NUMBER:
        raise RuleError(f"{label} must be one of the eight characters.")
    return value


def _check_target(state, seat, card, target):
    """Return the checked target, or None when the card goes off with nobody to pick."""
    r = state["round"]
    kind = BY_NUMBER[card]["target"]
    if target is None:
        options = valid_targets(state, seat, card)
        if options:
            names = ", ".join(_name(state, s) for s in options)
            raise RuleError(f"Pick a target for {character_name(card)}: {names}.")
        return None
    if target not in seat_ids(state):
        raise RuleError("There is no such seat at this table.")
    if target == seat and kind != "any":
        raise RuleError(f"{character_name(card)} must target another player, not yourself.")
    if target in out_seats(state):
        raise RuleError(f"{_name(state, target)} is already out of this round.")
    if target != seat and target in r["protected"]:
        raise RuleError(f"{_name(state, target)} is protected by Cheryl/Carol until their next turn.")
    return target


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
                f"{'is' if already == 1 else 'are'} already face up this round.")


def _eliminate(r, seat, card_played, by, card):
    r["out"].append({"seat": seat, "why": card_played, "by": by, "card": card})
    if seat in r["protected"]:
        r["protected"].remove(seat)


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
    entry = {"turn": len(r["plays"]) + 1, "seat": seat, "card": card, "target": None,
             "named": None, "choice": None, "discarded": None, "eliminated": None,
             "revealed": None, "correct": None}
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
                entry["revealed"] = named      # the target's card is the one named
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
            raise RuleError(f"Every copy of {character_name(named)} is face up, so it cannot be "
                            "the secret character.")
        result = {"why": "secret_guessed", "winners": [seat]}

    # The count is fine: carry the card out.
    for n in face_up:
        r["seen"][n] += 1
    if entry["eliminated"] is not None:
        _eliminate(r, entry["eliminated"], card, seat, entry["revealed"])
    if card == CHERYL and entry["choice"] == "protect":
        r["protected"].append(seat)
    elif card in (PAM, RAY):
        _swap_effects(state, card, entry["target"])    # the dropped card itself does nothing
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


def _after_play(state, seat, result):
    """End the round if it is over, else pass the turn clockwise to the next seat still in."""
    r = state["round"]
    live = still_in(state)
    if result is None and len(live) == 1:
        result = {"why": "last_seat", "winners": live}
    if result is not None:
        r.update(stage="over", turn=None, result=result)
        return
    if deck_count(state) <= 0:
        r.update(stage="hands", turn=None)    # everyone still in shows the card in hand
        return
    nxt = next_clockwise(state, seat, skip=set(out_seats(state)))
    r["turn"] = nxt
    r["draws"] += 1
    if nxt in r["protected"]:
        r["protected"].remove(nxt)    # Cheryl/Carol's cover ends when that seat's turn comes round


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
        raise RuleError(f"{_name(state, seat)} cannot hold {character_name(card)}: all {copies} "
                        f"{'copy is' if copies == 1 else 'copies are'} already accounted for.")
    r["hands"][seat] = card
    live = still_in(state)
    if all(s in r["hands"] for s in live):
        best = max(r["hands"][s] for s in live)
        r.update(stage="over", result={"why": "deck_out",
                                       "winners": [s for s in live if r["hands"][s] == best]})


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
    state["history"].append({
        "number": r["number"], "tracking": r["tracking"],
        "first_player": r["first_player"], "first_pick": r["first_pick"],
        "winners": list(winners), "why": why,
        "plays": r["plays"], "out": r["out"],
        "hands": [{"seat": s, "card": c} for s, c in r["hands"].items()],
        "secret": r["secret"],
        # A dealt round's whole deal is public once it is over: the players can check it.
        "reveal": deal.reveal(state) if r["tracking"] == deal.DEALT else None,
        "vp": [{"seat": s, "vp": state["vp"].get(s, 0)} for s in seat_ids(state)],
        "next_first_player": None if ends else nxt,
        "picked_at_random": bool(data.get("picked_at_random")) and not ends,
    })
    if ends:
        state["phase"] = "game_over"
        state["round"] = None
        state["winners"] = [s for s in seat_ids(state) if state["vp"].get(s, 0) >= state["target"]]
        return
    pick = "random_among_winners" if data.get("picked_at_random") and len(winners) > 1 else "last_winner"
    _open_round(state, nxt, pick)
    _deal_if_dealt(state, data)


# ---------------------------------------------------------------- text

def play_text(state, entry):
    """One public line for a recorded card (used by the log and describe)."""
    who = _name(state, entry["seat"])
    card = entry["card"]
    line = f"{who} played {card_label(card)}"
    target = entry.get("target")
    tname = _name(state, target) if target is not None else None
    if card == ARCHER:
        if target is None:
            return line + " with nobody to target: no effect."
        line += f" on {tname}, naming {character_name(entry['named'])}"
        return line + (f": right, {tname} is out of the round." if entry["eliminated"] is not None
                       else ": wrong.")
    if card == KRUEGER:
        line += f", naming {character_name(entry['named'])}"
        return line + (": right, the secret character is found!" if entry["correct"] else ": wrong.")
    if card == CYRIL:
        if target is None:
            return line + " with nobody to duel: no effect."
        line += f" against {tname}"
        if entry["eliminated"] is None:
            return line + ": equal cards, nobody is out."
        line += f": {_name(state, entry['eliminated'])} is out of the round"
        if entry["revealed"] is not None:
            line += f", showing {card_label(entry['revealed'])}"
        return line + "."
    if card == CHERYL:
        return line + (": protected until their next turn." if entry["choice"] == "protect"
                       else " to look at the secret character.")
    if card in (PAM, RAY):
        whom = "themself" if target == entry["seat"] else tname
        line += f" on {whom}: {card_label(entry['discarded'])} dropped with no effect"
        gone = entry.get("secret_gone")   # known only when the app deals
        if card == PAM:
            return line + (", and the secret character drawn: the deck is empty." if gone
                           else ", and a new card drawn.")
        return line + (", and the secret character taken; none is left." if gone
                       else ", and the secret character taken.")
    if card == LANA:
        return line + ": hands and the secret character reshuffled and dealt again."
    line += ": out of the round"
    if entry.get("revealed") is not None:
        line += f", showing {card_label(entry['revealed'])}"
    return line + "."


def _result_text(state, result):
    names = " and ".join(_name(state, w) for w in result["winners"])
    if result["why"] == "deck_out":
        return f"The deck ran out: {names} {'wins' if len(result['winners']) == 1 else 'tie and each win'} the round."
    if result["why"] == "last_seat":
        return f"{names} is the last one left and wins the round."
    if result["why"] == "secret_guessed":
        return f"{names} wins the round."
    return f"{names} won the round."


def _close_text(before, after, data):
    winners = data["winners"]
    parts = []
    for w in winners:
        parts.append(f"{_name(before, w)} scores a Victory Point ({after['vp'].get(w, 0)} of "
                     f"{before['target']})")
    line = "; ".join(parts) + "."
    if after["phase"] == "game_over":
        names = " and ".join(_name(after, w) for w in after["winners"])
        return line + f" {names} {'wins' if len(after['winners']) == 1 else 'win'} the game!"
    nxt = _name(after, data["next_first_player"])
    how = " (picked at random among the winners)" if data.get("picked_at_random") else ""
    return line + f" Round {after['round']['number']}: {nxt} goes first{how}."


def _data_line(state, kind, data):
    """A log line from the event's own data, for an event that is not (or no longer) applied."""
    if kind == "dealt.play":
        # Its outcome was worked out from hidden cards: say only what was posted.
        if data.get("card") in BY_NUMBER:
            return f"{_name(state, data.get('seat'))} played {card_label(data['card'])}."
        return "A card was played."
    if kind == "dealt.stand_in":
        return f"The host played {_name(state, data.get('seat'))}'s turn."
    if kind == "play":
        entry = {k: data.get(k) for k in ("seat", "card", "target", "named", "choice", "discarded",
                                          "eliminated", "revealed", "correct")}
        if entry["card"] in BY_NUMBER:
            try:
                return play_text(state, entry)
            except (KeyError, TypeError):
                return f"{_name(state, entry['seat'])} played {card_label(entry['card'])}."
        return "A card was played."
    if kind == "hand":
        return f"{_name(state, data.get('seat'))} shows {card_label(data['card'])}."
    names = " and ".join(_name(state, w) for w in data.get("winners") or [])
    return f"{names}: a Victory Point each." if len(data.get("winners") or []) > 1 else \
        f"{names} scores a Victory Point."


def describe(before, after, event):
    kind, data = event["kind"], event["data"]
    if after is before and kind in ("play", "hand", "round.confirm", "round.score") + deal.KINDS:
        # Undone (or skipped) events are described from their data: the state lacks them.
        return _data_line(before, kind, data)
    if kind == "tracking":
        return f"Tracking: {TRACKING_LABELS[data['tracking']].lower()}."
    if kind == "game.start":
        how = "picked at random" if data.get("picked_at_random") else "chosen by the table"
        target = VP_TO_WIN.get(len(after["seats"]), "?")
        mode = f" {TRACKING_LABELS[data['tracking']]}." if data.get("tracking") in TRACKING_LABELS else ""
        return (f"New game: {len(after['seats'])} players, {target} Victory Points to win.{mode} "
                f"{_name(after, data['first_player'])} goes first ({how})." + _deal_text(data))
    if kind == "game.reset":
        return "The game was reset."
    if kind == "dealt.stand_in":
        return (f"The host plays {_name(after, data['seat'])}'s turn ({_name(after, data['seat'])}'s "
                "phone is away).")
    if kind in ("play", "dealt.play"):
        r = after["round"]
        line = play_text(after, r["plays"][-1])
        if kind == "dealt.play" and r["result"] and r["result"]["why"] == "deck_out":
            shown = ", ".join(f"{_name(after, s)} {card_label(c)}" for s, c in r["hands"].items())
            line += f" The deck is empty; hands: {shown}."
        if r["result"]:
            line += " " + _result_text(after, r["result"])
        elif r["stage"] == "hands":
            line += " The deck is empty: everyone still in shows their card."
        return line
    if kind == "hand":
        line = f"{_name(after, data['seat'])} shows {card_label(data['card'])}."
        r = after["round"]
        if r["result"]:
            line += " " + _result_text(after, r["result"])
        return line
    if kind in ("round.confirm", "round.score"):
        return _close_text(before, after, data) + _deal_text(data)
    return ""


def _deal_text(data):
    """The new deal's fingerprint, for the public log (its secrets stay in the event)."""
    if "deal" not in data:
        return ""
    try:
        return f" Deal fingerprint: {deal.short(deal.fingerprint(data['deal']))}."
    except (KeyError, TypeError):
        return ""


def public_data(kind, data):
    """An event's data for the host's export: a deal's shuffle is replaced by its fingerprint."""
    return deal.public_data(kind, data)


def undo_refusal(state, kind):
    """Why an event of this kind cannot be undone now ("" when it can).

    In a game the app deals, undoing a card would let a player take back a look at hidden
    cards, and undoing a deal would re-shuffle: both stand, like cards on a real table."""
    dealt = state["tracking"] == deal.DEALT and (_in_game(state) or state["phase"] == "game_over")
    if kind in deal.KINDS or (dealt and kind in ("game.start", "round.confirm")):
        return ("In a game the app deals, cards played and deals stand: they cannot be undone. "
                "The host can reset the game instead.")
    return ""


# ---------------------------------------------------------------- view

def _round_view(state, viewer=None):
    r = state["round"]
    full = r["tracking"] in CARD_BY_CARD
    view = {
        "number": r["number"],
        "tracking": r["tracking"],
        "first_player": r["first_player"],
        "first_pick": r["first_pick"],
        "first_pick_label": FIRST_PICKS[r["first_pick"]],
        "result": None,
    }
    if r["result"]:
        view["result"] = {"why": r["result"]["why"], "winners": list(r["result"]["winners"]),
                          "label": ROUND_ENDS[r["result"]["why"]],
                          "text": _result_text(state, r["result"])}
    if not full:
        return view
    turn = whose_turn(state)
    view.update({
        "stage": r["stage"],
        "turn": turn,
        "deck": deck_count(state),
        "still_in": still_in(state),
        "protected": list(r["protected"]),
        "secret": {"status": r["secret"]["status"], "seat": r["secret"]["seat"],
                   "reshuffled": r["secret"]["reshuffled"],
                   "label": SECRET_LABELS[r["secret"]["status"]],
                   "short": SECRET_SHORT[r["secret"]["status"]]},
        "plays": [dict(p, text=play_text(state, p)) for p in r["plays"]],
        "hands": [{"seat": s, "card": c} for s, c in r["hands"].items()],
        "awaiting_hands": [s for s in still_in(state) if s not in r["hands"]]
        if r["tracking"] == "full" and r["stage"] in ("hands", "over")
        and (not r["result"] or r["result"]["why"] == "deck_out") else [],
        # Who each card may target right now, so a form offers only legal picks.
        "targets": {str(n): valid_targets(state, turn, n) for n in NUMBERS} if turn is not None else {},
        # The dealt mode's hidden part, filtered for this viewer (the only place that does it).
        "dealt": deal.view(state, viewer) if r["tracking"] == deal.DEALT else None,
    })
    return view


def view_for(state, viewer):
    viewer = viewer or {}
    viewer_seat = viewer.get("seat") if viewer.get("role") == "seat" else None
    r = state["round"]
    full = bool(r) and r["tracking"] in CARD_BY_CARD
    dealt = bool(r) and r["tracking"] == deal.DEALT
    seen = seen_counts(state) if full else None
    out = {o["seat"]: o for o in r["out"]} if r else {}
    won = rounds_won(state)
    turn = whose_turn(state)
    seats = []
    for s in state["seats"]:
        sid = s["id"]
        row = {"id": sid, "name": s["name"], "vp": state["vp"].get(sid, 0),
               "rounds_won": won.get(sid, 0), "first": bool(r) and r["first_player"] == sid,
               "you": sid == viewer_seat, "phone": bool(s.get("phone", True))}
        if full:
            row.update(in_round=sid not in out, out_why=OUT_REASONS.get(out[sid]["why"]) if sid in out else None,
                       out_card=out[sid]["card"] if sid in out else None,
                       protected=sid in r["protected"], turn=sid == turn,
                       hand=r["hands"].get(sid))
        seats.append(row)
    players = len(state["seats"])
    characters = []
    for c in CHARACTERS:
        row = {"number": c["number"], "name": c["name"], "short": SHORT_NAMES[c["number"]],
               "rule": RULE_IDS[c["number"]], "copies": c["copies"], "effect": c["effect"],
               "target": c["target"], "names": c["names"]}
        if full:
            row["seen"] = seen[c["number"]]
            row["unaccounted"] = c["copies"] - seen[c["number"]]
        characters.append(row)
    is_host = viewer.get("role") == "host"
    return {
        "slug": SLUG,
        "title": TITLE,
        "phase": state["phase"],
        "tracking": state["tracking"],
        "tracking_label": TRACKING_LABELS[state["tracking"]],
        "target": state["target"] or VP_TO_WIN.get(players),
        "vp_to_win": {str(k): v for k, v in VP_TO_WIN.items()},
        "deck_size": DECK_SIZE,
        "characters": characters,
        "seats": seats,
        "names": {str(s["id"]): s["name"] for s in state["seats"]},
        "round": _round_view(state, viewer) if r else None,
        "history": [_history_view(state, h) for h in state["history"]],
        "winners": list(state["winners"]),
        "games": copy.deepcopy(state["games"]),
        "readings": list(READINGS),
        "can": {
            "play": turn is not None and (deal.may_play(state, viewer, turn) if dealt
                                          else is_host or viewer_seat == turn),
            # The host takes over the turn of a player whose phone is away (confirmed, logged).
            "stand_in": dealt and turn is not None and is_host and viewer.get("seat") != turn
            and r["deal"]["stand_in"] != turn,
            "enter_hand": bool(r) and r["tracking"] == "full" and r["stage"] in ("hands", "over")
            and (not r["result"] or r["result"]["why"] == "deck_out")
            and (is_host or viewer_seat in still_in(state)),
            "confirm": bool(r) and bool(r["result"]) and viewer.get("role") in ("host", "seat"),
            "record_winners": bool(r) and not dealt and viewer.get("role") in ("host", "seat"),
            "start": is_host and state["phase"] in ("setup", "game_over")
            and MIN_SEATS <= players <= MAX_SEATS,
        },
    }


def _history_view(state, h):
    return {
        "number": h["number"], "tracking": h["tracking"],
        "first_player": h["first_player"], "first_pick_label": FIRST_PICKS[h["first_pick"]],
        "winners": list(h["winners"]), "why": h["why"], "why_label": ROUND_ENDS[h["why"]],
        "plays": [dict(p, text=play_text(state, p)) for p in h["plays"]],
        "hands": copy.deepcopy(h["hands"]), "vp": copy.deepcopy(h["vp"]),
        "next_first_player": h["next_first_player"], "picked_at_random": h["picked_at_random"],
        "reveal": copy.deepcopy(h.get("reveal")),
    }

