"""On the server side: a phone that was offline sends its waiting taps again, each
with its own action id. The first try may have got through before the Wi-Fi dropped, and the
phone may send from two connections at once (the page's retry and the stream reopening, or
two tabs of the same seat): the same action id makes one change, however it arrives."""

import threading

import pytest

from helpers import Phone

ROUNDS = 6  # races at one instant, each with its own action id


@pytest.fixture(params=["sqlite", "postgresql"])
def any_app(request):
    """The app on SQLite, then on PostgreSQL (skipped where there is none)."""
    return request.getfixturevalue("app" if request.param == "sqlite" else "pg_app")


def seated(app, game="generic"):
    """A host's phone at a new table, Ana's phone seated, and a twin: a second connection with
    Ana's cookie and page, as a second tab of the same seat is."""
    host = Phone(app, None)
    response = host.client.post("/tables", data={"game": game})
    host.code = response.headers["Location"].split("/")[2]
    host.page("/host")
    ana = Phone(app, host.code)
    assert ana.client.post(f"/t/{host.code}/join", data={"name": "Ana"}).status_code == 303
    ana.page()
    ana.seat = ana.state()["viewer"]["seat"]
    twin = Phone(app, host.code)
    cookie = ana.client.get_cookie("tc", path=f"/t/{host.code}")
    twin.client.set_cookie("tc", cookie.value, path=cookie.path)
    twin.page()
    assert twin.csrf == ana.csrf  # the form token is per table and holder: a kept tap stays valid
    return host, ana, twin


def at_once(phones, path, data):
    """Post the same form from every phone at the same instant; returns the statuses."""
    barrier, statuses = threading.Barrier(len(phones)), []

    def send(phone):
        barrier.wait()
        statuses.append(phone.post(path, data).status_code)

    threads = [threading.Thread(target=send, args=(phone,)) for phone in phones]
    [thread.start() for thread in threads]
    [thread.join() for thread in threads]
    return statuses


def test_a_resent_action_id_from_two_connections_at_once_makes_one_change(any_app):
    host, ana, twin = seated(any_app)
    for n in range(1, ROUNDS + 1):
        data = {"seat": ana.seat, "delta": "1", "page": "player", "action_id": f"offline-tap-{n}"}
        assert at_once([ana, twin], "/act/score", data) == [200, 200]  # both answered: applied
        state = host.state()
        assert state["state"]["seats"][0]["score"] == n
        assert sum(1 for entry in state["log"] if entry["kind"] == "score") == n
    # Sent a third time later (the phone never heard either answer): still nothing new.
    assert ana.post("/act/score", data).status_code == 200
    assert host.state()["state"]["seats"][0]["score"] == ROUNDS


def test_a_resent_undo_from_two_connections_at_once_undoes_once(any_app):
    host, ana, twin = seated(any_app)
    ana.act("score", seat=ana.seat, delta=3)
    target = host.state()["log"][-1]["id"]
    data = {"page": "player", "action_id": "offline-undo"}
    assert at_once([ana, twin], f"/undo/{target}", data) == [200, 200]
    state = host.state()
    assert sum(1 for entry in state["log"] if entry["kind"] == "undo") == 1
    assert state["state"]["seats"][0]["score"] == 0


def test_a_stale_step_sent_late_is_refused_with_a_sentence_and_changes_nothing(any_app):
    """The server's half of a waiting tap that went stale: another phone moved the round on."""
    host, ana, twin = seated(any_app, "danger-zone")
    bo = Phone(any_app, host.code)
    assert bo.client.post(f"/t/{host.code}/join", data={"name": "Bo"}).status_code == 303
    bo.page()
    for phone, character in ((ana, "Archer"), (bo, "Cheryl")):
        assert phone.act("character.pick", character=character).status_code == 200
    for kind in ("locations.draw", "initiative.roll"):
        assert host.act(kind, page="host").status_code == 200
    order = ",".join(str(seat["id"]) for seat in host.state()["state"]["seats"])
    assert host.act("order.confirm", order=order, page="host").status_code == 200
    assert host.act("round.next", to="round 1, Movement", page="host").status_code == 200
    # Bo moves on first; Ana's tap, made offline at the same step, arrives after.
    assert bo.act("round.next", to="round 1, Mission", force="1").status_code == 200
    before = host.state()
    late = ana.post(
        "/act/round.next", {"to": "round 1, Mission", "force": "1", "page": "player", "action_id": "kept-while-offline"}
    )
    assert late.status_code == 422
    assert "already at round 1, Mission" in late.get_data(as_text=True)
    after = host.state()
    assert after["version"] == before["version"] and after["log"] == before["log"]
