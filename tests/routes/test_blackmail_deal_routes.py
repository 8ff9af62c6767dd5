"""The dealt mode through the app: hands on phones, private results on the right phone only,
each bad input refused with nothing applied, the host standing in for a phone that is away,
the verify page, and a scan of every response each phone gets for cards it must not know."""

import json
import re

import pytest

from companion.games.blackmail import ARCHER, BY_NUMBER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY
from companion.games.blackmail import dealt as deal
from companion.games.blackmail import routes as blackmail_routes
from companion.tables import store
from helpers import CARD_NAMES as NAMES
from helpers import DEAL_SALT as SALT
from helpers import hidden_state, rigged, scrub, text, version, view
from helpers import opening as stream_opening
from helpers import step_to as step


@pytest.fixture
def deals(monkeypatch):
    """deals.append(order) queues the next shuffle the app makes (it would use SystemRandom)."""
    queue = []
    monkeypatch.setattr(deal, "new_deal", lambda rng: rigged(*queue.pop(0)))
    return queue


@pytest.fixture
def away(monkeypatch):
    """away[seat] = seconds its phone has had no open page (0, open, unless set)."""
    seconds = {}
    monkeypatch.setattr(blackmail_routes, "away", lambda table_id, seat: seconds.get(seat, 0))
    return seconds


@pytest.fixture
def table(host, join, deals):
    """Ana, Bo and Cy at a table the app deals; not started. The host has no seat."""
    host.start("blackmail")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy")]
    return host, phones, deals


def start(host, first, order, lana=(0, 1, 2, 3, 4), deals=None):
    deals.append((order, lana))
    response = host.act("game.start", to=step(host, "start"), tracking="dealt", first_player=first, page="host")
    assert response.status_code == 200, text(response)[:500]


def dealt(phone):
    return view(phone)["round"]["dealt"]


def hand(phone):
    return [c["number"] for c in dealt(phone)["hand"]]


def turn_no(phone):
    return dealt(phone)["turn_no"]


def play(phone, card, **form):
    response = phone.act("dealt.play", card=card, turn=turn_no(phone), **form)
    assert response.status_code == 200, text(response)[:800]
    return response


def refused(response, message):
    assert response.status_code == 422, text(response)[:300]
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', text(response), re.S)
    assert found and message in found.group(1).replace("&#39;", "'"), text(response)[:600]


# ---------------------------------------------------------------- the deal on phones


def test_each_phone_gets_its_own_hand_and_every_screen_the_fingerprint(table):
    host, (ana, bo, cy), deals = table
    html = text(host.page("/host"))
    assert 'name="tracking" value="dealt"' in html and "The app deals" in html
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    assert hand(ana) == [LANA, ARCHER] and hand(bo) == [CYRIL] and hand(cy) == [RAY]
    assert dealt(host)["hand"] is None
    fingerprint = deal.short(deal.fingerprint(rigged([MALORY, LANA, CYRIL, RAY, ARCHER])))
    screen = text(host.client.get(f"/t/{host.code}/screen"))
    for page in (text(ana.page()), text(bo.page()), text(host.page("/host")), screen):
        assert "<code data-fingerprint" in page and fingerprint in page
    assert fingerprint in host.state()["log"][-1]["text"]
    ana_html = text(ana.page())
    assert "Your hand: your turn" in ana_html and "Tap to look" in ana_html
    assert ana_html.count('class="card-pick hand-card"') == 2
    assert f'action="/t/{ana.code}/act/dealt.play"' in ana_html
    bo_html = text(bo.page())
    assert 'class="bm-cover bm-hand mine"' in ana_html  # its forms show (blackmail.css)
    # Bo's card waits with its form hidden until his turn: his cover is not his to play from
    # (a turn coming makes it so: a class, blackmail.css)
    assert "Your card" in bo_html and 'class="bm-cover bm-hand"' in bo_html and "bm-hand mine" not in bo_html
    assert bo_html.count(f'action="/t/{bo.code}/act/dealt.play"') == 1
    assert "<form" not in screen.split('id="live-body"')[1].split('class="log"')[0]


def test_a_phone_that_reloads_gets_its_hand_back(table, app):
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    store.clear_cache()  # as after a server restart
    assert hand(ana) == [LANA, ARCHER]
    html = text(ana.page())
    assert 'data-card="7"' in html and "Lana Kane" in html


def test_a_private_result_reaches_only_the_entitled_phone(table):
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    play(ana, ARCHER, target=bo.seat, named=PAM)
    assert [p["text"] for p in dealt(ana)["private"]] == ["You looked at Bo's card: Cyril Figgis (3)."]
    assert 'data-private="look"' in text(ana.page())
    for other in (bo, cy, host):
        assert dealt(other)["private"] == [] and "data-private" not in text(
            other.page("/host" if other is host else "/me")
        )
    assert "Bo's card" not in json.dumps(host.state())
    assert host.state()["log"][-1]["text"] == "Ana played Sterling Archer (1) on Bo, naming Pam Poovey: wrong."


# ---------------------------------------------------------------- bad input: refused, nothing applied


def test_bad_plays_are_refused_with_nothing_applied(table):
    host, (ana, bo, cy), deals = table
    # Ana: Cheryl + Archer; Bo: Archer; Cy: Krueger. Ana protects herself first.
    start(host, ana.seat, [MALORY, CHERYL, ARCHER, KRUEGER, ARCHER, CYRIL, PAM], deals=deals)
    before = version(ana)
    refused(bo.act("dealt.play", card=ARCHER, target=cy.seat, named=PAM, turn=1), "Ana's turn, not Bo's")
    refused(ana.act("dealt.play", card=LANA, turn=1), "Ana does not hold Lana Kane")
    refused(ana.act("dealt.play", card=ARCHER, target=ana.seat, named=PAM, turn=1), "not yourself")
    refused(ana.act("dealt.play", card=ARCHER, target=bo.seat, named=ARCHER, turn=1), "cannot name Sterling Archer")
    refused(ana.act("dealt.play", card=ARCHER, target=bo.seat, turn=1), "Name a character")
    refused(ana.act("dealt.play", card=ARCHER, target=bo.seat, named=PAM), "which turn")
    refused(ana.act("dealt.play", card=ARCHER, target=bo.seat, named=PAM, turn=7), "not for the turn")
    refused(
        ana.act("dealt.play", card=ARCHER, seat=bo.seat, target=cy.seat, named=PAM, turn=1), "only play your own hand"
    )
    refused(
        host.act("dealt.play", card=ARCHER, seat=ana.seat, target=bo.seat, named=PAM, turn=1, page="host"),
        "Only Ana's phone",
    )
    assert ana.act("dealt.stand_in", seat=ana.seat, turn=1).status_code == 403
    forged = ana.post("/act/dealt.play", {"card": ARCHER, "target": bo.seat, "named": PAM, "turn": 1, "csrf": "forged"})
    assert forged.status_code == 403
    assert version(ana) == before and hand(ana) == [CHERYL, ARCHER]

    play(ana, CHERYL, choice="protect")
    # Bo: Archer + Cyril. Ana is protected.
    before = version(bo)
    refused(bo.act("dealt.play", card=ARCHER, target=ana.seat, named=PAM, turn=2), "protected")
    refused(bo.act("dealt.play", card=CYRIL, target=ana.seat, turn=2), "protected")
    assert version(bo) == before
    play(bo, ARCHER, target=cy.seat, named=KRUEGER)  # right: Cy is out
    assert view(bo)["round"]["still_in"] == [ana.seat, bo.seat]
    refused(cy.act("dealt.play", card=PAM, target=cy.seat, turn=3), "Cy is out of this round")
    # Ana's turn again (her cover is over): Cy is out, so only Bo can be picked.
    refused(ana.act("dealt.play", card=ARCHER, target=cy.seat, named=PAM, turn=3), "already out")


def test_a_replayed_request_is_refused_or_applied_once(table):
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER, ARCHER], deals=deals)
    form = {"card": ARCHER, "target": bo.seat, "named": PAM, "turn": 1, "action_id": "tap-1"}
    assert ana.post("/act/dealt.play", form).status_code == 200
    after = version(ana)
    # The same tap sent again (a retry): recognised by its id, nothing applied twice.
    assert ana.post("/act/dealt.play", form).status_code == 200
    assert version(ana) == after
    # The same form without its id (a replay): it was for an earlier turn.
    refused(ana.post("/act/dealt.play", dict(form, action_id="")), "earlier turn")
    refused(ana.post("/act/dealt.play", dict(form, action_id="tap-2")), "earlier turn")
    assert version(ana) == after and len(view(ana)["round"]["plays"]) == 1


def test_companion_inputs_and_undo_are_refused_in_a_dealt_game(table):
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    refused(ana.act("play", card=ARCHER, target=bo.seat, named=PAM, correct="no"), "app holds the cards")
    refused(host.act("round.score", to=step(host, "next_round"), winner=ana.seat, page="host"), "app holds the cards")
    refused(host.act("tracking", tracking="full", page="host"), "chosen when a game starts")
    play(ana, ARCHER, target=bo.seat, named=PAM)
    event = host.state()["log"][-1]["id"]
    before = version(host)
    for phone in (host, ana, bo):
        refused(phone.post(f"/undo/{event}", {"page": "host" if phone is host else "player"}), "cannot be undone")
    start_event = next(e["id"] for e in host.state()["log"] if e["kind"] == "game.start")
    refused(host.post(f"/undo/{start_event}", {"page": "host"}), "cannot be undone")
    assert version(host) == before and not host.state()["log"][-1]["undone"]
    assert hand(ana) == [LANA]


# ---------------------------------------------------------------- the host plays for an away phone


def test_the_host_plays_a_turn_for_a_phone_that_is_away(table, away):
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    # Ana's phone is open: no offer, and a posted stand-in is refused.
    assert "play this turn for them" not in text(host.page("/host"))
    refused(host.act("dealt.stand_in", seat=ana.seat, turn=1, page="host"), "in the last 30 seconds")
    away[ana.seat] = 29
    assert "play this turn for them" not in text(host.page("/host"))
    away[ana.seat] = 30
    html = text(host.page("/host"))
    assert "Ana’s phone is away: play this turn for them" in html and "hx-confirm" in html
    assert "You will see that hand" in html
    assert dealt(host)["stand_in_hand"] is None
    assert host.act("dealt.stand_in", seat=ana.seat, turn=1, page="host").status_code == 200
    assert host.state()["log"][-1]["text"] == "The host plays Ana's turn (Ana's phone is away)."
    html = text(host.page("/host"))
    assert "You are playing Ana’s turn (phone away)" in html and "Tap to look" in html
    assert [c["number"] for c in dealt(host)["stand_in_hand"]] == [LANA, ARCHER]
    assert dealt(bo)["stand_in_hand"] is None and "The host plays this turn" in text(bo.page())
    response = host.act("dealt.play", seat=ana.seat, card=ARCHER, target=cy.seat, named=PAM, turn=1, page="host")
    assert response.status_code == 200, text(response)[:500]
    assert [p["what"] for p in dealt(host)["private"]] == ["look"]
    assert "Ana looked at Cy's card: Ray Gillette (6)." in text(host.page("/host")).replace("&#39;", "'")
    assert [p["what"] for p in dealt(ana)["private"]] == ["look"]
    assert dealt(cy)["private"] == [] and dealt(bo)["private"] == []
    assert dealt(host)["stand_in_hand"] is None  # the stand-in ends with the turn
    refused(host.act("dealt.stand_in", seat=cy.seat, turn=2, page="host"), "whose turn it is")
    play(bo, CYRIL, target=ana.seat)  # the next card: the host's look is gone
    assert dealt(host)["private"] == [] and "Only on this screen" not in text(host.page("/host"))


def test_a_phone_hands_its_turn_over_and_takes_it_back(table, away):
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    assert bo.act("dealt.hand_over", turn=1).status_code == 422  # not Bo's turn
    assert bo.act("dealt.hand_over", seat=ana.seat, turn=1).status_code in (403, 422)
    assert ana.act("dealt.hand_over", turn=1).status_code == 200
    assert "Ana hands this turn to the host." in host.state()["log"][-1]["text"]
    html = text(host.page("/host"))
    assert "Ana handed you this turn: play it" in html  # her phone is open, and that is fine
    assert "Take my turn back" in text(ana.page())
    assert ana.act("dealt.reclaim", turn=1).status_code == 200
    assert "play it" not in text(host.page("/host"))
    refused(host.act("dealt.stand_in", seat=ana.seat, turn=1, page="host"), "in the last 30 seconds")
    ana.act("dealt.hand_over", turn=1)
    assert host.act("dealt.stand_in", seat=ana.seat, turn=1, page="host").status_code == 200
    assert "Ana handed it over" in host.state()["log"][-1]["text"]
    assert [c["number"] for c in dealt(host)["stand_in_hand"]] == [LANA, ARCHER]


def test_a_phone_coming_back_cancels_a_stand_in_not_yet_played(table, away):
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    away[ana.seat] = 45
    assert host.act("dealt.stand_in", seat=ana.seat, turn=1, page="host").status_code == 200
    assert dealt(host)["stand_in_hand"] is not None
    ana.page()  # Ana's phone opens the table again
    assert dealt(host)["stand_in_hand"] is None and dealt(host)["stand_in"] is None
    assert "Ana takes their turn back" in host.state()["log"][-1]["text"]
    refused(
        host.act("dealt.play", seat=ana.seat, card=ARCHER, target=cy.seat, named=PAM, turn=1, page="host"),
        "Only Ana's phone can play this hand",
    )


# ---------------------------------------------------------------- round end, verify page


def test_round_end_reveals_the_deal_and_the_verify_page_checks_it(table):
    host, (ana, bo, cy), deals = table
    order = [LANA, ARCHER, KRUEGER, CYRIL, PAM, ARCHER]
    start(host, ana.seat, order, deals=deals)
    shown = dealt(cy)["fingerprint"]
    page = text(host.client.get(f"/t/{host.code}/blackmail/verify"))
    assert shown in page and "revealed here when the round ends" in page and SALT not in page
    play(ana, ARCHER, target=cy.seat, named=PAM)
    play(bo, KRUEGER, named=LANA)  # right: Bo wins the round at once
    reveal = dealt(cy)["reveal"]
    assert reveal["salt"] == SALT and deal.verify(reveal["text"], shown)["ok"]
    assert "The deal, revealed" in text(cy.page()) and reveal["text"] in text(cy.page())
    assert "Bo wins the round" in host.state()["log"][-1]["text"]
    deals.append(([MALORY, PAM, PAM, CHERYL, ARCHER], (0, 1, 2, 3, 4)))
    assert host.act("round.confirm", to=step(host, "next_round"), page="host").status_code == 200
    assert view(host)["round"]["number"] == 2 and hand(bo) == [PAM, ARCHER]
    new_print = deal.short(deal.fingerprint(rigged([MALORY, PAM, PAM, CHERYL, ARCHER])))
    assert dealt(ana)["fingerprint"] == new_print and new_print in host.state()["log"][-1]["text"]
    # The verify page, open to anyone with the code: round 1 revealed, with the public facts a
    # phone replays it from (the check runs on the phone: blackmail.js), round 2 not.
    page = text(host.client.get(f"/t/{host.code}/blackmail/verify"))
    assert 'data-verify-round="1"' in page and 'data-key="1-1"' in page and "data-replay=" in page
    assert 'data-key="1-2"' in page and "data-check" not in page
    assert reveal["text"] in page and new_print in page and "Round 2 (being played)" in page
    assert "python3 -c" in page
    good = host.client.get(
        f"/t/{host.code}/blackmail/verify", query_string={"text": reveal["text"], "fingerprint": shown}
    )
    assert 'data-pasted="ok"' in text(good)
    bad = host.client.get(
        f"/t/{host.code}/blackmail/verify",
        query_string={"text": reveal["text"].replace(SALT, "f" * 32), "fingerprint": shown},
    )
    assert 'data-pasted="bad"' in text(bad) and "does not match" in text(bad)
    assert host.client.get("/t/NOPE123/blackmail/verify").status_code == 404


def test_export_keeps_fingerprints_and_drops_the_shuffle(table):
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    exported = host.client.get(f"/t/{host.code}/export.json").get_json()
    started = next(e for e in exported["events"] if e["kind"] == "game.start")
    assert "deal" not in started["data"] and started["data"]["fingerprint"]
    assert SALT not in json.dumps(exported)
    assert exported["state"]["round"]["dealt"]["hand"] is None


# ---------------------------------------------------------------- hidden information: the scan

# Short forms a screen might use; "Archer" alone is in the game's title, so Sterling stands in.
NAMES[MALORY] += ["Malory"]
NAMES[LANA] += ["Lana"]
NAMES[RAY] += [r"\bRay\b"]
NAMES[PAM] += ["Pam"]
NAMES[CHERYL] += ["Cheryl", "Carol"]
NAMES[CYRIL] += ["Cyril"]
NAMES[KRUEGER] += ["Krueger"]
NAMES[ARCHER] += ["Sterling"]


class Watched:
    """Everything one viewer's browser receives, kept until it is scanned."""

    def __init__(self, name, client, code, pages, seat=None):
        self.name, self.client, self.code, self.pages, self.seat = name, client, code, pages, seat
        self.seen = []
        original = client.open

        def open_and_keep(*args, **kwargs):
            response = original(*args, **kwargs)
            if kwargs.get("buffered", True) is not False:  # the event stream is read apart
                self.seen.append(response.get_data(as_text=True))
            return response

        client.open = open_and_keep

    def fetch(self):
        for path in self.pages:
            self.client.get(f"/t/{self.code}{path}")
        # The event stream of this viewer's page: its opening (retry, then the whole fragment,
        # as a page behind gets it) is read, then closed.
        page = "host" if "/host" in self.pages else "screen" if "/screen" in self.pages else "player"
        opening = stream_opening(self.client, f"/t/{self.code}/events?page={page}")
        assert "event: live" in opening and 'id="live-board"' in opening
        self.seen.append(opening)

    def scan(self, forbidden, step):
        assert len(self.seen) >= len(self.pages) + 1  # every page and the stream were read
        for body in self.seen:
            body = scrub(body)
            for number in forbidden:
                for pattern in NAMES[number]:
                    assert not re.search(pattern, body), (
                        f"{self.name} got {pattern!r} ({BY_NUMBER[number]['name']}) after {step}: "
                        + body[max(0, re.search(pattern, body).start() - 300) :][:600]
                    )
        self.seen = []


PLAYER_PAGES = ("/me", "/live?page=player", "/state.json")
HOST_PAGES = ("/host", "/live?page=host", "/state.json", "/export.json", "/log.csv")
SCREEN_PAGES = ("/screen", "/live?page=screen", "/blackmail/verify")


def test_no_response_to_any_phone_names_a_card_it_must_not_know(app, table):
    """A round that uses every private effect. After each step every viewer's pages, state,
    live fragment, export (host) and event stream are scanned for the name of every card the
    viewer cannot know: not in its hand, not shown to it, not face up."""
    host, (ana, bo, cy), deals = table
    A, B, C = ana.seat, bo.seat, cy.seat
    # Secret Malory; Ana Lana, Bo Cyril, Cy Krueger; then the draws in turn order.
    order = [MALORY, LANA, CYRIL, KRUEGER, ARCHER, CHERYL, RAY, PAM, ARCHER, CYRIL, CHERYL, PAM, KRUEGER, ARCHER]
    start(host, A, order, lana=(1, 4, 2, 3, 0), deals=deals)
    screen_client = app.test_client()
    watched = {
        A: Watched("Ana", ana.client, ana.code, PLAYER_PAGES, A),
        B: Watched("Bo", bo.client, bo.code, PLAYER_PAGES, B),
        C: Watched("Cy", cy.client, cy.code, PLAYER_PAGES, C),
        "host": Watched("host", host.client, host.code, HOST_PAGES),
        "screen": Watched("screen", screen_client, host.code, SCREEN_PAGES),
    }
    public = set()
    learned = {A: set(), B: set(), C: set(), "host": set(), "screen": set()}

    def check(step):
        state = hidden_state(app, host.code)
        over = state["round"]["stage"] != "playing"
        for who, watch in watched.items():
            watch.fetch()
            own = set(state["round"]["deal"]["hands"].get(who, [])) if who in (A, B, C) else set()
            known = public | learned[who] | own
            forbidden = set() if over else set(BY_NUMBER) - known
            watch.scan(forbidden, step)
        return forbidden

    def turn(phone, card, step, learns=(), shown=(), **form):
        play(phone, card, **form)
        public.update({card, *shown})
        for seat, cards in learns:
            learned[seat].update(cards)
        check(step)

    check("the deal")
    assert learned[A] == set()
    # 1. Ana (Lana, Archer): Archer on Bo naming Cheryl, wrong. Only Ana sees Bo's Cyril.
    turn(ana, ARCHER, "Archer's look", learns=[(A, {CYRIL})], shown={CHERYL}, target=B, named=CHERYL)
    # 2. Bo (Cyril, Cheryl): looks at the secret Malory.
    turn(bo, CHERYL, "Cheryl's look", learns=[(B, {MALORY})], choice="look")
    # 3. Cy (Krueger, Ray): Krueger naming Cheryl, wrong; Cy sees the secret.
    turn(cy, KRUEGER, "Krueger's look", learns=[(C, {MALORY})], named=CHERYL)
    # 4. Ana (Lana, Pam): Pam on Bo, who drops Cyril face up and draws an Archer.
    turn(ana, PAM, "Pam", shown={CYRIL}, target=B)
    # 5. Bo (Archer, Cyril): Cyril on Cy: Archer against Ray, Bo is out showing his Archer.
    turn(bo, CYRIL, "Cyril's duel", learns=[(B, {RAY}), (C, {ARCHER})], shown={ARCHER}, target=C)
    assert view(ana)["round"]["still_in"] == [A, C]
    # 6. Cy (Ray, Cheryl): Ray on himself: drops Cheryl, takes Malory; a Pam becomes the secret.
    turn(cy, RAY, "Ray", learns=[(C, {MALORY})], shown={CHERYL}, target=C)
    # 7. Ana (Lana, Krueger): Lana mixes Ana's Krueger, Cy's Malory and the secret Pam.
    #    Positions 1, 2, 0: Ana gets Malory, Cy gets Pam, Krueger is the new secret.
    turn(ana, LANA, "Lana", learns=[(A, {MALORY}), (C, {PAM})])
    assert hand(ana) == [MALORY] and hand(cy) == [PAM, ARCHER]
    # Krueger is still hidden from Bo (out), the host and the screen: their scans prove it.
    # 8. Cy (Pam, Archer): Archer on Ana naming Malory: right, Ana is out; Cy wins the round.
    turn(cy, ARCHER, "the last Archer", shown={MALORY}, target=A, named=MALORY)
    r = view(host)["round"]
    assert r["result"]["winners"] == [C] and r["dealt"]["reveal"]["secret"] == KRUEGER
    # Every private result went to its phone only.
    assert {p["what"] for p in dealt(ana)["private"]} == {"look", "lana"}
    assert {p["what"] for p in dealt(bo)["private"]} == {"secret", "drew", "duel"}
    assert {p["what"] for p in dealt(cy)["private"]} == {"secret", "duel", "took_secret", "lana", "look"}
    assert dealt(host)["private"] == []


def test_the_scan_would_catch_a_leak(app, table):
    """The scan's own check: a phone's own hand is found by it, so a leaked card would be too."""
    host, (ana, bo, cy), deals = table
    start(host, ana.seat, [MALORY, LANA, CYRIL, RAY, ARCHER], deals=deals)
    watch = Watched("Ana", ana.client, ana.code, PLAYER_PAGES, ana.seat)
    watch.fetch()
    with pytest.raises(AssertionError, match="Lana"):
        watch.scan({LANA}, "a planted check")


def test_after_a_stand_in_the_host_learns_only_what_the_acting_player_would(app, host, join, deals, away):
    """The host stands in for Ana's Sterling Archer, Ray and Pam on Bo, and Lana. After
    each, every host response (page, fragment, state.json, export.json, log.csv) names only
    public cards, Ana's own two and what Ana learnt; after Bo's next card, only public ones."""
    host.start("blackmail")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    A, B = ana.seat, bo.seat
    order = [MALORY, ARCHER, CHERYL, ARCHER, KRUEGER, RAY, CYRIL, KRUEGER, PAM, ARCHER, CHERYL, LANA]
    start(host, A, order, lana=(2, 0, 1, 3, 4), deals=deals)
    away[A] = 60
    watch = Watched("host", host.client, host.code, HOST_PAGES)
    public = set()

    def scan(step, known):
        watch.fetch()
        watch.scan(set(BY_NUMBER) - public - set(known), step)

    def stand_in(card, step, says=(), learns=(), shown=(), **form):
        n = turn_no(host)
        assert host.act("dealt.stand_in", seat=A, turn=n, page="host").status_code == 200
        held = set(c["number"] for c in dealt(host)["stand_in_hand"])
        response = host.act("dealt.play", seat=A, card=card, turn=n, page="host", **form)
        assert response.status_code == 200, text(response)[:500]
        public.update({card, *says, *shown})
        scan(step, held | set(learns))

    def bo_plays(card, step, says=(), shown=(), **form):
        play(bo, card, **form)
        public.update({card, *says, *shown})
        scan(step, ())

    stand_in(ARCHER, "Sterling Archer", says={PAM}, learns={CHERYL}, target=B, named=PAM)
    bo_plays(CHERYL, "Bo's Cheryl", choice="look")
    stand_in(RAY, "Ray on Bo", shown={KRUEGER}, target=B)  # Bo takes Malory
    bo_plays(KRUEGER, "Bo's Krueger", says={PAM}, named=PAM)
    stand_in(PAM, "Pam on Bo", shown={MALORY}, target=B)  # Bo draws an Archer
    bo_plays(CHERYL, "Bo's second Cheryl", choice="look")
    stand_in(LANA, "Lana", learns={CYRIL})  # Ana gets the secret Cyril
    assert hand(ana)[0] == CYRIL and view(host)["round"]["stage"] == "playing"
