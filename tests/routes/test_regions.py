"""The live layer's regions and stream: every element with an id is a region, a message
carries the regions that changed (read off the raw, gzip-compressed stream), a page that
applies every message in turn shows what a fresh fragment shows, and a region is rendered
from its own viewer's view: no stream message names a card its viewer may not know."""

import re
from types import SimpleNamespace

import pytest

from companion.games.blackmail import ARCHER, BY_NUMBER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY
from companion.games.blackmail import dealt as deal
from companion.live import regions
from helpers import CARD_NAMES as NAMES
from helpers import HX, Stream, apply_message, data_of, hidden_state, rigged, scrub, version

SWAPPED = re.compile(r'<[a-z][\w-]* hx-swap-oob="morph"[^>]*?\bid="([^"]+)"')


def ids(message):
    return set(SWAPPED.findall(data_of(message)))


def ok(response):
    assert response.status_code == 200, response.get_data(as_text=True)[:600]
    return response


class Screen:
    """The table screen: a client with no cookie."""

    def __init__(self, app, code):
        self.client, self.code = app.test_client(), code


def streams(pages_open, known):
    opened = {name: Stream(phone, page, known=known) for name, (phone, page) in pages_open.items()}
    for stream in opened.values():
        stream.opened()
    return opened


def read(opened):
    return {name: stream.next_message() for name, stream in opened.items()}


def fragment(phone, page):
    path = {"player": "/me", "host": "/host", "screen": "/screen"}[page]
    return ok(phone.client.get(f"/t/{phone.code}{path}", headers=HX)).get_data(as_text=True)


def shown(html):
    """A fragment as a browser shows it, for comparing: white space between tags as none."""
    html = re.sub(r'\sdata-version="\d+"', "", html)
    return " ".join(html.split()).replace("> <", "><")


# ---------------------------------------------------------------- the generic parts


def test_regions_nest_and_a_frame_unchanged_sends_only_what_changed_inside():
    page = (
        '<div id="live-body" data-version="3"><p>x</p><ul id="a"><li id="a1">one</li>'
        '<li id="a2">two <input id="f" value="1"></li></ul><p id="b">b<br></p></div>'
    )
    found = regions.split(page)
    assert found.root == "live-body" and found.found["a"].inside == ("a1", "a2")
    held = found.found
    assert regions.changed(found, held) == []
    moved_on = regions.split(page.replace('data-version="3"', 'data-version="4"'))
    assert regions.changed(moved_on, held) == []  # the version is the message's id, not a change
    assert regions.changed(regions.split(page.replace("two", "TWO")), held) == [("morph", "a2", ())]
    assert regions.changed(regions.split(page.replace('value="1"', 'value="2"')), held) == [("morph", "f", ())]
    assert regions.changed(regions.split(page.replace('<li id="a2">', '<li id="a2" class="x">')), held) == [
        ("morph", "a2", ())
    ]
    assert regions.changed(regions.split(page.replace("<p>x</p>", "<p>y</p>")), held) == [("morph", "live-body", ())]
    assert regions.changed(found, None) == [("morph", "live-body", ())]  # a page whose regions are unknown


def test_a_list_sends_only_the_items_that_came_or_went():
    def page(*items):
        lines = "".join(f'\n  <li id="l{n}">line {n}</li>' for n in items)
        return f'<div id="root"><h2>Log</h2><ol id="log">{lines}\n</ol></div>'

    held = regions.split(page(3, 2, 1)).found
    assert regions.changed(regions.split(page(4, 3, 2, 1)), held) == [("afterbegin", "log", ("l4",))]
    assert regions.changed(regions.split(page(5, 4, 3, 2)), held) == [
        ("delete", "l1", ("log",)),
        ("afterbegin", "log", ("l5", "l4")),
    ]
    assert regions.changed(regions.split(page(3, 2, 1, 0)), held) == [("beforeend", "log", ("l0",))]
    changed_line = regions.split(page(4, 3, 2, 1).replace("line 2", "line two"))
    assert regions.changed(changed_line, held) == [("afterbegin", "log", ("l4",)), ("morph", "l2", ())]
    assert regions.changed(regions.split(page(3, 9, 2, 1)), held) == [("morph", "log", ())]  # one between
    assert regions.changed(regions.split(page(2, 3, 1)), held) == [("morph", "log", ())]  # reordered
    found = regions.split(page(5, 4, 3, 2))
    message = regions.message(8, found, regions.changed(found, held))
    assert '<li id="l1" hx-swap-oob="delete"></li>' in message
    assert '<ol hx-swap-oob="afterbegin:#log"><li id="l5">line 5</li><li id="l4">line 4</li></ol>' in message
    assert shown(apply_message(page(3, 2, 1), message)) == shown(page(5, 4, 3, 2))


def test_an_item_that_moves_to_another_list_is_deleted_before_it_is_put_in():
    """Blackmail's cards played: the oldest of the new list moves to the top of the earlier
    ones. The delete goes first, or it would find the item just put in."""

    def page(new, old):
        items = lambda ns: "".join(f'\n  <li id="p{n}">card {n}</li>' for n in ns)
        return f'<div id="root"><ol id="old">{items(old)}\n</ol><ol id="new">{items(new)}\n</ol></div>'

    held = regions.split(page((4, 3, 2), (1,))).found
    found = regions.split(page((5, 4, 3), (2, 1)))
    swaps = regions.changed(found, held)
    assert swaps == [("delete", "p2", ("new",)), ("afterbegin", "old", ("p2",)), ("afterbegin", "new", ("p5",))]
    assert shown(apply_message(page((4, 3, 2), (1,)), regions.message(9, found, swaps))) == shown(
        page((5, 4, 3), (2, 1))
    )


def test_an_id_twice_is_no_region_and_a_row_goes_in_a_template():
    found = regions.split('<div id="r"><i id="d">1</i><i id="d">2</i><table><tr id="t"><td>x</td></tr></table></div>')
    assert set(found.found) == {"r", "t"}
    assert (
        regions.out_of_band(found, "morph", "t")
        == '<template><tr hx-swap-oob="morph" id="t"><td>x</td></tr></template>'
    )
    message = regions.message(7, found, [("morph", "t", ())])
    assert message.startswith("id: 7\nevent: live\ndata: <template><tr hx-swap-oob=")


def test_a_region_split_before_is_taken_whole_and_splits_the_same():
    def page(version, score, mine=""):
        rows = "".join(f'<li id="s{n}"><b id="n{n}">{n}</b> {score if n == 2 else 0}</li>' for n in (1, 2, 3))
        return f'<div id="live-body" data-version="{version}"><ul id="seats">{rows}</ul><p id="me">{mine}</p></div>'

    seen = regions.Seen()
    pages = [page(1, 0), page(1, 0, "you"), page(2, 1), page(2, 1, "you"), page(3, 1, "you"), page(4, 2)]
    for n, (at, html) in enumerate(zip((1, 1, 2, 2, 3, 4), pages)):
        found = regions.split(html, seen.at(at))
        assert regions.shown(found) == regions.shown(regions.split(html))
        # a region is offsets into this fragment, or into its own html once met again: what
        # is kept holds no fragment older than the version before
        kept = [r.source for known in seen.by_id.values() for entry in known for r in entry[0].values()]
        assert not any(source is older for source in kept for older in pages[: max(0, n - 3)])
        if n == 2:  # the seats changed: their first line is met again, and holds its html as its own
            assert seen.by_id["s1"][0][2] == '<li id="s1"><b id="n1">1</b> 0</li>'
    assert seen.find("s1", page(4, 2), page(4, 2).index('<li id="s1"')) is not None
    assert seen.find("s2", page(9, 7), page(9, 7).index('<li id="s2"')) is None  # its html differs
    seen.at(6)
    kept = [entry[0]["me"].html for entry in seen.by_id["me"]]
    assert kept == ['<p id="me"></p>']  # older ones let go
    # an id met twice, once inside a kept region: split as a whole, with neither as a region
    twice = '<div id="live-body"><ul id="seats"><li id="s1"><b id="n1">1</b> 0</li></ul><i id="n1"></i></div>'
    assert (
        regions.shown(regions.split(twice, seen)) == regions.shown(regions.split(twice))
        and "n1" not in regions.split(twice).found
    )


def test_a_partial_that_reads_only_what_it_is_given_renders_once_per_input(app, monkeypatch):
    from companion.web import templating

    env = app.jinja_env
    # its forms (m.act_form) read the page kind, act_base and form token, not the viewer; a
    # race line reads none of the page's values
    assert templating._names_read(env, "games/generic/_seat_row.html") == {"delta", "fix", "m", "reasons", "seat"}
    assert templating._key_names({"delta", "fix", "m", "reasons", "seat"}) == (
        ("page", "act_base", "csrf"),
        ("delta", "fix", "reasons", "seat"),
    )
    assert templating._names_read(env, "games/danger-zone/_race_line.html") == {"line"}
    assert templating._key_names({"line"}) == ((), ("line",))
    assert templating._names_read(env, "tables/_log_line.html") == {"csrf", "entry", "page", "undo", "undo_base"}
    assert "view" in templating._names_read(env, "games/generic/board.html")  # kept by nobody: reads the view
    # each() names its rows' values by its items, unknown to the finder: all they read counts
    log_reads = templating._names_read(env, "tables/_log.html")
    assert log_reads >= {"entry", "undo", "undo_base", "lines"}
    assert "viewer" not in log_reads  # given its lines: one render for every page with the same lines
    assert templating._names_read(env, "tables/_board.html") is None  # includes a template named by an expression

    renders = []
    template = env.get_template("games/generic/_seat_row.html")
    original = type(template).render
    monkeypatch.setattr(
        type(template), "render", lambda self, *a, **k: renders.append(self.name) or original(self, *a, **k)
    )
    monkeypatch.setattr(env, "check_kept", False)
    templating.clear()
    seat = {"id": 4, "name": "Ana", "score": 3}
    page = {
        "page": "player",
        "act_base": "/t/X/act/",
        "version": 1,
        "table": SimpleNamespace(id=1, code="X", game="generic"),
    }
    call = "{{ partial('games/generic/_seat_row.html', seat=seat, fix=false, delta=none, reasons=[]) }}"
    with app.test_request_context():
        first = env.from_string(call).render(seat=seat, **page)
        again = env.from_string(call).render(seat=seat, **page)
        other = env.from_string(call).render(seat={**seat, "score": 4}, **page)
    assert first == again and 'id="other-4"' in first and ">4<" in other
    assert renders.count("games/generic/_seat_row.html") == 2
    # each() keeps its rows as partial() does: a list of three with one new seat renders one
    rows = "{{ each('games/generic/_seat_row.html', seats, 'seat', fix=false, delta=none, reasons=[]) }}"
    three = [seat, {**seat, "score": 4}, {"id": 5, "name": "Bo", "score": 0}]
    with app.test_request_context():
        listed = env.from_string(rows).render(seats=three, **page)
    assert listed == first + other + env.from_string(call).render(seat=three[2], **page)
    assert renders.count("games/generic/_seat_row.html") == 3
    # a partial inside a kept one is kept with it: its row kept for versions that never asked
    # for its controls, then changed, does not render the controls again
    fix_row = "{{ partial('games/generic/_seat_row.html', seat=seat, fix=true, delta=none, reasons=[]) }}"
    with app.test_request_context():
        for version, score in ((2, 3), (3, 3), (4, 3), (5, 6)):
            env.from_string(fix_row).render(seat={**seat, "score": score}, **dict(page, version=version))
    assert renders.count("games/generic/_seat_row.html") == 5 and renders.count("games/generic/_controls.html") == 1

    # under test every kept render is made again and compared: a key that missed a name fails
    monkeypatch.setattr(env, "check_kept", True)
    monkeypatch.setitem(templating._reads, "games/generic/_seat_row.html", ((), ()))  # as if it read nothing
    reads_fix = "{{ partial('games/generic/_seat_row.html', seat=seat, delta=none, reasons=[]) }}"
    with app.test_request_context(), pytest.raises(AssertionError, match="kept a render"):
        env.from_string(reads_fix).render(seat=seat, fix=False, **page)
        env.from_string(reads_fix).render(seat=seat, fix=True, **page)
    templating.clear()


def test_a_score_sends_the_lines_that_changed_compressed(app, host, join):
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    opened = streams(
        {"ana": (ana, "player"), "screen": (Screen(app, host.code), "screen"), "host": (host, "host")}, version(ana)
    )
    ok(bo.act("score", seat=ana.seat, delta=1))
    sent = read(opened)
    for name, message in sent.items():
        assert 'id="live-board"' not in message and 'id="live-body"' not in message, name
        assert ids(message), name
    assert "Undo +1 Ana" in sent["host"] and "Undo" not in sent["screen"]
    for stream in opened.values():  # what went on the wire is the compressed stream
        assert 0 < stream.decode.wire


def test_a_page_that_applies_every_message_shows_a_fresh_fragment(app, host, join):
    host.start("danger-zone")
    ana, bo, cy = (join(host, name) for name in ("Ana", "Bo", "Cy"))
    pages_open = {
        "ana": (ana, "player"),
        "bo": (bo, "player"),
        "host": (host, "host"),
        "screen": (Screen(app, host.code), "screen"),
    }
    held = {name: fragment(phone, page) for name, (phone, page) in pages_open.items()}
    opened = streams(pages_open, version(ana))
    steps = [
        lambda: host.act("locations.draw"),
        lambda: ana.act("character.pick", seat=ana.seat, character="Lana"),
        lambda: bo.act("character.pick", seat=bo.seat, character="Pam"),
        lambda: host.act("uh", seat=cy.seat, delta=2),
        lambda: host.act("uh", seat=ana.seat, delta=-1),
    ]
    for step in steps:
        if step().status_code != 200:
            continue
        for name, message in read(opened).items():
            held[name] = apply_message(held[name], message)
            phone, page = pages_open[name]
            assert shown(held[name]) == shown(fragment(phone, page)), name


def test_undo_buttons_follow_each_viewer(host, join, client):
    host.start("danger-zone")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    assert host.act("locations.draw").status_code == 200  # host-only to undo
    assert ana.act("character.pick", seat=ana.seat, character="Lana").status_code == 200  # Ana's own
    draw, pick = (e["id"] for e in host.state()["log"][-2:])
    undo = re.compile(r'/undo/(\d+)"')
    seen = {
        name: {int(n) for n in undo.findall(body)}
        for name, body in (
            ("bo", fragment(bo, "player")),
            ("ana", fragment(ana, "player")),
            ("host", fragment(host, "host")),
            ("screen", client.get(f"/t/{host.code}/live?page=screen", headers=HX).get_data(as_text=True)),
        )
    }
    assert {draw, pick} <= seen["host"]
    assert pick in seen["ana"] and draw not in seen["ana"]
    assert not seen["bo"] & {draw, pick} and not seen["screen"]


def test_fragments_and_streams_carry_no_form_token(host, join):
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    page = ana.page().get_data(as_text=True)
    assert f'name="csrf" value="{ana.csrf}"' in page  # a phone without script posts plain forms
    body = fragment(ana, "player")
    assert 'name="csrf"' not in body and ana.csrf not in body
    opened = streams({"ana": (ana, "player")}, version(ana))
    ok(bo.act("score", seat=ana.seat, delta=1))
    message = read(opened)["ana"]
    assert ana.csrf not in message and bo.csrf not in message and 'name="csrf"' not in message


# ---------------------------------------------------------------- hidden cards


@pytest.fixture
def deals(monkeypatch):
    queue = []
    monkeypatch.setattr(deal, "new_deal", lambda rng: rigged(*queue.pop(0)))
    return queue


def test_no_stream_message_names_a_card_its_viewer_may_not_know(app, host, join, deals):
    """A dealt round with every page's stream open: after each card, each viewer's
    decompressed message is scanned for every card it cannot know."""
    host.start("blackmail")
    ana, bo, cy = (join(host, name) for name in ("Ana", "Bo", "Cy"))
    A, B, C = ana.seat, bo.seat, cy.seat
    deals.append(
        (
            [MALORY, LANA, CYRIL, KRUEGER, ARCHER, CHERYL, RAY, PAM, ARCHER, CYRIL, CHERYL, PAM, KRUEGER, ARCHER],
            (1, 4, 2, 3, 0),
        )
    )
    ok(
        host.act(
            "game.start", to=host.state()["state"]["to"]["start"] or "", tracking="dealt", first_player=A, page="host"
        )
    )
    viewers = {
        A: (ana, "player"),
        B: (bo, "player"),
        C: (cy, "player"),
        "host": (host, "host"),
        "screen": (Screen(app, host.code), "screen"),
    }
    opened = streams(viewers, version(ana))
    public, learned = set(), {who: set() for who in viewers}

    def turn(phone, card, learns=(), seen=(), **form):
        ok(phone.act("dealt.play", card=card, turn=phone.state()["state"]["round"]["dealt"]["turn_no"], **form))
        public.update({card, *seen})
        for seat, cards in learns:
            learned[seat].update(cards)
        state = hidden_state(app, host.code)
        over = state["round"]["stage"] != "playing"
        for who, message in read(opened).items():
            known = public | learned[who] | set(state["round"]["deal"]["hands"].get(who, []))
            for number in set() if over else set(BY_NUMBER) - known:
                for pattern in NAMES[number]:
                    assert not re.search(pattern, scrub(message)), f"{who} got {pattern!r} after {card}"

    turn(ana, ARCHER, learns=[(A, {CYRIL})], seen={CHERYL}, target=B, named=CHERYL)
    turn(bo, CHERYL, learns=[(B, {MALORY})], choice="look")
    turn(cy, KRUEGER, learns=[(C, {MALORY})], named=CHERYL)
    turn(ana, PAM, seen={CYRIL}, target=B)
    turn(bo, CYRIL, learns=[(B, {RAY}), (C, {ARCHER})], seen={ARCHER}, target=C)
    turn(cy, RAY, learns=[(C, {MALORY})], seen={CHERYL}, target=C)
    turn(ana, LANA, learns=[(A, {MALORY}), (C, {PAM})])
    turn(cy, ARCHER, seen={MALORY}, target=A, named=MALORY)
    assert host.state()["state"]["round"]["result"]["winners"] == [C]
