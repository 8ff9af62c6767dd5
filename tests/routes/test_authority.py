"""Who may do what, and when: undo rights, undo once, removed seats, names, wrong codes."""

import threading

import pytest

from companion.tables import store
from helpers import Phone


def events_count(app, code):
    with app.app_context():
        from companion.db import get_db

        table = store.find_table(get_db(), code)
        return get_db().execute("SELECT count(*) FROM events WHERE table_id=?", (table.id,)).fetchone()[0]


def log_entry(phone, text):
    return next(e for e in phone.state()["log"] if text in e["text"])


def test_an_entry_is_undone_once_and_undoing_the_undo_restores_it(host, join):
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    ana.act("score", seat=ana.seat, delta=4)
    plus = host.state()["log"][-1]["id"]
    assert ana.post(f"/undo/{plus}").status_code == 200
    # Bo's screen was stale: the second undo of the same entry is refused, nothing changes
    before = events_count(host.client.application, host.code)
    response = bo.post(f"/undo/{plus}")
    assert response.status_code == 422
    assert "already undone by Ana" in response.get_data(as_text=True)
    assert events_count(host.client.application, host.code) == before
    undo = host.state()["log"][-1]
    assert undo["text"].startswith("undo:")
    assert bo.post(f"/undo/{undo['id']}").status_code == 200
    assert host.state()["state"]["seats"][0]["score"] == 4
    assert not log_entry(host, "+4")["undone"]


def test_eight_phones_undoing_one_entry_leave_one_undo(app, host, join):
    host.start("generic")
    phones = [join(host, f"P{i}") for i in range(8)]
    phones[0].act("score", seat=phones[0].seat, delta=2)
    target = host.state()["log"][-1]["id"]
    statuses = []
    barrier = threading.Barrier(len(phones))

    def tap(phone):
        barrier.wait()
        statuses.append(phone.post(f"/undo/{target}").status_code)

    threads = [threading.Thread(target=tap, args=(p,)) for p in phones]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(statuses) == [200] + [422] * 7
    log = host.state()["log"]
    assert sum(1 for e in log if e["kind"] == "undo") == 1
    assert host.state()["state"]["seats"][0]["score"] == 0


def test_a_seat_cannot_undo_a_host_only_or_drawn_entry(app, host, join):
    host.start("danger-zone")
    ana, _bo = join(host, "Ana"), join(host, "Bo")
    assert host.act("locations.draw").status_code == 200
    draw = host.state()["log"][-1]
    before = events_count(app, host.code)
    response = ana.post(f"/undo/{draw['id']}")
    assert response.status_code == 403 and "Only the host" in response.get_data(as_text=True)
    assert events_count(app, host.code) == before
    # the log offers Undo only to whoever may use it
    assert f"/undo/{draw['id']}" not in ana.page().get_data(as_text=True)
    assert f"/undo/{draw['id']}" in host.page("/host").get_data(as_text=True)
    assert host.post(f"/undo/{draw['id']}", {"page": "host"}).status_code == 200
    assert host.state()["log"][-1]["text"].startswith("redo:")


def test_removing_a_seat_can_be_undone_and_the_phone_comes_back(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    ana.act("score", seat=ana.seat, delta=5)
    host.post(f"/seats/{ana.seat}/remove", {"page": "host"})
    page = ana.client.get(f"/t/{host.code}/me")
    assert page.status_code == 200 and "You were removed from this table" in page.get_data(as_text=True)
    assert ana.client.get(f"/t/{host.code}/state.json").status_code == 403
    live = ana.client.get(f"/t/{host.code}/live?page=player", headers={"HX-Request": "true"})
    assert "You were removed" in live.get_data(as_text=True)
    removal = host.state()["log"][-1]
    assert removal["undo_right"] == "host"
    assert ana.post(f"/undo/{removal['id']}").status_code == 403
    assert host.post(f"/undo/{removal['id']}", {"page": "host"}).status_code == 200
    state = ana.state()
    assert state["viewer"]["seat"] == ana.seat
    assert state["state"]["seats"][0] == {"id": ana.seat, "name": "Ana", "score": 5}


@pytest.mark.parametrize(
    "name",
    ["\x00", "Ana\u200b", "\ufeffAna", "\u2800", "\u3164", "\u202eanA", "\x1b[31mAna", "Ana\u2028Bo", "\ue000", "   "],
)
def test_names_that_hide_or_fake_text_are_refused(host, app, name):
    host.start("generic")
    phone = Phone(app, host.code)
    response = phone.client.post(f"/t/{host.code}/join", data={"name": name})
    assert response.status_code == 400
    assert "name" in response.get_data(as_text=True).lower()
    assert host.state()["state"]["seats"] == []


def test_names_that_look_the_same_are_one_name(host, join, app):
    host.start("generic")
    join(host, "Ana")
    for twin in ("ANA", "\uff21na", " ana "):
        response = Phone(app, host.code).client.post(f"/t/{host.code}/join", data={"name": twin})
        assert response.status_code == 400 and "already at this table" in response.get_data(as_text=True)
    cafe = join(host, "Cafe\u0301")  # NFC: stored as one é
    assert cafe.state()["state"]["seats"][1]["name"] == "Café"


def test_wrong_codes_on_the_event_stream_count_like_pages(client):
    statuses = [client.get(f"/t/ZZZZZ{i:02d}/events").status_code for i in range(25)]
    assert statuses[:20] == [404] * 20 and set(statuses[20:]) == {429}
    assert client.get("/t/ZZZZZ99").status_code == 429


def test_deep_json_is_a_sentence_not_a_500():
    from companion.games.base import RuleError, read_json

    with pytest.raises(RuleError, match="nested too deeply"):
        read_json("[" * 100_000 + "]" * 100_000)
    assert read_json('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == {"a": "[" * 28}
