"""Nobody takes what isn't theirs: what a shared screen may post, refusals that never
name a hidden card, one host authority per night, co-hosts at the open table only, a finished
table that only reads, the host reading the whole night, and seat cookies that expire."""

import html
import random
import re
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest

from companion import games
from companion.db import get_db
from companion.games import base
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY
from companion.games.blackmail import dealt as deal
from companion.tables import store
from helpers import Phone, add_seats, follow, let_in, new_code, recovery_code, start_next, text

SALT = "00112233445566778899aabbccddeeff"


def rig(monkeypatch, order):
    """The app's next shuffles deal `order` first (the secret, then a card per seat)."""
    rest = Counter(deal.full_deck())
    rest.subtract(order)
    monkeypatch.setattr(
        deal,
        "new_deal",
        lambda rng: {
            "order": list(order) + sorted(rest.elements(), reverse=True),
            "lana": [0, 1, 2, 3, 4],
            "salt": SALT,
        },
    )


def error_of(response):
    """What a refusal says, wherever it says it (an htmx fragment's alert, or the 4xx body)."""
    found = re.search(r'<p class="(?:error|toast-message)"[^>]*>(.*?)</p>', text(response), re.S)
    return (response.status_code, html.unescape(found.group(1) if found else text(response)))


# --- the lists ---------------------------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(games.GAMES))
def test_every_kind_is_on_one_list_of_what_a_shared_screen_may_do(slug):
    module = games.GAMES[slug]
    shared, never = set(module.SHARED), set(module.NOT_SHARED)
    assert not shared & never, f"{slug}: on both lists: {shared & never}"
    assert shared | never == set(module.KINDS), f"{slug}: on no list: {set(module.KINDS) - shared - never}"
    assert set(getattr(module, "HOST_ONLY", ())) <= never
    for kind in module.KINDS:  # every listed kind is one the game knows
        try:
            module.parse(kind, {}, module.new_state({}), {"role": "host", "seat": None}, random.Random(0))
        except base.RuleError as refused:
            assert "Unknown action" not in str(refused), kind


def test_hands_and_secret_picks_are_never_a_shared_screens():
    assert set(games.get("blackmail").DEALT_KINDS) <= games.get("blackmail").NOT_SHARED
    assert {"draft.pick", "draft.unpick"} <= games.get("assassins").NOT_SHARED


@pytest.mark.parametrize("slug", sorted(games.TABLE_GAMES))
def test_the_tablet_posts_only_what_its_game_lists(app, host, slug):
    """Every kind of every game, posted from the tablet for a seat: the ones off the list get
    the same one sentence (and change nothing); the others reach the game's own rules."""
    host.start(slug)
    seats = add_seats(host, "Ana", "Bo", "Cy")
    tablet, _ = let_in(app, host)
    tablet.open()
    module = games.get(slug)
    for kind in module.KINDS:
        before = host.state()["version"]
        response = tablet.tap(seats[0], kind, seat=seats[1])
        if kind in module.SHARED:
            assert base.SHARED_REFUSAL not in text(response), kind
        else:
            assert error_of(response) == (403, base.SHARED_REFUSAL), kind
            assert host.state()["version"] == before, kind


# --- Blackmail dealt by the app: nobody but the holder reads a hand by its refusals ----------


@pytest.fixture
def dealt_table(app, host, join, monkeypatch):
    """Hal (the host, seated), Ana and Bo; Ana plays first. Returns (host, ana, bo, tablet)."""
    host.start("blackmail")
    assert host.post("/join", {"name": "Hal"}, htmx=False).status_code == 303
    ana, bo = join(host, "Ana"), join(host, "Bo")
    host.page("/host")
    tablet, _ = let_in(app, host)
    tablet.open()

    def start(order):
        rig(monkeypatch, order)
        response = host.act(
            "game.start", to=host.state()["state"]["to"]["start"], tracking="dealt", first_player=ana.seat, page="host"
        )
        assert response.status_code == 200

    return host, ana, bo, tablet, start


def probes(host, ana, bo, tablet):
    """Every refusal a viewer who does not hold Ana's cards can get by asking about them."""
    turn = str(len(ana.state()["state"]["round"]["plays"]) + 1)
    out = {}
    for card in range(1, 9):
        form = {
            "seat": str(ana.seat),
            "card": str(card),
            "turn": turn,
            "target": str(bo.seat),
            "named": str(CYRIL),
            "choice": "protect",
        }
        out[("bo", card)] = error_of(bo.post("/act/dealt.play", form))
        out[("host", card)] = error_of(host.post("/act/dealt.play", dict(form, page="host")))
        for kind in ("dealt.play", "dealt.hand_over", "dealt.reclaim", "dealt.stand_in", "hand", "play"):
            out[("tablet", kind, card)] = error_of(tablet.tap(ana.seat, kind, **form))
            out[("host-tablet", kind, card)] = error_of(host.post(f"/tablet/act/{ana.seat}/{kind}", form))
        out[("bo-hand-over", card)] = error_of(bo.post("/act/dealt.hand_over", form))
        out[("stranger", card)] = error_of(Phone(host.client.application, host.code).post("/act/dealt.play", form))
    return out


def test_refusals_read_the_same_whatever_a_hand_holds(dealt_table):
    """The same requests against two deals where Ana holds different cards: every answer a
    non-holder gets is the same, byte for byte, and nothing is logged."""
    host, ana, bo, tablet, start = dealt_table
    start([MALORY, LANA, CYRIL, RAY, ARCHER])  # secret, Hal, Ana, Bo, then Ana draws
    first = probes(host, ana, bo, tablet)
    hands = [sorted(c["number"] for c in ana.state()["state"]["round"]["dealt"]["hand"])]
    log_before = len(host.state()["log"])

    host.act("game.reset", page="host")
    start([PAM, CHERYL, KRUEGER, LANA, MALORY])
    hands.append(sorted(c["number"] for c in ana.state()["state"]["round"]["dealt"]["hand"]))
    assert hands == [[ARCHER, LANA], [CHERYL, MALORY]]
    second = probes(host, ana, bo, tablet)
    assert first == second
    for key, (status, said) in first.items():
        assert status in (403, 422), key
        for number in range(1, 9):
            assert deal.character_name(number) not in said, (key, said)
    assert len(host.state()["log"]) == log_before + 2  # the reset and the new start: no probe
    # The tablet's refusal is one sentence whatever the kind, the seat or the card.
    assert {v for k, v in first.items() if k[0] in ("tablet", "host-tablet") and k[1].startswith("dealt")} == {
        (403, base.SHARED_REFUSAL)
    }


def test_the_tablet_cannot_hand_a_turn_to_the_host(dealt_table):
    host, ana, bo, tablet, start = dealt_table
    start([MALORY, LANA, CYRIL, RAY, ARCHER])
    turn = str(len(ana.state()["state"]["round"]["plays"]) + 1)
    version, hals_hand = host.state()["version"], host.state()["state"]["round"]["dealt"]["hand"]
    assert tablet.tap(ana.seat, "dealt.hand_over", turn=turn).status_code == 403
    assert host.post(f"/tablet/act/{ana.seat}/dealt.hand_over", {"turn": turn}).status_code == 403
    assert host.post(f"/tablet/act/{ana.seat}/dealt.reclaim", {"turn": turn}).status_code == 403
    assert host.state()["version"] == version  # nothing logged as Ana's choice
    assert host.state()["state"]["round"]["dealt"]["hand"] == hals_hand  # the host holds only Hal's


# --- the Assassins draft ----------------------------------------------------------------


def test_the_tablet_cannot_touch_the_draft_and_refusals_tell_no_pick(app, host, join):
    host.start("assassins")
    ana, bo, cy = (join(host, name) for name in ("Ana", "Bo", "Cy"))
    host.page("/host")
    tablet, _ = let_in(app, host)
    tablet.open()

    def asked():
        out = {}
        for row in ("front", "rear"):
            form = {"seat": str(ana.seat), "row": row, "card": "Cook"}
            out[("tablet", row)] = error_of(tablet.tap(ana.seat, "draft.pick", **form))
            out[("host-tablet", row)] = error_of(host.post(f"/tablet/act/{bo.seat}/draft.pick", form))
            out[("bo", row)] = error_of(bo.post("/act/draft.pick", form))
        out["tablet-unpick"] = error_of(tablet.tap(ana.seat, "draft.unpick", seat=ana.seat))
        out["bo-unpick"] = error_of(bo.post("/act/draft.unpick", {"seat": str(ana.seat)}))
        return out

    assert ana.act("draft.pick", seat=ana.seat, row="rear", card="Grave Digger").status_code == 200
    first = asked()
    assert ana.act("draft.unpick", seat=ana.seat).status_code == 200
    assert ana.act("draft.pick", seat=ana.seat, row="front", card="Soldier").status_code == 200
    assert asked() == first
    for status, said in first.values():
        assert status == 403 and "Grave Digger" not in said and "Soldier" not in said


# --- the tablet: who arranges it, and the log ---------------------------------------------


def test_only_the_host_or_a_co_host_arranges_the_panels(app, host, join):
    host.start("generic")
    ana_phone = join(host, "Ana")
    ana, bo = [s["id"] for s in host.state()["state"]["seats"]][0], add_seats(host, "Bo")[1]
    host.page("/host")
    assert host.post("/tablet/layout", {f"show_{ana}": "1"}).status_code == 200  # Bo left off
    tablet, _ = let_in(app, host)
    assert "Arrange the panels" not in text(tablet.open())
    assert tablet.post("/tablet/layout", {f"show_{ana}": "1", f"show_{bo}": "1"}).status_code == 403
    assert tablet.tap(bo, "score", seat=bo, delta=1).status_code == 403  # still off the tablet
    assert host.post(f"/hosts/{ana_phone.seat}/cohost", htmx=False).status_code == 303
    ana_phone.page("/tablet")
    assert ana_phone.post("/tablet/layout", {f"show_{ana}": "1", f"show_{bo}": "1"}).status_code == 200
    assert tablet.tap(bo, "score", seat=bo, delta=1).status_code == 200
    assert host.state()["log"][-1]["who"] == "Bo (at the tablet)"
    # An undo from the tablet is of what a shared screen may post, as the seat, and says so.
    entry = host.state()["log"][-1]["id"]
    assert tablet.post(f"/tablet/undo/{entry}").status_code == 200
    assert host.state()["log"][-1]["who"] == "Ana (at the tablet)"


# --- one host authority per night --------------------------------------------------------


def go_on(*phones):
    """Each phone follows the night to its seat at the next table, as static/js/night.js would."""
    for phone in phones:
        follow(phone)
        phone.seat = phone.state()["viewer"]["seat"]


@pytest.fixture
def night(host, join):
    host.start("generic")
    return host, join(host, "Ana"), join(host, "Bo"), join(host, "Cy")


def test_a_hand_over_cannot_be_taken_back_from_an_older_table(app, night):
    host, ana, bo, cy = night
    t1 = host.code
    host.page("/host")
    old_code = recovery_code(host)
    t2 = new_code(start_next(host, game="generic"))
    follow(host, to="host")
    go_on(ana, bo, cy)
    assert host.code == t2
    assert host.post(f"/hosts/{ana.seat}/handover", htmx=False).status_code == 303
    laptop_at_t1 = Phone(app, t1, host.client)
    # The laptop holds nothing of the night's host role any more, at either table.
    assert host.client.get(f"/t/{t1}/host").status_code == 403
    assert host.client.get(f"/t/{t2}/host").status_code == 403
    assert "data-recovery-code" not in text(host.client.get(f"/t/{t1}/host"))
    night_json = host.client.get(f"/t/{t1}/night.json")
    assert night_json.status_code in (200, 403) and t2 not in text(night_json)
    assert laptop_at_t1.post("/tablet/let-in", htmx=False).status_code == 403
    # Its old recovery code is worthless: the night has a new one, which only Ana's phone sees.
    assert app.test_client().post("/recover", data={"code": old_code}).status_code == 422
    ana.page("/host")
    assert ana.client.get(f"/t/{t2}/host").status_code == 200
    assert recovery_code(Phone(app, t2, ana.client)) != old_code
    # Ana, the night's host, reads the older table and its exports.
    ana.client.get(f"/t/{t2}/night")
    for path in ("/host?stay=1", "/export.json", "/log.csv", "/night.json"):
        assert ana.client.get(f"/t/{t1}{path}").status_code == 200, path
    assert ana.client.get(f"/t/{t1}/state.json").get_json()["viewer"]["role"] == "host"
    # The laptop stays a player where it sat (it had no seat here): the join page.
    assert bo.client.get(f"/t/{t1}/host").status_code == 403


def test_recovery_gives_the_new_host_the_whole_night_and_revokes_let_in_devices(app, night):
    host, ana, bo, cy = night
    t1 = host.code
    host.page("/host")
    tablet, _ = let_in(app, host)
    assert tablet.open().status_code == 200
    code = recovery_code(host)
    t2 = new_code(start_next(host, game="generic"))
    follow(host, to="host")
    laptop = app.test_client()
    assert laptop.post("/recover", data={"code": code}).status_code == 303
    for path in ("/host?stay=1", "/export.json", "/log.csv", "/night.json"):
        assert laptop.get(f"/t/{t1}{path}").status_code == 200, path
        assert laptop.get(f"/t/{t2}{path}").status_code == 200, path
    assert host.client.get(f"/t/{t1}/host").status_code == 403
    assert host.client.get(f"/t/{t2}/host").status_code == 403
    assert tablet.open().status_code == 403
    assert tablet.client.get(f"/t/{t1}/follow?to=tablet").headers["Location"] == f"/t/{t1}/tablet"
    assert tablet.client.get(f"/t/{t2}/tablet").status_code == 403


def test_the_new_host_keeps_the_night_over_later_games(app, night):
    """A hand-over, then the new host plays again twice: every older table stays theirs."""
    host, ana, bo, cy = night
    t1 = host.code
    host.page("/host")
    t2 = new_code(start_next(host, game="generic"))
    follow(host, to="host")
    go_on(ana, bo, cy)
    host.post(f"/hosts/{ana.seat}/handover", htmx=False)
    ana.page("/host")
    t3 = new_code(start_next(ana, game="generic"))
    follow(ana, to="host")
    t4 = new_code(start_next(ana, game="generic"))
    follow(ana, to="host")
    assert ana.code == t4
    ana.client.get(f"/t/{t4}/host")
    for code in (t1, t2, t3):
        assert ana.client.get(f"/t/{code}/export.json").status_code == 200, code
        assert host.client.get(f"/t/{code}/export.json").status_code == 403, code


def test_a_co_host_left_out_or_taken_back_keeps_nothing_at_the_old_table(app, night):
    host, ana, bo, cy = night
    t1 = host.code
    host.page("/host")
    for phone in (ana, cy):
        assert host.post(f"/hosts/{phone.seat}/cohost", htmx=False).status_code == 303
    tablet, _ = let_in(app, host)
    t2 = new_code(start_next(host, game="generic", listed=str(cy.seat)))  # Cy left out
    follow(host, to="host")
    go_on(ana)
    cy_at_t1 = Phone(app, t1, cy.client)
    cy_at_t1.page("/me")
    assert cy.client.get(f"/t/{t1}/state.json").get_json()["viewer"] == {"role": "seat", "seat": cy.seat}
    assert t2 not in text(cy.client.get(f"/t/{t1}/night.json"))
    assert cy_at_t1.post("/tablet/let-in", htmx=False).status_code == 403
    assert cy_at_t1.post("/tablet/revoke", htmx=False).status_code == 403
    assert cy.client.get(f"/t/{t1}/tablet").status_code == 403
    # Ana came along as a co-host; taken back at T2, she keeps nothing at T1 either.
    assert ana.state()["viewer"]["role"] == "host"
    assert host.post(f"/hosts/{ana.seat}/uncohost", htmx=False).status_code == 303
    assert ana.client.get(f"/t/{t2}/host").status_code == 403
    assert ana.client.get(f"/t/{t1}/host").status_code == 403


def test_a_finished_table_only_reads(app, night):
    host, ana, bo, cy = night
    t1 = host.code
    host.page("/host")
    assert host.post(f"/hosts/{ana.seat}/cohost", htmx=False).status_code == 303
    start_next(host, game="generic")
    before = len(host.state()["log"])
    for path, form in (
        ("/night/screen", {"show": "1"}),
        ("/tablet/let-in", {}),
        ("/tablet/revoke", {}),
        ("/tablet/layout", {"automatic": "1"}),
        (f"/hosts/{bo.seat}/cohost", {}),
        (f"/hosts/{ana.seat}/uncohost", {}),
        (f"/hosts/{bo.seat}/handover", {}),
        ("/act/score", {"seat": str(bo.seat), "delta": "1"}),
        (f"/seats/{bo.seat}/remove", {}),
    ):
        response = host.post(path, form, htmx=False)
        assert response.status_code in (409, 422), (path, response.status_code)
        assert "moved on" in text(response), path
    assert len(host.state()["log"]) == before
    assert host.client.get(f"/t/{t1}/export.json").status_code == 200


def test_the_hosts_device_stays_at_an_old_table_it_opens_on_purpose(app, night):
    host, ana, bo, cy = night
    t1 = host.code
    host.page("/host")
    t2 = new_code(start_next(host, game="generic"))
    follow(host, to="host")
    night_page = text(host.client.get(f"/t/{t2}/night"))
    assert f"/t/{t1}/host?stay=1" in night_page
    assert f"/t/{t2}/host?stay=1" in night_page
    hosted = text(host.client.get("/hosted"))
    assert f"/t/{t1}/host?stay=1" in hosted


# --- cookies as long as a night -------------------------------------------------------------


def test_a_seats_cookie_stops_working_a_day_after_the_nights_last_change(app, night):
    host, ana, bo, cy = night
    assert ana.state()["viewer"]["role"] == "seat"
    with app.app_context():
        long_ago = (datetime.now(timezone.utc) - timedelta(days=1, minutes=1)).isoformat(timespec="milliseconds")
        get_db().execute("UPDATE events SET created_at=?", (long_ago,))
    store.clear_cache()
    assert ana.client.get(f"/t/{ana.code}/state.json").status_code == 403
    assert host.client.get(f"/t/{host.code}/state.json").status_code == 200  # the host's is not
    # A change by the host wakes the night again: the seat works once more.
    assert host.act("score", seat=bo.seat, delta=1, page="host").status_code == 200
    assert ana.client.get(f"/t/{ana.code}/state.json").status_code == 200


def test_host_and_admin_cookies_last_thirty_days(app, client):
    response = client.post("/tables", data={"game": "generic"})
    assert "Max-Age=2592000" in response.headers["Set-Cookie"]


# --- the same on PostgreSQL, where the night's rows differ ------------------------------------


def test_hand_over_and_recovery_on_postgresql(pg_app):
    host = Phone(pg_app, None)
    host.code = host.client.post("/tables", data={"game": "generic"}).headers["Location"].split("/")[2]
    host.page("/host")
    ana = Phone(pg_app, host.code)
    ana.client.post(f"/t/{host.code}/join", data={"name": "Ana"})
    ana.page()
    ana.seat = ana.state()["viewer"]["seat"]
    t1 = host.code
    code = recovery_code(host)
    t2 = new_code(start_next(host, game="generic"))
    follow(host, to="host")
    go_on(ana)
    assert host.post(f"/hosts/{ana.seat}/handover", htmx=False).status_code == 303
    assert host.client.get(f"/t/{t1}/host").status_code == 403
    assert pg_app.test_client().post("/recover", data={"code": code}).status_code == 422
    ana.page("/host")
    new = recovery_code(Phone(pg_app, t2, ana.client))
    assert ana.client.get(f"/t/{t1}/export.json").status_code == 200
    laptop = pg_app.test_client()
    assert laptop.post("/recover", data={"code": new}).status_code == 303
    assert laptop.get(f"/t/{t1}/export.json").status_code == 200
    assert ana.client.get(f"/t/{t1}/export.json").status_code == 403
    assert ana.client.get(f"/t/{t2}/host").status_code == 403


def test_a_recovery_code_spent_while_another_device_waited_is_refused(app, night, monkeypatch):
    """Two devices type the code at once: the one that waited for the table's lock finds it
    spent (the other's recovery drew a new one) and becomes nobody's host."""
    from contextlib import contextmanager

    from companion import access
    from companion.nights import hosts

    host, ana, bo, cy = night
    host.page("/host")
    typed = recovery_code(host)
    real, first = hosts._writing, []

    @contextmanager
    def other_device_first(db, table):
        if not first:  # the other device's recovery commits while this one waits
            first.append(None)
            first[0] = hosts.recover_host(db, access.recovery_hash(typed), access.new_night, access.night_host_hash)
        with real(db, table) as held:
            yield held

    monkeypatch.setattr(hosts, "_writing", other_device_first)
    with app.test_request_context():
        db = get_db()
        assert hosts.recover_host(db, access.recovery_hash(typed), access.new_night, access.night_host_hash) is None
        assert first and first[0] is not None
