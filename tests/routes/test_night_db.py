"""Game night on both databases: the migration keeps what an older database holds, the next
table is made once under the old table's lock (several connections at once, as several
processes would), and routes work the same on PostgreSQL."""

import hashlib
import threading

import pytest

from companion import db as db_module
from companion import nights
from companion.access import holders
from companion.db.schema import MIGRATIONS, PG_MIGRATIONS
from companion.nights import hosts
from companion.tables import store
from helpers import HOST, HX, Phone, open_database


def follow_hash(code, hashed):
    return store.token_hash(hashlib.sha256(f"{code}:{hashed}".encode()).hexdigest())


def new_night():
    salt = store.new_token()
    return salt, store.token_hash("code:" + salt)


def test_the_night_migration_keeps_an_older_database(database):
    """A database from before nights: its tables, seats and events survive the migration, and
    such a table plays again like a new one."""
    if db_module.is_postgres_url(database):
        conn = db_module.connect_url(database)
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for migration in PG_MIGRATIONS[:-1]:
            for statement in migration.split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (len(PG_MIGRATIONS) - 1,))
    else:
        conn = db_module.connect(database)
        for migration in MIGRATIONS[:-1]:
            conn.executescript(migration)
        conn.execute(f"PRAGMA user_version={len(MIGRATIONS) - 1}")
    conn.execute(
        "INSERT INTO game_tables (code, game, host_token_hash, options, created_at)"
        " VALUES ('OLDTABL', 'generic', ?, '{}', 't')",
        (store.token_hash("host"),),
    )
    table_id = conn.execute("SELECT id FROM game_tables").fetchone()[0]
    conn.execute("INSERT INTO seats (table_id, token_hash) VALUES (?, ?)", (table_id, store.token_hash("ana")))
    seat = conn.execute("SELECT id FROM seats").fetchone()[0]
    conn.execute(
        "INSERT INTO events (table_id, kind, data, actor_role, actor_seat, created_at)"
        " VALUES (?, 'seat.join', ?, 'seat', ?, 't')",
        (table_id, f'{{"seat": {seat}, "name": "Ana"}}', seat),
    )
    conn.close()

    conn = open_database(database)  # migrates to the newest schema
    store.clear_cache()
    try:
        table = store.find_table(conn, "OLDTABL")
        assert table.night_id is None and table.prev_id is None
        assert holders.identify(conn, table, "ana") == {"role": "seat", "seat": seat}
        assert [s["name"] for s in store.load(conn, table).state["seats"]] == ["Ana"]
        new, started = nights.start_next(conn, table, "blackmail", [seat], [], HOST, follow_hash, new_night)
        assert started and new.prev_id == table.id and new.night_id == store.find_table(conn, "OLDTABL").night_id
        token = store.token_hash(hashlib.sha256(f"{new.code}:{store.token_hash('ana')}".encode()).hexdigest())
        assert conn.execute("SELECT token_hash FROM seats WHERE table_id=?", (new.id,)).fetchone()[0] == token
    finally:
        conn.close()
        store.clear_cache()


def test_many_connections_asking_at_once_make_one_next_table(database):
    """Eight connections (as eight processes would have) start the next game at once."""
    first = open_database(database)
    table, _ = store.create_table(first, "generic")
    seat, _ = store.add_seat(first, table, "Ana", HOST)
    made, failures = [], []
    go = threading.Barrier(8)

    def tap(n):
        conn = open_database(database)
        try:
            go.wait(10)
            store.clear_cache()
            again = store.find_table(conn, table.code)
            made.append(
                nights.start_next(
                    conn, again, "assassins", [seat], [], HOST, follow_hash, new_night, action_id=f"t{n}"
                )[0].code
            )
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            conn.close()

    threads = [threading.Thread(target=tap, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert len(made) == 8 and len(set(made)) == 1
    assert first.execute("SELECT count(*) FROM game_tables WHERE prev_id=?", (table.id,)).fetchone()[0] == 1
    store.clear_cache()
    assert [e["kind"] for e in store.load(first, table).log].count("night.next") == 1
    first.close()


def test_play_again_and_recovery_through_the_routes_on_postgres(pg_app):
    client = pg_app.test_client()
    code = client.post("/tables", data={"game": "danger-zone"}).headers["Location"].split("/")[2]
    host = Phone(pg_app, code, client)
    host.page("/host")
    ana = Phone(pg_app, code)
    assert ana.client.post(f"/t/{code}/join", data={"name": "Ana"}).status_code == 303
    response = host.post("/next", {"game": "blackmail", "page": "host"})
    new = response.headers["HX-Redirect"].split("/")[2]
    assert "data-follow" in ana.client.get(f"/t/{code}/live?page=player", headers=HX).get_data(as_text=True)
    assert ana.client.get(f"/t/{code}/follow").headers["Location"] == f"/t/{new}/me"
    assert ana.client.get(f"/t/{new}/state.json").get_json()["state"]["seats"][0]["name"] == "Ana"
    page = client.get(f"/t/{new}/host").get_data(as_text=True)
    recovery = page.split("data-recovery-code>")[1].split("<")[0]
    laptop = pg_app.test_client()
    assert laptop.post("/recover", data={"code": "WRONG"}).status_code == 422
    assert laptop.post("/recover", data={"code": recovery}).headers["Location"] == f"/t/{new}/host"
    assert client.get(f"/t/{new}/host").status_code == 403
    assert laptop.get(f"/t/{new}/night.json").get_json()["games"][0]["game"] == "danger-zone"


def test_night_entries_cannot_be_posted_nor_undone(database):
    conn = open_database(database)
    table, _ = store.create_table(conn, "generic")
    for kind in sorted(store.NIGHT_KINDS):
        with pytest.raises(store.RuleError):
            store.act(conn, table, kind, {}, HOST)
    ana, _ = store.add_seat(conn, table, "Ana", HOST)
    hosts.set_cohost(conn, table, ana, True, HOST)
    entry = store.load(conn, table).log[-1]
    assert entry["kind"] == "host.cohost" and entry["undo_right"] is None
    with pytest.raises(store.RuleError):
        store.undo(conn, table, entry["id"], HOST)
    conn.close()
