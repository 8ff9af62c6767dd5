"""The tablet (tablet.py): who may open it (the host's device, a device the host let in, until
revoked), a tap posted as the seat with the seat's own rights, seats left off, undo, the
layout stylesheet, and no hand or secret pick in its page, fragment or stream."""

import re
from collections import Counter

import pytest

from companion.games.blackmail import BY_NUMBER, CYRIL, KRUEGER, LANA, MALORY
from companion.games.blackmail import dealt as deal
from companion.tablet import routes as tablet
from helpers import HX, Phone, Tablet, add_seats, csrf_of, let_in, opening, text


def stream_opening(client, code, page="tablet"):
    """The first message of a page's event stream (the whole fragment of a page behind)."""
    return opening(client, f"/t/{code}/events?page={page}")


# --- who may open it ----------------------------------------------------------------


def test_host_opens_the_tablet_and_a_stranger_or_a_seat_is_refused(app, host, join):
    host.start("generic")
    ana = join(host, "Ana")
    add_seats(host, "Bo")
    page = host.page("/tablet")
    assert page.status_code == 200
    html = text(page)
    assert html.count('class="tb-slot"') == 2 and 'aria-label="Ana"' in html and 'aria-label="Bo"' in html
    assert 'href="/tablet/layout.css?s=' in html

    stranger = Tablet(app, host.code)
    assert stranger.open().status_code == 403
    assert ana.page("/tablet").status_code == 403  # a seat's phone is not the tablet
    # A refused device gets the table screen's fragment from the live routes, never a panel.
    assert "tb-board" not in text(stranger.client.get(f"/t/{host.code}/live?page=tablet", headers=HX))
    assert "tb-board" not in stream_opening(stranger.client, host.code)
    response = stranger.post(f"/tablet/act/{ana.seat}/score", {"delta": "1", "seat": str(ana.seat)})
    assert response.status_code == 403
    assert host.state()["state"]["seats"][0]["score"] == 0


def test_let_in_works_once_and_revoke_refuses_the_device(app, host):
    host.start("generic")
    (ana, bo) = add_seats(host, "Ana", "Bo")
    device, link = let_in(app, host)
    assert device.open().status_code == 200
    assert "1 let in" in text(host.page("/host"))
    # The link is used up: another device opening it is turned away.
    other = Tablet(app, host.code)
    page = other.client.get(link)
    again = other.client.post(link, data={"csrf": csrf_of(text(page))})
    assert again.status_code == 403 and "used already" in text(again)
    assert other.open().status_code == 403

    assert device.tap(bo, "score", seat=bo, delta=2).status_code == 200
    seat_scores = {s["id"]: s["score"] for s in host.state()["state"]["seats"]}
    assert seat_scores == {ana: 0, bo: 2}
    assert host.state()["log"][-1]["who"] == "Bo (at the tablet)"  # as the seat, by the tablet
    assert "tb-board" in stream_opening(device.client, host.code)

    assert host.post("/tablet/revoke", htmx=False).status_code == 303
    assert device.open().status_code == 403
    assert device.tap(bo, "score", seat=bo, delta=2).status_code == 403
    assert "tb-board" not in stream_opening(device.client, host.code)
    assert host.state()["state"]["seats"][1]["score"] == 2
    # Only the host lets devices in or revokes them.
    assert device.post("/tablet/let-in", htmx=False).status_code == 403
    assert device.post("/tablet/revoke", htmx=False).status_code == 403


def test_the_tablet_follows_the_night_to_the_next_table(app, host):
    """After "play again" the tablet's board carries the link static/js/night.js follows by itself
    (data-follow): the host's device lands on the next table's tablet as its host, a device
    the host let in is let in there too, and a device with neither right gets nothing."""
    host.start("generic")
    add_seats(host, "Ana", "Bo")
    device, _ = let_in(app, host)
    old = host.code
    host.page("/host")
    response = host.post("/next", {"game": "generic", "page": "host"})
    new = re.match(r"/t/(\w+)/", response.headers["HX-Redirect"]).group(1)
    follow = f"/t/{old}/follow?to=tablet"
    assert f'data-follow href="{follow}"' in text(device.client.get(f"/t/{old}/live?page=tablet", headers=HX))
    for phone in (host, device):
        landed = phone.client.get(follow)
        assert landed.status_code == 303 and landed.headers["Location"] == f"/t/{new}/tablet"
        page = phone.client.get(f"/t/{new}/tablet")
        assert page.status_code == 200 and page.get_data(as_text=True).count('class="tb-slot"') == 2
    assert device.client.get(follow).headers["Location"] == f"/t/{new}/tablet"  # again: harmless
    assert "1 let in" in text(host.client.get(f"/t/{new}/host"))
    # The device is let in at the new table: it taps as a seat, and is neither a seat nor the host.
    device.code = host.code = new
    assert device.open().status_code == 200
    bo = host.state()["state"]["seats"][1]["id"]
    assert device.tap(bo, "score", seat=bo, delta=2).status_code == 200
    assert host.state()["state"]["seats"][1]["score"] == 2
    assert device.post("/tablet/let-in", htmx=False).status_code == 403
    # Revoked at the new table, it cannot come back by following the night from the old one.
    host.page("/host")
    assert host.post("/tablet/revoke", htmx=False).status_code == 303
    assert device.client.get(follow).headers["Location"] == f"/t/{old}/tablet"
    assert device.client.get(f"/t/{new}/tablet").status_code == 403
    stranger = Tablet(app, old)
    assert stranger.client.get(follow).headers["Location"] == f"/t/{old}/tablet"
    assert stranger.client.get(f"/t/{new}/tablet").status_code == 403


def test_an_old_let_in_link_is_refused(app, host, monkeypatch):
    host.start("generic")
    add_seats(host, "Ana")
    monkeypatch.setattr("companion.access.LET_IN_MINUTES", 0)
    response = host.post("/tablet/let-in", htmx=False)
    link = re.search(r'data-let-in-link>[^<]*(/t/[^<"]+)<', text(response)).group(1)
    device = Tablet(app, host.code)
    page = device.client.get(link)
    assert device.client.post(link, data={"csrf": csrf_of(text(page))}).status_code == 403
    assert device.open().status_code == 403


def test_a_seats_phone_cannot_become_the_tablet(app, host, join):
    host.start("generic")
    ana = join(host, "Ana")
    response = host.post("/tablet/let-in", htmx=False)
    link = re.search(r'data-let-in-link>[^<]*(/t/[^<"]+)<', text(response)).group(1)
    page = ana.client.get(link)
    assert page.status_code == 403 and "holds a seat" in text(page)
    assert ana.state()["viewer"]["seat"] == ana.seat  # its seat is kept


# --- acting for the seats it shows ----------------------------------------------------


def test_a_tap_has_the_seats_own_rights(app, host):
    """Danger Zone: picking a character is the seat's own; the tablet may pick for the seat
    whose panel was tapped, not for another one through it, and never a host-only step."""
    host.start("danger-zone")
    ana, bo = add_seats(host, "Ana", "Bo")
    device = Tablet(app, host.code, host.client)
    device.csrf = host.csrf
    assert device.tap(ana, "character.pick", seat=ana, character="Archer").status_code == 200
    assert device.tap(ana, "character.pick", seat=bo, character="Lana").status_code in (403, 422)
    assert device.tap(ana, "locations.draw").status_code == 403  # host only
    state = host.state()["state"]
    assert {s["id"]: s["character"] for s in state["seats"]} == {ana: "Archer", bo: None}


def test_a_seat_left_off_is_not_shown_nor_acted_for(app, host):
    host.start("generic")
    ana, bo = add_seats(host, "Ana", "Bo")
    host.page("/tablet")
    response = host.post(
        "/tablet/layout",
        {f"show_{ana}": "1", f"edge_{ana}": "top", f"face_{ana}": "left", f"edge_{bo}": "auto", f"face_{bo}": "own"},
    )
    assert response.status_code == 200
    html = text(host.page("/tablet"))
    assert f'id="tb-s{ana}"' in html and f'id="tb-s{bo}"' not in html
    assert "Not on the tablet: Bo" in html
    assert f"s={ana}tl" in html  # top edge, facing left
    device = Tablet(app, host.code, host.client)
    device.csrf = host.csrf
    assert device.tap(bo, "score", seat=bo, delta=1).status_code == 403
    # Back to automatic: every seat shown again.
    host.post("/tablet/layout", {"automatic": "1"})
    html = text(host.page("/tablet"))
    assert f'id="tb-s{bo}"' in html and f"s={ana},{bo}" in html


def test_undo_from_the_tablet_follows_the_same_rules(app, host):
    host.start("danger-zone")
    ana, bo = add_seats(host, "Ana", "Bo")
    device = Tablet(app, host.code, host.client)
    device.csrf = host.csrf
    device.tap(ana, "character.pick", seat=ana, character="Archer")
    pick = host.state()["log"][-1]["id"]
    assert re.search(rf'/tablet/undo/{pick}"', text(host.page("/tablet")))
    assert device.post(f"/tablet/undo/{pick}").status_code == 200
    assert host.state()["state"]["seats"][0]["character"] is None
    # A host-only entry (the Locations drawn) has no Undo on the tablet and is refused there.
    host.act("locations.draw", page="host")
    drawn = host.state()["log"][-1]["id"]
    assert not re.search(rf'/tablet/undo/{drawn}"', text(host.page("/tablet")))
    assert device.post(f"/tablet/undo/{drawn}").status_code == 403


def test_a_refused_tap_says_why_in_place(app, host):
    host.start("generic")
    (ana,) = add_seats(host, "Ana")
    device = Tablet(app, host.code, host.client)
    device.csrf = host.csrf
    response = device.tap(ana, "score", seat=ana, delta=0)
    assert response.status_code == 422 and "cannot be zero" in text(response)
    assert "tb-board" in text(response)


# --- the layout ------------------------------------------------------------------------


def test_layout_places_seats_clockwise_over_the_edges():
    # Landscape, 5 seats: two on the bottom (right to left), then left, top, right.
    placed = tablet.arrange([1, 2, 3, 4, 5], {}, {}, tablet.LANDSCAPE)
    assert placed == {
        1: ("bottom", 0, 2, "bottom"),
        2: ("bottom", 1, 2, "bottom"),
        3: ("left", 0, 1, "left"),
        4: ("top", 0, 1, "top"),
        5: ("right", 0, 1, "right"),
    }
    # A phone: its two short edges.
    assert {s: p[0] for s, p in tablet.arrange([1, 2, 3, 4], {}, {}, None).items()} == {
        1: "bottom",
        2: "bottom",
        3: "top",
        4: "top",
    }
    # The host's choice holds in every shape.
    for _, counts, _, _ in tablet.SHAPES:
        assert tablet.arrange([1, 2, 3], {2: "right"}, {2: "top"}, counts)[2][::3] == ("right", "top")
    for n in range(1, 9):
        for _, counts, _, _ in tablet.SHAPES:
            assert sum(tablet.counts(counts, n)) == n


def test_layout_sheet_turns_each_panel_to_its_edge(client):
    assert tablet.encode([1, 2, 3], {2: "left"}, {3: "bottom"}) == "1,2l,3ab"
    assert tablet.decode("1,2l,3ab,x,2") == ([1, 2, 3], {2: "left"}, {3: "bottom"})
    css = client.get("/tablet/layout.css?s=1,2,3,4").get_data(as_text=True)
    landscape = css.split("@media")[1]
    assert "#tb-s1>.tb-panel,#tb-over-s1>.tb-sheet{transform:translate(-50%,-50%) rotate(0deg)" in landscape
    assert "#tb-s2>.tb-panel,#tb-over-s2>.tb-sheet{transform:translate(-50%,-50%) rotate(90deg)" in landscape
    assert "#tb-s3>.tb-panel,#tb-over-s3>.tb-sheet{transform:translate(-50%,-50%) rotate(180deg)" in landscape
    assert "#tb-s4>.tb-panel,#tb-over-s4>.tb-sheet{transform:translate(-50%,-50%) rotate(270deg)" in landscape
    turned = client.get("/tablet/layout.css?s=1tr").get_data(as_text=True)
    assert turned.count("rotate(270deg)") == 3  # every shape


# --- hidden information -----------------------------------------------------------------

NAMES = {n: [BY_NUMBER[n]["name"], BY_NUMBER[n]["name"].split()[0]] for n in BY_NUMBER}


def tablet_bodies(host):
    return [
        text(host.page("/tablet")),
        text(host.client.get(f"/t/{host.code}/live?page=tablet", headers=HX)),
        stream_opening(host.client, host.code),
    ]


def test_dealt_blackmail_puts_no_hand_on_the_tablet(app, host, join, monkeypatch):
    order = [MALORY, LANA, CYRIL, KRUEGER]  # the secret, then Ana's, Bo's and Cy's cards
    rest = Counter(deal.full_deck())
    rest.subtract(order)
    monkeypatch.setattr(
        deal,
        "new_deal",
        lambda rng: {
            "order": order + sorted(rest.elements(), reverse=True),
            "lana": [0, 1, 2, 3, 4],
            "salt": "00112233445566778899aabbccddeeff",
        },
    )
    host.start("blackmail")
    assert host.post("/join", {"name": "Hal"}, htmx=False).status_code == 303  # the host plays too
    phones = [join(host, name) for name in ("Ana", "Bo")]
    response = host.act(
        "game.start",
        to=host.state()["state"]["to"]["start"],
        tracking="dealt",
        first_player=phones[0].seat,
        page="host",
    )
    assert response.status_code == 200
    assert host.state()["state"]["round"]["dealt"]["hand"]  # the host's own hand, on the host page
    for body in tablet_bodies(host):
        assert "tb-board" in body and "data-hands-on-phones" in body
        for number in (MALORY, LANA, CYRIL, KRUEGER):
            for name in NAMES[number]:
                assert name not in body, f"{name} on the tablet"


def test_a_secret_assassins_pick_stays_off_the_tablet(app, host, join):
    host.start("assassins")
    ana, bo, cy = (join(host, name) for name in ("Ana", "Bo", "Cy"))
    assert ana.act("draft.pick", seat=ana.seat, row="rear", card="Grave Digger").status_code == 200
    assert bo.act("draft.pick", seat=bo.seat, row="front", card="Soldier").status_code == 200
    for body in tablet_bodies(host):
        assert "tb-board" in body and "data-draft-secret" in body
        assert "Grave Digger" not in body and "Soldier" not in body
        assert "rear 1/" not in body and "Front 1/" not in body  # not even which row
        assert 'name="row"' not in body  # no pick is made here
    # Once everyone made pick 1 it is revealed: the front card is public, the rear one never.
    assert cy.act("draft.pick", seat=cy.seat, row="front", card="Cook").status_code == 200
    for body in tablet_bodies(host):
        assert "Soldier" in body and "rear 1/3" in body
        assert "Grave Digger" not in body


@pytest.mark.parametrize("game", ["danger-zone", "blackmail", "assassins", "generic"])
def test_every_game_draws_a_panel_per_seat(app, host, game):
    host.start(game)
    ids = add_seats(host, "Ana", "Bo", "Cy")
    html = text(host.page("/tablet"))
    for seat in ids:
        assert f'id="tb-s{seat}"' in html
    assert 'class="tb-middle"' in html and "data-status" in html


def test_let_in_revoke_and_layout_on_postgresql(pg_app):
    """The same on PostgreSQL: its tables are made there too, and kept across requests."""
    host = Phone(pg_app, None)
    response = host.client.post("/tables", data={"game": "generic"})
    host.code = response.headers["Location"].split("/")[2]
    host.page("/host")
    ana, bo = add_seats(host, "Ana", "Bo")
    device, _ = let_in(pg_app, host)
    assert device.open().status_code == 200
    assert device.tap(ana, "score", seat=ana, delta=3).status_code == 200
    assert host.post("/tablet/layout", {f"show_{ana}": "1", f"edge_{ana}": "left"}).status_code == 200
    html = text(device.open())
    assert f"s={ana}l" in html and f'id="tb-s{bo}"' not in html
    # "Play again": the device is let in at the next table too (twice is harmless).
    response = host.post("/next", {"game": "generic", "page": "host"})
    new = re.match(r"/t/(\w+)/", response.headers["HX-Redirect"]).group(1)
    for _ in range(2):
        assert device.client.get(f"/t/{host.code}/follow?to=tablet").headers["Location"] == f"/t/{new}/tablet"
    assert device.client.get(f"/t/{new}/tablet").status_code == 200
    # The old table is read-only now: revoking is done at the new one, for the whole night.
    assert host.post("/tablet/revoke", htmx=False).status_code == 409
    host.client.get(f"/t/{host.code}/follow?to=host")
    host.code = new
    host.page("/host")
    assert host.post("/tablet/revoke", htmx=False).status_code == 303
    assert device.open().status_code == 403


# --- a whole round from the tablet -------------------------------------------------


def dz_setup(host, names=("Ana", "Bo", "Cy")):
    """A Danger Zone table in Setup with characters, the Locations (Malory's Office in play) and
    the seating order settled; the Initiative still to roll. Returns the seat ids."""
    host.start("danger-zone")
    ids = add_seats(host, *names)
    for seat, character in zip(ids, ("Archer", "Lana", "Cyril", "Pam")):
        assert host.act("character.pick", seat=seat, character=character, page="host").status_code == 200
    host.act("locations.draw", page="host")
    while "Malory's Office" not in [loc["name"] for loc in host.state()["state"]["locations"]]:
        host.act("locations.draw", page="host")
    host.act("order.confirm", order=",".join(map(str, ids)), page="host")
    return ids


def test_each_seat_rolls_for_the_initiative_on_its_own_panel(app, host):
    ana, bo, cy = dz_setup(host)
    device, _ = let_in(app, host)
    html = text(device.open())
    for seat in (ana, bo, cy):  # each panel's roll posts as that seat, naming roll 1
        assert f'action="/t/{host.code}/tablet/act/{seat}/initiative.seat_roll"' in html
    assert html.count("data-initiative-roll") == 3 and 'name="to" value="1"' in html
    assert device.tap(ana, "initiative.seat_roll", seat=ana, to=1).status_code == 200
    assert host.state()["log"][-1]["who"] == "Ana (at the tablet)"
    again = device.tap(ana, "initiative.seat_roll", seat=ana, to=1)  # a doubled tap
    assert again.status_code == 422 and "older screen" in text(again)
    refused = device.tap(ana, "initiative.seat_roll", seat=bo, to=1)  # Bo's roll, from Ana's panel
    assert refused.status_code in (403, 422)
    assert device.tap(bo, "initiative.seat_roll", seat=bo, to=1).status_code == 200
    assert device.tap(cy, "initiative.seat_roll", seat=cy, to=1).status_code == 200
    view = host.state()["state"]["initiative"]
    while view["seat"] is None:  # ties roll again
        rolling = view["rolling"]
        for seat in rolling["waiting"]:
            assert device.tap(seat, "initiative.seat_roll", seat=seat, to=rolling["round"]).status_code == 200
        view = host.state()["state"]["initiative"]
    assert view["by_seats"] and view["rolloff"]["winner"] == view["seat"]
    html = text(device.open())
    assert "data-initiative-won" in html and html.count("Initiative roll") >= 1
    assert "data-initiative-roll" not in html


def test_a_seat_left_off_means_the_host_rolls_off(app, host):
    ana, bo, cy = dz_setup(host)
    host.page("/tablet")
    host.post("/tablet/layout", {f"show_{ana}": "1", f"show_{bo}": "1"})  # Cy has a phone
    html = text(host.page("/tablet"))
    assert "data-initiative-roll" not in html
    assert "rolls off for the Initiative (not every seat is on the tablet)" in html


def test_the_round_from_the_tablet_the_event_the_foes_a_token_and_the_challenges(app, host):
    ana, bo, cy = dz_setup(host)
    host.act("initiative.record", seat=ana, page="host")
    state = host.state()["state"]
    host.act("round.next", to=state["next_step"], page="host")
    device, _ = let_in(app, host)
    device.open()
    others = [loc["name"] for loc in host.state()["state"]["locations"] if loc["name"] != "Malory's Office"]
    for seat, place in ((ana, "Malory's Office"), (bo, "Malory's Office"), (cy, others[0])):
        assert device.tap(seat, "movement.enter", seat=seat, location=place).status_code == 200
    html = text(device.open())
    # Ana's panel opens her Event card's sheet, posted as her and naming the round's Event.
    assert f'id="tb-over-s{ana}"' in html and "data-event-open" in html
    assert f'action="/t/{host.code}/tablet/act/{ana}/event.rona_thorne"' in html
    assert 'name="to" value="round 1, Event card"' in html
    assert device.tap(ana, "event.rona_thorne", drawer=ana, to="round 1, Event card").status_code == 200
    assert host.state()["log"][-1]["who"] == "Ana (at the tablet)"
    assert device.tap(ana, "event.uta", drawer=ana, to="round 1, Event card").status_code == 422
    # Bo rolls one die for the foe he found, once.
    assert "data-foes-roll" in text(device.open())
    assert device.tap(bo, "dice.roll", seat=bo, **{"for": "foes"}).status_code == 200
    assert host.state()["state"]["last_roll"]["dice"] == 1
    assert device.tap(bo, "dice.roll", seat=bo, **{"for": "foes"}).status_code == 422
    # A card hands Cy the Mission Leader Token: Cy takes it on Cy's panel, not on Bo's.
    assert device.tap(bo, "token.move", token="mission_leader", seat=cy).status_code in (403, 422)
    assert device.tap(cy, "token.move", token="mission_leader", seat=cy).status_code == 200
    assert host.state()["log"][-1]["who"] == "Cy (at the tablet)"
    # The Mission: Cy leads, so the Challenges typed in the middle post as Cy.
    assert device.tap(ana, "round.next", to=host.state()["state"]["next_step"]).status_code == 200
    assert host.state()["state"]["mission_leader"]["seat"] == cy
    html = text(device.open())
    assert f'data-draw-as="{cy}"' in html
    assert f'action="/t/{host.code}/tablet/act/{cy}/challenge.draw"' in html
    assert device.tap(cy, "challenge.draw", type_1="Booze", difficulty_1="7", reward_1="2").status_code == 200
    assert host.state()["log"][-1]["who"] == "Cy (at the tablet)"
    # Cy's roll opens over the middle, turned to Cy: the app's dice, then the Challenge.
    html = text(device.open())
    assert f'id="tb-over-s{cy}"' in html and f'action="/t/{host.code}/tablet/act/{cy}/challenge.complete"' in html
    assert device.tap(cy, "dice.roll", seat=cy, dice=2, **{"for": "challenge"}).status_code == 200
    assert device.tap(cy, "dice.roll", seat=cy, dice=2, **{"for": "challenge"}).status_code == 422
    assert device.tap(cy, "challenge.complete", seat=cy, card=1).status_code == 200


def test_the_ghosts_steps_are_in_the_middle(app, host):
    host.start("assassins")
    ana, bo, cy = add_seats(host, "Ana", "Bo", "Cy")
    device, _ = let_in(app, host)
    html = text(device.open())
    middle = html[html.index('class="tb-middle"') :]
    assert f'/tablet/act/{ana}/ghost.record"' in middle and "data-ghost-record" in middle
    cards = {f"card{i}": name for i, name in enumerate(("Magician", "Soldier", "Cook", "Chef"), 1)}
    assert device.tap(ana, "ghost.record", **cards).status_code == 200
    html = text(device.open())
    assert "data-kill-ghost" in html and "The ghost +1 preliminary" in html
    assert device.tap(ana, "resolve.step", step="next", to=1).status_code == 200
    assert "data-ghost-down" in text(device.open()) and "data-kill-instead" in text(device.open())
    assert device.tap(ana, "ghost.down", down1="Magician", down2="Soldier", down3="Cook").status_code == 200
    assert device.tap(ana, "points", seat="ghost", delta=2).status_code == 200
    assert device.tap(ana, "kill", seat="ghost", instead="magicians").status_code == 200
    log = host.state()["log"]
    assert log[-1]["who"] == "Ana (at the tablet)" and "Cy, on her right, is killed" in log[-1]["text"]
    ghost = host.state()["state"]["ghost"]
    assert ghost["preliminary"] == 2 and ghost["face_down"] and not ghost["killed"]
    # The app's own deal from the stored deck list stays the host's.
    assert device.tap(ana, "ghost.deal").status_code == 403


def test_the_hosts_device_has_a_way_back_to_the_host_page(app, host):
    host.start("generic")
    add_seats(host, "Ana", "Bo")
    assert f'href="/t/{host.code}/host" data-host-page' in text(host.page("/tablet"))
    device, _ = let_in(app, host)
    assert "data-host-page" not in text(device.open())  # a let-in device has no host page
