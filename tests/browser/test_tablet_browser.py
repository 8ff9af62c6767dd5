"""The tablet in a real browser: every game at 2 to 8 seats, on a landscape and a
portrait tablet and a phone lying flat; each panel on its edge, turned to face it (read from
the computed transform), its main action visible and not covered, nothing cut off; a tap on
a panel shows on that seat's phone and the table screen; a device not let in is refused, and
refused again once the host revokes it.

One tablet page per game and seat count, resized to each size (the layout follows the screen
by media queries), so the whole file stays quick."""

import os
import re

import pytest

from browser_steps import Host, let_in, sit_down, tablet

TABLETS = [(1024, 768), (1280, 800), (820, 1180)]
PHONE = (412, 915)  # a phone lying flat: 2 to 4 seats
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
SEATS = {"danger-zone": (2, 5, 8), "generic": (2, 5, 8), "blackmail": (2, 4), "assassins": (3, 4)}
ANGLE = {"bottom": 0, "left": 90, "top": 180, "right": -90}


def prepare(host, game):
    """Each game at the point where every panel has an action of its own."""
    seats = [s["id"] for s in host.state()["seats"]]
    if game == "danger-zone":  # round 1's Movement: one seat reveals, the others may change UH
        for seat, character in zip(seats, ("Archer", "Lana", "Cyril", "Pam", "Cheryl", "Ray", "Krieger", "Malory")):
            host.post("/act/character.pick", seat=str(seat), character=character)
        host.post("/act/locations.draw")
        host.post("/act/initiative.roll")
        host.post("/act/order.confirm", order=",".join(map(str, seats)))
        host.post("/act/round.next", to=host.state()["next_step"])
    elif game == "blackmail":  # scores only: each seat's "won this round"
        host.post("/act/game.start", tracking="scores", first_player="random", to=host.state()["to"]["start"])


def to_mission(host):
    """Danger Zone on to the Mission, its Challenges drawn: the roller's panel holds them."""
    state = host.state()
    for seat in state["seats"]:
        host.post("/act/movement.enter", seat=str(seat["id"]), location=state["locations"][0]["name"])
    host.post("/act/round.next", to=host.state()["next_step"])
    cards = {}
    drawn = (("Booze", 9), ("Guns", 11), ("Sex", 7), ("Smarts", 12), ("Booze", 13))
    for i, (kind, difficulty) in enumerate(drawn[: host.state()["challenges_to_draw"]], 1):
        cards.update({f"type_{i}": kind, f"difficulty_{i}": str(difficulty), f"reward_{i}": "2"})
    host.post("/act/challenge.draw", **cards)


CHECK = """() => {
  const middle = document.querySelector('.tb-middle').getBoundingClientRect();
  const W = innerWidth, H = innerHeight, found = [];
  const boxes = [];
  for (const slot of document.querySelectorAll('.tb-slot')) {
    const panel = slot.querySelector('.tb-panel');
    const r = panel.getBoundingClientRect();
    const m = new DOMMatrix(getComputedStyle(panel).transform);
    // Which side of the middle the panel lies on: its edge, read from where it is drawn.
    const edge = r.right <= middle.left + 1 ? 'left' : r.left >= middle.right - 1 ? 'right'
               : r.top >= middle.bottom - 1 ? 'bottom' : r.bottom <= middle.top + 1 ? 'top' : 'middle';
    const main = panel.querySelector('[data-main]');
    let hit = null, mainBox = null;
    if (main) {
      const b = main.getBoundingClientRect();
      mainBox = [b.left, b.top, b.right, b.bottom];
      hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    }
    const small = [...panel.querySelectorAll('button, select, summary')]
      .filter(el => el.checkVisibility() && (el.offsetHeight < 48 || el.offsetWidth < 48))
      .map(el => el.textContent.trim() + ' ' + el.offsetWidth + 'x' + el.offsetHeight);
    found.push({seat: slot.dataset.seat, edge, angle: Math.round(Math.atan2(m.b, m.a) * 180 / Math.PI),
                inside: r.left >= -1 && r.top >= -1 && r.right <= W + 1 && r.bottom <= H + 1,
                main: !!main, mainBox, mainOk: !!hit && (hit === main || main.contains(hit)),
                cut: panel.scrollHeight > panel.clientHeight + 1 || panel.scrollWidth > panel.clientWidth + 1,
                small});
    boxes.push([r.left, r.top, r.right, r.bottom]);
  }
  boxes.push([middle.left, middle.top, middle.right, middle.bottom]);
  // The middle's own step (the next phase), when it has one, in sight and not covered.
  const step = document.querySelector('.tb-middle [data-middle-main]');
  let stepOk = true;
  if (step) {
    const b = step.getBoundingClientRect(), hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    stepOk = b.top >= middle.top && b.bottom <= middle.bottom && !!hit && (hit === step || step.contains(hit));
  }
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, b] = [boxes[i], boxes[j]];
    const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
    if (w > 1 && h > 1) overlaps++;
  }
  const middleSmall = [...document.querySelectorAll('.tb-middle button, .tb-middle select, .tb-middle summary')]
    .filter(el => el.checkVisibility() && (el.offsetHeight < 48 || el.offsetWidth < 48))
    .map(el => el.textContent.trim() + ' ' + el.offsetWidth + 'x' + el.offsetHeight);
  return {panels: found, overlaps, stepOk, middleSmall, middleInside: middle.width > 100 && middle.height > 80};
}"""


def expected_edges(count, size):
    """How many panels each edge holds (bottom, left, top, right), as the issue asks: spread
    over the edges, long edges first; a phone keeps to its short edges."""
    w, h = size
    if (w, h) == PHONE:
        return ((count + 1) // 2, 0, count // 2, 0)
    from companion.tablet.routes import LANDSCAPE, PORTRAIT

    return (LANDSCAPE if w > h else PORTRAIT)[count]


@pytest.mark.parametrize("game", list(SEATS))
def test_every_panel_on_its_edge_facing_out_with_its_action_in_reach(live_server, new_phone, game):
    host_page = tablet(new_phone, 1024, 768)
    for count in SEATS[game]:
        host = Host(host_page, live_server.url, game)
        host.seats(NAMES[:count])
        prepare(host, game)
        for stage in ("movement", "mission") if game == "danger-zone" else ("",):
            if stage == "mission":
                to_mission(host)
            host_page.goto(f"{live_server.url}/t/{host.code}/tablet")
            host_page.wait_for_selector(".tb-board")
            for size in TABLETS + ([PHONE] if count <= 4 else []):
                check(host_page, f"{game} {stage}, {count} seats, {size[0]}x{size[1]}", count, size)


def check(host_page, where, count, size):
    host_page.set_viewport_size({"width": size[0], "height": size[1]})
    # The layout sheet and the new size have applied once the first panel sits on its edge.
    host_page.wait_for_function("() => document.querySelector('.tb-slot').getBoundingClientRect().width > 0")
    result = host_page.evaluate(CHECK)
    panels = result["panels"]
    assert len(panels) == count, where
    assert result["overlaps"] == 0 and result["middleInside"] and result["stepOk"], (where, result)
    assert not result["middleSmall"], (where, result["middleSmall"])
    per_edge = tuple(sum(p["edge"] == e for p in panels) for e in ("bottom", "left", "top", "right"))
    assert per_edge == expected_edges(count, size), (where, per_edge)
    for p in panels:
        assert p["angle"] == ANGLE[p["edge"]], (where, p)  # turned toward its player
        assert p["inside"] and not p["cut"], (where, p)  # nothing cut off
        assert p["main"] and p["mainOk"], (where, p)  # its action visible, not covered
        assert not p["small"], (where, p)  # every tap target >= 48 px


@pytest.mark.parametrize(
    "game,after,what",
    [
        ("danger-zone", "6", "data-score"),
        ("blackmail", "1", "data-vp"),
        ("assassins", "1", "data-prelim"),
        ("generic", "1", "data-score"),
    ],
)
def test_a_tap_on_a_panel_shows_on_the_phone_and_the_table_screen(live_server, new_phone, game, after, what):
    host_page = tablet(new_phone, 1280, 800)
    host = Host(host_page, live_server.url, game)
    phone = new_phone()
    sit_down(phone, f"{live_server.url}/t/{host.code}", "Ana")
    host.seats(["Bo", "Cy"])
    prepare(host, game)
    seat = host.state()["seats"][0]["id"]
    screen = tablet(new_phone, 1280, 800)
    screen.goto(f"{live_server.url}/t/{host.code}/screen")
    phone.reload()
    host_page.goto(f"{live_server.url}/t/{host.code}/tablet")
    panel = f"#tb-s{seat} .tb-panel"
    tap = "button[data-main]"
    if game == "danger-zone" and host.state()["whose_turn"] == seat:
        tap = "button[aria-label='Ana +1 Upper Hand']"  # the reveal is her main action now
    host_page.click(f"{panel} {tap}")
    host_page.wait_for_function(
        f"() => document.querySelector(\"{panel} [{what}]\").textContent.trim().startsWith('{after}')"
    )
    phone.wait_for_function(
        f"() => (document.querySelector(\"section.me [{what}]\") || {{}}).textContent?.trim().startsWith('{after}')"
    )
    screen.wait_for_function(
        f"() => (document.querySelector(\".tv-seat[data-seat='{seat}'] [{what}]\") || {{}}).textContent?.trim().startsWith('{after}')"
    )
    log = host.page.request.get(f"{live_server.url}/t/{host.code}/state.json").json()
    assert log["log"][-1]["who"] == "Ana (at the tablet)"  # as her seat, by the tablet
    if game == "generic":
        # And the other way: a tap on the phone shows on the tablet, live.
        phone.click("section.me button[name=delta][value='1']")
        host_page.wait_for_function(f"() => document.querySelector(\"{panel} [{what}]\").textContent.trim() === '2'")


def test_a_device_not_let_in_is_refused_and_revoking_refuses_it_again(live_server, new_phone):
    host_page = tablet(new_phone, 1024, 768)
    host = Host(host_page, live_server.url, "generic")
    host.seats(["Ana", "Bo"])
    device = tablet(new_phone, 1024, 768)
    response = device.goto(f"{live_server.url}/t/{host.code}/tablet")
    assert response.status == 403 and "may not open the tablet" in device.content()

    let_in(host_page, live_server.url, host.code, device)
    device.click(".tb-slot:first-child button[data-main]")
    device.wait_for_function(
        "() => document.querySelector('.tb-slot:first-child [data-score]').textContent.trim() === '1'"
    )

    host_page.goto(f"{live_server.url}/t/{host.code}/host")
    host_page.click("#tablet-menu > summary")
    host_page.click("[data-revoke]")
    host_page.wait_for_url("**/host")
    # Its next tap is refused, and the page then shows the refusal instead of the board.
    device.click(".tb-slot:first-child button[data-main]")
    device.wait_for_selector("text=may not open the tablet")
    assert host.state()["seats"][0]["score"] == 1


def test_the_tablet_follows_play_again_to_the_next_table_by_itself(live_server, new_phone):
    """The host starts the next game: a let-in device and the host's own tablet page both
    show the next table's tablet, with nobody touching them."""
    host_page = tablet(new_phone, 1024, 768)
    host = Host(host_page, live_server.url, "generic")
    host.seats(["Ana", "Bo"])
    device = tablet(new_phone, 1024, 768)
    let_in(host_page, live_server.url, host.code, device)
    own = host_page.context.new_page()
    own.goto(f"{live_server.url}/t/{host.code}/tablet")
    for page in (device, own):
        page.wait_for_selector(".tb-board")
    old = host.code
    host.post("/next", game="generic")
    for page in (device, own):
        page.wait_for_url(re.compile(rf"/t/(?!{old}/)\w+/tablet$"))
        page.wait_for_selector(".tb-slot:nth-child(2)")
    assert device.url == own.url


def test_the_host_moves_and_turns_a_panel_and_the_tablet_remembers(live_server, new_phone):
    host_page = tablet(new_phone, 1024, 768)
    host = Host(host_page, live_server.url, "generic")
    ana, bo, cy = host.seats(["Ana", "Bo", "Cy"])
    host_page.goto(f"{live_server.url}/t/{host.code}/tablet")
    angle = f"""() => {{ const m = new DOMMatrix(getComputedStyle(document.querySelector('#tb-s{ana} .tb-panel')).transform);
                        return Math.round(Math.atan2(m.b, m.a) * 180 / Math.PI); }}"""
    assert host_page.evaluate(angle) == 0  # Ana sits at the bottom
    host_page.click("#tb-menu > summary")
    host_page.click("#tb-arrange > summary")
    host_page.select_option(f"select[name=edge_{ana}]", "right")
    host_page.select_option(f"select[name=face_{ana}]", "top")
    host_page.uncheck(f"input[name=show_{bo}]")
    host_page.click("[data-save-layout]")
    host_page.wait_for_function(f"() => !document.querySelector('#tb-s{bo}')")
    host_page.wait_for_function(f"() => ({angle})() === 180")
    host_page.reload()
    host_page.wait_for_selector(".tb-board")
    host_page.wait_for_function(f"() => ({angle})() === 180")
    box = host_page.locator(f"#tb-s{ana} .tb-panel").bounding_box()
    assert box["x"] + box["width"] > 1024 - 5  # on the right edge now
    assert host_page.locator("[data-left-off]").count() == 1


def test_a_card_played_from_the_tablet_in_full_tracking(live_server, new_phone):
    """Blackmail, full tracking: the seat on turn opens its cards over the middle (turned to
    face it), plays one, and the turn moves on; the play is the seat's own."""
    host_page = tablet(new_phone, 1024, 768)
    host = Host(host_page, live_server.url, "blackmail")
    ana, bo, cy = host.seats(["Ana", "Bo", "Cy"])
    host.post("/act/game.start", tracking="full", first_player=str(bo), to=host.state()["to"]["start"])
    host_page.goto(f"{live_server.url}/t/{host.code}/tablet")
    host_page.click(f"#tb-s{bo} label[data-main]")
    sheet = f"#tb-over-s{bo} .tb-sheet"
    turned = host_page.evaluate(f"""() => {{ const m = new DOMMatrix(getComputedStyle(document.querySelector('{sheet}')).transform);
                                             return Math.round(Math.atan2(m.b, m.a) * 180 / Math.PI); }}""")
    assert turned == 90  # Bo sits at the left edge
    host_page.click(f"{sheet} details[data-card='7'] > summary")
    host_page.click(f"{sheet} details[data-card='7'] button.big")
    host_page.wait_for_selector(".tb-plays li[data-play='1']")
    host_page.wait_for_selector(f"#tb-s{cy} .tb-panel.tb-turn")
    assert not host_page.locator(".tb-over").is_visible()
    log = host.page.request.get(f"{live_server.url}/t/{host.code}/state.json").json()["log"]
    assert log[-1]["who"] == "Bo (at the tablet)" and "Lana Kane" in log[-1]["text"]


# --- every tap target 48 px, no text cut short, the middle's step in sight ---------

SURVEY = """() => {
  const out = {step: null, small: [], cut: []};
  const middle = document.querySelector('.tb-middle').getBoundingClientRect();
  // The middle's step (the next phase, number or bank) whole in the middle and not covered:
  // never half below the fold of its scrolling body.
  const step = document.querySelector('.tb-middle [data-middle-main]');
  const over = document.querySelector('.tb-menu[open], .tb-toggle:checked');  // a sheet on top
  if (step && !over) {
    const b = step.getBoundingClientRect();
    const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    if (!(b.top >= middle.top - 1 && b.bottom <= middle.bottom + 1 && hit && (hit === step || step.contains(hit))))
      out.step = step.textContent.trim() + ' at ' + [b.top, b.bottom] + ' in ' + [middle.top, middle.bottom];
  }
  const name = el => (el.getAttribute('aria-label') || el.textContent || el.name || el.tagName)
                       .trim().replace(/\\s+/g, ' ').slice(0, 60);
  const shown = el => el.checkVisibility({opacityProperty: true, visibilityProperty: true})
                      && getComputedStyle(el).pointerEvents !== 'none';
  const cuts = () => {
    for (const el of document.querySelectorAll('body *')) {
      const cs = getComputedStyle(el);
      if (cs.textOverflow !== 'clip' && shown(el) && el.scrollWidth > el.clientWidth + 1)
        out.cut.push(name(el) + ' (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
    }
  };
  cuts();
  // Then every fold open, so what the folds hold is measured too (of an accordion, whose folds
  // open one at a time, the first).
  const groups = new Set();
  document.querySelectorAll('.tb-board details').forEach(d => {
    if (d.name && groups.has(d.name)) return;
    if (d.name) groups.add(d.name);
    d.open = true;
  });
  cuts();
  const targets = '.tb-board button, .tb-board select, .tb-board summary, .tb-board a[href], .tb-board label, '
                + '.tb-board input:not([type=hidden])';
  for (const el of document.querySelectorAll(targets)) {
    if (!shown(el)) continue;
    // A label is a target when it works a control: it wraps one or names one (for=).
    if (el.tagName === 'LABEL' && !el.htmlFor && !el.querySelector('input, select')) continue;
    // Layout sizes, as its player sees it: a panel turned a quarter swaps the screen's axes. A
    // small circle may take the finger on a wider ring round it (its ::after, as app.css's "?").
    const after = getComputedStyle(el, '::after');
    const ring = after.position === 'absolute' ? Math.max(0, -parseFloat(after.top) || 0) : 0;
    if (el.offsetWidth + 2 * ring < 48 || el.offsetHeight + 2 * ring < 48)
      out.small.push(name(el) + ' ' + el.offsetWidth + 'x' + el.offsetHeight);
  }
  document.querySelectorAll('.tb-board details').forEach(d => { d.open = false; });
  return out;
}"""


def wait_version(page, version):
    page.wait_for_function("v => +document.querySelector('#live-body').dataset.version >= v", arg=version)


def survey_states(host, page, game):
    """Yield (what, seat count) at each state of `game` worth measuring, the tablet showing it."""
    base = host.base
    seats = [s["id"] for s in host.state()["seats"]]

    def show(*opened):
        version = host.page.request.get(f"{base}/t/{host.code}/state.json").json()["version"]
        wait_version(page, version)
        for label in opened:
            page.click(label)

    if game == "danger-zone":
        host.post("/act/character.pick", seat=str(seats[0]), character="Archer")
        host.post("/act/character.pick", seat=str(seats[1]), character="Lana")
        host.post("/act/initiative.seat_roll", seat=str(seats[0]), to="1")
        show()
        yield "setup: picks and the Initiative roll-off"
        host.post("/act/character.pick", seat=str(seats[2]), character="Cyril")
        host.post("/act/character.pick", seat=str(seats[3]), character="Pam")
        host.post("/act/locations.draw")
        while "Malory's Office" not in [loc["name"] for loc in host.state()["locations"]]:
            host.post("/act/locations.draw")
        host.post("/act/initiative.record", seat=str(seats[0]))
        host.post("/act/order.confirm", order=",".join(map(str, seats)))
        host.post("/act/round.next", to=host.state()["next_step"])
        show("#tb-menu > summary", "#tb-arrange > summary")
        yield "movement: the first reveal, the menu and the arrange sheet open"
        others = [loc["name"] for loc in host.state()["locations"] if loc["name"] != "Malory's Office"]
        for seat, place in zip(seats, ["Malory's Office", "Malory's Office", others[0], others[0]]):
            host.post("/act/movement.enter", seat=str(seat), location=place)
        show(f"#tb-s{seats[0]} [data-event-open]")
        yield "movement: the Event card's sheet, the dice for the foes"
        page.click(f"#tb-over-s{seats[0]} [data-close]")
        host.post("/act/round.next", to=host.state()["next_step"])
        show()
        yield "mission: the Challenges typed in the middle"
        cards = {}
        for row, (kind, difficulty) in enumerate((("Booze", 7), ("Guns", 8), ("Sex", 9)), 1):
            cards.update({f"type_{row}": kind, f"difficulty_{row}": str(difficulty), f"reward_{row}": "2"})
        host.post("/act/challenge.draw", **cards)
        roller = host.state()["whose_turn"]
        show(f"#tb-s{roller} [data-roll-open]")
        yield "mission: the roll's sheet"
    elif game == "assassins":
        show()
        yield "the ghost's face-up cards to type"
        host.post("/act/ghost.record", card1="Magician", card2="Soldier", card3="Cook", card4="Chef")
        host.post("/act/resolve.step", step="next", to="1")
        host.post("/act/points", seat=str(seats[0]), delta="2")
        show()
        yield "resolving: the ghost's steps and her face-down cards"
    elif game == "blackmail":
        host.post("/act/game.start", tracking="scores", first_player="random", to=host.state()["to"]["start"])
        show()
        yield "scores only: a won round, the tie"
        host.post("/act/game.reset")
        host.post("/act/game.start", tracking="full", first_player=str(seats[0]), to=host.state()["to"]["start"])
        show(f"#tb-s{seats[0]} label[data-main]")
        yield "full tracking: the cards to play"
    else:
        show()
        yield "scores"


SURVEY_SEATS = {
    "danger-zone": ["Anastasia", "Bartholomew", "Cyrillia", "Dee"],
    "assassins": ["Anastasia", "Bartholomew", "Cy"],
    "blackmail": ["Anastasia", "Bartholomew", "Cy"],
    "generic": ["Ana", "Bo"],
}
_surveys = {}


@pytest.fixture(scope="module")
def surveyed(browser, live_server):
    """survey(game): each state of a game measured at every size the tablet is used at (a phone lying
    flat for 4 seats or fewer), once for both tests below."""
    problems = []

    def survey(game):
        if game not in _surveys:
            context = browser.new_context(**browser.devices["Desktop Chrome"])
            context.set_default_timeout(10_000)
            page = context.new_page()
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            host = Host(page, live_server.url, game)
            host.seats(SURVEY_SEATS[game])
            page.set_viewport_size({"width": TABLETS[0][0], "height": TABLETS[0][1]})
            page.goto(f"{live_server.url}/t/{host.code}/tablet")
            page.wait_for_selector(".tb-board")
            found = []
            for what in survey_states(host, page, game):
                for size in TABLETS + ([PHONE] if len(SURVEY_SEATS[game]) <= 4 else []):
                    page.set_viewport_size({"width": size[0], "height": size[1]})
                    page.wait_for_function("() => document.querySelector('.tb-slot').getBoundingClientRect().width > 0")
                    found.append((f"{what} at {size[0]}x{size[1]}", page.evaluate(SURVEY)))
                    if os.environ.get("TABLET_SHOTS"):
                        page.screenshot(
                            path=os.path.join(
                                os.environ["TABLET_SHOTS"], f"survey-{game}-{len(found)}-{size[0]}x{size[1]}.png"
                            )
                        )
                page.set_viewport_size({"width": TABLETS[0][0], "height": TABLETS[0][1]})
            context.close()
            assert not problems, problems[:5]
            _surveys[game] = found
        return _surveys[game]

    return survey


# Both survey tests on one worker, so each game is surveyed once (`--dist loadgroup`).
@pytest.mark.xdist_group("tablet-survey")
@pytest.mark.parametrize("game", list(SEATS))
def test_every_tap_target_on_the_tablet_is_48_px(surveyed, game):
    """Buttons, menus, folds, links, checkboxes and the labels that work them, in every state
    a round passes through, at every size; and the middle's own step whole in sight."""
    for where, found in surveyed(game):
        assert not found["small"], (where, found["small"])
        assert found["step"] is None, (where, found["step"])


@pytest.mark.xdist_group("tablet-survey")
@pytest.mark.parametrize("game", list(SEATS))
def test_no_text_on_the_tablet_is_cut_with_an_ellipsis(surveyed, game):
    """Nothing on the tablet ends in "…": a fact wraps, or sits in a fold."""
    for where, found in surveyed(game):
        assert not found["cut"], (where, found["cut"])
