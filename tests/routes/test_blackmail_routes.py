"""Once You Go Blackmail... through the app: every action the screens post, each bad input the
issue lists (a clear message, nothing applied), who may do what, and what each screen shows."""

import re

import pytest

from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY
from helpers import ROOT, text, view
from helpers import step_to as step


@pytest.fixture
def seated(host, join):
    """A blackmail table with Ana, Bo and Cy seated, not started yet."""
    host.start("blackmail")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy")]
    return host, phones


@pytest.fixture
def game(seated):
    """Full tracking, Ana first."""
    host, (ana, bo, cy) = seated
    response = host.act("game.start", to=step(host, "start"), tracking="full", first_player=ana.seat, page="host")
    assert response.status_code == 200, response.get_data(as_text=True)
    return host, ana, bo, cy


def rnd(phone):
    return view(phone)["round"]


def refused(response, message):
    """A refusal: 422, the message shown above the board, the board still there."""
    assert response.status_code == 422, text(response)
    html = text(response)
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', html, re.S)
    assert found and message in found.group(1).replace("&#39;", "'"), html[:400]
    assert 'class="bm page-' in html
    return found.group(1)


def deck_out(host, ana, bo, cy):
    """Nine turns from the phones that empty the deck (Ray and two Pams draw extra).
    Left unseen: two Cyrils and two Sterling Archers."""
    for phone, form in (
        (ana, dict(card=CHERYL, choice="protect")),
        (bo, dict(card=ARCHER, target=cy.seat, named=PAM, correct="no")),
        (cy, dict(card=RAY, target=bo.seat, discarded=MALORY)),
        (ana, dict(card=PAM, target=cy.seat, discarded=LANA)),
        (bo, dict(card=PAM, target=bo.seat, discarded=KRUEGER)),
        (cy, dict(card=CHERYL, choice="look")),
        (ana, dict(card=KRUEGER, named=MALORY, correct="no")),
        (bo, dict(card=ARCHER, target=cy.seat, named=CYRIL, correct="no")),
        (cy, dict(card=ARCHER, target=ana.seat, named=PAM, correct="no")),
    ):
        response = phone.act("play", **form)
        assert response.status_code == 200, text(response)[:600]


# ---------------------------------------------------------------- setup


def test_setup_shows_the_host_the_start_form_and_players_a_wait(seated):
    host, (ana, bo, cy) = seated
    html = text(host.page("/host"))
    assert 'name="tracking" value="scores"' in html and 'name="tracking" value="full"' in html
    assert 'name="first_player" value="random"' in html
    assert f'name="first_player" value="{bo.seat}"' in html
    assert "Start: 4 Victory Points to win" in html
    player = text(ana.page())
    assert "Waiting for the host to start" in player and "game.start" not in player


def test_start_with_full_tracking_and_a_chosen_first_player(seated):
    host, (ana, bo, cy) = seated
    response = host.act("game.start", to=step(host, "start"), tracking="full", first_player=bo.seat, page="host")
    assert response.status_code == 200
    state = view(host)
    assert state["tracking"] == "full" and state["target"] == 4
    assert state["round"]["turn"] == bo.seat and state["round"]["deck"] == 11
    assert host.state()["log"][-1]["text"] == (
        "New game: 3 players, 4 Victory Points to win. Full tracking. Bo goes first (chosen by the table)."
    )


def test_start_at_random_picks_a_seated_player(seated):
    host, phones = seated
    host.act("game.start", to=step(host, "start"), tracking="scores", first_player="random", page="host")
    state = view(host)
    assert state["tracking"] == "scores" and state["round"]["first_pick"] == "random"
    assert state["round"]["first_player"] in [p.seat for p in phones]


def test_only_the_host_starts_switches_tracking_or_resets(game):
    host, ana, bo, cy = game
    assert ana.act("game.start", to=step(ana, "start"), first_player=ana.seat).status_code == 403
    assert ana.act("tracking", tracking="scores").status_code == 403
    assert ana.act("game.reset").status_code == 403
    assert view(host)["tracking"] == "full"


def test_start_needs_two_players_and_a_real_mode(host, join):
    host.start("blackmail")
    join(host, "Ana")
    refused(host.act("game.start", to=step(host, "start"), first_player="random", page="host"), "2 to 4 players")
    join(host, "Bo")
    refused(
        host.act("game.start", to=step(host, "start"), tracking="sometimes", page="host"),
        "scores only or full tracking",
    )
    refused(host.act("game.start", to=step(host, "start"), first_player="99", page="host"), "no such seat")
    assert view(host)["phase"] == "setup"


def test_tracking_switch_and_reset(game):
    host, ana, bo, cy = game
    assert host.act("tracking", tracking="scores", page="host").status_code == 200
    assert rnd(host)["tracking"] == "scores"  # nothing played yet: switches at once
    assert host.act("game.reset", page="host").status_code == 200
    assert view(host)["phase"] == "setup"


# ---------------------------------------------------------------- scores only


def test_scores_only_one_tap_per_round_then_a_tie_then_the_win(seated):
    host, (ana, bo, cy) = seated
    host.act("game.start", to=step(host, "start"), tracking="scores", first_player=ana.seat, page="host")
    html = text(bo.page())
    assert f'name="winner" value="{cy.seat}"' in html and "details" in html
    assert 'name="card"' not in html and "Card count" not in html
    assert bo.act("round.score", to=step(bo, "next_round"), winner=cy.seat).status_code == 200
    assert rnd(host)["first_player"] == cy.seat
    assert (
        ana.act(
            "round.score", to=step(ana, "next_round"), **{f"winner_{ana.seat}": "on", f"winner_{bo.seat}": "on"}
        ).status_code
        == 200
    )
    state = view(host)
    assert {s["name"]: s["vp"] for s in state["seats"]} == {"Ana": 1, "Bo": 1, "Cy": 1}
    assert state["history"][-1]["picked_at_random"] is True
    for _ in range(3):
        host.act("round.score", to=step(host, "next_round"), winner=cy.seat, page="host")
    state = view(host)
    assert state["phase"] == "game_over" and state["winners"] == [cy.seat]
    html = text(ana.page())
    assert "Cy" in html and "wins the game!" in html and 'class="bm-winner"' in html


def test_scores_only_needs_a_winner_and_refuses_card_plays(seated):
    host, (ana, bo, cy) = seated
    host.act("game.start", to=step(host, "start"), tracking="scores", first_player=ana.seat, page="host")
    refused(ana.act("round.score", to=step(ana, "next_round")), "Tap who won the round")
    refused(ana.act("round.score", to=step(ana, "next_round"), winner="12345"), "no such seat")
    refused(ana.act("play", card=LANA), "tracking is off")
    assert view(host)["history"] == []


# ---------------------------------------------------------------- full tracking: the play form


def test_only_the_phone_whose_turn_it_is_gets_the_play_form(game):
    host, ana, bo, cy = game
    html = text(ana.page())
    assert 'class="bm-turn mine"' in html and "Tap the card you played" in html
    assert html.count('<details class="card-pick"') == 8
    assert "data-play-for" not in text(bo.page()) and "Ana’s turn." in text(bo.page())
    host_html = text(host.page("/host"))
    assert "Record the card for Ana" in host_html and "Tap the card Ana played" in host_html
    assert f'<input type="hidden" name="seat" value="{ana.seat}">' in host_html
    screen = text(host.client.get(f"/t/{host.code}/screen"))
    assert "<form" not in screen.split('id="live-body"')[1].split('class="log')[0] and "Ana’s turn" in screen


def test_play_form_offers_only_legal_targets(game):
    host, ana, bo, cy = game
    ana.act("play", card=CHERYL, choice="protect")
    html = text(bo.page())
    archer = html.split('data-card="1"')[1].split("</details>")[0]
    targets = re.findall(r'name="?target"? value="?(\d+)', archer)
    assert targets == [str(cy.seat)]  # Ana protected, not himself
    pam = html.split('data-card="5"')[1].split("</details>")[0]
    assert re.findall(r'name="?target"? value="?(\d+)', pam) == [str(bo.seat), str(cy.seat)]
    assert "Protected" in html


def test_every_card_kind_is_recorded(game):
    host, ana, bo, cy = game
    assert ana.act("play", card=CHERYL, choice="look").status_code == 200
    assert bo.act("play", card=ARCHER, target=cy.seat, named=PAM, correct="no").status_code == 200
    assert cy.act("play", card=PAM, target=ana.seat, discarded=KRUEGER).status_code == 200
    assert ana.act("play", card=CYRIL, target=bo.seat, eliminated="equal").status_code == 200
    assert bo.act("play", card=LANA).status_code == 200
    assert cy.act("play", card=RAY, target=cy.seat, discarded=CYRIL).status_code == 200
    assert ana.act("play", card=KRUEGER, named=MALORY, correct="no").status_code == 200
    r = rnd(host)
    assert len(r["plays"]) == 7 and r["turn"] == bo.seat
    assert r["secret"]["status"] == "taken_by_ray"
    assert r["deck"] == 16 - 1 - 3 - 8 - 2  # 8 draws so far, Pam and Ray one each
    counts = {c["number"]: c["seen"] for c in view(host)["characters"]}
    assert counts == {MALORY: 0, LANA: 1, RAY: 1, PAM: 1, CHERYL: 1, CYRIL: 2, KRUEGER: 2, ARCHER: 1}
    assert "Lana Kane (7): hands and the secret character reshuffled" in text(ana.page())


def test_archer_right_guess_puts_the_target_out_in_one_tap(game):
    host, ana, bo, cy = game
    response = ana.act("play", card=ARCHER, target=bo.seat, named=CYRIL, correct="yes")
    assert response.status_code == 200
    assert rnd(host)["still_in"] == [ana.seat, cy.seat] and rnd(host)["turn"] == cy.seat
    html = text(bo.page())
    assert "You are out of this round" in html and "named by Sterling Archer" in html


def test_cyril_loser_buttons_and_malory(game):
    host, ana, bo, cy = game
    ana.act("play", card=CYRIL, target=cy.seat, eliminated="target", revealed=PAM)
    assert [s for s in rnd(host)["still_in"]] == [ana.seat, bo.seat]
    refused(bo.act("play", card=CYRIL, target=ana.seat, eliminated="me"), "Which card did Bo show")
    bo.act("play", card=CYRIL, target=ana.seat, eliminated="me", revealed="not_shown")
    r = rnd(host)
    assert r["result"] == {
        "why": "last_seat",
        "winners": [ana.seat],
        "label": "last player left in the round",
        "text": "Ana is the last one left and wins the round.",
    }
    assert "Confirm: a Victory Point for" in text(cy.page())


def test_malory_played_puts_her_player_out(game):
    host, ana, bo, cy = game
    ana.act("play", card=MALORY, revealed=PAM)
    r = rnd(host)
    assert r["still_in"] == [bo.seat, cy.seat] and r["turn"] == bo.seat
    assert {c["number"]: c["seen"] for c in view(host)["characters"]}[PAM] == 1


def test_krueger_right_guess_then_confirm_scores(game):
    host, ana, bo, cy = game
    ana.act("play", card=KRUEGER, named=LANA, correct="yes")
    assert rnd(host)["result"]["winners"] == [ana.seat]
    assert bo.act("round.confirm", to=step(bo, "next_round")).status_code == 200
    state = view(host)
    assert {s["name"]: s["vp"] for s in state["seats"]}["Ana"] == 1
    assert state["round"]["number"] == 2 and state["round"]["turn"] == ana.seat
    assert host.state()["log"][-1]["text"] == "Ana scores a Victory Point (1 of 4). Round 2: Ana goes first."


def test_undo_a_play_from_the_log(game):
    host, ana, bo, cy = game
    ana.act("play", card=CHERYL, choice="protect")
    event = host.state()["log"][-1]["id"]
    assert host.post(f"/undo/{event}", {"page": "host"}).status_code == 200
    assert rnd(host)["turn"] == ana.seat and rnd(host)["plays"] == []
    log = host.state()["log"]
    assert log[-2]["undone"] and log[-2]["text"].startswith("Ana played Cheryl/Carol Tunt (4)")


def test_undo_a_confirmed_victory_point(game):
    host, ana, bo, cy = game
    ana.act("play", card=KRUEGER, named=LANA, correct="yes")
    bo.act("round.confirm", to=step(bo, "next_round"))
    event = host.state()["log"][-1]["id"]
    assert ana.post(f"/undo/{event}").status_code == 200
    state = view(host)
    assert all(s["vp"] == 0 for s in state["seats"]) and state["round"]["result"]["winners"] == [ana.seat]
    assert "scores a Victory Point" in host.state()["log"][-2]["text"]


# ---------------------------------------------------------------- bad input (the list)


def test_playing_out_of_turn_is_refused(game):
    host, ana, bo, cy = game
    refused(bo.act("play", card=LANA), "Ana's turn, not Bo's")
    refused(host.act("play", card=LANA, seat=cy.seat, page="host"), "Ana's turn, not Cy's")
    refused(bo.act("play", card=LANA, seat=ana.seat), "only act for your own seat")
    assert rnd(host)["plays"] == []


def test_targeting_a_protected_seat_is_refused(game):
    host, ana, bo, cy = game
    ana.act("play", card=CHERYL, choice="protect")
    refused(
        bo.act("play", card=ARCHER, target=ana.seat, named=PAM, correct="yes"),
        "Ana is protected by Cheryl/Carol until their next turn",
    )
    refused(bo.act("play", card=CYRIL, target=ana.seat, eliminated="target", revealed="not_shown"), "protected")
    assert len(rnd(host)["plays"]) == 1 and rnd(host)["still_in"] == [ana.seat, bo.seat, cy.seat]


def test_targeting_an_eliminated_seat_or_yourself_is_refused(game):
    host, ana, bo, cy = game
    ana.act("play", card=ARCHER, target=bo.seat, named=PAM, correct="yes")
    refused(cy.act("play", card=PAM, target=bo.seat, discarded=LANA), "Bo is already out of this round")
    refused(cy.act("play", card=ARCHER, target=cy.seat, named=PAM), "must target another player")
    refused(cy.act("play", card=ARCHER, named=PAM), "Pick a target for Sterling Archer: Ana")
    assert len(rnd(host)["plays"]) == 1


def test_naming_sterling_archer_with_sterling_archer_is_refused(game):
    host, ana, bo, cy = game
    refused(
        ana.act("play", card=ARCHER, target=bo.seat, named=ARCHER, correct="yes"),
        "Sterling Archer cannot name Sterling Archer",
    )
    assert rnd(host)["plays"] == [] and rnd(host)["still_in"] == [ana.seat, bo.seat, cy.seat]


def test_more_copies_seen_than_exist_is_refused(game):
    host, ana, bo, cy = game
    ana.act("play", card=PAM, target=bo.seat, discarded=MALORY)
    refused(
        bo.act("play", card=RAY, target=cy.seat, discarded=MALORY),
        "Only 1 copy of Malory Archer exists, and 1 is already face up",
    )
    bo.act("play", card=PAM, target=cy.seat, discarded=LANA)
    refused(cy.act("play", card=PAM, target=ana.seat, discarded=CYRIL), "Only 2 copies of Pam Poovey")
    assert len(rnd(host)["plays"]) == 2


def test_an_impossible_hand_card_at_deck_out_is_refused(game):
    host, ana, bo, cy = game
    deck_out(host, ana, bo, cy)
    r = rnd(host)
    assert r["deck"] == 0 and r["stage"] == "hands" and r["awaiting_hands"] == [ana.seat, bo.seat, cy.seat]
    html = text(cy.page())
    assert re.search(rf'<button name="card" value="{PAM}" class="tile" disabled>', html)
    refused(cy.act("hand", card=PAM), "Cy cannot hold Pam Poovey: all 2 copies are already accounted for")
    assert ana.act("hand", card=CYRIL).status_code == 200
    assert bo.act("hand", card=CYRIL).status_code == 200
    refused(cy.act("hand", card=CYRIL), "Cy cannot hold Cyril Figgis")
    refused(cy.act("hand", card=ARCHER, seat=ana.seat), "only act for your own seat")
    assert rnd(host)["result"] is None


def test_tie_at_deck_out_both_score_and_the_next_first_player_is_one_of_them(game):
    host, ana, bo, cy = game
    deck_out(host, ana, bo, cy)
    ana.act("hand", card=CYRIL)
    bo.act("hand", card=CYRIL)
    assert host.act("hand", card=ARCHER, seat=cy.seat, page="host").status_code == 200
    r = rnd(host)
    assert r["result"]["why"] == "deck_out" and r["result"]["winners"] == [ana.seat, bo.seat]
    html = text(cy.page())
    assert "Ana and Bo tie and each win the round." in html
    assert "Confirm: a Victory Point each for" in html
    assert cy.act("round.confirm", to=step(cy, "next_round")).status_code == 200
    state = view(host)
    assert {s["name"]: s["vp"] for s in state["seats"]} == {"Ana": 1, "Bo": 1, "Cy": 0}
    assert state["round"]["first_player"] in (ana.seat, bo.seat)
    assert state["round"]["first_pick"] == "random_among_winners"
    assert len(state["history"][0]["plays"]) == 9


def test_other_refusals_show_a_message(game):
    host, ana, bo, cy = game
    refused(ana.act("hand", card=PAM), "only when the deck has run out")
    refused(ana.act("round.confirm", to=step(ana, "next_round")), "no round result to confirm")
    refused(ana.act("play", card="9"), "between 1 and 8")
    refused(ana.act("play", card=CHERYL, choice="nap"), "protection or a look")
    refused(ana.act("play", card=PAM, target=bo.seat), "Which card did Bo drop?")
    refused(ana.act("play", card=CYRIL, eliminated="target"), "Pick who Cyril dueled first")
    refused(ana.act("nonsense"), "Unknown action")
    assert rnd(host)["plays"] == []


# ---------------------------------------------------------------- every screen


def test_every_screen_shows_victory_points_turn_deck_secret_and_count(game):
    host, ana, bo, cy = game
    ana.act("play", card=RAY, target=bo.seat, discarded=LANA)
    pages = [text(ana.page()), text(host.page("/host")), text(host.client.get(f"/t/{host.code}/screen"))]
    for html in pages:
        assert "4 to win" in html and "data-vp>0<" in html
        assert "data-deck>9<" in html and 'data-secret="taken_by_ray"' in html
        assert "Bo’s turn" in html
        assert "Ana played Ray Gillette (6) on Bo: Lana Kane (7) dropped with no effect" in html
    for html in pages[:2]:  # the TV keeps to the band and the seats
        assert re.search(r'data-count="7">.*?data-left>0<', html, re.S)


def test_live_fragment_for_a_phone_is_the_board(game):
    host, ana, bo, cy = game
    response = ana.client.get(
        f"/t/{host.code}/live?page=player", headers={"HX-Request": "true", "HX-Target": "live-body"}
    )
    html = text(response)
    assert response.status_code == 200 and html.lstrip().startswith('<div id="live-body"')
    assert 'class="bm-turn mine"' in html


def test_help_links_point_at_entries_of_the_rules_lookup(game):
    import json

    host, ana, bo, cy = game
    entries = {e["id"] for e in json.loads((ROOT / "companion/lookup/data/blackmail.json").read_text())["entries"]}
    html = text(ana.page())
    linked = set(re.findall(r'href="/rules/blackmail/([a-z0-9-]+)"', html))
    assert len(linked) >= 10 and linked <= entries


def test_host_plays_unfolded_for_a_seat_without_a_phone(host, join):
    host.start("blackmail")
    join(host, "Ana")
    assert host.post("/seats", {"name": "Di", "page": "host"}).status_code == 200
    di = next(s["id"] for s in view(host)["seats"] if s["name"] == "Di")
    host.act("game.start", to=step(host, "start"), tracking="full", first_player=di, page="host")
    html = text(host.page("/host"))
    assert "Record the card for" not in html and "Tap the card Di played" in html
    assert host.act("play", card=CHERYL, choice="look", seat=di, page="host").status_code == 200
    assert "Record the card for Ana" in text(host.page("/host"))
    assert view(host)["target"] == 6  # two players: 6 to win


def test_a_seat_cannot_undo_new_game_or_reset_and_a_doubled_confirm_moves_once(seated):
    host, (ana, bo, cy) = seated
    to = step(host, "start")
    assert host.act("game.start", to=to, tracking="scores", first_player=ana.seat, page="host").status_code == 200
    refused(
        host.act("game.start", to=to, tracking="scores", first_player=ana.seat, page="host"),
        "already at round 1 of game 1",
    )
    log = host.state()["log"]
    start_id = next(e["id"] for e in log if e["kind"] == "game.start")
    assert ana.post(f"/undo/{start_id}", {"page": "player"}).status_code == 403
    to = step(ana, "next_round")
    assert to == "round 2"
    assert ana.act("round.score", to=to, winner=bo.seat).status_code == 200
    refused(cy.act("round.score", to=to, winner=bo.seat), "already at round 2")
    assert next(s["vp"] for s in view(host)["seats"] if s["id"] == bo.seat) == 1
    assert host.act("game.reset", page="host").status_code == 200
    reset_id = host.state()["log"][-1]["id"]
    assert bo.post(f"/undo/{reset_id}", {"page": "player"}).status_code == 403
