"""Game night: play again with the same seats, phones that follow their own seat, the night
page and its exports, records derived from the logs, co-hosts, handing over, host recovery,
and one next table however many taps ask for it."""

import threading

import pytest

from companion.access import holders
from companion.db import get_db
from companion.nights import records
from companion.tables import names, store
from helpers import HX, Phone, Stream, follow, new_code, recovery_code, start_next, text, win_danger_zone


@pytest.fixture
def night(host, join):
    """A Danger Zone table with three phones: the host, Ana, Bo, Cy."""
    host.start("danger-zone")
    return host, join(host, "Ana"), join(host, "Bo"), join(host, "Cy")


def table_of(app, code):
    with app.app_context():
        return store.find_table(get_db(), code)


def test_play_again_carries_the_seats_and_every_phone_follows_its_own(app, night):
    host, ana, bo, cy = night
    old = host.code
    for phone, character in ((ana, "Archer"), (bo, "Lana"), (cy, "Pam")):
        assert phone.act("character.pick", seat=phone.seat, character=character).status_code == 200
    live = text(ana.client.get(f"/t/{old}/live?page=player", headers=HX))
    assert "data-follow" not in live

    response = start_next(host)
    assert response.status_code == 200 and "/host" in response.headers["HX-Redirect"]
    code = new_code(response)
    assert code != old

    # The old table's board now holds each phone's link; the phone follows it by itself.
    live = text(ana.client.get(f"/t/{old}/live?page=player", headers=HX))
    assert "data-follow" in live and f"/t/{old}/follow" in live and code not in live
    for phone in (ana, bo, cy):
        assert follow(phone).headers["Location"] == f"/t/{code}/me"
    seen = ana.state()
    assert seen["game"] == "blackmail" and seen["code"] == code
    assert [s["name"] for s in seen["state"]["seats"]] == ["Ana", "Bo", "Cy"]  # clockwise, as before
    assert seen["viewer"]["role"] == "seat"
    assert {bo.state()["viewer"]["seat"], cy.state()["viewer"]["seat"], seen["viewer"]["seat"]} == {
        s["id"] for s in seen["state"]["seats"]
    }
    assert all(s["vp"] == 0 for s in seen["state"]["seats"])  # the new game starts fresh

    # Following twice (a second tab) lands on the same seat with the same cookie.
    again = Phone(app, old, ana.client)
    assert follow(again).headers["Location"] == f"/t/{code}/me"
    assert ana.state()["viewer"]["seat"] == seen["viewer"]["seat"]

    # The host's page follows too, as the host.
    host_page = follow(Phone(app, old, host.client), to="host")
    assert host_page.headers["Location"] == f"/t/{code}/host"
    assert host.client.get(f"/t/{code}/host").status_code == 200


def test_the_old_table_stays_as_it_was_and_strangers_learn_nothing(app, client, night):
    host, ana, bo, cy = night
    old = host.code
    ana.act("character.pick", seat=ana.seat, character="Archer")
    before = ana.state()["state"]
    code = new_code(start_next(host, game="assassins"))

    refused = ana.act("character.pick", seat=ana.seat, character="Lana")
    assert refused.status_code == 422 and "moved on" in text(refused)
    assert ana.state()["state"] == before
    joined = client.post(f"/t/{old}/join", data={"name": "Zed"})
    assert joined.status_code == 400 and "moved on" in text(joined)

    # A stranger with the old code: the screen, the live fragment, the follow link, the log.
    for path in ("/screen", "/live?page=screen", "/live?page=player", "/follow", "/follow?to=screen", "/"):
        response = client.get(f"/t/{old}{path}", headers=HX if "live" in path else {})
        assert code not in text(response) and code not in response.headers.get("Location", "")
    assert client.get(f"/t/{old}/night").status_code == 403
    # The old table is still readable and exportable by its host.
    export = host.client.get(f"/t/{old}/export.json").get_json()
    assert [e["kind"] for e in export["events"]][-1] == "night.next"
    assert host.client.get(f"/t/{old}/log.csv").status_code == 200


def test_the_host_leaves_a_seat_out_and_adds_one(app, night):
    host, ana, bo, cy = night
    old = host.code
    seats = ",".join(str(p.seat) for p in (ana, bo, cy))
    response = start_next(
        host,
        game="generic",
        htmx=False,
        listed=seats,
        **{f"keep_{ana.seat}": "1", f"keep_{cy.seat}": "1", "add_1": "Dee"},
    )
    assert response.status_code == 303
    code = new_code(response)
    assert follow(ana).status_code == 303 and follow(cy).status_code == 303
    assert [s["name"] for s in ana.state()["state"]["seats"]] == ["Ana", "Cy", "Dee"]
    seats = host.client.get(f"/t/{code}/export.json").get_json()["seats"]
    assert [(s["name"], s["phone"]) for s in seats] == [("Ana", True), ("Cy", True), ("Dee", False)]

    # Bo's board says the next game started without Bo; no link to follow, no new code.
    live = text(bo.client.get(f"/t/{old}/live?page=player", headers=HX))
    assert "without you" in live and "data-follow" not in live and code not in live
    left = bo.client.get(f"/t/{old}/follow")
    assert left.status_code == 200 and code not in text(left)
    assert bo.client.get(f"/t/{code}/state.json").status_code == 403


def test_a_seat_that_joined_after_the_page_was_drawn_comes_along(app, night, join):
    host, ana, bo, cy = night
    listed = ",".join(str(p.seat) for p in (ana, bo, cy))  # the page as drawn
    late = join(host, "Late")
    response = start_next(
        host, game="generic", htmx=False, listed=listed, **{f"keep_{p.seat}": "1" for p in (ana, bo, cy)}
    )
    code = new_code(response)
    assert follow(late).headers["Location"] == f"/t/{code}/me"


def test_only_the_host_or_a_co_host_starts_the_next_game(app, night):
    host, ana, bo, cy = night
    assert start_next(ana).status_code == 403
    assert ana.post("/next", {"game": "blackmail", "csrf": "wrong"}).status_code == 403
    assert host.post("/next", {"game": "blackmail", "csrf": "wrong"}).status_code == 403
    refused = start_next(host, game="chess")
    assert refused.status_code == 422
    assert ana.state()["state"]["seats"]  # nothing moved
    with app.app_context():
        assert not store.load(get_db(), store.find_table(get_db(), host.code)).night.get("next")


def test_too_many_seats_for_the_next_game_are_refused(app, host, join):
    host.start("generic")
    for name in ("Ana", "Bo", "Cy", "Dee", "Eli"):
        join(host, name)
    refused = start_next(host, game="blackmail", htmx=False)
    assert refused.status_code == 422 and "at most 4" in text(refused)


def count_next(app, code):
    with app.app_context():
        table = store.find_table(get_db(), code)
        return get_db().execute("SELECT count(*) FROM game_tables WHERE prev_id=?", (table.id,)).fetchone()[0]


def test_a_double_tap_a_stale_tap_and_two_hosts_at_once_make_one_table(app, night):
    host, ana, bo, cy = night
    old = host.code
    host.page("/host")
    # Ana becomes a co-host, so two devices may start the next game.
    assert host.post(f"/hosts/{ana.seat}/cohost", htmx=False).status_code == 303
    assert ana.state()["viewer"]["role"] == "host"
    ana.page()

    answers, errors = [], []
    go = threading.Barrier(4)

    def tap(phone, game, action_id):
        try:
            go.wait(5)
            answers.append(start_next(phone, game=game, action_id=action_id))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    taps = [
        threading.Thread(target=tap, args=(host, "blackmail", "a1")),
        threading.Thread(target=tap, args=(host, "blackmail", "a2")),  # the double tap
        threading.Thread(target=tap, args=(ana, "assassins", "b1")),  # the other host
        threading.Thread(target=tap, args=(host, "blackmail", "a1")),
    ]  # a resend
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join(30)
    assert errors == []
    assert [a.status_code for a in answers] == [200] * 4
    codes = {new_code(a) for a in answers}
    assert len(codes) == 1 and count_next(app, old) == 1

    # A stale tap from a page drawn before: the same table again, not a second one.
    stale = Phone(app, old, host.client)
    stale.csrf = host.csrf
    assert new_code(start_next(stale, game="generic")) in codes
    assert count_next(app, old) == 1


def test_co_host_rights_and_taking_them_back(app, night):
    host, ana, bo, cy = night
    host.page("/host")
    assert ana.client.get(f"/t/{host.code}/host").status_code == 403
    assert host.post(f"/hosts/{ana.seat}/cohost", htmx=False).status_code == 303
    assert ana.client.get(f"/t/{host.code}/host").status_code == 200
    # A co-host may act for another seat, as the host may...
    assert ana.act("character.pick", seat=bo.seat, character="Krieger").status_code == 200
    # ...but does not see the recovery code, nor change who hosts.
    ana.page("/host")
    assert "data-recovery-code" not in text(ana.client.get(f"/t/{host.code}/host"))
    assert ana.post(f"/hosts/{bo.seat}/cohost", htmx=False).status_code == 403
    assert host.post(f"/hosts/{ana.seat}/uncohost", htmx=False).status_code == 303
    assert ana.client.get(f"/t/{host.code}/host").status_code == 403
    assert bo.act("character.pick", seat=cy.seat, character="Pam").status_code == 422
    log = [e["text"] for e in host.state()["log"]]
    assert "Ana is now a co-host" in log and "Ana is no longer a co-host" in log

    # Co-hosts come along to the next table.
    host.post(f"/hosts/{cy.seat}/cohost", htmx=False)
    code = new_code(start_next(host))
    follow(cy)
    assert cy.code == code and cy.state()["viewer"]["role"] == "host"
    follow(ana)
    assert ana.state()["viewer"]["role"] == "seat"


def test_the_host_hands_over_to_a_seat(app, night):
    host, ana, bo, cy = night
    host.page("/host")
    # A seat without a phone cannot take over.
    host.post("/seats", {"name": "Dee", "page": "host"})
    dee = next(s["id"] for s in host.state()["state"]["seats"] if s["name"] == "Dee")
    refused = host.post(f"/hosts/{dee}/handover", htmx=False)
    assert refused.status_code == 422 and "no phone" in text(refused)

    response = host.post(f"/hosts/{bo.seat}/handover", htmx=False)
    assert response.status_code == 303
    assert host.client.get(f"/t/{host.code}/host").status_code == 403  # the old host device
    assert bo.client.get(f"/t/{host.code}/host").status_code == 200
    assert bo.state()["viewer"] == {"role": "host", "seat": bo.seat}
    assert "handed the host role to Bo" in [e["text"] for e in bo.state()["log"]]
    # Bo starts the next game; everyone follows, Bo as the host.
    bo.page("/host")
    code = new_code(start_next(bo, game="generic"))
    follow(bo)
    assert bo.state()["viewer"]["role"] == "host" and bo.code == code
    follow(ana)
    assert ana.state()["viewer"]["role"] == "seat"


def test_a_seated_host_hands_over_and_stays_as_a_player(app, host, join):
    host.start("generic")
    assert host.client.post(f"/t/{host.code}/join", data={"name": "Hana"}).status_code == 303
    ana = join(host, "Ana")
    host.page("/host")
    response = host.post(f"/hosts/{ana.seat}/handover", htmx=False)
    assert response.headers["Location"] == f"/t/{host.code}/me"
    me = host.state()["viewer"]
    assert me["role"] == "seat" and me["seat"] is not None
    assert ana.state()["viewer"]["role"] == "host"


def test_the_recovery_code_makes_another_device_the_host_and_revokes_the_old_one(app, night):
    host, ana, bo, cy = night
    old = host.code
    code = new_code(start_next(host, game="generic"))
    follow(host, to="host")
    assert host.code == code
    recovery = recovery_code(host)
    assert recovery_code(host) == recovery  # the same code each time the page is drawn
    assert recovery_code(Phone(app, old, host.client)) == recovery  # one code for the night

    laptop = app.test_client()
    wrong = laptop.post("/recover", data={"code": "AAAA-BBBB-CCCC"})
    assert wrong.status_code == 422
    right = laptop.post("/recover", data={"code": recovery.lower().replace("-", " ")})
    assert right.status_code == 303 and right.headers["Location"] == f"/t/{code}/host"
    assert laptop.get(f"/t/{code}/host").status_code == 200
    # The old device is refused everywhere in the night.
    assert host.client.get(f"/t/{code}/host").status_code == 403
    assert host.client.get(f"/t/{old}/host").status_code == 403
    assert "another device became the host" in text(laptop.get(f"/t/{code}/host"))
    # The code changes once used: the same code again is a wrong one.
    assert laptop.post("/recover", data={"code": recovery}).status_code == 422
    assert recovery_code(Phone(app, code, laptop)) != recovery


def test_wrong_recovery_codes_count_in_the_wrong_code_limit(app, client):
    for n in range(20):
        assert client.post("/recover", data={"code": f"NOPE{n}"}).status_code == 422
    assert client.post("/recover", data={"code": "STILL-WRONG"}).status_code == 429
    assert client.get("/t/AAAAAAA").status_code == 429  # the same limit as table codes


# --- the night page and records -----------------------------------------------------------------


def test_the_night_page_lists_the_games_and_the_standings(app, night, client):
    host, ana, bo, cy = night
    old = host.code
    win_danger_zone(host, [ana, bo, cy], bo)
    assert "Game over" in text(host.client.get(f"/t/{old}/host"))
    code = new_code(start_next(host, game="generic"))
    for phone in (ana, bo, cy):
        follow(phone)
    ana.act("score", seat=ana.seat, delta=3)

    page = text(ana.client.get(f"/t/{code}/night"))
    assert "Archer: The Danger Zone!" in page and "Any other game" in page
    assert "Won by <b>Bo</b>" in page and "Upper Hand" in page
    night_json = ana.client.get(f"/t/{code}/night.json").get_json()
    assert [g["game"] for g in night_json["games"]] == ["danger-zone", "generic"]
    assert night_json["games"][0]["finished"] and night_json["games"][0]["winners"] == ["Bo"]
    assert not night_json["games"][1]["finished"]
    assert night_json["standings"][0]["name"] == "Bo" and night_json["standings"][0]["wins"] == 1
    assert "tables" not in night_json  # the whole logs are the host's
    csv_text = text(host.client.get(f"/t/{code}/night.csv"))
    assert csv_text.splitlines()[0].startswith("player,wins,games finished,1. Archer: The Danger Zone! (Upper Hand)")
    assert "Bo,1,1,20" in csv_text
    assert client.get(f"/t/{code}/night").status_code == 403  # strangers


def test_someone_who_joined_late_sees_only_their_games(app, night, join):
    host, ana, bo, cy = night
    code = new_code(start_next(host, game="generic"))
    follow(ana)
    late = join(Phone(app, code), "Late")
    shown = late.client.get(f"/t/{code}/night.json").get_json()
    assert [g["table"] for g in shown["games"]] == [code]
    assert len(ana.client.get(f"/t/{code}/night.json").get_json()["games"]) == 2
    assert len(host.client.get(f"/t/{code}/night.json").get_json()["games"]) == 2


def test_the_table_screen_shows_the_night_between_games(app, night, client):
    host, ana, bo, cy = night
    win_danger_zone(host, [ana, bo, cy], ana)
    host.page("/host")
    assert host.post("/night/screen", {"show": "1", "page": "host"}).status_code == 200
    screen = text(client.get(f"/t/{host.code}/screen"))
    assert "night-tv" in screen and "most wins: Ana" in screen
    assert host.post("/night/screen", {"show": "0", "page": "host"}).status_code == 200
    assert "night-tv" not in text(client.get(f"/t/{host.code}/screen"))


def test_an_undone_win_is_no_win_in_the_records(app, night):
    host, ana, bo, cy = night
    win = win_danger_zone(host, [ana, bo, cy], cy)
    with app.app_context():
        found = {p["name"]: p for p in records.player_records(get_db())}
    assert found["Cy"]["won"] == 1 and found["Cy"]["characters"] == {"Pam": 1}
    assert found["Ana"]["played"] == 1 and found["Ana"]["won"] == 0
    assert found["Cy"]["games"]["Archer: The Danger Zone!"] == {"played": 1, "won": 1}

    assert host.post(f"/undo/{win}", {"page": "host"}).status_code == 200
    with app.app_context():
        found = {p["name"]: p for p in records.player_records(get_db())}
    assert found["Cy"]["won"] == 0 and found["Cy"]["played"] == 0 and found["Cy"]["characters"] == {}


def test_records_match_names_as_seats_do(app, host, join):
    """ "ANA", "Ana" and a full-width "Ａｎａ" are one player, as they would be at one table."""
    assert names.same_name_key("ＡＮＡ") == names.same_name_key("ana")
    for spelling, winner_points in (("Ana", 15), ("ＡＮＡ", 16)):
        table_host = type(host)(app, None)
        table_host.start("assassins")
        phones = [join(table_host, spelling), join(table_host, "Bo"), join(table_host, "Cy")]
        for phone, points in zip(phones, (winner_points, 3, 1)):
            assert phones[0].act("points", seat=phone.seat, delta=points).status_code == 200
        now = phones[0].state()["state"]["step_at"]
        assert phones[0].act("resolve.step", number=6, at=now).status_code == 200
        assert phones[0].act("bank", to=phones[0].state()["state"]["round"] + 1).status_code == 200
    with app.app_context():
        found = records.player_records(get_db())
    ana = next(p for p in found if names.same_name_key(p["name"]) == "ana")
    assert ana["played"] == 2 and ana["won"] == 2 and ana["assassins_average"] == 15.5
    assert sum(1 for p in found if names.same_name_key(p["name"]) == "ana") == 1


def test_blackmail_records_count_rounds_and_games(app, host, join):
    host.start("blackmail")
    ana, bo, _cy = join(host, "Ana"), join(host, "Bo"), join(host, "Cy")

    def play(first, rounds):
        state = host.state()["state"]
        assert host.act("game.start", first_player=first.seat, to=state["to"]["start"]).status_code == 200
        for winner in rounds:
            state = host.state()["state"]
            assert host.act("round.score", winner=winner.seat, to=state["to"]["next_round"]).status_code == 200, (
                host.state()
            )

    play(ana, [ana, bo, ana, ana, ana])  # 3 players: 4 Victory Points win
    play(bo, [bo, bo])  # a second game at the same table, unfinished
    with app.app_context():
        table = store.find_table(get_db(), host.code)
        found = records.table_games(get_db(), table)
        people = {p["name"]: p for p in records.player_records(get_db())}
    assert [g["finished"] for g in found] == [True, False]
    assert found[0]["winners"] == ["Ana"]
    assert people["Ana"]["won"] == 1 and people["Ana"]["rounds_won"] == 4
    assert people["Bo"]["rounds_won"] == 3 and people["Bo"]["played"] == 1


def test_the_admin_page_shows_records_and_needs_the_admin_cookie(app, night, client):
    host, ana, bo, cy = night
    win_danger_zone(host, [ana, bo, cy], ana)
    assert client.get("/admin").status_code == 403
    response = client.get(f"/admin/{app.config['ADMIN_KEY']}")
    assert response.status_code == 303 and response.headers["Location"] == "/admin"
    page = text(client.get("/admin"))
    assert "Player records" in page and "Archer 1" in page


def test_a_host_device_keeps_a_list_of_its_tables(app, night):
    host, ana, bo, cy = night
    first = host.code
    host.page("/host")
    code = new_code(start_next(host, game="assassins"))
    host.client.get(f"/t/{code}/host")
    page = text(host.client.get("/hosted"))
    assert first in page and code in page and "in progress" in page and "the night moved on" in page
    assert first not in text(ana.client.get("/hosted"))
    # The home page leads back there, on the host's device only; every device finds the
    # recovery code's page from it.
    home, elsewhere = text(host.client.get("/")), text(ana.client.get("/"))
    assert 'href="/hosted"' in home and 'href="/hosted"' not in elsewhere
    assert 'href="/recover"' in home and 'href="/recover"' in elsewhere


def test_a_seated_host_left_out_of_the_next_game_still_hosts_it(app, host, join):
    host.start("generic")
    assert host.client.post(f"/t/{host.code}/join", data={"name": "Hana"}).status_code == 303
    ana = join(host, "Ana")
    host.page("/host")
    hana = next(s["id"] for s in host.state()["state"]["seats"] if s["name"] == "Hana")
    old = host.code
    code = new_code(
        start_next(host, game="assassins", htmx=False, listed=f"{hana},{ana.seat}", **{f"keep_{ana.seat}": "1"})
    )
    # The host's own phone page (at its seat) offers the host's page of the next table.
    live = text(host.client.get(f"/t/{old}/live?page=player", headers=HX))
    assert f"/t/{old}/follow?to=host" in live
    assert host.client.get(f"/t/{old}/follow?to=player").headers["Location"] == f"/t/{code}/host"
    assert host.client.get(f"/t/{code}/state.json").get_json()["viewer"] == {"role": "host", "seat": None}


def test_an_open_stream_asks_again_who_is_watching_on_every_change(app, night):
    """A stream stays open for hours: the old host's stream, open while the host role is
    handed over, gets the table screen's parts from then on, never the host's controls; a
    removed seat's stream gets the removed notice."""
    host, ana, bo, cy = night
    old_host, cys = Stream(host, "host"), Stream(cy, "player")
    assert 'id="live-admin"' in old_host.next_message()  # the host's seat list
    assert 'class="me' in cys.next_message()
    host.page("/host")
    response = host.post(f"/hosts/{bo.seat}/handover", htmx=False)
    assert response.status_code == 303, text(response)
    after = old_host.next_message()
    assert 'id="live-admin"' not in after and "/hosts/" not in after and "/seats/" not in after
    cys.next_message()
    bo.page("/host")
    assert bo.post(f"/seats/{cy.seat}/remove", {"page": "host"}).status_code == 200
    assert "You were removed from this table" in cys.next_message()


def test_a_tap_at_a_table_with_open_streams_reads_who_holds_the_phones_from_them(app, host, join, monkeypatch):
    """While only scores change, a tap takes the table's row and seat tokens from what its
    streams here read (door._kept_table), not from a query; after a seat change the streams
    read them again, and a removed seat's phone is refused at once."""
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    anas = Stream(ana, "player")
    anas.next_message()  # the stream read who is watching as it opened
    reads = []
    real = holders.table_and_tokens
    monkeypatch.setattr(holders, "table_and_tokens", lambda *args: reads.append(args[1]) or real(*args))
    assert ana.act("score", seat=bo.seat, delta=1).status_code == 200
    assert "+1" in anas.next_message()
    assert ana.act("score", seat=bo.seat, delta=2).status_code == 200
    assert "+2" in anas.next_message()
    assert reads == []  # neither the tap nor the stream asked
    host.page("/host")
    assert host.post(f"/seats/{bo.seat}/remove", {"page": "host"}).status_code == 200
    anas.next_message()
    assert reads  # a seat change: read again
    assert bo.act("score", seat=ana.seat, delta=1).status_code == 403
    assert ana.act("score", seat=ana.seat, delta=5).status_code == 200
