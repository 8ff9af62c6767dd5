"""The BG Stats link (companion/charts/bgstats.py): its JSON, decoded, matches the table's result."""

import json
import random
from datetime import datetime
from urllib.parse import unquote

import pytest

from companion import games, nights
from companion.charts import bgstats
from companion.db import get_db
from companion.games import danger_zone as dz
from companion.games.blackmail.moves import next_round_step, start_step
from companion.nights import records
from companion.tables import store
from helpers import HOST

# Every field BG Stats' page documents (bgstats.py names the page); nothing else may go in.
PLAY_FIELDS = {
    "sourceName",
    "sourcePlayId",
    "game",
    "playDate",
    "durationMin",
    "players",
    "location",
    "comments",
    "board",
}
GAME_FIELDS = {"name", "highestWins", "noPoints", "sourceGameId", "bggId"}
PLAYER_FIELDS = {"name", "score", "winner", "rank", "startPlayer", "sourcePlayerId", "role"}


@pytest.fixture
def db(app):
    with app.app_context():
        yield get_db()


def seated(db, game, names, options=None):
    table, _ = store.create_table(db, game, options)
    return table, [store.add_seat(db, table, name, HOST, phone=False)[0] for name in names]


def act(db, table, kind, **form):
    return store.act(db, table, kind, {k: str(v) for k, v in form.items()}, HOST, rng=random.Random(1))


def state(db, table):
    return store.load(db, table).state


def decoded(link, prefix):
    assert link.startswith(prefix)
    return json.loads(unquote(link[len(prefix) :]))


def check(db, table, number, ranks, start=None, location=None, game_name=None):
    """The game's link, decoded, against records.table_games: every field. Returns the play."""
    results = records.table_games(db, table)
    found = bgstats.table_plays(db, table, location=location, game_name=game_name)
    assert len(found) == len(results)
    result, entry = results[number - 1], found[number - 1]
    data = decoded(entry["web"], "https://app.bgstatsapp.com/createPlay.html?data=")
    assert data == decoded(entry["app"], "bgstats://app.bgstatsapp.com/createPlay.html?data=") == entry["play"]
    assert set(data) <= PLAY_FIELDS and set(data["game"]) <= GAME_FIELDS and "bggId" not in data["game"]
    assert all(set(player) <= PLAYER_FIELDS for player in data["players"])
    assert data["sourceName"] == "Table Companion" and data["sourcePlayId"] == f"{table.code}-{number}"
    if table.game != "generic":
        assert data["game"]["name"] == games.TABLE_GAMES[table.game] and data["game"]["sourceGameId"] == table.game
    assert data["game"]["highestWins"] is True and data["game"]["noPoints"] is False
    started = datetime.fromisoformat(result["started_at"]).astimezone()
    assert data["playDate"] == started.strftime("%Y-%m-%d %H:%M:%S")
    assert data["durationMin"] == result["minutes"]
    assert [(p["name"], p["score"], p["winner"]) for p in data["players"]] == [
        (row["name"], row["value"], row["won"]) for row in result["scores"]
    ]
    assert {p["name"]: p["rank"] for p in data["players"]} == ranks
    assert [p["name"] for p in data["players"] if p["startPlayer"]] == ([start] if start else [])
    assert [p["sourcePlayerId"] for p in data["players"]] == [bgstats.player_id(p["name"]) for p in data["players"]]
    assert len({p["sourcePlayerId"] for p in data["players"]}) == len(data["players"])
    assert data.get("location") == location
    assert bgstats.table_plays(db, table, location=location, game_name=game_name)[number - 1] == entry  # stable
    return data


def test_danger_zone_upper_hand_is_the_score_and_who_reached_20_won(db):
    table, (ana, bo, cy) = seated(db, dz.SLUG, ["Ana", "Bo", "Cy"])
    for seat, character in zip((ana, bo, cy), ("Archer", "Lana", "Pam")):
        act(db, table, "character.pick", seat=seat, character=character)
    act(db, table, "locations.draw")
    act(db, table, "initiative.record", seat=bo)
    act(db, table, "order.confirm", order=f"{ana},{bo},{cy}")
    assert bgstats.table_plays(db, table)[0]["play"] is None  # not until it ends
    act(db, table, "round.next", to=dz.next_step(state(db, table)), force=1)
    act(db, table, "upper_hand.change", seat=cy, delta=15)
    data = check(db, table, 1, {"Cy": 1, "Ana": 2, "Bo": 2}, start="Bo")
    assert [p["name"] for p in data["players"] if p["winner"]] == ["Cy"] and data["players"][0]["score"] == 20
    assert {p["name"]: p["role"] for p in data["players"]} == {"Ana": "Archer", "Bo": "Lana", "Cy": "Pam"}
    assert "comments" not in data


def test_an_undone_win_is_no_play(db):
    table, (ana, bo) = seated(db, dz.SLUG, ["Ana", "Bo"])
    for seat, character in zip((ana, bo), ("Archer", "Lana")):
        act(db, table, "character.pick", seat=seat, character=character)
    act(db, table, "locations.draw")
    act(db, table, "initiative.record", seat=ana)
    act(db, table, "order.confirm", order=f"{ana},{bo}")
    act(db, table, "round.next", to=dz.next_step(state(db, table)), force=1)
    win = act(db, table, "upper_hand.change", seat=ana, delta=15)
    assert bgstats.table_plays(db, table)[0]["play"] is not None
    store.undo(db, table, win, HOST)
    assert bgstats.table_plays(db, table) == [{"number": 1, "play": None, "web": None, "app": None}]


def test_blackmail_victory_points_each_game_its_own_play_and_its_own_first_player(db):
    table, (ana, bo, cy) = seated(db, "blackmail", ["Ana", "Bo", "Cy"])

    def game(first, winners):
        act(db, table, "game.start", first_player=first, to=start_step(state(db, table)))
        for winner in winners:
            act(db, table, "round.score", winner=winner, to=next_round_step(state(db, table)))

    game(bo, [ana, bo, ana, ana, ana])  # 3 players: 4 Victory Points win
    game(cy, [cy, cy, bo, cy, cy])
    first = check(db, table, 1, {"Ana": 1, "Bo": 2, "Cy": 3}, start="Bo")
    second = check(db, table, 2, {"Cy": 1, "Bo": 2, "Ana": 3}, start="Cy", location="Ana's kitchen")
    assert [p["score"] for p in first["players"]] == [4, 1, 0] and first["sourcePlayId"] != second["sourcePlayId"]
    # The same names, the same player ids, game after game.
    assert {p["name"]: p["sourcePlayerId"] for p in first["players"]} == {
        p["name"]: p["sourcePlayerId"] for p in second["players"]
    }


def assassins_game(db, real):
    table, seats = seated(db, "assassins", ["Ana", "Bo", "Cy"])
    for seat, points in zip(seats, real):
        act(db, table, "points", seat=seat, delta=points, reason="Card effect")
    act(db, table, "points", seat="ghost", delta=20, reason="Card effect")  # the ghost: no player
    act(db, table, "resolve.step", number=6, at="draft")
    act(db, table, "bank", to=state(db, table)["round"] + 1)
    return table


def test_assassins_real_points_ranked_by_the_tie_break_and_the_ghost_is_no_player(db):
    table = assassins_game(db, (15, 15, 3))
    # Tied on 15: the first met anti-clockwise from the first seat (Ana) wins: Bo.
    data = check(db, table, 1, {"Bo": 1, "Ana": 2, "Cy": 3})
    assert [p["name"] for p in data["players"] if p["winner"]] == ["Bo"]
    assert [p["name"] for p in data["players"]] == ["Ana", "Bo", "Cy"] and len(data["players"]) == 3
    assert data["comments"] == records.table_games(db, table)[0]["note"] and "Bo wins the tie" in data["comments"]


def test_assassins_all_equal_says_nobody_won(db):
    table = assassins_game(db, (15, 15, 15))
    data = check(db, table, 1, {"Ana": 1, "Bo": 1, "Cy": 1})
    assert not any(p["winner"] for p in data["players"]) and "the dog wins" in data["comments"]


def test_the_scoreboard_is_the_game_the_host_names_and_the_players_keep_their_ids(db):
    table, (ana, bo) = seated(db, "generic", ["Ana", "Bo"])
    act(db, table, "score", seat=ana, delta=3)
    act(db, table, "score", seat=bo, delta=7)
    assert bgstats.table_plays(db, table)[0]["play"] is None  # it ends when the night moves on
    nxt, _ = nights.start_next(
        db, table, "generic", [ana, bo], [], HOST, lambda code, hashed: hashed, lambda: ("salt", "hash")
    )
    data = check(db, table, 1, {"Bo": 1, "Ana": 2}, game_name="Carcassonne")
    assert data["game"]["name"] == "Carcassonne" and data["game"]["sourceGameId"] == "generic:carcassonne"
    unnamed = bgstats.table_plays(db, table)[0]["play"]
    assert unnamed["game"]["name"] == "Scoreboard" and unnamed["game"]["sourceGameId"] == "generic"
    seats = {s["name"]: s["id"] for s in state(db, nxt)["seats"]}
    act(db, nxt, "score", seat=seats["Ana"], delta=1)
    nights.start_next(
        db, nxt, "generic", list(seats.values()), [], HOST, lambda code, hashed: hashed, lambda: ("salt", "hash")
    )
    later = bgstats.table_plays(db, nxt)[0]["play"]
    assert {p["name"]: p["sourcePlayerId"] for p in later["players"]} == {
        p["name"]: p["sourcePlayerId"] for p in data["players"]
    }


def test_player_ids_match_names_as_seats_do():
    assert bgstats.player_id("ＡＮＡ") == bgstats.player_id("ana") == bgstats.player_id("Ana")
    assert bgstats.player_id("Ana") != bgstats.player_id("Bo")
