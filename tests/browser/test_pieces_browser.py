"""Pieces in a real browser: the swaps a stream sends alone (a piece morphed, one
put in the place of a fold whose id changed, a log line put in at the top and the oldest one
deleted, Blackmail's cards played folded by the page itself) leave a phone's page as a fresh
load of it would be."""

import difflib
import json
import re

from benchlib import Client
from browser_steps import sit_down

HX = {"HX-Request": "true", "HX-Target": "live-body"}
# Every text in an element, each apart (a line put in at a list's top has no blank between it
# and the next, as a fresh page's has: the same to the eye, not to textContent).
TEXT = """el => {
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), words = [];
  while (walk.nextNode()) words.push(walk.currentNode.textContent);
  return words.join(' ').replace(/\\s+/g, ' ').trim();
}"""


def seat_phones(port, game, names):
    """A host and phones seated over HTTP (the browser phone joins apart)."""
    host = Client(port)
    code = host.post("/tables", {"game": game})[1].split("/")[2]
    host.get(f"/t/{code}/host")
    phones = []
    for name in names:
        phone = Client(port)
        phone.post(f"/t/{code}/join", {"name": name})
        phone.get(f"/t/{code}/me")
        phones.append(phone)
    return code, host, phones


def act(phone, code, kind, **form):
    status, _, text, _ = phone.post(f"/t/{code}/act/{kind}", {**form, "csrf": phone.csrf}, HX)
    assert status == 200, text[:400]
    return int(re.search(r'data-version="(\d+)"', text).group(1))


def wait_version(page, version):
    page.wait_for_selector(f"#live-body[data-version='{version}']")


def same_as_a_fresh_load(page):
    """The page as the stream left it reads as the same page loaded anew."""
    before = page.locator("#live-board").evaluate(TEXT), page.locator("#log-list").evaluate(TEXT)
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)), "an id twice on the page"
    page.reload()
    after = page.locator("#live-board").evaluate(TEXT), page.locator("#log-list").evaluate(TEXT)
    for was, now in zip(before, after):
        assert was == now, "\n".join(difflib.unified_diff(was.split(), now.split(), lineterm="", n=3))


def test_assassins_pieces_and_the_log_in_a_browser(live_server, new_phone):
    code, host, (bo, cy) = seat_phones(live_server.port, "assassins", ("Bo", "Cy"))
    ana = new_phone()
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    seats = {s["name"]: s["id"] for s in json.loads(bo.get(f"/t/{code}/state.json")[2])["state"]["seats"]}
    c = seats["Cy"]
    ana.click("summary:has-text('Fix a score')")
    ana.click(f"#aoa-kill-1-{c}-0 > summary")  # a fold open on a number about to change
    ana.click(f"#aoa-amount-{c} > summary")  # and one with an amount typed in it
    ana.fill(f"#aoa-amount-{c} input[name=delta]", "4")
    wait_version(ana, act(bo, code, "points", seat=c, delta=2, reason="Cook"))
    # what Ana typed stays, in its open fold, though Cy's points changed under it
    assert ana.locator(f"#aoa-amount-{c}").evaluate("d => d.open")
    assert ana.input_value(f"#aoa-amount-{c} input[name=delta]") == "4"
    assert ana.locator(f"#other-{c} [data-prelim]").inner_text() == "2"
    assert ana.locator(f"#aoa-points-{c} [data-prelim]").inner_text() == "2"
    # the kill fold that named 0 points is gone; the one naming 2 starts closed
    assert ana.locator(f"#aoa-kill-1-{c}-0").count() == 0
    assert not ana.locator(f"#aoa-kill-1-{c}-2").evaluate("d => d.open")
    assert "loses 2 preliminary points" in ana.locator(f"#aoa-kill-1-{c}-2").evaluate(TEXT)
    # more lines than the log shows: it keeps 15, newest first
    for _n in range(16):
        last = act(bo, code, "points", seat=seats["Bo"], delta=1, reason="Cook")
    wait_version(ana, last)
    lines = ana.locator("#log-list > li[data-event]")
    assert lines.count() == 15 and lines.first.get_attribute("id") == f"log-{last}"
    assert ana.locator(f"#other-{seats['Bo']} [data-prelim]").inner_text() == "16"
    # an undo marks its line, and says so in a line of its own
    undo = bo.post(f"/t/{code}/undo/{last}", {"csrf": bo.csrf}, HX)
    assert undo[0] == 200
    ana.wait_for_selector(f"#log-{last}.undone", state="attached")  # in the folded log
    assert "undo:" in lines.first.evaluate(TEXT) and lines.count() == 15
    same_as_a_fresh_load(ana)


def plays_in(page, list_id):
    return [li.get_attribute("id") for li in page.locator(f"#{list_id} > li[data-play]").all()]


def test_blackmail_cards_played_fold_in_the_browser(live_server, new_phone):
    """The server sends every card played this round in one list (a new card is one line at its
    top, nothing moves); the phone's page folds all but the newest three into "Earlier cards"
    itself (static/games/blackmail.js, foldPlays), after every message, and after an undo."""
    code, host, (bo, cy) = seat_phones(live_server.port, "blackmail", ("Bo", "Cy"))
    ana = new_phone()
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    state = json.loads(host.get(f"/t/{code}/state.json")[2])
    seats = {s["name"]: s["id"] for s in state["state"]["seats"]}
    act(
        host,
        code,
        "game.start",
        to=state["state"]["to"]["start"],
        tracking="full",
        first_player=seats["Bo"],
        page="host",
    )
    ana.wait_for_selector("#bm-round")
    turns = [
        (bo, {"card": 2, "named": 8, "correct": "no"}),
        (cy, {"card": 2, "named": 8, "correct": "no"}),
        (None, {"card": 4, "choice": "protect"}),
        (bo, {"card": 4, "choice": "protect"}),
        (cy, {"card": 1}),
    ]  # everyone else is protected: no effect
    fold = ana.locator("#bm-plays-fold")
    for n, (phone, form) in enumerate(turns, 1):
        if phone is None:  # Ana's own turn, posted with her browser's cookie: the stream brings it
            token = ana.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token']")
            answer = ana.request.post(
                f"{live_server.url}/t/{code}/act/play", form=form, headers={**HX, "X-CSRF-Token": token}
            )
            assert answer.ok
            version = int(re.search(r'data-version="(\d+)"', answer.text()).group(1))
        else:
            version = act(phone, code, "play", **form)
        wait_version(ana, version)
        if n == 3:  # three cards: all in view, the fold hidden and empty
            assert plays_in(ana, "bm-plays-new") == ["bm-play-3", "bm-play-2", "bm-play-1"]
            assert plays_in(ana, "bm-plays-old") == [] and fold.is_hidden()
    # What the server sends: the five in one list, the fold empty and hidden (a page without
    # script shows them all); the stream never moves a line into the fold.
    fragment = bo.get(f"/t/{code}/me", HX)[2]
    listed = fragment.split('id="bm-plays-new"')[1].split("</ol>")[0]
    assert re.findall(r'id="(bm-play-\d+)"', listed) == [f"bm-play-{n}" for n in (5, 4, 3, 2, 1)]
    assert '<ol id="bm-plays-old" reversed></ol>' in fragment
    assert re.search(r'<details id="bm-plays-fold"[^>]* hidden>', fragment)
    # What the phone shows: the newest three, the two before in the fold, its count said
    assert plays_in(ana, "bm-plays-new") == ["bm-play-5", "bm-play-4", "bm-play-3"]
    assert plays_in(ana, "bm-plays-old") == ["bm-play-2", "bm-play-1"]
    assert fold.is_visible() and ana.locator("#bm-plays-earlier").inner_text() == "Earlier cards (2)"
    assert ana.locator("#bm-play-3").is_visible() and ana.locator("#bm-play-2").is_hidden()
    ana.click("#bm-plays-earlier")  # the fold opens on the two earlier cards
    assert ana.locator("#bm-play-2").is_visible() and ana.locator("#bm-play-1").is_visible()
    same_as_a_fresh_load(ana)  # (the reloaded page folds the same)
    assert plays_in(ana, "bm-plays-old") == ["bm-play-2", "bm-play-1"]
    # An undo deletes the newest line: the page brings the third back out of the fold
    undo = host.post(f"/t/{code}/undo/{version}", {"csrf": host.csrf, "page": "host"}, HX)
    assert undo[0] == 200, undo[2][:400]
    wait_version(ana, int(re.search(r'data-version="(\d+)"', undo[2]).group(1)))
    assert plays_in(ana, "bm-plays-new") == ["bm-play-4", "bm-play-3", "bm-play-2"]
    assert plays_in(ana, "bm-plays-old") == ["bm-play-1"]
    assert ana.locator("#bm-plays-earlier").inner_text() == "Earlier cards (1)"
    same_as_a_fresh_load(ana)


def test_blackmail_cards_played_start_empty_in_the_next_round(live_server, new_phone):
    """A round's end sends the emptied list of cards played whole: the lines the phone had
    folded away are the old round's and go with it, not back into the new round's list."""
    code, host, (bo, cy) = seat_phones(live_server.port, "blackmail", ("Bo", "Cy"))
    ana = new_phone()
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    state = json.loads(host.get(f"/t/{code}/state.json")[2])["state"]
    seats = {s["name"]: s["id"] for s in state["seats"]}
    act(host, code, "game.start", to=state["to"]["start"], tracking="full", first_player=seats["Bo"], page="host")
    ana.wait_for_selector("#bm-round")
    wrong = {"card": 2, "named": 8, "correct": "no"}
    for phone, form in (
        (bo, wrong),
        (cy, wrong),
        (host, {"card": 4, "choice": "protect", "seat": seats["Ana"], "page": "host"}),
        (bo, {"card": 4, "choice": "protect"}),
        (cy, {"card": 1}),  # everyone else is protected: no effect
        (host, {"card": 1, "target": seats["Cy"], "named": 3, "correct": "yes", "seat": seats["Ana"], "page": "host"}),
        (bo, {"card": 1, "target": seats["Ana"], "named": 3, "correct": "yes"}),  # Bo is the last one in
    ):
        version = act(phone, code, "play", **form)
    wait_version(ana, version)
    assert plays_in(ana, "bm-plays-old") == [f"bm-play-{n}" for n in (4, 3, 2, 1)]
    state = json.loads(host.get(f"/t/{code}/state.json")[2])["state"]
    wait_version(ana, act(bo, code, "round.confirm", to=state["to"]["next_round"]))
    assert plays_in(ana, "bm-plays-new") == [] and plays_in(ana, "bm-plays-old") == []
    assert ana.locator("#bm-plays-fold").is_hidden() and ana.locator("#bm-plays-none").is_visible()
    same_as_a_fresh_load(ana)


def test_danger_zone_pieces_in_a_browser(live_server, new_phone):
    """A phone's seat lines, "fix" rows, own block, tracker, Locations and race (each seat's
    line an <svg> of its own inside the chart) by stream, then a reload: the same page."""
    code, host, (bo, cy) = seat_phones(live_server.port, "danger-zone", ("Bo", "Cy"))
    ana = new_phone()
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    seats = {s["name"]: s["id"] for s in json.loads(bo.get(f"/t/{code}/state.json")[2])["state"]["seats"]}
    a, b, c = seats["Ana"], seats["Bo"], seats["Cy"]
    for seat, character in ((a, "Archer"), (b, "Lana"), (c, "Cheryl")):
        act(host, code, "character.pick", seat=seat, character=character)
    act(host, code, "locations.draw")
    act(host, code, "initiative.record", seat=a)
    act(host, code, "order.confirm", order=",".join(map(str, seats.values())))  # as they joined
    wait_version(ana, act(host, code, "round.next", to="round 1, Movement"))
    ana.click("summary:has-text('Fix a score')")
    ana.click("summary:has-text('Dice, odds')")  # the race is in this fold
    wait_version(ana, act(bo, code, "upper_hand.change", seat=c, delta=2, reason="Insult"))
    assert ana.locator(f"#other-{c} [data-score]").inner_text() == "7"
    assert ana.locator(f"#dz-fix-n-{c}").inner_text() == "7"
    # the seat's line in the race came alone, and is drawn: an SVG element, not an HTML one
    assert ana.locator(f"#dz-race-{c} polyline").evaluate("p => p instanceof SVGElement && p.getTotalLength() > 0")
    assert ana.locator(f"#dz-race-name-{c} text").text_content() == "Cy 7"
    assert ana.locator(f"#dz-race-name-{c} text").bounding_box()["width"] > 0
    wait_version(ana, act(bo, code, "upper_hand.change", seat=a, delta=1, reason="Insult"))
    assert ana.locator("#me [data-score]").inner_text() == "6"
    assert "flash" in ana.locator("#me-cue").get_attribute("class")  # its ring, a region of its own
    # Ana's own reveal, from her phone: the stream brings the rest of the table the turn
    ana.locator("section.me .dz-enter button").first.click()
    ana.wait_for_selector("#dz-now[data-now]")
    for seat, delta in ((b, 1), (c, -1), (a, 2), (b, -1)):
        act(cy, code, "upper_hand.change", seat=seat, delta=delta, reason="Insult")
    wait_version(ana, act(bo, code, "dice.roll", dice=3))
    assert ana.locator("#dz-last-roll").count() == 1
    wait_version(
        ana, act(bo, code, "movement.enter", location=ana.locator("#dz-where li").nth(1).get_attribute("data-location"))
    )
    assert ana.locator(f"#other-{b} .status").inner_text().startswith("at ")
    same_as_a_fresh_load(ana)
