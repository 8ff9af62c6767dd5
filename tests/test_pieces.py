"""Pieces (issue 37): a change sends each open page the pieces it changed, read off the raw
stream. A one-seat change sends that seat's pieces (and the band when the turn moves), the
log sends its new line and the delete of the line that fell off, and a piece is cut from its
own viewer's render: no stream message names a card its viewer may not know."""

import re

import pytest

from companion import live, pages
from companion.games.blackmail import dealt as deal
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY, BY_NUMBER
from conftest import Stream
from test_blackmail_deal_routes import NAMES, hidden_state, rigged, scrub

SWAP = re.compile(r'<\w+ id="([^"]+)" hx-swap-oob="(morph|delete|attrs)(?::#[^"]+)?"')
PUT = re.compile(r'hx-swap-oob="afterend:#([^"]+)-top"><\w+ id="([^"]+)"')


def swaps(message):
    """What a message does, as {(how, element id)}: ("morph", id), ("delete", id), and
    ("put:LIST", id of the first line put in)."""
    found = {(how, ident) for ident, how in SWAP.findall(message)}
    found |= {(f"put:{where}", ident) for where, ident in PUT.findall(message)}
    return found


def ids(message):
    return {ident for _, ident in swaps(message)}


class Screen:
    """The table screen: a client with no cookie."""

    def __init__(self, app, code):
        self.client, self.code = app.test_client(), code


def version(phone):
    return phone.state()["version"]


def streams(pages_open, known):
    opened = {name: Stream(phone, page, known=known) for name, (phone, page) in pages_open.items()}
    for stream in opened.values():
        stream.opened()
    return opened


def read(opened):
    return {name: stream.next_message() for name, stream in opened.items()}


def ok(response):
    assert response.status_code == 200, response.get_data(as_text=True)[:600]
    return response


# ---------------------------------------------------------------- the log

def test_a_new_line_goes_in_and_the_oldest_shown_goes_out(app, host, join):
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    for n in range(16):  # more lines than a page shows (15)
        ok(bo.act("score", seat=ana.seat, delta=1))
    opened = streams({"ana": (ana, "player"), "screen": (Screen(app, host.code), "screen"),
                      "host": (host, "host")}, version(ana))
    ok(bo.act("score", seat=bo.seat, delta=1))
    read(opened)  # (the test looks at the next change)
    log = [e["id"] for e in host.state()["log"] if e["text"]]
    ok(bo.act("score", seat=bo.seat, delta=2))
    new = version(bo)
    sent = read(opened)
    for name, shown in (("ana", 15), ("host", 15), ("screen", 6)):
        message = sent[name]
        assert 'id="live-log"' not in message, name
        assert ("put:log-list", f"log-{new}") in swaps(message), name
        assert len(re.findall(r'<li id="log-', message)) == 1, name  # that line alone
        # the list keeps its length: the line that was last shown goes, in the same message
        assert {i for how, i in swaps(message) if how == "delete"} == {f"log-{log[-shown]}"}, name
    assert ("morph", "log-newest") in swaps(sent["ana"])  # the fold's newest line
    assert "Undo +2 Bo" in sent["host"] and "Undo" not in sent["screen"]


def test_an_undo_marks_its_line(app, host, join):
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    opened = streams({"ana": (ana, "player")}, version(ana))
    ok(bo.act("score", seat=ana.seat, delta=1))
    read(opened)
    ok(bo.act("score", seat=ana.seat, delta=5))
    read(opened)
    target = version(bo)
    ok(bo.post(f"/undo/{target}"))
    message = read(opened)["ana"]
    line = re.search(rf'<li id="log-{target}" hx-swap-oob="outerHTML" class="undone"', message)
    assert line and 'id="live-log"' not in message
    assert ("put:log-list", f"log-{version(bo)}") in swaps(message)
    assert "undo: +5 Ana" in message


# ---------------------------------------------------------------- Age of Assassins

@pytest.fixture
def assassins(app, host, join):
    host.start("assassins")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy", "Di")]
    return host, phones


def test_a_points_change_sends_that_seats_pieces_only(app, assassins):
    host, (ana, bo, cy, di) = assassins
    opened = streams({"ana": (ana, "player"), "cy": (cy, "player"), "host": (host, "host"),
                      "screen": (Screen(app, host.code), "screen")}, version(ana))
    ok(bo.act("points", seat=bo.seat, delta=1, reason="Cook"))
    read(opened)
    ok(bo.act("points", seat=cy.seat, delta=2, reason="Cook"))
    sent = read(opened)
    c = cy.seat
    log = {i for i in ids(sent["ana"]) if i.startswith("log-")}
    assert all('id="live-board"' not in message for message in sent.values())
    # Ana: Cy's line, and Cy's block under "Fix a score": its points, its -1 (no longer at
    # zero), and the folds whose ids name the points
    assert ids(sent["ana"]) - log == {f"other-{c}", f"aoa-points-{c}", f"aoa-q-seat-{c}-prelim",
                                      f"aoa-kill-1-{c}-2", f"aoa-amount-1-{c}-2"}
    # a fold whose id names the points is put in the place of the page's one
    assert f'<details id="aoa-kill-1-{c}-2" hx-swap-oob="morph:#aoa-kill-1-{c}-0"' in sent["ana"]
    # Cy's own phone: the head of its own block (drafting: no point taps in it yet)
    assert "aoa-me-head" in ids(sent["cy"]) and f"other-{c}" not in ids(sent["cy"])
    assert {i for i in ids(sent["cy"]) if not i.startswith("log-")} <= {
        "aoa-me-head", f"aoa-points-{c}", f"aoa-q-seat-{c}-prelim", f"aoa-kill-1-{c}-2", f"aoa-amount-1-{c}-2"}
    # the host's list and the table screen: Cy's block, Cy's tile
    assert {i for i in ids(sent["host"]) if not i.startswith("log-")} <= {
        f"aoa-points-{c}", f"aoa-kill-1-{c}-2", f"aoa-amount-1-{c}-2", f"aoa-q-seat-{c}-prelim"}
    assert {i for i in ids(sent["screen"]) if not i.startswith("log-")} == {f"tv-seat-{c}"}


def test_a_draft_pick_never_reaches_another_phone(app, assassins):
    """A pick is secret until every seat has picked; a rear-row card stays on its phone."""
    host, (ana, bo, cy, di) = assassins
    opened = streams({"ana": (ana, "player"), "bo": (bo, "player"), "host": (host, "host"),
                      "screen": (Screen(app, host.code), "screen")}, version(ana))
    ok(cy.act("points", seat=cy.seat, delta=1, reason="Cook"))
    read(opened)
    ok(ana.act("draft.pick", seat=ana.seat, row="rear", card="Quokka Rear"))
    sent = read(opened)
    assert "Quokka Rear" in sent["ana"] and "aoa-draft" in ids(sent["ana"])
    for name in ("bo", "host", "screen"):
        assert "Quokka Rear" not in sent[name] and "rear 1/3" not in sent[name], name
        assert 'id="live-board"' not in sent[name], name
    assert f"other-{ana.seat}" in ids(sent["bo"])  # "picked", and no more
    assert re.search(r'id="other-%d".*?data-status="picked"' % ana.seat, sent["bo"], re.S)


# ---------------------------------------------------------------- Blackmail

@pytest.fixture
def deals(monkeypatch):
    queue = []
    monkeypatch.setattr(deal, "new_deal", lambda rng: rigged(*queue.pop(0)))
    return queue


def start(host, first, tracking, deals=None, order=None, lana=(0, 1, 2, 3, 4)):
    if deals is not None:
        deals.append((order, lana))
    ok(host.act("game.start", to=host.state()["state"]["to"]["start"] or "", tracking=tracking,
                first_player=first, page="host"))


def test_a_card_played_sends_the_seats_it_touched_and_the_band(app, host, join):
    host.start("blackmail")
    ana, bo, cy, di = (join(host, name) for name in ("Ana", "Bo", "Cy", "Di"))
    start(host, ana.seat, "full")
    opened = streams({"di": (di, "player"), "screen": (Screen(app, host.code), "screen")}, version(ana))
    ok(ana.act("play", card=KRUEGER, named=MALORY, correct="no"))
    read(opened)
    ok(bo.act("play", card=CHERYL, choice="protect"))  # Bo's turn ends, Cy's comes
    sent = read(opened)
    pieces = {i for i in ids(sent["di"]) if not i.startswith(("log-", "bm-play-"))}
    # Di's own status line, Bo's and Cy's status lines, the deck's count and the turn, the count of
    # Cheryls, the cards played; in Di's own play form (on her page, hidden), how many Cheryls
    # are left and the seats her cards may pick (Bo is protected now): no whole board or form
    assert pieces == {"bm-me-status", f"other-{bo.seat}-st", f"other-{cy.seat}-st", "bm-deck", "bm-turn",
                      "bm-plays-count", f"bm-seen-{CHERYL}", f"bm-left-n-{CHERYL}", f"bm-left-{CHERYL}",
                      "bm-to-1", "bm-to-3", "bm-to-5", "bm-to-6"}
    assert ("put:bm-plays-new", "bm-play-2") in swaps(sent["di"])
    assert 'id="live-board"' not in sent["di"] and 'id="me"' not in sent["di"]
    assert {i for i in ids(sent["screen"]) if not i.startswith("log-")} == {
        "tv-band", f"tv-seat-{bo.seat}", f"tv-seat-{cy.seat}"}


def test_a_dealt_card_sends_a_bystander_only_what_changed(app, host, join, deals):
    host.start("blackmail")
    ana, bo, cy = (join(host, name) for name in ("Ana", "Bo", "Cy"))
    # Secret Malory; Ana Lana, Bo Cyril, Cy Krueger; then the draws
    start(host, ana.seat, "dealt", deals, [MALORY, LANA, CYRIL, KRUEGER, ARCHER, CHERYL, RAY, PAM, ARCHER])
    opened = streams({"cy": (cy, "player")}, version(ana))
    ok(ana.act("dealt.play", card=ARCHER, turn=1, target=bo.seat, named=CHERYL))
    read(opened)
    ok(bo.act("dealt.play", card=CHERYL, turn=2, choice="protect"))
    message = read(opened)["cy"]
    pieces = {i for i in ids(message) if not i.startswith(("log-", "bm-play-"))}
    # Cy's turn comes: Cy's own block sends its cue (a small element), its status line, its
    # step (hand the phone over: shown, with its turn's number) and its hand's changes, with the
    # band; not the block whole.
    # The card Cy held shows its play form (a few attributes and words): only the drawn card
    # comes whole, after it.
    assert ("morph", "bm-cue") in swaps(message) and 'id="live-board"' not in message
    assert 'id="me" hx-swap-oob' not in message
    held = f"bm-hand-{cy.seat}-1-{KRUEGER}"
    assert f'id="{held}" hx-swap-oob' not in message and not re.search(r'hand-play"? hidden|-form"[^>]* hidden', message)
    assert f'<div hx-swap-oob="afterend:#{held}"><details id="bm-hand-{cy.seat}-2-{RAY}"' in message
    hand = {"bm-cue", f"bm-cover-1-{cy.seat}", f"bm-cover-1-{cy.seat}-title", f"{held}-do", f"{held}-form", f"{held}-turn"}
    assert pieces - {"me"} - hand <= {"bm-deck", "bm-turn", "bm-plays-count", f"bm-seen-{CHERYL}", f"bm-left-n-{CHERYL}", "bm-got",
                                      f"other-{ana.seat}-st", f"other-{bo.seat}-st", "bm-me-status", "bm-handover", "bm-handover-turn"}


def test_no_stream_message_names_a_card_its_viewer_may_not_know(app, host, join, deals):
    """The dealt round of test_blackmail_deal_routes, with every page's stream open: after
    each card, each viewer's message (pieces alone, not the whole fragment) is scanned for
    every card it cannot know; the pieces it got are its own render's."""
    host.start("blackmail")
    ana, bo, cy = (join(host, name) for name in ("Ana", "Bo", "Cy"))
    A, B, C = ana.seat, bo.seat, cy.seat
    order = [MALORY, LANA, CYRIL, KRUEGER, ARCHER, CHERYL, RAY, PAM, ARCHER, CYRIL, CHERYL, PAM, KRUEGER, ARCHER]
    start(host, A, "dealt", deals, order, lana=(1, 4, 2, 3, 0))
    viewers = {A: (ana, "player"), B: (bo, "player"), C: (cy, "player"), "host": (host, "host"),
               "screen": (Screen(app, host.code), "screen")}
    opened = streams(viewers, version(ana))
    public, learned = set(), {who: set() for who in viewers}
    whole = {who: True for who in viewers}  # the first message of a stream carries every part

    def turn(phone, card, learns=(), shown=(), **form):
        ok(phone.act("dealt.play", card=card, turn=phone.state()["state"]["round"]["dealt"]["turn_no"], **form))
        public.update({card, *shown})
        for seat, cards in learns:
            learned[seat].update(cards)
        state = hidden_state(app, host.code)
        over = state["round"]["stage"] != "playing"
        for who, message in read(opened).items():
            if not whole[who]:
                assert 'id="live-board"' not in message, who
            whole[who] = False
            known = public | learned[who] | set(state["round"]["deal"]["hands"].get(who, []))
            for number in (set() if over else set(BY_NUMBER) - known):
                for pattern in NAMES[number]:
                    assert not re.search(pattern, scrub(message)), f"{who} got {pattern!r} after {card}"

    # As test_no_response_to_any_phone_names_a_card_it_must_not_know, every private effect:
    turn(ana, ARCHER, learns=[(A, {CYRIL})], shown={CHERYL}, target=B, named=CHERYL)
    turn(bo, CHERYL, learns=[(B, {MALORY})], choice="look")
    turn(cy, KRUEGER, learns=[(C, {MALORY})], named=CHERYL)
    turn(ana, PAM, shown={CYRIL}, target=B)
    turn(bo, CYRIL, learns=[(B, {RAY}), (C, {ARCHER})], shown={ARCHER}, target=C)
    turn(cy, RAY, learns=[(C, {MALORY})], shown={CHERYL}, target=C)
    turn(ana, LANA, learns=[(A, {MALORY}), (C, {PAM})])
    turn(cy, ARCHER, shown={MALORY}, target=A, named=MALORY)
    assert host.state()["state"]["round"]["result"]["winners"] == [C]


def test_pieces_nest_and_a_list_keeps_its_order():
    """The parsing the stream relies on: a piece inside a piece goes alone when only it changed;
    a list's new line at its top or its end goes in; one that moved within it, or came in its
    middle, sends the whole."""
    def part(lines, head="1", extra="", cue=""):
        items = "".join(f'<!--o:l{n}--><li id="l{n}">{n}</li><!--/o-->' for n in lines)
        html = (f'<div id="b"><!--o:me--><section id="me"{cue}><!--o:h--><p id="h">{head}</p><!--/o-->'
                f'{extra}</section><!--/o--><ol id="L"><li id="L-top" hidden></li><!--l:L-->{items}'
                f'<!--/l--></ol></div>')
        return {"board": (html, pages.pieces_of(html))}

    before = part([3, 2, 1])
    assert live.message(9, part([3, 2, 1], head="2"), before) == (
        'id: 9\nevent: live\ndata: <p id="h" hx-swap-oob="morph">2</p>\n\n')
    sent = live.message(9, part([4, 3, 2]), before)
    assert '<div hx-swap-oob="afterend:#L-top"><li id="l4">4</li></div>' in sent
    assert '<i id="l1" hx-swap-oob="delete"></i>' in sent and 'id="b"' not in sent
    assert live.message(9, part([2, 3, 1]), before).startswith('id: 9\nevent: live\ndata: <div id="b">')
    assert live.message(9, part([3, 2, 1, 0]), before) == (
        'id: 9\nevent: live\ndata: <div hx-swap-oob="afterend:#l1"><li id="l0">0</li></div>\n\n')
    assert live.message(9, part([3, 5, 2, 1]), before).startswith('id: 9\nevent: live\ndata: <div id="b">')
    assert '<section id="me" hx-swap-oob="morph">' in live.message(9, part([3, 2, 1], extra="<b>!</b>"), before)
    # Its own tag alone changed (the turn cue): the tag goes, empty, with what changed inside.
    assert live.message(9, part([3, 2, 1], head="2", cue=' data-your-turn="t4"'), before) == (
        'id: 9\nevent: live\ndata: <section id="me" hx-swap-oob="attrs" data-your-turn="t4"></section>'
        '<p id="h" hx-swap-oob="morph">2</p>\n\n')
