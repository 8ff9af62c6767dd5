"""Through the app: a finished game of each kind shows how it went on every phone, the
host page, the table screen and the night page; a player's phone and the night page carry the
BG Stats link, whose JSON is the table's result; the exports carry the series; and nobody sees
more than before (a stranger, a revoked host device, a removed seat, a dealt hand)."""

import csv
import html
import io
import json
import re
from urllib.parse import unquote

import pytest

from companion.charts import series, shown
from companion.db import get_db
from companion.games.blackmail import ARCHER, BY_NUMBER, CYRIL, KRUEGER, LANA, PAM
from companion.games.blackmail import dealt as deal
from companion.nights import records
from companion.tables import store
from helpers import CARD_NAMES as NAMES
from helpers import (
    HX,
    Phone,
    data_of,
    follow,
    new_code,
    opening,
    recovery_code,
    rigged,
    span_of,
    start_next,
    step_to,
    text,
    win_danger_zone,
)

LINK = re.compile(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"')


def ok(response):
    assert response.status_code == 200, text(response)[:600]
    return response


def live(phone, page):
    return text(ok(phone.client.get(f"/t/{phone.code}/live?page={page}", headers=HX)))


def chart_of(fragment):
    start, end = span_of(fragment, "live-chart")
    return fragment[start:end]


def figure_of(part):
    return re.search(r"<figure.*?</figure>", part, re.S).group(0)


def plays_in(page):
    """The BG Stats plays a page links to, decoded."""
    return [json.loads(unquote(html.unescape(link).split("data=", 1)[1])) for link in LINK.findall(page)]


def result_of(app, code, number=-1):
    with app.app_context():
        return records.table_games(get_db(), store.find_table(get_db(), code))[number]


def same_as_result(play, result, code, number):
    assert play["sourcePlayId"] == f"{code}-{number}"
    assert play["game"]["name"] == ("Scoreboard" if result["game"] == "generic" else result["title"])
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
        (r["name"], r["value"], r["won"]) for r in result["scores"]
    ]


def blackmail_game(host, winners, first):
    """A game of Blackmail scored round by round (3 players: 4 Victory Points win)."""
    ok(host.act("game.start", first_player=first.seat, to=step_to(host, "start")))
    for winner in winners:
        ok(host.act("round.score", winner=winner.seat, to=step_to(host, "next_round")))


def assassins_game(host, phones, points=(15, 3, 1)):
    for phone, value in zip(phones, points):
        ok(phones[0].act("points", seat=phone.seat, delta=value))
    ok(host.act("resolve.step", number=6, at=host.state()["state"]["step_at"]))
    ok(host.act("bank", to=host.state()["state"]["round"] + 1))


FINISH = {
    "danger-zone": lambda host, phones: win_danger_zone(host, phones, phones[1]),
    "blackmail": lambda host, phones: blackmail_game(host, [phones[i] for i in (0, 1, 0, 0, 0)], phones[1]),
    "assassins": assassins_game,
}


def seated(host, join, game):
    host.start(game)
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy")]
    host.page("/host")
    return phones


@pytest.mark.parametrize("game", list(FINISH))
def test_a_finished_game_shows_how_it_went_and_each_phone_the_play(app, host, join, client, game):
    ana, bo, cy = phones = seated(host, join, game)
    assert "live-chart" not in live(ana, "player") + live(host, "host")  # not while it is played
    FINISH[game](host, phones)
    result = result_of(app, host.code)
    assert result["finished"] and result["winners"]
    screen = Phone(app, host.code, client)
    figures = set()
    for phone, page in ((ana, "player"), (cy, "player"), (host, "host"), (screen, "screen")):
        fragment = live(phone, page)
        region = chart_of(fragment)
        assert "How the game went" in region and "<svg" in region and 'aria-describedby="end-chart-1-words"' in region
        assert "took the lead" in region or "led with" in region  # the words a screen reader gets
        figures.add(figure_of(region))
        if page == "player":
            (play,) = plays_in(region)
            same_as_result(play, result, host.code, 1)
            assert "Save to BG Stats" in region and "match the names" in region
        else:
            assert not plays_in(fragment)
    assert len(figures) == 1  # one drawing, the same for every viewer
    # The whole pages carry it too, and the table screen's stream.
    assert "live-chart" in text(ana.page()) and "live-chart" in text(host.page("/host"))
    assert "live-chart" in data_of(opening(client, f"/t/{host.code}/events?page=screen"))

    # The night page: the game's chart and its link; the exports: its series.
    night = text(ok(bo.client.get(f"/t/{host.code}/night")))
    assert 'id="night-chart-1"' in night and "Save to BG Stats" in night
    (play,) = plays_in(night)
    same_as_result(play, result, host.code, 1)
    chart = ok(bo.client.get(f"/t/{host.code}/night.json")).get_json()["games"][0]["chart"]
    assert chart["finished"] and chart["measure"] == result["measure"]
    assert {s["name"]: s["points"][-1][1] for s in chart["seats"]} == {r["name"]: r["value"] for r in result["scores"]}
    rows = list(csv.reader(io.StringIO(text(ok(bo.client.get(f"/t/{host.code}/night.csv"))))))
    start = rows.index(["game", "step", "seat", "measure", "value"])
    assert [row[:2] for row in rows[start + 1 :]][0] == ["1", chart["steps"][0]]
    assert [
        "1",
        chart["steps"][-1],
        result["winners"][0],
        result["measure"],
        str(result["scores"][0]["value"]),
    ] in rows[start + 1 :]
    # The table's own CSV ends with the same series, after one blank row.
    table_rows = list(csv.reader(io.StringIO(text(ok(host.client.get(f"/t/{host.code}/log.csv"))))))
    at = table_rows.index(["game", "step", "seat", "measure", "value"])
    assert table_rows[at - 1] == [] and table_rows[at:] == rows[start:] and len(rows) > start + 3
    exported = ok(host.client.get(f"/t/{host.code}/export.json")).get_json()
    assert exported["charts"][0]["seats"] == chart["seats"]


def test_an_undone_win_takes_the_chart_away_again(app, host, join):
    ana, bo, cy = seated(host, join, "danger-zone")
    win = win_danger_zone(host, [ana, bo, cy], cy)
    assert plays_in(live(ana, "player"))
    ok(host.post(f"/undo/{win}", {"page": "host"}))
    assert "live-chart" not in live(ana, "player") + live(host, "host")


def test_the_chart_is_worked_out_once_per_version_for_every_viewer(app, host, join, client, monkeypatch):
    ana, bo, cy = phones = seated(host, join, "assassins")
    assassins_game(host, phones)
    folds = []
    real = series.charts
    monkeypatch.setattr(series, "charts", lambda *args: folds.append(1) or real(*args))
    shown.clear()
    for phone, page in (
        (ana, "player"),
        (bo, "player"),
        (cy, "player"),
        (host, "host"),
        (Phone(app, host.code, client), "screen"),
    ):
        assert "live-chart" in live(phone, page)
    assert len(folds) == 1


def test_the_scoreboard_ends_when_the_night_moves_on_and_plays_keep_their_tables_numbers(app, host, join):
    """A scoreboard, then two games of Blackmail at one table: the night numbers them 1 to 3,
    each play is named by its own table and that table's own game number."""
    ana, bo, cy = seated(host, join, "generic")
    ok(ana.act("score", seat=ana.seat, delta=4))
    ok(bo.act("score", seat=bo.seat, delta=9))
    first = host.code
    assert "live-chart" not in live(ana, "player")  # the scoreboard has no end of its own
    code = new_code(start_next(host, game="blackmail"))
    # The old table, opened again: it ended when the night moved on, and Bo had the most.
    kept = Phone(app, first, ana.client)
    (play,) = plays_in(chart_of(live(kept, "player")))
    same_as_result(play, result_of(app, first), first, 1)
    assert [p["name"] for p in play["players"] if p["winner"]] == ["Bo"]
    for phone in (ana, bo, cy):
        follow(phone)
        phone.seat = phone.state()["viewer"]["seat"]  # its seat at the new table
    follow(host, to="host")
    blackmail_game(host, [ana, ana, ana, ana], ana)
    blackmail_game(host, [cy, cy, cy, cy], bo)
    night = text(ok(ana.client.get(f"/t/{code}/night")))
    assert [f'id="night-chart-{n}"' in night for n in (1, 2, 3)] == [True] * 3
    plays = plays_in(night)
    assert [p["sourcePlayId"] for p in plays] == [f"{first}-1", f"{code}-1", f"{code}-2"]
    assert [[p["name"] for p in play["players"] if p["winner"]] for play in plays] == [["Bo"], ["Ana"], ["Cy"]]
    assert [p["name"] for p in plays[2]["players"] if p["startPlayer"]] == ["Bo"]
    same_as_result(plays[2], result_of(app, code, 1), code, 2)
    games = ok(ana.client.get(f"/t/{code}/night.json")).get_json()["games"]
    assert [g["chart"]["number"] for g in games] == [1, 1, 2] and [g["number"] for g in games] == [1, 2, 3]
    assert games[2]["chart"]["round_winners"][0][1] == [cy.seat]


def test_a_stranger_a_revoked_host_device_and_a_removed_seat_see_no_more_than_before(app, host, join, client):
    ana, bo, cy = seated(host, join, "danger-zone")
    win_danger_zone(host, [ana, bo, cy], bo)
    screen_chart = chart_of(live(Phone(app, host.code, client), "screen"))
    stranger = Phone(app, host.code, app.test_client())

    def sees_only_the_screen(phone):
        for page in ("player", "host"):
            fragment = live(phone, page)
            assert chart_of(fragment) == screen_chart and not plays_in(fragment)
        for path in ("/night", "/night.json", "/night.csv", "/export.json"):
            assert phone.client.get(f"/t/{host.code}{path}").status_code == 403, path

    sees_only_the_screen(stranger)
    # Cy's seat is taken off: the phone is told so, and gets no chart, no link.
    ok(host.post(f"/seats/{cy.seat}/remove", {"page": "host"}))
    removed = live(cy, "player")
    assert "You were removed" in removed and "live-chart" not in removed and not plays_in(removed)
    # Another device takes the host role with the recovery code: the old device's is gone.
    laptop = app.test_client()
    assert laptop.post("/recover", data={"code": recovery_code(host)}).status_code == 303
    sees_only_the_screen(host)
    assert plays_in(live(ana, "player"))  # a seat's phone keeps its link


# ---------------------------------------------------------------- a dealt game: no card leaks


@pytest.fixture
def deals(monkeypatch):
    """Every round's deal: Lana is the secret and the first player holds Krueger."""
    monkeypatch.setattr(deal, "new_deal", lambda rng: rigged([LANA, KRUEGER, CYRIL, PAM, ARCHER]))


def test_a_dealt_game_s_chart_and_play_name_no_card(app, host, join, client, deals):
    """Four dealt rounds, each won at once by a Krueger naming the secret Lana. At the end the
    table's reveal shows cards on the board, yet the chart (the same for every viewer, in the
    fragment, the page and the stream) and the play name none."""
    ana, bo, cy = phones = seated(host, join, "blackmail")
    ok(host.act("game.start", to=step_to(host, "start"), tracking="dealt", first_player=ana.seat, page="host"))
    while host.state()["state"]["phase"] != "game_over":
        holder = next(
            p for p in phones if KRUEGER in [c["number"] for c in p.state()["state"]["round"]["dealt"]["hand"]]
        )
        turn = holder.state()["state"]["round"]["dealt"]["turn_no"]
        ok(holder.act("dealt.play", card=KRUEGER, named=LANA, turn=turn))
        ok(host.act("round.confirm", to=step_to(host, "next_round"), page="host"))
    assert result_of(app, host.code)["finished"]
    screen = Phone(app, host.code, client)
    viewers = (
        (ana, "player", "/me"),
        (bo, "player", "/me"),
        (cy, "player", "/me"),
        (host, "host", "/host"),
        (screen, "screen", "/screen"),
    )
    cards = [pattern for number in BY_NUMBER for pattern in NAMES[number]]
    figures, revealed = set(), False
    for phone, page, path in viewers:
        for body in (
            live(phone, page),
            text(phone.client.get(f"/t/{host.code}{path}")),
            data_of(opening(phone.client, f"/t/{host.code}/events?page={page}")),
        ):
            region = chart_of(body)
            figures.add(figure_of(region))
            named = [p for p in cards if re.search(p, region)]
            assert not named, (page, named)
            for play in plays_in(region):
                assert not [p for p in cards if re.search(p, json.dumps(play))]
            revealed = revealed or any(re.search(p, body.replace(region, "")) for p in cards)
    assert len(figures) == 1 and revealed  # the scan had cards to find, outside the chart


# ---------------------------------------------------------------- Age of Assassins: no pick leaks

SECRET_REAR, SECRET_FRONT = "Zanzibar Rearguard", "Quokka Frontline"


def test_an_assassins_game_s_chart_and_play_name_no_hidden_pick(app, host, join, client):
    """Ana's rear row card, and her second pick before the others made theirs, stay on her
    phone. When the game ends, the chart and the play (in the fragment, the page and the stream)
    name neither on any viewer, and no other viewer's page names them at all."""
    ana, bo, cy = phones = seated(host, join, "assassins")
    ok(ana.act("draft.pick", seat=ana.seat, row="rear", card=SECRET_REAR))
    for phone in (bo, cy):
        ok(phone.act("draft.pick", seat=phone.seat, row="front"))
    ok(ana.act("draft.pick", seat=ana.seat, row="front", card=SECRET_FRONT))  # pick 2, not revealed
    assert SECRET_REAR in text(ana.page()) and SECRET_FRONT in text(ana.page())  # on her phone alone
    for phone, value in zip(phones, (15, 3, 1)):
        ok(ana.act("points", seat=phone.seat, delta=value))
    # Resolved before the others picked again, as a table may: Ana's pick 2 is still hers alone.
    ok(host.act("resolve.step", number=6, at=host.state()["state"]["step_at"], force=1))
    ok(host.act("bank", to=host.state()["state"]["round"] + 1))
    assert result_of(app, host.code)["finished"]
    screen = Phone(app, host.code, client)
    figures = set()
    for phone, page, path in (
        (ana, "player", "/me"),
        (bo, "player", "/me"),
        (cy, "player", "/me"),
        (host, "host", "/host"),
        (screen, "screen", "/screen"),
    ):
        for body in (
            live(phone, page),
            text(phone.client.get(f"/t/{host.code}{path}")),
            data_of(opening(phone.client, f"/t/{host.code}/events?page={page}")),
        ):
            region = chart_of(body)
            figures.add(figure_of(region))
            plays = json.dumps(plays_in(region))
            assert (page == "player") == (plays != "[]")
            for secret in (SECRET_REAR, SECRET_FRONT):
                assert secret not in region and secret not in plays, (page, secret)
                if phone is not ana:
                    assert secret not in body, (page, path, secret)
    assert len(figures) == 1
    with app.app_context():  # the log the chart is drawn from holds both cards
        logged = json.dumps(store.events(get_db(), store.find_table(get_db(), host.code)))
    assert SECRET_REAR in logged and SECRET_FRONT in logged
