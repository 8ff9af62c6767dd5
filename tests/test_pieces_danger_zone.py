"""Pieces in Danger Zone (issue 37): the board marks its pieces (each seat's line and "fix"
row, the phone's own block and its head, the tracker's band and token holders, each Location
and Challenge card, the race's lines, the table screen's band and tiles), so a one-seat
change sends that seat's pieces, read off the raw stream. Every piece is one element whose
first attribute is its id, every id is on its page once, and a stream's messages applied in
turn make the page a fresh load would make, for every kind of viewer."""

import re

from companion import pages
from companion.games import danger_zone as dz
from conftest import HX, Stream
from stream_apply import apply, element_at, span_of
from test_danger_zone_routes import next_phase, start, state_of, table
from test_pieces import Screen, ids, ok, read, streams, swaps, version

NAMES = ("Ana", "Bo", "Cy", "Di")


def fragment(phone, page):
    return ok(phone.client.get(f"/t/{phone.code}/live?page={page}", headers=HX)).get_data(as_text=True)


def plain(html):
    """Html as a browser shows it: no comments, white space between tags left out."""
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    return " ".join(re.sub(r">\s+<", "><", html).split())


def parts_of(html):
    return {name: plain(html[slice(*span_of(html, f"live-{name}"))]) for name in ("board", "admin", "log")
            if f'id="live-{name}"' in html}


def check_pieces(html):
    """Every piece of every part is one element whose first attribute is its id: the id its
    marker names (no Danger Zone piece changes its id)."""
    board = pages.out_of_band(html[slice(*span_of(html, "live-board"))])
    top = pages.pieces_of(board)
    assert top is not None, "the board marks no pieces, or a marker is out of place"
    seen, todo = set(), [top]
    while todo:
        piece = todo.pop()
        for ident, inner in piece.pieces.items():
            body = inner.body.strip()
            assert body.startswith("<") and pages.element_id(body) == ident, (ident, body[:120])
            assert re.match(r'<[a-zA-Z][\w:-]* id="', body), (ident, body[:120])
            assert element_at(body, 0) == len(body), f"{ident} holds more than one element"
            seen.add(ident)
            todo.append(inner)
    return seen


def ids_once(html):
    found = re.findall(r'<[a-zA-Z][^>]*?\sid="([^"]+)"', re.sub(r"<!--.*?-->", "", html, flags=re.S))
    twice = {i for i in found if found.count(i) > 1}
    assert not twice, f"ids twice on the page: {sorted(twice)}"


def four(host, join, **kw):
    """A table of four in Setup, characters picked, the Locations drawn, Ana to reveal first."""
    return table(host, join, names=NAMES, **kw)


def read_to(stream, version):
    """A stream's messages up to this version (one tap may make more than one)."""
    got = []
    while True:
        got.append(stream.next_message())
        if int(got[-1].split("\n", 1)[0][4:]) >= version:
            return got


# ---------------------------------------------------------------- one seat's change

def test_an_upper_hand_change_sends_that_seats_pieces_only(app, host, join):
    ana, bo, cy, di = four(host, join, avoid=[dz.CONTROL_ROOM, dz.MALORYS_OFFICE])
    start(host)
    opened = streams({"bo": (bo, "player"), "cy": (cy, "player"), "host": (host, "host"),
                      "screen": (Screen(app, host.code), "screen")}, version(ana))
    ok(ana.act("upper_hand.change", seat=di.seat, delta=1, reason="Insult"))
    read(opened)  # (the test looks at the next change)
    ok(ana.act("upper_hand.change", seat=bo.seat, delta=1, reason="Insult"))
    sent = read(opened)
    b, d = bo.seat, di.seat

    def pieces(name):  # the log's line and the race's names (moved apart) left out
        return {i for i in ids(sent[name]) if not i.startswith(("log-", "dz-race-name-"))}

    assert all('id="live-board"' not in message for message in sent.values())
    # Bo's own phone: its own block's tag (its flash, the news of who changed it), number and
    # +1, Di's line (its +1 no longer the last change), Bo's line in the race, and who would
    # lead the Mission (the least Upper Hand: Ana and Cy now)
    assert pieces("bo") == {"me", "dz-me-head", "dz-me-delta", f"other-{d}", f"dz-race-{b}", "dz-leader",
                            "dz-leader-hint"}
    assert ("attrs", "me") in swaps(sent["bo"]) and ("morph", "me") not in swaps(sent["bo"])
    assert re.search(r'<section id="me" hx-swap-oob="attrs" class="me dz-me flash"[^>]*'
                     r"data-news='\[\[[^']*Ana: \+1 Upper Hand for you", sent["bo"])
    assert "Reveal mine now" not in sent["bo"]  # the rest of its block stays as it is
    # Cy, whom it did not touch: Bo's line and number under "Fix a score", Di's line
    assert pieces("cy") == {f"other-{b}", f"other-{d}", f"dz-fix-n-{b}", f"dz-race-{b}",
                            "dz-leader", "dz-leader-hint"}
    assert 'id="me"' not in sent["cy"]
    # the host's list: the two seats' lines; the tie for the Mission Leader it may break
    assert pieces("host") <= {f"dz-seat-{b}", f"dz-seat-{d}", f"dz-race-{b}", "dz-leader",
                              "dz-leader-hint", "dz-tied"}
    assert {f"dz-seat-{b}", f"dz-seat-{d}", f"dz-race-{b}"} <= pieces("host")
    assert pieces("screen") == {f"tv-seat-{b}", f"tv-seat-{d}"}
    assert len(sent["bo"]) < 4000 and len(sent["cy"]) < 4000, (len(sent["bo"]), len(sent["cy"]))


def test_a_reveal_moves_the_turn_and_sends_the_band(app, host, join):
    ana, bo, cy, di = four(host, join, avoid=[dz.CONTROL_ROOM, dz.MALORYS_OFFICE])
    start(host)
    opened = streams({"cy": (cy, "player"), "screen": (Screen(app, host.code), "screen")}, version(ana))
    ok(ana.act("upper_hand.change", seat=di.seat, delta=1, reason="Insult"))
    read(opened)
    place = state_of(host)["locations"][0]["name"]
    ok(ana.act("movement.enter", location=place))  # Ana reveals: Bo is next
    sent = read(opened)
    slug = dz.LOCATION_IDS[place]
    mine = {i for i in ids(sent["cy"]) if not i.startswith("log-")}
    # Cy's "next to reveal" line, the reveal order, Ana's line and Bo's (who reveals now), the
    # Location she entered, and Di's line (its +1 no longer the last change); no whole block,
    # tracker or board
    assert {"dz-now", "dz-fact-reveal", f"other-{ana.seat}", f"other-{bo.seat}", f"dz-loc-line-{slug}"} <= mine
    assert mine <= {"dz-now", "dz-fact-reveal", f"other-{ana.seat}", f"other-{bo.seat}", f"other-{di.seat}",
                    f"dz-loc-line-{slug}", "dz-leader", "dz-leader-hint", "dz-next-phase"}
    assert "Next to reveal: <b>Bo</b>" in sent["cy"] and 'id="me"' not in sent["cy"]
    screen = {i for i in ids(sent["screen"]) if not i.startswith("log-")}
    assert {"tv-next", "tv-order", "tv-chips", f"tv-seat-{ana.seat}"} <= screen
    assert "tv-band" not in screen and screen <= {"tv-next", "tv-order", "tv-chips", "tv-tokens",
                                                  f"tv-seat-{ana.seat}", f"tv-seat-{di.seat}", f"tv-seat-{bo.seat}"}


# ---------------------------------------------------------------- every page, every phase

def test_every_piece_is_one_element_with_its_id_first_and_every_id_once(app, host, join):
    """Through a game (Setup, Movement, the Mission with its cards, Clean-up, the end), each
    kind of page, whole and as its live fragment: the host page, a phone, the table screen,
    the tablet; a piece's element has its id first, and no id is on a page twice."""
    ana, bo, cy, di = four(host, join, want=[dz.MALORYS_OFFICE])
    screen = Screen(app, host.code)
    seen = set()

    def check():
        for phone, path, page in ((host, "/host", "host"), (ana, "/me", "player"), (bo, "/me", "player"),
                                  (screen, "/screen", "screen"), (host, "/tablet", "tablet")):
            ids_once(ok(phone.client.get(f"/t/{host.code}{path}")).get_data(as_text=True))
            body = fragment(phone, page)
            ids_once(body)
            if page != "tablet":  # the tablet's board is its own (templates/tablet)
                seen.update(check_pieces(body))

    check()  # Setup
    start(host)
    ok(bo.act("upper_hand.change", seat=cy.seat, delta=2, reason="Insult"))
    ok(ana.act("movement.enter", location=dz.MALORYS_OFFICE))
    ok(bo.act("dice.roll", dice=2))
    check()  # Movement: a reveal, a roll, the Event card drawn
    next_phase(host)
    ok(host.act("challenge.draw", type_1="Booze", difficulty_1=8, reward_1=2,
                type_2="Sex", difficulty_2=10, reward_2=3, type_3="Guns", difficulty_3=10, reward_3=4))
    check()  # the Mission, its cards and each phone's odds
    leader = state_of(host)["mission_leader"]["seat"]
    roller = next(p for p in (ana, bo, cy, di) if p.seat == leader)
    ok(roller.act("challenge.complete", card=1))
    ok(host.act("token.move", token="initiative", seat=di.seat))
    check()
    next_phase(host)
    check()  # Clean-up
    ok(host.act("upper_hand.change", seat=di.seat, delta=15, reason="Card"))
    check()  # over
    for expected in ("me", "dz-me-head", "dz-tracker", "dz-when", "dz-initiative", "dz-leader",
                     f"other-{bo.seat}", f"dz-fix-{bo.seat}", f"dz-fix-n-{bo.seat}", f"dz-seat-{ana.seat}",
                     f"tv-seat-{ana.seat}", "tv-band", "tv-next", "dz-card-1", "dz-events",
                     "dz-race", f"dz-race-{ana.seat}", f"dz-race-name-{ana.seat}", "dz-winner",
                     f"dz-loc-{dz.LOCATION_IDS[dz.MALORYS_OFFICE]}", "dz-now", "dz-setup", "dz-mission"):
        assert expected in seen, expected


# ---------------------------------------------------------------- messages in turn

def test_a_streams_messages_applied_in_turn_make_the_fragment_anew(app, host, join):
    """Each viewer's stream through a round with a change of every kind: each message done
    to the page as htmx does it leaves the page as the fragment rendered anew for it."""
    ana, bo, cy, di = four(host, join, want=[dz.MALORYS_OFFICE])
    screen = Screen(app, host.code)
    viewers = {"ana": (ana, "player"), "bo": (bo, "player"), "host": (host, "host"),
               "screen": (screen, "screen")}
    known = version(ana)
    shown = {name: fragment(phone, page) for name, (phone, page) in viewers.items()}
    opened = {name: Stream(phone, page, known=known) for name, (phone, page) in viewers.items()}
    for stream in opened.values():
        stream.opened()
    small = []

    def step(phone, kind, **form):
        ok(phone.post(f"/undo/{version(host)}") if kind == "undo" else phone.act(kind, **form))
        now = version(host)
        for name, (viewer, page) in viewers.items():
            for message in read_to(opened[name], now):
                shown[name] = apply(shown[name], message)
                if name in ("ana", "bo") and kind == "upper_hand.change":
                    small.append((len(message), name, message.split("\n", 1)[0]))
            assert parts_of(shown[name]) == parts_of(fragment(viewer, page)), (name, kind)

    step(host, "round.next", to="round 1, Movement")
    for n, phone in enumerate((bo, cy, di, ana, bo)):
        step(phone, "upper_hand.change", seat=(ana, bo, cy, di)[(n + 1) % 4].seat, delta=1 - 2 * (n % 2),
             reason="Insult")
    step(ana, "movement.enter", location=dz.MALORYS_OFFICE)
    step(bo, "dice.roll", dice=3)
    step(host, "event.rona_thorne", drawer=ana.seat)
    for phone in (bo, cy, di):
        step(phone, "movement.enter", location=state_of(host)["locations"][1]["name"])
    step(host, "round.next", to=state_of(host)["next_step"])
    step(host, "challenge.draw", type_1="Booze", difficulty_1=8, reward_1=2,
         type_2="Sex", difficulty_2=10, reward_2=3, type_3="Guns", difficulty_3=10, reward_3=4)
    for _ in range(4):
        roller = state_of(host)["whose_turn"]
        if roller is None:  # every card done: the Mission is over
            break
        phone = next(p for p in (ana, bo, cy, di) if p.seat == roller)
        if roller == ana.seat:
            step(phone, "challenge.fail", seat=roller)
        else:
            step(phone, "challenge.complete", card=next(
                i + 1 for i, c in enumerate(state_of(host)["mission"]["cards"]) if c["done_by"] is None))
    step(host, "token.move", token="mission_leader", seat=cy.seat)
    step(cy, "upper_hand.change", seat=di.seat, delta=2, reason="Insult")
    step(host, "round.next", to=state_of(host)["next_step"])
    step(host, "round.next", to=state_of(host)["next_step"])
    step(di, "upper_hand.change", seat=cy.seat, delta=-1, reason="Insult")
    step(host, "upper_hand.change", seat=bo.seat, delta=3, reason="Card")
    step(host, "undo")  # its line is marked, Bo's number goes back
    step(ana, "upper_hand.change", seat=ana.seat, delta=1, reason="Insult")
    assert small and max(small)[0] < 4000, [s for s in small if s[0] >= 4000]  # no whole board


# ---------------------------------------------------------------- what a change renders

def rendered_during(monkeypatch):
    """Every kept piece (and shared part) rendered from here on, as (template, its seat)."""
    from companion import parts
    seen, render = [], parts.render

    def recording(template, context):
        seat = context.get("seat") or context.get("uh_seat") or context.get("line")
        seen.append((template.rsplit("/", 1)[-1], seat["id" if "id" in (seat or {}) else "seat"] if seat else context.get("me")))
        return render(template, context)

    monkeypatch.setattr(parts, "render", recording)
    return seen


def test_a_one_seat_change_renders_that_seats_pieces_not_every_phones_block(app, host, join, monkeypatch):
    """Bo's Upper Hand changes, with four phones, the host page and the table screen open:
    Bo's own block, line, row, tile and race line render again, and Di's (whose flash goes);
    no other seat's, no phone's controls, dice or Events, and what every phone shows alike
    (the tracker, the Locations) once for all of them, not once per phone."""
    ana, bo, cy, di = four(host, join, avoid=[dz.CONTROL_ROOM, dz.MALORYS_OFFICE])
    start(host)
    opened = streams({"ana": (ana, "player"), "bo": (bo, "player"), "cy": (cy, "player"), "di": (di, "player"),
                      "host": (host, "host"), "screen": (Screen(app, host.code), "screen")}, version(ana))
    ok(ana.act("upper_hand.change", seat=di.seat, delta=1, reason="Insult"))
    read(opened)
    seen = rendered_during(monkeypatch)
    ok(ana.act("upper_hand.change", seat=bo.seat, delta=1, reason="Insult"))
    read(opened)
    b, d = bo.seat, di.seat
    per_seat = {}
    for template, seat in seen:
        per_seat.setdefault(template, []).append(seat)
    assert sorted(per_seat.pop("_me.html")) == sorted([b, d])
    for template in ("_other_line.html", "_tv_seat.html", "_seat_line.html"):
        assert sorted(per_seat.pop(template)) == sorted([b, d]), template
    assert per_seat.pop("_fix_line.html") == [b]
    assert per_seat.pop("_race_line.html") == [b, b]  # the phones' race and the host's
    for template in ("_tracker.html", "_phone_panel.html"):  # who would lead the Mission may move
        assert len(per_seat.pop(template, [])) <= 2, template  # the phones' and the host's
    assert per_seat.pop("_shared.html") == [None] * 3  # the others' lines, the fix rows, the race
    assert per_seat.pop("_log.html", None) is not None
    assert not {t for t in per_seat if t not in ("_log_line.html",)}, per_seat


def test_kept_pieces_render_as_the_board_anew_through_a_game(app, host, join):
    """Through a game, each kind of page's fragment with its pieces kept from earlier versions
    is the fragment rendered with nothing kept: no piece is kept under too few values."""
    from companion import parts
    ana, bo, cy, di = four(host, join, want=[dz.MALORYS_OFFICE])
    screen = Screen(app, host.code)
    viewers = ((ana, "player"), (bo, "player"), (cy, "player"), (host, "host"), (screen, "screen"))

    def check():
        for phone, page in viewers:
            kept = fragment(phone, page)
            parts.clear()
            assert kept == fragment(phone, page), page

    check()
    start(host)
    check()
    for n, phone in enumerate((bo, cy, di, ana)):
        ok(phone.act("upper_hand.change", seat=(ana, bo, cy, di)[(n + 1) % 4].seat, delta=1, reason="Insult"))
        check()
    ok(ana.act("movement.enter", location=dz.MALORYS_OFFICE))
    check()
    ok(bo.act("dice.roll", dice=2))
    check()
    ok(host.act("event.rona_thorne", drawer=ana.seat))
    check()
    for phone in (bo, cy, di):
        ok(phone.act("movement.enter", location=state_of(host)["locations"][1]["name"]))
        check()
    next_phase(host)
    check()
    ok(host.act("challenge.draw", type_1="Booze", difficulty_1=8, reward_1=2,
                type_2="Sex", difficulty_2=10, reward_2=3, type_3="Guns", difficulty_3=10, reward_3=4))
    check()
    for _ in range(4):
        roller = state_of(host)["whose_turn"]
        if roller is None:
            break
        phone = next(p for p in (ana, bo, cy, di) if p.seat == roller)
        if roller == ana.seat:
            ok(phone.act("challenge.fail", seat=roller))
        else:
            ok(phone.act("dice.roll", dice=2, card=1))
            check()
            ok(phone.act("challenge.complete", card=next(
                i + 1 for i, c in enumerate(state_of(host)["mission"]["cards"]) if c["done_by"] is None)))
        check()
    next_phase(host)
    check()  # Clean-up
    next_phase(host)
    check()  # round 2
    ok(host.act("upper_hand.change", seat=di.seat, delta=20, reason="Card"))
    check()  # over
