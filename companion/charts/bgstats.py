"""A finished game's play as one link that opens BG Stats with it filled in ("Save to BG Stats").

BG Stats documents the link and its JSON for other apps at
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/ :
https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>, or the same address after
bgstats:// instead. Only fields that page documents are sent; bggId is left out, as no game's
id here comes from a source we can cite. The phone opens BG Stats itself, so the link needs no
internet at the table; BG Stats asks once how our game and player names match its own.

What goes in comes from the records (records.table_games: scores, winners, times) and the
game's chart (series.py: who began, how the rules break a tie), never from a second reading.
"""

import hashlib
import json
from datetime import datetime
from urllib.parse import quote

from companion import games
from companion.charts import series
from companion.games import danger_zone, generic
from companion.nights import records
from companion.tables import names

SOURCE_NAME = "Table Companion"
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
APP_LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
PLAY_DATE = "%Y-%m-%d %H:%M:%S"  # BG Stats' format, in local time
NOBODY_WON = "Nobody won this game."


def play(result, chart, location=None, game_name=None, tz=None):
    """The play of one game as BG Stats reads it, or None while the game has not finished.

    result: one of records.table_games(...); chart: the series chart of the same game.
    location: where the host says the night is (optional). game_name: for the plain
    scoreboard only, the game it kept score for. tz: the clock to read (None: the server's)."""
    if not result["finished"] or not result["started_at"]:
        return None
    slug = result["game"]
    if slug in games.TABLE_GAMES and slug != generic.SLUG:
        game = {"name": games.TABLE_GAMES[slug], "sourceGameId": slug}
    else:
        # A plain scoreboard could be any game: named, it is that game to BG Stats.
        key = names.same_name_key(game_name) if game_name else ""
        game = {"name": game_name or generic.TITLE, "sourceGameId": f"{generic.SLUG}:{key}" if key else generic.SLUG}
    game.update(highestWins=True, noPoints=False)
    ranks = places(result["scores"], chart["tie_order"] if result["winners"] else None)
    players = []
    for row in result["scores"]:
        player = {
            "name": row["name"],
            "score": row["value"],
            "winner": bool(row["won"]),
            "rank": ranks[row["seat"]],
            "startPlayer": row["seat"] == chart["start_seat"],
            "sourcePlayerId": player_id(row["name"]),
        }
        if slug == danger_zone.SLUG and row.get("character"):
            player["role"] = row["character"]
        players.append(player)
    data = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(result["table"], chart["number"]),
        "game": game,
        "playDate": local_time(result["started_at"], tz),
        "players": players,
    }
    if result["minutes"] is not None:
        data["durationMin"] = result["minutes"]
    if location and location.strip():
        data["location"] = location.strip()
    # A game with no winner says so in the play, rather than BG Stats guessing one.
    comment = result["note"] or ("" if result["winners"] else NOBODY_WON)
    if comment:
        data["comments"] = comment
    return data


def links(data):
    """{"web": the https link, "app": the bgstats:// link} for a play (None: no links)."""
    if data is None:
        return {"web": None, "app": None}
    encoded = quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
    return {"web": WEB_LINK + encoded, "app": APP_LINK + encoded}


def table_plays(db, table, location=None, game_name=None):
    """For each game records.table_games lists at a table, in its order: {"number", "play"
    (None while unfinished), "web", "app"}."""
    found = []
    for result, chart in zip(records.table_games(db, table), series.table_charts(db, table)):
        data = play(result, chart, location, game_name)
        found.append({"number": chart["number"], "play": data, **links(data)})
    return found


def places(rows, tie_order=None):
    """{seat: rank}: one more than the seats ahead. Ties share a place, unless the game breaks
    them (tie_order, Age of Assassins: the order of its tie-break), as it does for the win."""
    position = {seat: i for i, seat in enumerate(tie_order or [])}
    ranks = {}
    for row in rows:
        ahead = [other for other in rows if other["value"] > row["value"]]
        if tie_order is not None:
            ahead += [
                other
                for other in rows
                if other["value"] == row["value"]
                and position.get(other["seat"], len(position)) < position.get(row["seat"], len(position))
            ]
        ranks[row["seat"]] = len(ahead) + 1
    return ranks


def play_id(code, number):
    """One id per table and game, so a second tap sends BG Stats the same play, not another."""
    return f"{code}-{number}"


def player_id(name):
    """The same for a name however the night's tables spell it (as seats compare names), so
    BG Stats matches the player once."""
    return "tc-" + hashlib.sha256(names.same_name_key(name).encode()).hexdigest()[:16]


def local_time(at, tz=None):
    return datetime.fromisoformat(at).astimezone(tz).strftime(PLAY_DATE)
