"""Pieces in Blackmail (issue 37), read off the raw stream: the phone whose turn comes gets a
line, not its card form (the form is on its page all round, hidden but on its turn); a round's
end and a new round send pieces, not the board; and a page that applies every message in turn
shows what a fresh fragment shows."""

import re

import render_cost  # bench/ (on the path from conftest): the moves its Blackmail rounds take
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY
from stream_apply import apply, element_at, runs_of
from test_pieces import Screen, deals, ids, ok, read, start, streams, version  # noqa: F401 (a fixture)

LIMIT = 4000  # bytes: issue 37's target for a one-seat change (a protection, which changes
# the seats four of a phone's cards may pick, included)


def shown(html):
    """What a browser shows of the board: no markers, white space as one space."""
    html = re.sub(r"<!--/?(?:[ol]|run)(?::[^>]*)?-->", "", html)
    return " ".join(html.split()).replace("> <", "><")


def board(phone, page):
    html = phone.client.get(f"/t/{phone.code}/{'me' if page == 'player' else page}",
                            headers={"HX-Request": "true", "HX-Target": "live-body"}).get_data(as_text=True)
    start = html.index('<div id="live-board"')
    return html[start:element_at(html, start)]


def full_table(app, host, join):
    host.start("blackmail")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy", "Di")]
    start(host, phones[0].seat, "full")
    return phones


def test_the_phone_whose_turn_comes_gets_a_line_not_its_form(app, host, join):
    ana, bo, cy, di = full_table(app, host, join)
    opened = streams({"cy": (cy, "player"), "di": (di, "player")}, version(ana))
    ok(ana.act("play", card=2, named=8, correct="no"))  # Krueger, a wrong guess: Bo's turn
    read(opened)  # (the test looks at the next change)
    ok(bo.act("play", card=4, choice="protect"))  # Cheryl: Cy's turn
    sent = read(opened)
    # Cy's page had the form, hidden, since the round began: its turn shows it by a line
    assert "bm-pick-lead" in ids(sent["cy"]) and 'data-play-for' in sent["cy"]
    for name, message in sent.items():
        assert 'act/play"' not in message and 'id="bm-mine"' not in message, name
        assert len(message.encode()) <= LIMIT, (name, len(message.encode()))
    ok(cy.act("play", card=1, target=di.seat, named=2, correct="no"))  # Archer: Di's turn, Cy's ends
    sent = read(opened)
    assert 'data-play-for' in sent["di"] and "bm-pick-lead" in ids(sent["cy"])
    for name, message in sent.items():
        assert 'act/play"' not in message and len(message.encode()) <= LIMIT, (name, len(message.encode()))


def test_a_round_and_a_new_one_send_pieces_and_the_page_ends_as_a_fresh_one(app, host, join):
    """A whole round, card by card to the deck's end, the cards shown, the confirm: every
    message of a phone, the host and the table screen applied in turn gives the board a fresh
    render gives; none carries the board whole
    (the streams opened at the newest version: the first change is pieces too)."""
    ana, bo, cy, di = full_table(app, host, join)
    pages = {"ana": (ana, "player"), "di": (di, "player"), "host": (host, "host"),
             "screen": (Screen(app, host.code), "screen")}
    opened = streams(pages, version(ana))
    seats = {p.seat: p for p in (ana, bo, cy, di)}
    docs = {name: board(*pages[name]) for name in pages}
    messages, sizes = 0, []
    while True:
        view = host.state()["state"]
        if view["round"]["number"] > 1:
            break
        who, kind, form = render_cost.full_move(view)  # the bench's round: the fewest choices
        ok(seats[who].act(kind, **form))
        sent = read(opened)
        messages += 1
        one_seat = kind == "play" and host.state()["state"]["round"]["stage"] == "playing"
        for name, message in sent.items():
            docs[name] = apply(docs[name], message, outside=("log-", "live-log", "live-admin"))
            assert shown(docs[name]) == shown(board(*pages[name])), (name, messages)
            if name == "host":
                continue  # the host's form records whoever is on turn, and its first history
                # round goes with the board: not pieces yet (applied and compared all the same)
            assert 'id="live-board"' not in message, (name, messages)
            assert 'id="bm-round"' not in message and 'id="bm-mine"' not in message, (name, messages)
        for name in ("ana", "di") if messages > 1 else ():
            sizes.append((name, messages, len(sent[name].encode()), sorted(ids(sent[name]))))
            if one_seat:  # a card played that does not end the round: issue 37's target
                assert sizes[-1][2] <= LIMIT, sizes[-1]
    assert messages > 12
    # Sizes as they stand (issue 37's 4,000 is not met everywhere): a card played, even one
    # that is the last of its kind while a protection lapses, stays under 6 KB; the new round
    # (every count, every greyed name and card back) goes as some 70 pieces, about 18 KB
    # (it was the board, about 28 KB)
    assert all(size <= 6000 for _, n, size, _ in sizes if n != messages), sizes
    assert all(size <= 20000 for _, n, size, _ in sizes if n == messages), sizes
    # the history gained its first round as a line
    assert 'id="bm-hist-1"' in docs["ana"] and "History (1 rounds)" in docs["ana"]


def test_a_dealt_round_by_pieces_ends_as_a_fresh_page(app, host, join, deals):
    """Dealt by the app, a round to its end and the next one's deal: every message of two
    phones, the host and the table screen applied in turn gives the board a fresh render
    gives. A drawn card's words come by name, and the page puts its own copy in
    (companion/shared_runs.py)."""
    host.start("blackmail")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy", "Di")]
    start(host, phones[0].seat, "dealt", deals, [MALORY, LANA, CYRIL, KRUEGER, PAM, ARCHER, CHERYL, RAY, PAM])
    deals.append(([RAY, PAM, CHERYL, KRUEGER, ARCHER, CYRIL], (0, 1, 2, 3, 4)))  # the next round's
    pages = {"ana": (phones[0], "player"), "di": (phones[3], "player"), "host": (host, "host"),
             "screen": (Screen(app, host.code), "screen")}
    opened = streams(pages, version(phones[0]))
    docs = {name: board(*pages[name]) for name in pages}
    whole = phones[0].client.get(f"/t/{host.code}/me").get_data(as_text=True)
    runs = runs_of(whole)
    assert {"bm-card-1", "bm-card-8", "bm-name-1", "bm-name-2", "bm-choice"} <= set(runs)
    table, named, messages = render_cost.Table(host, phones), 0, 0  # what the bench's moves read
    while host.state()["state"]["round"]["number"] == 1:
        who, kind, form = render_cost.blackmail_dealt(table)
        ok((host if who == "host" else who).act(kind, **form))
        messages += 1
        one_seat = kind == "dealt.play" and host.state()["state"]["round"]["stage"] == "playing"
        for name, message in read(opened).items():
            if one_seat and name in ("ana", "di"):  # a card played that does not end the round
                assert len(message.encode()) <= LIMIT, (name, messages, len(message.encode()))
            named += 'data-s="bm-card-' in message
            docs[name] = apply(docs[name], message, outside=("log-", "live-log", "live-admin"), runs=runs)
            assert shown(docs[name]) == shown(board(*pages[name])), (name, messages)
    assert messages > 8 and named >= 2  # each phone's turn brought a drawn card at least once
