"""The event log: folding, undo as an event, resends applied once, state after a restart."""

import json

import pytest

from companion.access import holders
from companion.db import PG_SCHEMA_VERSION, SCHEMA_VERSION, PgConn, migrate, migrate_pg
from companion.games.base import RuleError
from companion.tables import store
from helpers import HOST, open_database


@pytest.fixture
def db(database):
    """Every test here runs on SQLite and on PostgreSQL (conftest's `database`)."""
    store.clear_cache()
    conn = open_database(database)
    yield conn
    conn.close()
    store.clear_cache()


def scores(db, table):
    state = store.load(db, table).state
    return {s["name"]: state["score"][s["id"]] for s in state["seats"]}


def test_schema_is_versioned_and_migrations_are_idempotent(db):
    if isinstance(db, PgConn):
        assert db.execute("SELECT version FROM schema_version").fetchone()[0] == PG_SCHEMA_VERSION
        migrate_pg(db)
        assert db.execute("SELECT count(*) FROM schema_version").fetchone()[0] == 1
        return
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    migrate(db)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_codes_are_unambiguous_and_long_enough(db):
    table, token = store.create_table(db, "generic")
    assert len(table.code) == store.CODE_LENGTH
    assert not set(table.code) & set("01OIL")
    assert len(store.CODE_ALPHABET) ** store.CODE_LENGTH >= 2**30
    assert store.find_table(db, table.code.lower()).id == table.id
    assert holders.identify(db, table, token)["role"] == "host"


def test_unknown_game_is_refused(db):
    with pytest.raises(RuleError):
        store.create_table(db, "chess")


def test_state_is_the_fold_of_events_and_survives_a_restart(db):
    table, _ = store.create_table(db, "generic")
    ana, _ = store.add_seat(db, table, "Ana", HOST)
    store.act(db, table, "score", {"seat": str(ana), "delta": "3"}, HOST)
    store.act(db, table, "score", {"seat": str(ana), "delta": "-1"}, HOST)
    assert scores(db, table) == {"Ana": 2}
    store.clear_cache()  # what a server restart does
    assert scores(db, table) == {"Ana": 2}
    assert [e["text"] for e in store.load(db, table).log][-2:] == ["+3 Ana, points", "-1 Ana, points"]


def test_the_fold_cache_is_bounded_and_an_evicted_table_folds_again(db, monkeypatch):
    monkeypatch.setattr(store, "CACHED_TABLES", 2)
    # No page open: a stream another test left open in this process keeps its table's fold.
    monkeypatch.setattr(store, "open_tables", 0)
    tables = [store.create_table(db, "generic")[0] for _ in range(3)]
    for n, table in enumerate(tables, start=1):
        seat, _ = store.add_seat(db, table, "Ana", HOST)
        store.act(db, table, "score", {"seat": str(seat), "delta": str(n)}, HOST)
    assert len(store._cache) == 2 and store._cache_get(tables[0]) is None
    assert [scores(db, table) for table in tables] == [{"Ana": 1}, {"Ana": 2}, {"Ana": 3}]


def test_any_entry_can_be_undone_and_the_undo_undone(db):
    table, _ = store.create_table(db, "generic")
    ana, _ = store.add_seat(db, table, "Ana", HOST)
    first = store.act(db, table, "score", {"seat": str(ana), "delta": "3"}, HOST)
    store.act(db, table, "score", {"seat": str(ana), "delta": "2"}, HOST)
    undo = store.undo(db, table, first, HOST)
    assert scores(db, table) == {"Ana": 2}
    log = {e["id"]: e for e in store.load(db, table).log}
    assert log[first]["undone"] and log[undo]["text"] == "undo: +3 Ana, points"
    store.undo(db, table, undo, HOST)  # undoing the undo puts the change back
    assert scores(db, table) == {"Ana": 5}
    store.clear_cache()
    assert scores(db, table) == {"Ana": 5}


def test_roster_changes_and_unknown_events_cannot_be_undone(db):
    table, _ = store.create_table(db, "generic")
    store.add_seat(db, table, "Ana", HOST)
    join_event = store.load(db, table).log[0]["id"]
    with pytest.raises(RuleError):
        store.undo(db, table, join_event, HOST)
    with pytest.raises(RuleError):
        store.undo(db, table, 99999, HOST)


def test_a_resent_action_is_applied_once(db):
    table, _ = store.create_table(db, "generic")
    ana, _ = store.add_seat(db, table, "Ana", HOST)
    first = store.act(db, table, "score", {"seat": str(ana), "delta": "1"}, HOST, action_id="tap-1")
    again = store.act(db, table, "score", {"seat": str(ana), "delta": "1"}, HOST, action_id="tap-1")
    assert first == again and scores(db, table) == {"Ana": 1}


def test_a_tap_resent_after_the_cache_forgot_the_table_is_still_applied_once(db):
    """The resent tap is found in the fold's action ids, and a fold read from the log (no
    cache) has them all, whatever came between."""
    table, _ = store.create_table(db, "generic")
    ana, _ = store.add_seat(db, table, "Ana", HOST)
    first = store.act(db, table, "score", {"seat": str(ana), "delta": "1"}, HOST, action_id="tap-1")
    store.act(db, table, "score", {"seat": str(ana), "delta": "2"}, HOST, action_id="tap-2")
    store.clear_cache()
    again = store.act(db, table, "score", {"seat": str(ana), "delta": "1"}, HOST, action_id="tap-1")
    assert first == again and scores(db, table) == {"Ana": 3}


def test_the_kept_fold_never_goes_back_to_an_older_version(db):
    """A reader slower than a write must not put its older fold back: a tap's answer and its
    publish read their own write from the cache (store.kept)."""
    table, _ = store.create_table(db, "generic")
    ana, _ = store.add_seat(db, table, "Ana", HOST)
    older = store.load(db, table)
    store.act(db, table, "score", {"seat": str(ana), "delta": "1"}, HOST)
    newer = store.kept(table, older.version + 1)
    store._cache_put(table, older)  # the slow reader finishes last
    assert store.kept(table, newer.version) is newer


def test_a_stream_steps_its_kept_fold_with_the_event_another_process_told_of(db):
    """A NOTIFY may carry the one event a write appended, with the version before it: a
    process whose kept fold is at that version steps it with no query, to the same state."""
    table, _ = store.create_table(db, "generic")
    ana, _ = store.add_seat(db, table, "Ana", HOST)
    before = store.load(db, table)
    store.act(db, table, "score", {"seat": str(ana), "delta": "3"}, HOST)
    after = store.load(db, table)
    store.clear_cache()
    store._cache_put(table, before)  # this process had only seen the version before

    assert after.event["kind"] == "score"
    store.heard(table.id, before.version, json.loads(json.dumps(after.event)))
    stepped = store.known(table, after.version)  # no connection: nothing to query with
    assert (stepped.version, stepped.state, stepped.log) == (after.version, after.state, after.log)
    store.clear_cache()
    store._cache_put(table, before)
    store.heard(table.id, before.version - 1, after.event)  # not the step from what it has
    assert store.known(table, after.version) is None
    assert store.load(db, table).state == after.state


def test_refused_changes_leave_nothing_behind(db):
    table, _ = store.create_table(db, "generic")
    ana, _ = store.add_seat(db, table, "Ana", HOST)
    count = db.execute("SELECT count(*) FROM events").fetchone()[0]
    for form in (
        {"seat": str(ana), "delta": "x"},
        {"seat": "999", "delta": "1"},
        {"seat": str(ana), "delta": "100000"},
        {"seat": str(ana), "delta": "0"},
    ):
        with pytest.raises(RuleError):
            store.act(db, table, "score", form, HOST)
    assert db.execute("SELECT count(*) FROM events").fetchone()[0] == count


def test_names_are_trimmed_unique_and_bounded(db):
    table, _ = store.create_table(db, "generic")
    store.add_seat(db, table, "  Ana   Lu ", HOST)
    assert store.load(db, table).state["seats"][0]["name"] == "Ana Lu"
    for bad in ("", "   ", "x" * 25, "ana lu"):
        with pytest.raises(RuleError):
            store.add_seat(db, table, bad, HOST)


def test_removed_seat_token_stops_working_and_reorder(db):
    table, _ = store.create_table(db, "generic")
    ana, ana_token = store.add_seat(db, table, "Ana", {"role": "seat", "seat": None})
    bo, _ = store.add_seat(db, table, "Bo", HOST)
    cy, _ = store.add_seat(db, table, "Cy", HOST)
    store.move_seat(db, table, cy, -1, HOST)
    assert [s["name"] for s in store.load(db, table).state["seats"]] == ["Ana", "Cy", "Bo"]
    assert holders.identify(db, table, ana_token) == {"role": "seat", "seat": ana}
    store.remove_seat(db, table, ana, HOST)
    assert holders.identify(db, table, ana_token) is None
    assert [s["name"] for s in store.load(db, table).state["seats"]] == ["Cy", "Bo"]


def test_a_token_is_useless_at_another_table(db):
    one, _ = store.create_table(db, "generic")
    two, two_host = store.create_table(db, "assassins")
    _, token = store.add_seat(db, one, "Ana", {"role": "seat", "seat": None})
    assert holders.identify(db, two, token) is None
    assert holders.identify(db, one, two_host) is None
