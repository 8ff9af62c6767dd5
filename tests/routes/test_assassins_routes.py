"""Age of Assassins screens and routes: every action and its bad input, the deck list kept
"from your box", the ghost deal read on the server, and rear rows that never leave their phone."""

import io
import json
import re

import pytest

from companion import box
from companion.db import get_db
from companion.tables import store
from helpers import BASE_DECK, HX, WIZARD, Phone, Stream, opening, text, view

DECK = BASE_DECK + [WIZARD]


@pytest.fixture
def three(host, join):
    """A 3-seat table (so with the ghost): host, Ana, Bo, Cy."""
    host.start("assassins")
    return host, join(host, "Ana"), join(host, "Bo"), join(host, "Cy")


def seat_of(phone, name):
    return next(s for s in view(phone)["seats"] if s["name"] == name)


def error_of(response):
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', text(response), re.S)
    return found.group(1) if found else ""


def deck_form(entries, csrf, do="save"):
    form = {"csrf": csrf, "rows": str(len(entries)), "do": do}
    for i, entry in enumerate(entries):
        form.update(
            {f"name_{i}": str(entry["name"]), f"number_{i}": str(entry["number"]), f"copies_{i}": str(entry["copies"])}
        )
    return form


def step(phone, **form):
    """Post a resolve step as the board does: naming where it moves to, or where it saw the table."""
    now = view(phone)["step_at"]
    if form.get("step") == "next":
        form.setdefault("to", 1 if now == "draft" else now + 1)
    elif form.get("step") == "back":
        form.setdefault("to", "" if now == "draft" else now - 1)
    else:
        form.setdefault("at", now)
    return phone.act("resolve.step", **form)


def bank(phone, **form):
    form.setdefault("to", view(phone)["round"] + 1)
    return phone.act("bank", **form)


def store_deck(app, code, entries=DECK):
    """Keep a deck list in this table's box (each table has its own copy)."""
    with app.app_context():
        db = get_db()
        box.put(db, "assassins", "deck-list", json.dumps(entries), table=store.find_table(db, code))


def stored_body(app, code):
    with app.app_context():
        db = get_db()
        return box.get(db, "assassins", "deck-list", table=store.find_table(db, code))


# ---- the board on every screen ---------------------------------------------------------------


def test_board_on_phone_host_and_table_screen(three, client):
    host, ana, bo, cy = three
    me = text(ana.page())
    assert 'data-seat="ghost"' in me and "Round <strong data-round>1</strong>" in me
    assert 'name="row" value="rear"' in me  # the draft helper on her own phone
    assert "/assassins/deck" in me  # the deck list is reachable from the board
    assert "act/bank" not in me  # nothing to bank before resolving
    hosted = text(host.page("/host"))
    assert "Kill Ana" in hosted and "data-ghost-deal" in hosted
    screen = text(client.get(f"/t/{host.code}/screen"))
    assert "Ana" in screen and "The ghost" in screen and "data-resolve-numbers" in screen
    assert "/act/" not in screen and "<form" not in screen.split('class="log"')[0]


def test_resolve_number_shows_on_every_screen(three, client):
    host, ana, bo, cy = three
    assert step(ana, step="next").status_code == 200
    assert step(bo, step="next").status_code == 200
    assert view(host)["resolve_number"] == 2
    pages = [
        text(client.get(f"/t/{host.code}/screen")),
        text(cy.page()),
        text(host.page("/host")),
        text(client.get(f"/t/{host.code}/live?page=screen", headers=HX)),
    ]
    for html in pages:
        assert re.search(r'aria-current="step"[^>]*>\s*2\s*<', html), html[:200]
        assert "Resolving" in html
    assert step(bo, number=5).status_code == 200
    assert step(cy, step="back").status_code == 200
    assert view(host)["resolve_number"] == 4


@pytest.mark.parametrize(
    "form, message",
    [
        ({"number": "7"}, "between 1 and 6"),
        ({"number": "x"}, "whole number"),
        ({"step": "back"}, "first number"),
    ],
)
def test_bad_resolve_steps_are_refused(three, form, message):
    host, ana, bo, cy = three
    response = step(ana, **form)
    assert response.status_code == 422 and message in error_of(response)
    assert view(host)["resolve_number"] is None


def test_no_next_after_six(three):
    host, ana, bo, cy = three
    step(ana, number=6)
    response = step(ana, step="next")
    assert response.status_code == 422 and "bank the round" in error_of(response)
    assert "data-bank" in text(ana.page())


# ---- preliminary points, kills, banking -------------------------------------------------------


def test_points_up_and_down_with_a_reason(three):
    host, ana, bo, cy = three
    step(ana, number=4)
    assert ana.act("points", seat=bo.seat, delta=3, reason="Cook").status_code == 200
    assert cy.act("points", seat=bo.seat, delta=-1, reason="Correction").status_code == 200
    assert seat_of(host, "Bo")["preliminary"] == 2
    log = [e["text"] for e in host.state()["log"]]
    assert "Bo +3 preliminary points, cook (at 4)" in log
    assert "Bo -1 preliminary points, correction (at 4)" in log
    assert "data-prelim>2<" in text(cy.page())


@pytest.mark.parametrize(
    "delta, message",
    [("", "whole number"), ("abc", "whole number"), ("0", "zero"), ("31", "between"), ("-1", "below 0")],
)
def test_bad_amounts_are_refused(three, delta, message):
    host, ana, bo, cy = three
    response = ana.act("points", seat=bo.seat, delta=delta)
    assert response.status_code == 422 and message in error_of(response)
    assert seat_of(host, "Bo")["preliminary"] == 0


def test_unknown_seat_and_long_reason_are_refused(three):
    host, ana, bo, cy = three
    assert ana.act("points", seat=99999, delta=1).status_code == 422
    response = ana.act("points", seat=bo.seat, delta=1, reason="x" * 61)
    assert response.status_code == 422 and "under 60" in error_of(response)
    assert ana.act("no.such.kind").status_code == 422


def test_kill_wipes_preliminary_and_points_on_a_killed_seat_are_refused(three):
    host, ana, bo, cy = three
    ana.act("points", seat=bo.seat, delta=4)
    assert ana.act("kill", seat=bo.seat).status_code == 200
    bo_now = seat_of(host, "Bo")
    assert bo_now["killed"] and bo_now["preliminary"] == 0
    response = cy.act("points", seat=bo.seat, delta=2)
    assert response.status_code == 422
    assert "Bo was killed this round and cannot gain preliminary points" in error_of(response)
    assert seat_of(host, "Bo")["preliminary"] == 0
    html = text(bo.page())
    assert "data-killed" in html and "Kill Bo" not in html
    assert 'aria-label="Bo plus 1 preliminary"' not in html  # no taps offered that would be refused


def test_killing_a_killed_seat_changes_nothing(three):
    host, ana, bo, cy = three
    ana.act("kill", seat=bo.seat)
    before = view(host)
    assert cy.act("kill", seat=bo.seat).status_code == 200
    assert view(host)["seats"] == before["seats"]
    assert host.state()["log"][-1]["text"] == "Bo was already killed: nothing changes"


def test_bank_moves_survivors_points_and_banking_twice_is_refused(three):
    host, ana, bo, cy = three
    step(ana, number=6)
    ana.act("points", seat=ana.seat, delta=5)
    ana.act("points", seat=bo.seat, delta=3)
    ana.act("kill", seat=bo.seat)
    ana.act("points", seat="ghost", delta=4)
    page = text(ana.page())
    confirm = re.search(r"data-bank-summary>(.*?)</div>", page, re.S).group(1)
    assert "Ana banks 5" in confirm and "Bo: killed, banks nothing" in confirm and "Cy banks 0" in confirm
    assert "The ghost's 4 go back to the stock" in confirm
    assert "hx-confirm" not in page  # confirmed in the page: no browser dialog holding it
    assert bank(ana).status_code == 200
    state = view(host)
    assert [(s["name"], s["real"], s["preliminary"], s["killed"]) for s in state["seats"]] == [
        ("Ana", 5, 0, False),
        ("Bo", 0, 0, False),
        ("Cy", 0, 0, False),
    ]
    assert state["round"] == 2 and state["resolve_number"] is None
    assert state["ghost"]["real"] == 0 and state["history"][0]["ghost_returned"] == 4
    # A second tap from a screen still showing round 1 is refused.
    response = bo.act("bank", to=2)
    assert response.status_code == 422 and "already at the draft of round 2" in error_of(response)
    assert seat_of(host, "Ana")["real"] == 5
    assert bo.act("bank").status_code == 422


def test_the_bank_can_be_undone(three):
    host, ana, bo, cy = three
    ana.act("points", seat=ana.seat, delta=5)
    step(ana, number=6)
    bank(ana)
    bank_event = host.state()["log"][-1]["id"]
    assert host.post(f"/undo/{bank_event}", {"page": "host"}).status_code == 200
    state = view(host)
    assert state["round"] == 1 and seat_of(host, "Ana")["real"] == 0 and seat_of(host, "Ana")["preliminary"] == 5


def play_to(phone, points, killed=()):
    """Give each seat (by phone) its points this round, kill some, and bank."""
    for target, amount in points:
        while amount > 0:
            part = min(amount, 30)
            assert phone.act("points", seat=target, delta=part).status_code == 200
            amount -= part
    for target in killed:
        phone.act("kill", seat=target)
    step(phone, number=6)
    return bank(phone)


def test_fifteen_ends_the_game_with_a_banner_and_the_tie_break_shown(three, client):
    host, ana, bo, cy = three
    play_to(ana, [(ana.seat, 15), (bo.seat, 9), (cy.seat, 15)])
    state = view(host)
    assert state["phase"] == "ended" and state["result"]["winner"] == cy.seat
    for html in (text(client.get(f"/t/{host.code}/screen")), text(bo.page()), text(host.page("/host"))):
        assert "data-result" in html
        assert "Cy wins the tie on 15 real points" in html
        assert "the one you reach first going anti-clockwise from Ana, counting Ana last" in html
        assert "act/points" not in html and "act/bank" not in html
    response = ana.act("points", seat=ana.seat, delta=1)
    assert response.status_code == 422 and "over" in error_of(response)


def test_a_clear_winner_shows_no_tie_reading(three, client):
    host, ana, bo, cy = three
    play_to(ana, [(ana.seat, 16), (bo.seat, 15)])
    html = text(client.get(f"/t/{host.code}/screen"))
    assert "Ana wins with 16 real points." in html and "data-tie-break" not in html


def test_all_equal_the_dog_wins(three, client):
    host, ana, bo, cy = three
    play_to(ana, [(ana.seat, 15), (bo.seat, 15), (cy.seat, 15)])
    html = text(client.get(f"/t/{host.code}/screen"))
    assert "The dog wins!" in html and "the dog wins" in html and "nobody wins" in html
    assert view(host)["result"]["winner"] is None


def test_a_tie_during_play_shows_who_would_win(three):
    host, ana, bo, cy = three
    play_to(ana, [(ana.seat, 4), (bo.seat, 4)])
    html = text(cy.page())
    assert re.search(r"if the game ended now,\s*<strong>Bo</strong> would win the tie", html)


# ---- seats -----------------------------------------------------------------------------------


def test_a_fifth_seat_is_refused(host, join, app):
    host.start("assassins")
    for name in ("Ana", "Bo", "Cy", "Di"):
        join(host, name)
    response = app.test_client().post(f"/t/{host.code}/join", data={"name": "Ed"})
    assert response.status_code == 400 and "at most 4 players" in text(response)
    response = host.post("/seats", {"name": "Flo"})
    assert response.status_code == 422 and "at most 4 players" in text(response)
    assert len(view(host)["seats"]) == 4
    assert view(host)["ghost"] is None and 'data-seat="ghost"' not in text(host.page("/host"))


def test_two_seats_show_a_message_and_refuse_play(host, join):
    host.start("assassins")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    html = text(ana.page())
    assert "Waiting for players: Age of Assassins needs 3 or 4 seats" in html
    assert "act/points" not in html
    response = ana.act("points", seat=bo.seat, delta=1)
    assert response.status_code == 422 and "3 or 4 players" in error_of(response)


# ---- the draft helper ------------------------------------------------------------------------


def all_pick(phones, row, card=""):
    for phone in phones:
        assert phone.act("draft.pick", seat=phone.seat, row=row, card=card).status_code == 200


def test_draft_row_limits_and_picks_left(three):
    host, ana, bo, cy = three
    for _ in range(3):
        all_pick((ana, bo, cy), "rear")
    html = text(ana.page())
    assert 'data-must-go="front"' in html and "this pick goes to the front row" in html
    assert re.search(r'value="rear"[^>]*disabled', html)
    response = ana.act("draft.pick", seat=ana.seat, row="rear")
    assert response.status_code == 422 and "rear row is full (3 cards)" in error_of(response)
    for _ in range(4):
        all_pick((ana, bo, cy), "front")
    response = ana.act("draft.pick", seat=ana.seat, row="front")
    assert response.status_code == 422 and "all 7 picks" in error_of(response)
    assert "all 7 picked" in text(ana.page())
    other = seat_of(bo, "Ana")
    assert (other["front_count"], other["rear_count"], other["picks_left"]) == (4, 3, 0)
    assert "front 4/4 · rear 3/3" in text(bo.page())
    assert ana.act("draft.pick", seat=ana.seat, row="middle").status_code == 422


def test_pick_k_stays_hidden_until_every_seat_made_it(three, client):
    host, ana, bo, cy = three
    ana.act("draft.pick", seat=ana.seat, row="rear")
    # Nobody else learns Ana's row yet: not Bo, not the host, not the table screen, not the log.
    for body in (text(bo.page()), text(host.page("/host")), text(client.get(f"/t/{host.code}/screen"))):
        assert "rear 1/3" not in body and "rear 0/3" in body
    assert seat_of(host, "Ana")["rear_count"] == 0 and seat_of(host, "Ana")["picked"]
    assert not any("rear" in e["text"] for e in host.state()["log"])
    assert "waiting for Bo and Cy" in text(ana.page()).replace(", ", " and ")
    # No second pick before the others made the first.
    response = ana.act("draft.pick", seat=ana.seat, row="front")
    assert response.status_code == 422 and "waits until Bo and Cy" in error_of(response)
    bo.act("draft.pick", seat=bo.seat, row="front")
    assert seat_of(cy, "Ana")["rear_count"] == 0
    cy.act("draft.pick", seat=cy.seat, row="front")
    # Now it all appears at once.
    assert (seat_of(cy, "Ana")["rear_count"], seat_of(ana, "Bo")["front_count"]) == (1, 1)
    assert host.state()["log"][-1]["text"] == "Pick 1 revealed: Ana rear, Bo front, Cy front"
    assert "rear 1/3" in text(client.get(f"/t/{host.code}/screen"))
    # A revealed pick is the table's now: only the host can take it back.
    response = ana.act("draft.unpick", seat=ana.seat)
    assert response.status_code == 422 and "already revealed" in error_of(response)


def test_starting_to_resolve_early_names_who_and_tells_them(three):
    host, ana, bo, cy = three
    for row in ("rear",) * 3 + ("front",) * 3:
        all_pick((ana, bo, cy), row)
    ana.act("draft.pick", seat=ana.seat, row="front")
    html = text(ana.page())
    assert 'hx-confirm="Bo and Cy have not finished picking: start resolving anyway?"' in html
    response = step(ana, step="next")  # a form sent without the confirmation
    assert response.status_code == 422 and "Bo and Cy have not finished picking" in error_of(response)
    assert view(host)["resolve_number"] is None
    assert step(ana, step="next", force=1).status_code == 200
    assert (
        host.state()["log"][-1]["text"] == "Resolving card number 1: Ana started it before Bo and Cy finished picking"
    )
    assert "Ana started resolving before you finished picking." in text(bo.page())
    assert "data-forced-notice" not in text(ana.page())


def test_once_all_picked_resolving_is_one_tap(three):
    host, ana, bo, cy = three
    html = text(ana.page())
    assert "hx-confirm" not in html.split("data-start-resolve")[0].rsplit("<form", 1)[1]
    assert step(ana, step="next").status_code == 200


def test_front_row_full_forces_rear_and_unpick(three):
    host, ana, bo, cy = three
    for _ in range(4):
        all_pick((ana, bo, cy), "front")
    response = bo.act("draft.pick", seat=bo.seat, row="front")
    assert response.status_code == 422 and "goes to the rear row" in error_of(response)
    assert bo.act("draft.pick", seat=bo.seat, row="rear").status_code == 200
    assert bo.act("draft.unpick", seat=bo.seat).status_code == 200  # not revealed yet: his to take back
    assert seat_of(bo, "Bo")["rear_count"] == 0 and not seat_of(bo, "Bo")["picked"]
    assert host.act("draft.unpick", seat=bo.seat, page="host").status_code == 200  # the host fixes a revealed one
    assert seat_of(host, "Bo")["front_count"] == 3


def test_a_phone_records_only_its_own_picks(three, host, join):
    _, ana, bo, cy = three
    response = bo.act("draft.pick", seat=ana.seat, row="front")
    assert response.status_code == 403 and "Only that player" in response.get_data(as_text=True)
    assert seat_of(host, "Ana")["front_count"] == 0


def test_host_records_picks_for_a_seat_without_a_phone(host, join):
    host.start("assassins")
    join(host, "Ana"), join(host, "Bo")
    host.post("/seats", {"name": "Gran"})
    gran = seat_of(host, "Gran")["id"]
    html = text(host.page("/host"))
    assert "Record a pick for Gran" in html and "Record a pick for Ana" not in html
    assert host.act("draft.pick", seat=gran, row="rear", page="host").status_code == 200
    # Recorded, but like every pick its row shows only once all have made it.
    assert seat_of(host, "Gran")["picked"] and seat_of(host, "Gran")["rear_count"] == 0


SECRET_REAR = "Zanzibar Rearguard"
SECRET_FRONT = "Quokka Frontline"


def read_sse(client, code, page="player"):
    """The first messages a page's live stream sends: its whole fragment, as its page is behind."""
    return opening(client, f"/t/{code}/events?page={page}")


def test_rear_row_cards_never_reach_another_phone(three, client, app):
    host, ana, bo, cy = three
    assert ana.act("draft.pick", seat=ana.seat, row="rear", card=SECRET_REAR).status_code == 200
    all_pick((bo, cy), "front")
    assert ana.act("draft.pick", seat=ana.seat, row="front", card=SECRET_FRONT).status_code == 200
    own = text(ana.page())
    assert SECRET_REAR in own and SECRET_FRONT in own  # her own phone shows her picks
    code = host.code
    seen = {
        "Bo's page": text(bo.page()),
        "Bo's live fragment": text(bo.client.get(f"/t/{code}/live?page=player", headers=HX)),
        "Bo's JSON": text(bo.client.get(f"/t/{code}/state.json")),
        "Bo's own action": text(bo.act("points", seat=bo.seat, delta=1)),
        "Bo's refused action": text(bo.act("draft.pick", seat=ana.seat, row="rear")),
        "Bo's SSE stream": read_sse(bo.client, code),
        "host's SSE stream": read_sse(host.client, code, "host"),
        "table screen's SSE stream": read_sse(client, code, "screen"),
        "host page": text(host.page("/host")),
        "host live fragment": text(host.client.get(f"/t/{code}/live?page=host", headers=HX)),
        "host JSON": text(host.client.get(f"/t/{code}/state.json")),
        "host log CSV": text(host.client.get(f"/t/{code}/log.csv")),
        "table screen": text(client.get(f"/t/{code}/screen")),
        "screen live fragment": text(client.get(f"/t/{code}/live?page=screen", headers=HX)),
        "a stranger asking as a player": text(client.get(f"/t/{code}/live?page=player", headers=HX)),
        "deck page": text(bo.client.get(f"/t/{code}/assassins/deck")),
    }
    for where, body in seen.items():
        assert SECRET_REAR not in body, where
        assert SECRET_FRONT not in body, where  # pick 2 is not revealed yet
    assert "rear 1/3" in seen["Bo's page"] and "rear 1/3" in seen["table screen"]
    all_pick((bo, cy), "front")
    screen = text(client.get(f"/t/{code}/screen"))
    assert SECRET_FRONT in screen and SECRET_REAR not in screen  # the front row is face up at the table
    for stream in ("Bo's SSE stream", "host's SSE stream", "table screen's SSE stream"):
        assert (
            seen[stream].startswith("retry:")
            and 'event: live\ndata: <div hx-swap-oob="morph" id="live-body"' in seen[stream]
        )
    assert "rear 1/3" in seen["table screen's SSE stream"]


def test_host_export_keeps_rear_rows_hidden(three):
    host, ana, bo, cy = three
    ana.act("draft.pick", seat=ana.seat, row="rear", card=SECRET_REAR)
    assert SECRET_REAR not in text(host.client.get(f"/t/{host.code}/export.json"))


# ---- penalty chips ---------------------------------------------------------------------------


def test_penalty_chips_change_only_on_purpose(three):
    host, ana, bo, cy = three
    assert ana.act("penalty", seat=bo.seat, delta=1).status_code == 200
    assert "1 penalty chip" in text(cy.page())
    for _ in range(4):
        ana.act("penalty", seat=cy.seat, delta=1)
    response = ana.act("penalty", seat=ana.seat, delta=1)
    assert response.status_code == 422 and "only 5 penalty chips" in error_of(response)
    response = ana.act("penalty", seat=ana.seat, delta=-1)
    assert response.status_code == 422 and "only 0 penalty chips" in error_of(response)
    assert ana.act("penalty", seat=bo.seat, delta=0).status_code == 422
    assert [s["penalty_chips"] for s in view(host)["seats"]] == [0, 1, 4]
    play_to(ana, [(ana.seat, 1)])
    assert [s["penalty_chips"] for s in view(host)["seats"]] == [0, 1, 4]  # kept over rounds


# ---- the deck list, from your box ------------------------------------------------------------


def test_deck_page_starts_from_the_rulebook_names(three):
    host, ana, bo, cy = three
    html = text(host.client.get(f"/t/{host.code}/assassins/deck"))
    for name in ("Magician", "Grave Digger", "Soldier", "Cook", "Sergeant", "Chef", "Wizard"):
        assert f'value="{name}"' in html
    assert "Nothing is stored yet" in html and "data-deck-form" in html
    seat_view = text(ana.client.get(f"/t/{host.code}/assassins/deck"))
    assert "data-deck-form" not in seat_view and "Only the host can change" in seat_view


def test_a_phone_open_through_a_deck_edit_shows_the_new_list_at_the_next_change(three):
    """A page's stream is one request for as long as the page is open: the deck list it shows
    is read again (as a board's box text is), not kept from when the page opened."""
    host, ana, bo, cy = three
    anas = Stream(ana, "player", known=ana.client.get(f"/t/{ana.code}/state.json").get_json()["version"])
    anas.opened()
    assert bo.act("draft.pick", seat=bo.seat, row="front").status_code == 200
    assert "Card E" not in anas.next_message()  # the rulebook's names only: no list stored yet
    assert host.client.post(f"/t/{host.code}/assassins/deck", data=deck_form(DECK, host.csrf)).status_code == 303
    assert cy.act("draft.pick", seat=cy.seat, row="front").status_code == 200
    assert "Card E" in anas.next_message()  # the picks' card names, from the list just saved


def test_deck_list_saved_for_this_table_and_defaults_for_new_ones(three, app, join):
    host, ana, bo, cy = three
    response = host.client.post(f"/t/{host.code}/assassins/deck", data=deck_form(DECK, host.csrf))
    assert response.status_code == 303
    page = text(host.client.get(response.headers["Location"]))
    assert "Deck list saved" in page and "A complete list is stored" in page
    stored = json.loads(stored_body(app, host.code))
    assert sum(e["copies"] for e in stored if e["name"] != "Wizard") == 28
    assert "data-deal" in text(host.page("/host"))
    assert "Card E" in text(ana.page())  # card names offered when typing picks
    # Each table keeps its own box: another table does not see this one's list...
    other = type(host)(app, None).start("assassins")
    for name in ("Di", "Ed", "Flo"):
        join(other, name)
    assert stored_body(app, other.code) is None and "data-deal" not in text(other.page("/host"))
    # ...but a list kept as the server's default is copied into every table made after it.
    with app.app_context():
        box.put(get_db(), "assassins", "deck-list", json.dumps(DECK))
    later = type(host)(app, None).start("assassins")
    for name in ("Di", "Ed", "Flo"):
        join(later, name)
    assert "data-deal" in text(later.page("/host"))
    assert "data-deal" not in text(other.page("/host"))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d[4].update(copies=5), "add up to 27; the deck has 28"),
        (lambda d: d[4].update(number=7), "between 1 and 6"),
        (lambda d: d[4].update(number=""), "Card E needs its number (1–6)."),
        (lambda d: d[4].update(copies=""), "Card E needs how many copies"),
        (lambda d: d[0].update(copies=2) or d[4].update(copies=8), "at least 3 copies of Magician"),
        (lambda d: d[5].update(name="card e"), "listed twice"),
    ],
)
def test_bad_deck_lists_are_refused_and_keep_what_was_typed(three, app, change, message):
    host, ana, bo, cy = three
    entries = [dict(e) for e in DECK]
    change(entries)
    response = host.client.post(f"/t/{host.code}/assassins/deck", data=deck_form(entries, host.csrf))
    assert response.status_code == 422
    html = text(response)
    assert "Not saved." in html and message in html
    assert 'value="Card E"' in html  # nothing typed is lost
    assert stored_body(app, host.code) is None


def test_deck_rows_can_be_added_and_blank_lines_ignored(three):
    host, ana, bo, cy = three
    form = deck_form(DECK, host.csrf, do="add")
    form["add"] = "3"
    html = text(host.client.post(f"/t/{host.code}/assassins/deck", data=form))
    assert 'name="name_9"' in html and 'name="name_10"' not in html
    form = deck_form(
        DECK + [{"name": "", "number": "", "copies": ""}, {"name": "Chef", "number": "", "copies": ""}], host.csrf
    )
    assert host.client.post(f"/t/{host.code}/assassins/deck", data=form).status_code == 303


def test_only_the_host_changes_the_deck_list(three):
    host, ana, bo, cy = three
    response = ana.client.post(f"/t/{host.code}/assassins/deck", data=deck_form(DECK, ana.csrf))
    assert response.status_code == 403
    response = host.client.post(f"/t/{host.code}/assassins/deck", data=deck_form(DECK, "forged"))
    assert response.status_code == 403
    response = ana.client.post(f"/t/{host.code}/assassins/deck/import", data={"csrf": ana.csrf, "json": "[]"})
    assert response.status_code == 403


def test_deck_list_export_and_import(three, app):
    host, ana, bo, cy = three
    code = host.code
    assert ana.client.get(f"/t/{code}/assassins/deck-list.json").status_code == 404
    response = host.client.post(
        f"/t/{code}/assassins/deck/import", data={"csrf": host.csrf, "json": json.dumps({"cards": DECK})}
    )
    assert response.status_code == 303
    exported = ana.client.get(f"/t/{code}/assassins/deck-list.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    assert json.loads(text(exported))["cards"] == DECK
    # A file upload, and a whole "from your box" export holding the deck list, both import.
    with app.app_context():
        db = get_db()
        box.put(db, "assassins", "deck-list", "", table=store.find_table(db, code))  # forget it
    assert stored_body(app, code) is None
    whole = json.dumps(
        {"table_companion_box": 1, "entries": [{"game": "assassins", "entry": "deck-list", "body": json.dumps(DECK)}]}
    )
    response = host.client.post(
        f"/t/{code}/assassins/deck/import",
        content_type="multipart/form-data",
        data={"csrf": host.csrf, "file": (io.BytesIO(whole.encode()), "box.json")},
    )
    assert response.status_code == 303
    assert json.loads(text(ana.client.get(f"/t/{code}/assassins/deck-list.json")))["cards"] == DECK


@pytest.mark.parametrize(
    "body, message",
    [
        ("not json", "not a deck list in JSON"),
        ("", "Paste a deck list"),
        (json.dumps([{"name": "Magician", "number": 9, "copies": 28}]), "between 1 and 6"),
        (json.dumps({"table_companion_box": 1, "entries": []}), "no Age of Assassins deck list"),
    ],
)
def test_bad_imports_are_refused(three, body, message):
    host, ana, bo, cy = three
    response = host.client.post(f"/t/{host.code}/assassins/deck/import", data={"csrf": host.csrf, "json": body})
    assert response.status_code == 422 and message in text(response)
    assert "Nothing is stored yet" in text(response)


def test_deck_routes_belong_to_assassins_tables(host, join):
    host.start("generic")
    assert host.client.get(f"/t/{host.code}/assassins/deck").status_code == 404


# ---- the ghost -------------------------------------------------------------------------------


def test_ghost_deal_without_a_deck_list_walks_through_a_physical_deal(three):
    host, ana, bo, cy = three
    html = text(ana.page())
    assert "data-no-deck" in html and "Shuffle the whole deck." in html and "data-deal" not in html
    response = ana.post("/assassins/ghost-deal", {"page": "player"})
    assert response.status_code == 422 and "No deck list is stored yet" in error_of(response)
    response = ana.act("ghost.record", card1="magician", card2="Wizard", card3="Magician", card4="Cook")
    assert response.status_code == 200
    html = text(bo.page())
    assert "data-three-magicians" in html and "deal her again" in html
    assert ana.act("ghost.record", card1="Cook", card2="Soldier", card3="Magician", card4="Card X").status_code == 200
    ghost = view(host)["ghost"]
    assert [c["name"] for c in ghost["face_up"]] == ["Cook", "Soldier", "Magician", "Card X"]
    response = ana.act("ghost.record", card1="Cook", card2="Soldier", card3="Magician", card4="Card X")
    assert response.status_code == 422 and "already dealt" in error_of(response)
    response = ana.act("ghost.record", card1="Cook", card2="", card3="A", card4="B")
    assert response.status_code == 422


def test_ghost_deal_by_the_app_reads_the_stored_list(three, app, client):
    host, ana, bo, cy = three
    store_deck(app, host.code)
    html = text(cy.page())
    assert "data-deal" in html and 'name="extras" value="Wizard"' in html
    response = cy.post("/assassins/ghost-deal", {"page": "player", "extras": "Wizard"})
    assert response.status_code == 200
    ghost = view(host)["ghost"]
    assert ghost["source"] == "dealt" and len(ghost["face_up"]) == 4
    assert sum(1 for c in ghost["face_up"] if c["magician"]) < 3
    event = [
        e for e in host.client.get(f"/t/{host.code}/export.json").get_json()["events"] if e["kind"] == "ghost.deal"
    ][0]
    assert event["data"]["extras"] == ["Wizard"]
    screen = text(client.get(f"/t/{host.code}/screen"))
    for card in ghost["face_up"]:
        assert card["name"] in screen
    assert "Take the four cards shown here out of the deck" in text(ana.page())
    response = cy.post("/assassins/ghost-deal", {"page": "player"})
    assert response.status_code == 422 and "already dealt" in error_of(response)


def test_a_phone_cannot_send_its_own_deck(three, app):
    host, ana, bo, cy = three
    store_deck(app, host.code)
    rigged = json.dumps([{"name": "Rigged", "number": 4, "copies": 28}])
    response = ana.act("ghost.deal", deck=rigged)
    assert response.status_code == 422 and "stored" in error_of(response)
    assert view(host)["ghost"]["face_up"] is None
    # Extra form fields on the deal route are ignored: only the stored list is used.
    assert ana.post("/assassins/ghost-deal", {"page": "player", "deck": rigged}).status_code == 200
    names = {c["name"] for c in view(host)["ghost"]["face_up"]}
    assert names <= {e["name"] for e in DECK} and "Rigged" not in names


def test_incomplete_stored_list_is_explained(three, app):
    host, ana, bo, cy = three
    store_deck(app, host.code, DECK[:3])
    assert "The stored deck list is not complete" in text(ana.page())
    response = ana.post("/assassins/ghost-deal", {"page": "player"})
    assert response.status_code == 422 and "not complete" in error_of(response)


def test_no_ghost_at_four_seats(host, join, app):
    host.start("assassins")
    phones = [join(host, n) for n in ("Ana", "Bo", "Cy", "Di")]
    store_deck(app, host.code)
    response = phones[0].post("/assassins/ghost-deal", {"page": "player"})
    assert response.status_code == 422 and "only plays at a table of 3" in error_of(response)
    assert phones[0].act("points", seat="ghost", delta=1).status_code == 422


def test_ghost_rules_show_at_their_numbers(three, app):
    host, ana, bo, cy = three
    step(ana, number=3)
    html = text(bo.page())
    assert 'data-rule="magician"' in html and '<details class="aoa-ghost-rules"' in html
    assert not re.search(r"data-ghost-rules\s+open", html)  # unknown numbers: a closed reminder
    store_deck(app, host.code)
    assert "data-ghost-rules" not in text(bo.page())  # Soldier is at 3 in this list
    step(ana, number=1)
    html = text(bo.page())
    assert 'data-rule="magician"' in html and 'data-rule="grave-digger"' not in html
    assert "Cy, on her right, is killed in her place" in html  # the last seat: she sits after it
    assert re.search(r"She sits between Cy \(on her right\) and Ana", html)
    step(ana, number=2)
    html = text(bo.page())
    assert 'data-rule="grave-digger"' in html and "never picks being killed" in html


def test_ghost_points_and_kill(three):
    host, ana, bo, cy = three
    assert ana.act("points", seat="ghost", delta=3).status_code == 200
    assert ana.act("kill", seat="ghost").status_code == 200
    response = ana.act("points", seat="ghost", delta=1)
    assert response.status_code == 422 and "The ghost was killed" in error_of(response)
    assert view(host)["ghost"]["preliminary"] == 0 and view(host)["ghost"]["killed"]


def clone(app, phone):
    """A second client holding the same seat's cookies (a player tapping on two tabs)."""
    twin = Phone(app, phone.code)
    for cookie in phone.client._cookies.values():
        twin.client.set_cookie(cookie.key, cookie.value, domain=cookie.domain, path=cookie.path)
    twin.csrf, twin.seat = phone.csrf, phone.seat
    return twin


@pytest.mark.parametrize("kind", ["next", "bank"])
def test_eight_simultaneous_step_taps_move_the_table_once(three, app, kind):
    import threading

    host, ana, bo, cy = three
    step(ana, step="next")
    if kind == "bank":
        step(ana, number=6)
    form = {"step": "next", "to": 2} if kind == "next" else {"to": 2}
    action = "resolve.step" if kind == "next" else "bank"
    phones = [host, ana, bo, cy] + [clone(app, p) for p in (ana, bo, cy, host)]
    barrier, statuses = threading.Barrier(len(phones)), []

    def tap(phone):
        barrier.wait()
        statuses.append(phone.act(action, **form).status_code)

    threads = [threading.Thread(target=tap, args=(p,)) for p in phones]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(statuses) == [200] + [422] * 7
    state = view(host)
    kinds = [e["kind"] for e in host.state()["log"]]
    if kind == "next":
        assert state["resolve_number"] == 2 and kinds.count("resolve.step") == 2
    else:
        assert state["round"] == 2 and kinds.count("bank") == 1
