"""What the logs say was played: each game's result, a night's standings, each player's record.

Nothing here is typed in or stored. A result is read from a table's fold (and, for Blackmail,
whose table may hold several games, from its events folded again), so an undone win is no
win and a fixed score is the fixed one. Players are told apart by name, compared as seats
compare names (names.same_name_key: NFKC, case folded), so "ANA" at one table and "Ana" at
another are one player.
"""

from datetime import datetime

from companion import games, nights
from companion.games import assassins, blackmail, danger_zone
from companion.games.base import ROSTER_KINDS, RuleError, apply_roster
from companion.tables import names, store

# Each game's own measure: the number its standings are read in.
MEASURES = {
    "danger-zone": ("upper_hand", "Upper Hand"),
    "blackmail": ("vp", "Victory Points"),
    "assassins": ("real", "real points"),
    "generic": ("score", "points"),
}
SHORT = {
    "danger-zone": "Danger Zone",
    "blackmail": "Blackmail",
    "assassins": "Age of Assassins",
    "generic": "Scoreboard",
}
SKIPPED = ROSTER_KINDS | store.NIGHT_KINDS | {"undo"}


def _moves(folded):
    """The log entries that are moves of the game and stand (not undone, not skipped)."""
    return [e for e in folded.log if e["kind"] not in SKIPPED and not e["undone"] and not e.get("skipped")]


def _result(table, number, finished, winners, rows, started, ended, note=""):
    key, label = MEASURES.get(table.game, ("score", "points"))
    rows = sorted(rows, key=lambda row: -row["value"])
    for row in rows:
        row["won"] = row["seat"] in winners
    return {
        "table": table.code,
        "game": table.game,
        "title": games.TABLE_GAMES.get(table.game, table.game),
        "short": SHORT.get(table.game, table.game),
        "number": number,
        "finished": finished,
        "measure": label,
        "winners": [row["name"] for row in rows if row["won"]],
        "scores": rows,
        "started_at": started,
        "ended_at": ended,
        "minutes": minutes(started, ended),
        "note": note,
    }


def minutes(started, ended):
    try:
        seconds = (datetime.fromisoformat(ended) - datetime.fromisoformat(started)).total_seconds()
    except (TypeError, ValueError):
        return None
    return max(0, round(seconds / 60))


def table_games(db, table, folded=None):
    """The games played at one table, oldest first: [{"title", "finished", "winners" (names),
    "scores": [{"seat", "name", "value", "won", …}], "measure", "started_at", "ended_at",
    "minutes", "note"}]. A game still going (or left unfinished) has finished False."""
    folded = folded or store.load(db, table)
    if table.game == blackmail.SLUG:
        return _blackmail_games(db, table, folded)
    state, moves = folded.state, _moves(folded)
    started, ended = (moves[0]["at"], moves[-1]["at"]) if moves else (None, None)
    seats = state["seats"]
    if table.game == danger_zone.SLUG:
        rows = [
            {
                "seat": s["id"],
                "name": s["name"],
                "character": state["character"].get(s["id"]),
                "value": state["upper_hand"].get(s["id"], danger_zone.START_UPPER_HAND),
            }
            for s in seats
        ]
        return [_result(table, 1, bool(state["winners"]), set(state["winners"]), rows, started, ended)]
    if table.game == assassins.SLUG:
        rows = [{"seat": s["id"], "name": s["name"], "value": state["real"].get(s["id"], 0)} for s in seats]
        outcome = assassins.outcome(state)
        winners = {outcome["winner"]} if outcome and outcome["winner"] is not None else set()
        return [
            _result(table, 1, outcome is not None, winners, rows, started, ended, outcome["text"] if outcome else "")
        ]
    # The plain scoreboard has no end of its own: it ends when the night moves on, and the
    # most points win.
    rows = [{"seat": s["id"], "name": s["name"], "value": state.get("score", {}).get(s["id"], 0)} for s in seats]
    finished = bool(folded.night.get("next")) and bool(moves) and bool(rows)
    top = max((row["value"] for row in rows), default=0)
    winners = {row["seat"] for row in rows if row["value"] == top} if finished else set()
    return [_result(table, 1, finished, winners, rows, started, ended)]


def _blackmail_games(db, table, folded):
    """A Blackmail table may play several games in a row ("Start" again after the end): its
    events are folded once more, noting each game as it ends. A game the host reset is no game."""
    standing = {
        e["id"]
        for e in folded.log
        if e["kind"] not in store.NIGHT_KINDS | {"undo"} and not e["undone"] and not e.get("skipped")
    }
    module = table.module
    state = module.new_state(table.options)
    found, ended_game, started = [], None, None
    for event in store.events(db, table):
        if event["id"] not in standing:
            continue
        before = state
        try:
            after = apply_roster(before, event) if event["kind"] in ROSTER_KINDS else before
            state = module.apply(after, event)
        except RuleError:
            continue
        if event["kind"] == "game.start":
            if ended_game:
                found.append(ended_game)
            ended_game, started = None, event["at"]
        elif event["kind"] == "game.reset":
            ended_game, started = None, None
        if state["phase"] == "game_over" and before["phase"] != "game_over":
            ended_game = _blackmail_result(table, state, started, event["at"], True)
    if ended_game and state["phase"] == "game_over":
        found.append(ended_game)
    elif state["phase"] == "round" or not found:  # under way, or not begun: listed, not finished
        moves = _moves(folded)
        found.append(_blackmail_result(table, state, started, moves[-1]["at"] if moves else started, False))
    for number, game in enumerate(found, start=1):
        game["number"] = number
    return found


def _blackmail_result(table, state, started, ended, finished):
    won = blackmail.rounds_won(state)
    rows = [
        {"seat": s["id"], "name": s["name"], "value": state["vp"].get(s["id"], 0), "rounds_won": won.get(s["id"], 0)}
        for s in state["seats"]
    ]
    return _result(table, 1, finished, set(state["winners"]) if finished else set(), rows, started, ended)


def game_over(table, folded):
    """True once the table's game has ended (so the host is offered the next one)."""
    state = folded.state
    if table.game == danger_zone.SLUG:
        return bool(state.get("winners"))
    if table.game == assassins.SLUG:
        return state.get("phase") == "ended"
    if table.game == blackmail.SLUG:
        return state.get("phase") == "game_over"
    return False


# --- a night -----------------------------------------------------------------------------


def visible_tables(db, table, viewer):
    """The night's tables this viewer may see: every one for the host (and a co-host); for a
    seat's phone, the ones its seat sat at (carried from table to table), so someone who
    joined late sees only the games they played."""
    tables = nights.night_tables(db, table)
    if viewer is None:
        return []
    if viewer["role"] == "host":
        return tables
    origins = nights.seat_origins(db, [t.id for t in tables])
    children = {}
    for seat, (_, parent) in origins.items():
        if parent is not None:
            children.setdefault(parent, []).append(seat)
    line, seat = set(), viewer["seat"]
    while seat is not None and seat in origins:  # back to where it first sat down
        line.add(seat)
        seat = origins[seat][1]
    todo = [viewer["seat"]]
    while todo:  # and on to where it was carried since
        seat = todo.pop()
        line.add(seat)
        todo.extend(children.get(seat, ()))
    sat = {origins[s][0] for s in line if s in origins}
    return [t for t in tables if t.id in sat]


def night(db, table, viewer):
    """The night as this viewer may see it: {"games": [...], "standings": [...], "tables"}."""
    return _night_of(db, visible_tables(db, table, viewer))


def night_until(db, table):
    """The night up to this table, for its table screen, which anyone with the table's code
    may open: nothing of a later table."""
    return _night_of(db, [t for t in nights.night_tables(db, table) if t.id <= table.id])


def _night_of(db, shown):
    played = []
    for t in shown:
        for game in table_games(db, t):
            played.append(game)
    for number, game in enumerate(played, start=1):
        game["number"] = number
    return {
        "tables": shown,
        "games": played,
        "standings": standings(played),
        "started_at": next((g["started_at"] for g in played if g["started_at"]), None),
    }


def standings(played):
    """Wins per player over the finished games, and each game's own number for each player:
    [{"name", "wins", "played", "cells": {game number: value}}], most wins first."""
    players = {}
    for game in played:
        for row in game["scores"]:
            key = names.same_name_key(row["name"])
            player = players.setdefault(key, {"name": row["name"], "wins": 0, "played": 0, "cells": {}})
            player["name"] = row["name"]  # the latest spelling
            player["cells"][game["number"]] = row["value"]
            if game["finished"]:
                player["played"] += 1
                player["wins"] += 1 if row["won"] else 0
    return sorted(players.values(), key=lambda p: (-p["wins"], -p["played"], names.same_name_key(p["name"])))


# --- each player's record on this server (the admin page) ---------------------------------


def player_records(db):
    """Per player name, across every table on this server: games played and won per game,
    Danger Zone wins per character, Blackmail rounds won, Age of Assassins real points."""
    players = {}
    for table in [store.Table.from_row(row) for row in db.execute("SELECT * FROM game_tables ORDER BY id").fetchall()]:
        for game in table_games(db, table):
            for row in game["scores"]:
                key = names.same_name_key(row["name"])
                player = players.setdefault(
                    key,
                    {
                        "name": row["name"],
                        "played": 0,
                        "won": 0,
                        "games": {},
                        "characters": {},
                        "rounds_won": 0,
                        "real_points": [],
                    },
                )
                if game["game"] == blackmail.SLUG:
                    player["rounds_won"] += row.get("rounds_won", 0)
                if not game["finished"]:
                    continue
                per_game = player["games"].setdefault(game["title"], {"played": 0, "won": 0})
                per_game["played"] += 1
                player["played"] += 1
                if row["won"]:
                    per_game["won"] += 1
                    player["won"] += 1
                    if game["game"] == danger_zone.SLUG and row.get("character"):
                        player["characters"][row["character"]] = player["characters"].get(row["character"], 0) + 1
                if game["game"] == assassins.SLUG:
                    player["real_points"].append(row["value"])
    for player in players.values():
        points = player.pop("real_points")
        player["assassins_average"] = round(sum(points) / len(points), 1) if points else None
    return sorted(players.values(), key=lambda p: (-p["won"], -p["played"], names.same_name_key(p["name"])))
