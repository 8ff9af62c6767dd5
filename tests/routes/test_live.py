"""Server-Sent Events: a stream carries its page's changed regions, rendered once per kind of viewer."""

import re
import threading
import time

import benchlib  # bench/, put on the path by conftest: the same HTTP client the benchmarks use
from companion import live
from companion.db import close_db, get_db
from companion.live import regions
from companion.live.notify import Notifier, _Table
from companion.tables.store import Folded
from companion.web import pages
from helpers import Stream


def renderer(name):
    """A stand-in for pages.live_parts: the version it is asked at, and one part per viewer."""
    state = {"version": 0, "calls": 0}

    def look(version, _=None):
        return name, render

    def render():
        state["calls"] += 1
        html = f'<div id="live-body"><div id="x">{name} at {state["version"]}</div><p id="log">same</p></div>'
        return pages.Rendered(state["version"], regions.split(html), html, state.get("previous", state["version"] - 1))

    return state, look


def test_notifier_wakes_only_the_changed_table_and_sends_what_changed():
    notifier = Notifier()
    one_state, one_render = renderer("one")
    two_state, two_render = renderer("two")
    one_state["version"], two_state["version"] = 5, 7
    one = notifier.stream(notifier.open(1, 5), 0.05, one_render, known=0)
    two = notifier.stream(notifier.open(2, 7), 0.05, two_render, known=7)
    assert next(one).startswith("retry:") and next(two).startswith("retry:")
    # One page is behind: it gets every part; the other shows version 7 already.
    whole = 'data: <div hx-swap-oob="morph" id="live-body"><div id="x">one at %d</div><p id="log">same</p></div>'
    assert next(one) == f"id: 5\nevent: live\n{whole % 5}\n\n"
    assert next(two).startswith(":")
    one_state["version"] = 6
    notifier.publish(1, 6)
    assert (
        next(one) == 'id: 6\nevent: live\ndata: <div hx-swap-oob="morph" id="x">one at 6</div>\n\n'
    )  # the log did not change
    assert next(two).startswith(":")  # table 2 only gets a heartbeat
    one_state["version"] = 9  # a message that skips a version (the stream was slow) has every part
    one_state["previous"] = 8
    notifier.publish(1, 9)
    assert next(one) == f"id: 9\nevent: live\n{whole % 9}\n\n"
    assert next(two).startswith(":")
    assert notifier.open_streams == 2
    one.close()
    two.close()
    assert notifier.open_streams == 0


def test_a_version_is_rendered_once_per_kind_of_viewer():
    notifier = Notifier()
    state, render = renderer("screen")
    state["version"] = 1
    streams = [notifier.stream(notifier.open(1, 1), 10, render, known=1) for _ in range(3)]
    for stream in streams:
        next(stream)
    assert state["calls"] == 1  # what the pages hold (they show version 1): rendered once
    state["version"] = 2
    notifier.publish(1, 2)
    # what changed since: the board, not the log
    assert {next(stream) for stream in streams} == {
        'id: 2\nevent: live\ndata: <div hx-swap-oob="morph" id="x">screen at 2</div>\n\n'
    }
    assert state["calls"] == 2
    for stream in streams:
        stream.close()


def test_streams_read_who_is_watching_again_only_after_a_seat_or_host_change():
    """The table's row and seat tokens are read once and kept while only the game moves (a
    score is no reason to ask who holds a phone); a seat or host change logs its kind, and
    the first stream to see that version reads them again."""
    watched, reads = _Table(), []

    def read():
        reads.append(1)
        return f"row {len(reads)}", {}

    def fold(*kinds):
        return Folded(len(kinds), {}, [{"id": n, "kind": kind} for n, kind in enumerate(kinds, 1)])

    log = ["seat.join", "seat.join"]
    assert watched.who_at(fold(*log), read)[0] == "row 1"
    log += ["score", "score", "undo"]
    assert watched.who_at(fold(*log), read)[0] == "row 1"
    for read_again, change in enumerate(("seat.remove", "host.handover", "host.cohost", "seat.join"), 2):
        log += [change, "score"]
        assert watched.who_at(fold(*log), read)[0] == f"row {read_again}"
        assert watched.who_at(fold(*log), read)[0] == f"row {read_again}"
    assert len(reads) == 5
    assert watched.who_at(fold(*log[:3]), read)[0] == "row 5"  # a slower stream's older fold


def test_a_look_is_made_under_its_tables_lock():
    """A stream's look may take a turn for a database connection; made under the table's
    lock, it never holds that turn while waiting for the lock behind a stream of the same
    table whose render waits for a turn (with every turn held so, none would come back)."""
    watched, locked = _Table(), []

    def look(version, this):
        locked.append(this.rendering.locked())
        return "screen", lambda: pages.Rendered(1, None, "")

    watched.parts(look)
    assert locked == [True]


def test_a_stream_waiting_is_woken_by_publish():
    notifier = Notifier()
    state, render = renderer("screen")
    stream = notifier.stream(notifier.open(1, 1), 10, render, known=1)
    next(stream)
    got = []
    reader = threading.Thread(target=lambda: got.append(next(stream)))
    reader.start()
    time.sleep(0.05)
    state["version"] = 2
    notifier.publish(1, 2)
    reader.join(2)
    assert got and got[0].startswith("id: 2\nevent: live\n")
    stream.close()


def test_the_stream_limit_is_checked_and_counted_in_one_step():
    notifier = Notifier()
    first = notifier.open(1, 1, limit=1)  # opened, its generator not started yet
    assert first is not None and notifier.open(1, 1, limit=1) is None
    notifier.close(first)  # a response closed before its stream ever ran frees its place
    notifier.close(first)  # and closing twice is harmless
    assert notifier.open_streams == 0 and notifier.open(1, 1, limit=1) is not None


def test_real_server_streams_changes(any_live_server):
    live_server = any_live_server  # on SQLite, and on PostgreSQL (through LISTEN/NOTIFY)
    code, phones = benchlib.new_table(live_server.port, 2)
    sock = benchlib.event_stream(live_server.port, code, timeout=5)
    buffer = b""

    def read_until(pattern):
        nonlocal buffer
        deadline = time.time() + 5
        while not re.search(pattern, buffer) and time.time() < deadline:
            buffer += sock.recv(4096)
        return re.search(pattern, buffer)

    assert read_until(rb"text/event-stream")
    opening = int(read_until(rb"id: (\d+)\nevent: live").group(1))
    phone = phones[0]
    seat = phone.get(f"/t/{code}/state.json")[2]
    seat_id = int(re.search(r'"seat": ?(\d+)', seat).group(1))
    status, _, text, _ = phone.post(
        f"/t/{code}/act/score",
        {"seat": seat_id, "delta": 1, "csrf": phone.csrf},
        {"HX-Request": "true", "HX-Target": "live-body"},
    )
    assert status == 200
    # the table screen's band and the seat's tile, morphed in by their ids
    assert read_until(rb"id: %d\nevent: live\ndata: <section hx-swap-oob=\"morph\" id=\"tv-band\"" % (opening + 1))
    assert read_until(rb"<li hx-swap-oob=\"morph\" id=\"tv-seat-%d\"" % seat_id)
    sock.close()


def test_a_seat_is_away_only_while_its_phone_has_no_open_page():
    live = Notifier()
    assert live.seats.away_seconds(1, 7) >= 0  # never seen: counted from the start
    first, second = live.open(1, 0, seat=7), live.open(1, 0, seat=7)
    assert live.seats.away_seconds(1, 7) == 0.0
    live.close(first)
    assert live.seats.away_seconds(1, 7) == 0.0  # another page of that phone is still open
    live.close(second)
    assert 0.0 < live.seats.away_seconds(1, 7) < 5
    assert live.seats.away_seconds(2, 7) >= 0 and live.open(1, 0, seat=None)


def test_a_stream_whose_render_fails_ends_quietly(app):
    """The database away (say): the stream ends, and the browser reopens it and catches up."""
    notifier = Notifier()

    def look(version, _=None):
        raise RuntimeError("no connection")

    with app.app_context():
        stream = notifier.stream(notifier.open(1, 2), 10, look, known=1)
        assert next(stream).startswith("retry:")
        assert list(stream) == []
    assert notifier.open_streams == 0


def test_a_stream_takes_a_turn_for_a_connection_only_when_it_queries(app):
    """Streams queue for database connections at their notifier's gate (a thousand pages
    reconnecting at once must not drain the pool): get_db takes a turn, close_db gives it
    back, and a request without a gate takes none."""
    gate = threading.BoundedSemaphore(1)
    with app.test_request_context():
        get_db()
        close_db()
        assert gate.acquire(blocking=False)  # no gate set: no turn taken
        gate.release()
        from flask import g

        g.db_gate = gate
        get_db()
        assert not gate.acquire(blocking=False)
        close_db()
        assert gate.acquire(blocking=False) and "db_gate" not in g


def test_a_change_reaches_the_streams_with_every_turn_for_a_connection_taken(app, host, join):
    """A score change needs no query on the streams' side: the fold is kept and who sits where
    was read as the stream opened. So even with the gate closed (every turn for a
    connection held elsewhere), the change arrives: no stream queues behind the taps' queries."""
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    anas = Stream(ana, "player", known=ana.client.get(f"/t/{ana.code}/state.json").get_json()["version"])
    anas.opened()  # at the page's version: nothing rendered for it yet
    with app.app_context():
        gate = live.notifier().querying
    for _ in range(live.QUERYING_AT_ONCE):
        assert gate.acquire(blocking=False)
    try:
        assert bo.act("score", seat=ana.seat, delta=3).status_code == 200
        assert "+3" in anas.next_message()
        assert bo.act("score", seat=ana.seat, delta=-1).status_code == 200
        assert "Your score -1, now 2." in anas.next_message()
    finally:
        for _ in range(live.QUERYING_AT_ONCE):
            gate.release()


def test_a_scoreboard_phone_gets_only_the_lines_that_changed(app, host, join):
    host.start("generic")
    ana, bo, cy = join(host, "Ana"), join(host, "Bo"), join(host, "Cy")
    anas = Stream(ana, "player", known=ana.client.get(f"/t/{ana.code}/state.json").get_json()["version"])
    anas.opened()
    assert bo.act("score", seat=bo.seat, delta=1).status_code == 200
    # The page shows the version its stream opened at: the first change sends what changed
    first = anas.next_message()
    assert 'id="live-board"' not in first and f'<li hx-swap-oob="morph" id="other-{bo.seat}"' in first
    other = app.test_client()  # another table's events come between (versions are event ids)
    assert other.post("/tables", data={"game": "generic"}).status_code == 303
    assert cy.act("score", seat=cy.seat, delta=2).status_code == 200
    message = anas.next_message()
    # Cy's line with its +2, Bo's without the +1 flash, Cy's "fix" score; the rest stays put
    assert 'id="live-board"' not in message and 'id="me"' not in message
    assert f'<li hx-swap-oob="morph" id="other-{cy.seat}" class="other flash"' in message and "+2" in message
    assert f'<li hx-swap-oob="morph" id="other-{bo.seat}" class="other"' in message
    assert f'<span hx-swap-oob="morph" id="fix-{cy.seat}" class="muted">2</span>' in message
    assert bo.act("score", seat=ana.seat, delta=3).status_code == 200
    own = anas.next_message()  # Ana's own block: its score and its ring, not the whole block
    assert '<div hx-swap-oob="morph" id="me-head"' in own and "+3" in own
    assert 'class="me-cue flash"' in own and 'id="me"' not in own
