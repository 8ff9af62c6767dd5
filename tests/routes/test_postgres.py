"""Several processes on one PostgreSQL: appends serialised per table, LISTEN/NOTIFY across
processes, a listener that reconnects, limits kept in the database, a lost database, a
SIGKILLed process, and `--workers` (gunicorn + gevent)."""

import http.client
import json
import re
import subprocess
import sys
import threading
import time

import pytest

import benchlib
from companion import create_app
from companion import db as db_module
from companion.games.base import RuleError
from companion.tables import store
from helpers import HOST, HX, Server, open_database


def score(conn, table):
    return store.load(conn, table).state["score"]


def test_taps_from_many_connections_neither_interleave_nor_double(postgres_schema_url):
    """Eight connections (as eight processes would have) tap one table at once, each tap sent
    twice with the same action id: every tap counts once, in one unbroken order."""
    first = open_database(postgres_schema_url)
    table, _ = store.create_table(first, "generic")
    seat, _ = store.add_seat(first, table, "Ana", HOST)
    failures = []

    def tapper(n):
        conn = db_module.connect_url(postgres_schema_url)
        try:
            for i in range(15):
                for _ in range(2):  # a resend: the same action id again
                    store.clear_cache()  # as if each tap came to a process of its own
                    store.act(conn, table, "score", {"seat": str(seat), "delta": "1"}, HOST, action_id=f"c{n}-{i}")
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            conn.close()

    threads = [threading.Thread(target=tapper, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    store.clear_cache()
    assert score(first, table) == {seat: 120}
    rows = first.execute(
        "SELECT action_id FROM events WHERE table_id=? AND kind='score' ORDER BY id", (table.id,)
    ).fetchall()
    assert len(rows) == len({r[0] for r in rows}) == 120
    first.close()


def test_an_append_notifies_at_commit_and_a_refused_one_does_not(postgres_schema_url):
    conn = open_database(postgres_schema_url)
    table, _ = store.create_table(conn, "generic")
    heard = []
    listener = db_module.ChangeListener(
        postgres_schema_url, lambda t, v, step: heard.append((t, v, step)), lambda: [], ping_every=0.2
    ).start()
    try:
        assert listener.connected.wait(10)
        seat, _ = store.add_seat(conn, table, "Ana", HOST)
        joined = store.load(conn, table).version
        with pytest.raises(RuleError):  # nothing half-applied: the next act goes on from here
            store.act(conn, table, "score", {"seat": str(seat), "delta": "x"}, HOST)
        version = store.act(conn, table, "score", {"seat": str(seat), "delta": "2"}, HOST)
        deadline = time.time() + 5
        while len(heard) < 2 and time.time() < deadline:
            time.sleep(0.02)
        assert [(t, v) for t, v, _ in heard] == [(table.id, joined), (table.id, version)]  # not the refused one
        # The score's NOTIFY carries its event, which the other processes step their fold with.
        before, event = heard[1][2]
        assert before == joined and event["id"] == version and event["kind"] == "score"
        assert event["data"] == store.load(conn, table).event["data"]
    finally:
        listener.stop()
        conn.close()


def test_a_listener_that_loses_its_connection_catches_up(postgres_schema_url):
    """Its backend is killed and a change lands while it is away: once back, it reports the
    current version of every table with open pages, so no page misses the change."""
    conn = open_database(postgres_schema_url)
    table, _ = store.create_table(conn, "generic")
    seat, _ = store.add_seat(conn, table, "Ana", HOST)
    heard = []
    listener = db_module.ChangeListener(
        postgres_schema_url, lambda t, v, step=None: heard.append((t, v)), lambda: [table.id], ping_every=0.2
    ).start()
    try:
        assert listener.connected.wait(10)
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name='companion-listener'"
            " AND query NOT LIKE '%pg_terminate_backend%'"
        )
        version = store.act(conn, table, "score", {"seat": str(seat), "delta": "1"}, HOST)
        deadline = time.time() + 10
        while (table.id, version) not in heard and time.time() < deadline:
            time.sleep(0.02)
        assert (table.id, version) in heard and listener.reconnects >= 1
    finally:
        listener.stop()
        conn.close()


def test_a_seat_open_at_another_process_is_not_away_here(tmp_path, postgres_schema_url):
    """The host may stand in for a Blackmail seat only when its phone has had no open page
    for a while: a page open at another process counts, and so does when it left."""
    from companion import live
    from companion.tables import presence

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "DATABASE_URL": postgres_schema_url})
    conn = open_database(postgres_schema_url)
    try:
        table, _ = store.create_table(conn, "blackmail")
        seat, _ = store.add_seat(conn, table, "Ana", HOST)
        elsewhere = live.Notifier()  # another process's pages
        beat = presence.Beat(postgres_schema_url, elsewhere.seats)
        with app.test_request_context():
            here = live.notifier().seats
            assert presence.away_seconds(here, table.id, seat) > 0  # no page anywhere yet
            key = elsewhere.open(table.id, 1, seat=seat)
            beat.beat(conn)
            assert presence.away_seconds(here, table.id, seat) < 1.0
            elsewhere.close(key)  # the phone left there
            beat.beat(conn)
            conn.execute("UPDATE seat_presence SET seen_at = seen_at - interval '40 seconds'")
            assert 39 < presence.away_seconds(here, table.id, seat) < 45
            key = elsewhere.open(table.id, 1, seat=seat)  # back: a beat later it is present again
            beat.beat(conn)
            assert presence.away_seconds(here, table.id, seat) < 1.0
    finally:
        db_module.forget_connections(app)
        conn.close()


def test_wrong_codes_count_together_at_every_process(tmp_path, postgres_schema_url):
    # Each process re-reads a client's count at most once a second (a query per page load
    # otherwise); at 0 the count is exact, which this test checks first.
    apps = [
        create_app(
            {
                "TESTING": True,
                "DATA_DIR": str(tmp_path / f"p{n}"),
                "DATABASE_URL": postgres_schema_url,
                "GUESS_COUNT_FRESH_SECONDS": fresh,
            }
        )
        for n, fresh in enumerate((0, 0, 1.0))
    ]
    try:
        clients = [app.test_client() for app in apps]
        assert clients[2].get("/t/ZZZZZZZ").status_code == 404  # read: one miss so far
        statuses = [clients[n % 2].get(f"/t/ZZZZZ{n:02d}").status_code for n in range(20)]
        assert statuses[:19] == [404] * 19 and statuses[19] == 429
        assert clients[0].get("/t/ABCDEFG").status_code == 429 == clients[1].get("/t/ABCDEFG").status_code
        time.sleep(1.1)  # the third process hears of the others' misses within a second
        assert clients[2].get("/t/ABCDEFG").status_code == 429
    finally:
        for app in apps:
            db_module.forget_connections(app)


def test_a_lost_database_is_a_503_and_the_app_recovers_by_itself(tmp_path, postgres_url):
    import uuid

    name = "lost_" + uuid.uuid4().hex[:8]
    admin = db_module.connect_url(postgres_url)
    admin.execute(f"CREATE DATABASE {name}")
    url = re.sub(r"/postgres(\?|$)", rf"/{name}\1", postgres_url, count=1)
    store.clear_cache()
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "DATABASE_URL": url, "DATABASE_WAIT_SECONDS": 1})
    try:
        host = app.test_client()
        code = host.post("/tables", data={"game": "generic"}).headers["Location"].split("/")[2]
        assert host.get(f"/t/{code}/state.json").status_code == 200
        # The database goes away: every connection is cut and new ones are refused.
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname=?", (name,))
        lost = host.get(f"/t/{code}/state.json")
        assert lost.status_code == 503
        assert "cannot reach its database" in lost.get_data(as_text=True)
        joined = app.test_client().post(f"/t/{code}/join", data={"name": "Zed"})
        assert joined.status_code == 503 and "Nothing was applied" in joined.get_data(as_text=True)
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        deadline, status = time.time() + 30, None
        while time.time() < deadline:
            status = app.test_client().post(f"/t/{code}/join", data={"name": "Ana"}).status_code
            if status == 303:
                break
            time.sleep(0.2)
        assert status == 303
        assert [s["name"] for s in host.get(f"/t/{code}/state.json").get_json()["state"]["seats"]] == ["Ana"]
    finally:
        db_module.forget_connections(app)
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname=?", (name,))
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.close()


def test_a_wrong_or_unreachable_database_stops_the_start_with_a_sentence(tmp_path):
    def serve(*args):
        return subprocess.run(
            [sys.executable, "-m", "companion", "serve", "--port", "1", "--data-dir", str(tmp_path), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )

    wrong = serve("--database", "mysql://somewhere/db")
    assert wrong.returncode == 2 and "takes a PostgreSQL address" in wrong.stderr
    away = serve("--database", f"postgresql://nobody@127.0.0.1:{benchlib.free_port()}/x")
    assert away.returncode == 1 and "Cannot reach the database at postgresql://nobody@127.0.0.1" in away.stderr
    secret = serve("--database", f"postgresql://nobody:hunter2@127.0.0.1:{benchlib.free_port()}/x")
    assert secret.returncode == 1 and "hunter2" not in secret.stderr
    alone = serve("--workers", "2")
    assert alone.returncode == 2 and "needs --database" in alone.stderr


# --- real processes ------------------------------------------------------------------------


def read_until(sock, pattern, buffer=b"", timeout=10):
    deadline = time.time() + timeout
    while not re.search(pattern, buffer) and time.time() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        if not chunk:
            break
        buffer += chunk
    return buffer


def tap(phone, code, seat, action=None):
    form = {"seat": seat, "delta": 1, "csrf": phone.csrf}
    if action:
        form["action_id"] = action
    return phone.post(f"/t/{code}/act/score", form, HX)[0]


def table_state(port, code, phone):
    """The table as a seated phone reads it from the process at `port`."""
    client = benchlib.Client(port)
    client.cookies = dict(phone.cookies)
    return json.loads(client.get(f"/t/{code}/state.json")[2])


def test_two_processes_share_tables_live_and_a_sigkill_loses_nothing(tmp_path, postgres_schema_url):
    # One data dir for both (the secret key), one database.
    one = Server(tmp_path, args=["--database", postgres_schema_url]).start()
    two = Server(tmp_path, args=["--database", postgres_schema_url]).start()
    try:
        code, phones = benchlib.new_table(one.port, 4)
        seat = table_state(one.port, code, phones[3])["state"]["seats"][0]["id"]
        # A phone watching process two hears a tap made at process one.
        watcher = benchlib.event_stream(two.port, code, phones[3].cookies["tc"], timeout=1)
        seen = read_until(watcher, rb"id: (\d+)\nevent: live")
        opening = int(re.search(rb"id: (\d+)", seen).group(1))
        assert tap(phones[0], code, seat) == 200
        seen = read_until(watcher, rb"id: %d\n" % (opening + 1), seen)
        assert b"id: %d\n" % (opening + 1) in seen

        # A burst at process one; it is SIGKILLed in the middle of it.
        acknowledged, lock, stop = [], threading.Lock(), threading.Event()

        def burst(phone, name):
            n = 0
            while not stop.is_set():
                action = f"{name}-{n}"
                n += 1
                try:
                    status = tap(phone, code, seat, action)
                except (OSError, http.client.HTTPException):
                    return
                if status == 200:
                    with lock:
                        acknowledged.append(action)

        threads = [threading.Thread(target=burst, args=(p, f"p{i}")) for i, p in enumerate(phones[:3])]
        for thread in threads:
            thread.start()
        while len(acknowledged) < 30:
            time.sleep(0.01)
        one.stop(kill=True)
        stop.set()
        for thread in threads:
            thread.join(5)

        # Process two has every acknowledged tap, once; its stream reaches the last version.
        state = table_state(two.port, code, phones[3])
        logged = [e for e in state["log"] if e["kind"] == "score"]
        assert len(acknowledged) + 1 <= state["state"]["seats"][0]["score"] == len(logged)
        assert b"id: %d\n" % state["version"] in read_until(watcher, rb"id: %d\n" % state["version"], seen)
        # The killed process's phones come back through process two (same cookies) and a
        # resend of every acknowledged tap changes nothing.
        phone = phones[0]
        phone.port, phone.conn = two.port, http.client.HTTPConnection("127.0.0.1", two.port, timeout=30)
        phone.get(f"/t/{code}/me")
        for action in acknowledged:
            assert tap(phone, code, seat, action) == 200
        assert (
            table_state(two.port, code, phones[3])["state"]["seats"][0]["score"] == state["state"]["seats"][0]["score"]
        )
        watcher.close()
    finally:
        one.stop()
        two.stop()


def test_workers_serve_live_pages_and_free_those_whose_phone_went(tmp_path, postgres_schema_url):
    """--workers 2: gunicorn with gevent. Taps reach every stream whichever process holds it,
    and a phone that goes away without a word frees its stream (no waitress to say so)."""
    server = Server(tmp_path, args=["--database", postgres_schema_url, "--workers", "2"]).start()
    try:
        code, phones = benchlib.new_table(server.port, 2)
        seat = table_state(server.port, code, phones[0])["state"]["seats"][0]["id"]
        socks = [benchlib.event_stream(server.port, code, phones[0].cookies["tc"], timeout=1) for _ in range(6)]
        buffers = [read_until(s, rb"id: \d+\nevent: live") for s in socks]
        assert tap(phones[1], code, seat) == 200
        version = table_state(server.port, code, phones[0])["version"]
        for sock, buffer in zip(socks, buffers):
            assert b"id: %d\n" % version in read_until(sock, rb"id: %d\n" % version, buffer)
        for sock in socks:
            sock.close()
        deadline = time.time() + 10
        open_streams = None
        while time.time() < deadline:
            # Ask often enough to hear from both processes.
            open_streams = [
                json.loads(benchlib.Client(server.port).get("/healthz")[2])["open_streams"] for _ in range(6)
            ]
            if not any(open_streams):
                break
            time.sleep(0.3)
        assert not any(open_streams)
    finally:
        server.stop()
