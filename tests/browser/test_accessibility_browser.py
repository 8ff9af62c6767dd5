"""In a real browser: axe-core (WCAG 2.0/2.1, levels A and AA) finds no critical or
serious violation on any screen, in the light and the dark scheme, at a phone's size (412x915)
and a laptop's or TV's (1280x800); every control of the host page is reached and used by
keyboard alone. (The table screen's landmarks and facts: test_screens_browser.py.)

axe-core is vendored for the tests only (tests/vendor/, with its licence): the app never
serves it. It runs in the page through the DevTools protocol, so the app's content security
policy stays as it is. A few tables, each in the middle of a game, are reused for every page
view: one test function walks them all, so the suite stays quick."""

import json

import pytest

from browser_steps import COLOUR_RULES, axe_found, post_as, seat_ids, sit_down, start_axe, start_table

pytest.importorskip("playwright.sync_api")

SIZES = {"phone": {"width": 412, "height": 915}, "laptop": {"width": 1280, "height": 800}}
SCHEMES = ("light", "dark")


def host_view(page):
    code = page.url.split("/t/")[1].split("/")[0]
    return page.request.get(page.url.split("/t/")[0] + f"/t/{code}/state.json").json()["state"]


# --- tables in the middle of a game ---------------------------------------------------------


def with_ana(base, new_phone, game, *others):
    """A table of `game`: the host's page, Ana on her phone, the others added by the host.
    Returns (host, ana, code, {name: seat id})."""
    host = new_phone()
    code = start_table(host, base, game)
    ana = new_phone()
    sit_down(ana, f"{base}/t/{code}", "Ana")
    for name in others:
        post_as(host, "/seats", name=name)
    return host, ana, code, seat_ids(host)


def danger_zone_mission(base, new_phone):
    """Danger Zone in round 1's Mission with Challenges drawn: Ana on her phone, Bo and Cy
    added by the host."""
    host, ana, code, ids = with_ana(base, new_phone, "danger-zone", "Bo", "Cy")
    for name, character in (("Ana", "Archer"), ("Bo", "Lana"), ("Cy", "Cheryl")):
        post_as(host, "/act/character.pick", seat=str(ids[name]), character=character)
    post_as(host, "/act/locations.draw")
    post_as(host, "/act/initiative.roll")
    post_as(host, "/act/order.confirm", order=",".join(str(ids[n]) for n in ("Ana", "Bo", "Cy")))
    post_as(host, "/act/round.next", to=host_view(host)["next_step"])
    for _ in range(3):
        view = host_view(host)
        post_as(host, "/act/movement.enter", seat=str(view["whose_turn"]), location=view["locations"][0]["name"])
    post_as(host, "/act/round.next", to=host_view(host)["next_step"], force="1")
    cards = {}
    for row, (kind, difficulty, reward) in enumerate((("Booze", 8, 4), ("Guns", 12, 3), ("Smarts", 6, 1)), start=1):
        cards.update({f"type_{row}": kind, f"difficulty_{row}": str(difficulty), f"reward_{row}": str(reward)})
    post_as(host, "/act/challenge.draw", **cards)
    return host, ana, code


def blackmail_started(base, new_phone, tracking):
    """Blackmail with `tracking` ("full", or "dealt": Ana's hand on her phone), round 1 under
    way: Ana on her phone first, Bo and Cy added."""
    host, ana, code, ids = with_ana(base, new_phone, "blackmail", "Bo", "Cy")
    post_as(
        host,
        "/act/game.start",
        to=host_view(host)["to"]["start"] or "",
        tracking=tracking,
        first_player=str(ids["Ana"]),
    )
    return host, ana, code


def blackmail_full(base, new_phone):
    return blackmail_started(base, new_phone, "full")


def blackmail_dealt(base, new_phone):
    return blackmail_started(base, new_phone, "dealt")


def assassins_resolving(base, new_phone):
    """Age of Assassins at 3 seats (the ghost plays) resolving number 3, with points and a kill."""
    host, ana, code, ids = with_ana(base, new_phone, "assassins", "Bo", "Cy")
    post_as(host, "/act/ghost.record", card1="Cook", card2="Soldier", card3="Card E", card4="Magician")
    post_as(host, "/act/resolve.step", step="next", to="1", force="1")
    post_as(host, "/act/resolve.step", number="3", at="1")
    for name, points in (("Ana", 4), ("Bo", 2), ("Cy", 5)):
        post_as(host, "/act/points", seat=str(ids[name]), delta=str(points), reason="Cook")
    post_as(host, "/act/kill", seat=str(ids["Bo"]))
    post_as(host, "/act/penalty", seat=str(ids["Cy"]), delta="1")
    return host, ana, code


def generic_table(base, new_phone):
    """The plain scoreboard: Ana on her phone, Bo added by the host with 3 points."""
    host, ana, code, ids = with_ana(base, new_phone, "generic", "Bo")
    post_as(host, "/act/score", seat=str(ids["Bo"]), delta="3", reason="Points")
    return host, ana, code


def game_tables(base, new_phone):
    """{game: (host, phone, code)}: one table of each game in the middle of play, built once
    for the page views and then played on by walk_the_games."""
    return {
        game: build(base, new_phone)
        for game, build in (
            ("generic", generic_table),
            ("danger-zone", danger_zone_mission),
            ("blackmail", blackmail_full),
            ("blackmail dealt", blackmail_dealt),
            ("assassins", assassins_resolving),
        )
    }


def page_views(base, new_phone, tables):
    """(name, page, url) of every screen to check: the home page, the rules, and each game's
    host page, phone, table screen, tablet and join page (plus Blackmail's verify page, the
    Assassins deck list and the game night's pages)."""
    stranger = new_phone()
    views = [
        ("home", stranger, base + "/"),
        ("rules", stranger, base + "/rules"),
        ("rules search", stranger, base + "/rules?q=UH"),
        ("rules game", stranger, base + "/rules/danger-zone"),
        ("rules entry", stranger, base + "/rules/danger-zone/upper-hand"),
        ("rules entry with a table", stranger, base + "/rules/danger-zone/challenges"),
        ("rules quick reference", stranger, base + "/rules/assassins/quickref"),
        ("rules box", stranger, base + "/rules/box"),
    ]
    for game, (host, phone, code) in tables.items():
        views += [
            (f"{game} host", host, f"{base}/t/{code}/host"),
            (f"{game} phone", phone, f"{base}/t/{code}/me"),
            (f"{game} screen", stranger, f"{base}/t/{code}/screen"),
            (f"{game} tablet", host, f"{base}/t/{code}/tablet"),
        ]
        if game == "generic":  # the night's pages are the same for every game
            views += [
                ("night", host, f"{base}/t/{code}/night"),
                ("play again", host, f"{base}/t/{code}/next"),
                ("hosts", host, f"{base}/t/{code}/hosts"),
                ("your tables", host, f"{base}/hosted"),
                ("recover", stranger, f"{base}/recover"),
            ]
        if game in ("generic", "danger-zone", "blackmail", "assassins"):
            views.append((f"{game} join", stranger, f"{base}/t/{code}"))
        if game == "blackmail dealt":
            views.append(("blackmail verify", phone, f"{base}/t/{code}/blackmail/verify"))
        if game == "assassins":
            views.append(("assassins deck list", host, f"{base}/t/{code}/assassins/deck"))
    return views


class Look:
    """axe over one page view in both schemes, at each size, one run after the other; each run
    is started in the page and collected later, so that another page's run can go on meanwhile.
    At each size the first scheme gets every rule and the second only the colour rules (the
    rest read the same page in either scheme), so no rule runs twice over the same page."""

    def __init__(self, found, name, page, url, sizes):
        self.found, self.name, self.page, self.url = found, name, page, url
        self.runs = [
            (size, scheme, None if n == 0 else COLOUR_RULES) for size in sizes for n, scheme in enumerate(SCHEMES)
        ]

    def open(self):
        if self.url:
            self.page.set_viewport_size(SIZES[self.runs[0][0]])
            self.page.goto(self.url)
            self.page.wait_for_load_state("load")

    def start(self):
        """Start the next run; False once every size and scheme is done."""
        if not self.runs:
            return False
        size, scheme, rules = self.runs[0]
        self.page.set_viewport_size(SIZES[size])
        self.page.emulate_media(color_scheme=scheme)
        start_axe(self.page, rules)
        return True

    def collect(self):
        size, scheme, _ = self.runs.pop(0)
        problems = axe_found(self.page)
        if problems:
            self.found[f"{self.name} ({scheme}, {size})"] = problems


def check_all(found, views, sizes=tuple(SIZES)):
    """check() over each (name, page, url) view, or (name, page, url, its sizes). Two views on
    different pages are under way at a time: while axe works in one page, the test loads or
    runs it in the other (the machine's two cores). A page's views are looked at in order."""
    waiting, going = [Look(found, *view) if len(view) == 4 else Look(found, *view, sizes) for view in views], []
    while waiting or going:
        while len(going) < 2:
            free = next((look for look in waiting if all(look.page is not other.page for other in going)), None)
            if free is None:
                break
            waiting.remove(free)
            free.open()
            free.start()
            going.append(free)
        look = going.pop(0)
        look.collect()
        if look.start():
            going.append(look)


def check(found, name, page, url=None, sizes=tuple(SIZES)):
    """axe over one page view in both schemes, at each size; what it finds goes in `found`."""
    check_all(found, [(name, page, url)], sizes)


def test_axe_finds_no_serious_violation_on_any_screen(live_server, new_phone):
    base, found = live_server.url, {}
    tables = game_tables(base, new_phone)
    check_all(found, page_views(base, new_phone, tables))
    walk_the_games(base, new_phone, found, tables)
    assert not found, json.dumps(found, indent=1)


def walk_the_games(base, new_phone, found, tables):
    """Later steps of each game bring screens of their own (a fold open, a seat out, a round
    won, the end): each is checked on the phone's size, where the most wraps and overlaps.
    The tables are page_views' own, played on from where they were looked at."""
    phone_size = ("phone",)

    def table(game):
        host, phone, code = tables[game]
        host.goto(f"{base}/t/{code}/host")  # back from the page views' last page (its tablet)
        return host, phone, code

    def views(name, host, phone, code, screen=True):
        check_all(
            found,
            [
                (f"{name} host", host, f"{base}/t/{code}/host", phone_size),
                (f"{name} phone", phone, f"{base}/t/{code}/me", phone_size),
            ]
            + [(f"{name} screen", host, f"{base}/t/{code}/screen", ("laptop",))] * screen,
        )

    # Danger Zone: setup with the characters to pick, then a round played to the end.
    host, phone, code, ids = with_ana(base, new_phone, "danger-zone", "Bo")
    post_as(host, "/act/character.pick", seat=str(ids["Bo"]), character="Lana")
    views("danger-zone setup", host, phone, code, screen=False)
    host, phone, code = table("danger-zone")
    ids = seat_ids(host)
    post_as(host, "/act/challenge.complete", seat=str(host_view(host)["whose_turn"]), card="1")
    post_as(host, "/act/dice.roll", rolloff="1", dice="3", **{f"with_{i}": "1" for i in ids.values()})
    views("danger-zone mission, a Challenge done", host, phone, code)
    phone.locator("details.dz-fold-tools > summary").click()
    phone.locator("details.dz-odds-table > summary").click()
    check(found, "danger-zone phone, dice and odds open", phone, sizes=phone_size)
    post_as(host, "/act/round.next", to=host_view(host)["next_step"], force="1")
    views("danger-zone clean-up", host, phone, code, screen=False)
    post_as(host, "/act/round.next", to=host_view(host)["next_step"])
    views("danger-zone round 2 movement", host, phone, code)
    post_as(host, "/act/upper_hand.change", seat=str(ids["Ana"]), delta="15", reason="Card")
    views("danger-zone won", host, phone, code)

    # Blackmail, full tracking: a card to play on the phone, a seat out, a round won, history.
    host, phone, code = table("blackmail")
    ids = seat_ids(host)
    phone.goto(f"{base}/t/{code}/me")
    phone.locator("details.card-pick[data-card='3'] > summary").click()  # Cyril: seats and cards
    check(found, "blackmail phone, a card open", phone, sizes=phone_size)
    post_as(
        host,
        "/act/play",
        seat=str(ids["Ana"]),
        card="3",
        target=str(ids["Bo"]),
        eliminated="target",
        revealed="not_shown",
    )
    views("blackmail, a seat out", host, phone, code)
    post_as(host, "/act/play", seat=str(ids["Cy"]), card="8", revealed="not_shown")
    views("blackmail, a round won", host, phone, code)
    post_as(host, "/act/round.confirm", to=host_view(host)["to"]["next_round"] or "")
    views("blackmail round 2", host, phone, code, screen=False)

    # Blackmail dealt by the app: the phone's hand uncovered.
    host, phone, code = table("blackmail dealt")
    phone.goto(f"{base}/t/{code}/me")
    phone.locator("details.bm-cover > summary").click()
    check(found, "blackmail dealt phone, hand open", phone, sizes=phone_size)

    # Age of Assassins: the bank confirmation open, then round 2's draft.
    host, phone, code = table("assassins")
    post_as(host, "/act/resolve.step", number="6", at="3")
    host.goto(f"{base}/t/{code}/host")
    host.locator("details.aoa-bank > summary").click()
    check(found, "assassins host, bank open", host, sizes=phone_size)
    post_as(host, "/act/bank", to="2")
    post_as(host, "/act/ghost.record", card1="Cook", card2="Soldier", card3="Card E", card4="Card F")
    post_as(phone, "/act/draft.pick", seat=str(seat_ids(host)["Ana"]), row="front", card="Cook")
    views("assassins round 2 draft", host, phone, code)
    phone.locator("details.aoa-draft > summary").click()
    check(found, "assassins phone, draft open", phone, sizes=phone_size)


# --- the host page by keyboard alone ----------------------------------------------------------

MARK_CONTROLS = """() => {
  const all = document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]');
  const controls = [...all].filter(e => !e.disabled && e.tabIndex >= 0 && !e.closest('[inert], dialog:not([open])')
    && (e.tagName !== 'SUMMARY' || e.parentElement.querySelector(':scope > summary') === e)
    && e.checkVisibility({visibilityProperty: true}));
  controls.forEach((e, i) => e.dataset.kb = String(i));
  return controls.length;
}"""
FOCUSED = """() => { const e = document.activeElement;
  if (!e || e === document.body) return null;
  const ring = getComputedStyle(e), label = e.closest('label');
  const shown = ring.outlineStyle !== 'none' || ring.boxShadow !== 'none'
    || (label && getComputedStyle(label).outlineStyle !== 'none');
  return {kb: e.dataset.kb || null, radio: e.type === 'radio' ? (e.form ? e.form.getAttribute('action') : '') + ':' + e.name : null,
          ring: shown, what: e.outerHTML.slice(0, 90)}; }"""
UNREACHED = """([seen, groups]) => [...document.querySelectorAll('[data-kb]')].filter(e => !seen.includes(e.dataset.kb)
  && !(e.type === 'radio' && groups.includes((e.form ? e.form.getAttribute('action') : '') + ':' + e.name)))
  .map(e => e.outerHTML.slice(0, 120))"""


def tab_through(page):
    """Press Tab from the top of the page to its end: (every control reached?, focus shown?)."""
    count = page.evaluate(MARK_CONTROLS)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    seen, groups, unseen_ring = [], [], []
    for _ in range(count + 40):
        page.keyboard.press("Tab")
        now = page.evaluate(FOCUSED)
        if now is None:
            if seen:
                break
            continue
        if now["kb"] in seen:
            break
        seen.append(now["kb"])
        if now["radio"]:
            groups.append(now["radio"])
        if not now["ring"]:
            unseen_ring.append(now["what"])
    return page.evaluate(UNREACHED, [seen, groups]), unseen_ring


def test_every_host_page_works_by_keyboard(live_server, new_phone):
    base = live_server.url
    problems = {}
    tables = {
        "generic": generic_table(base, new_phone),
        "danger-zone": danger_zone_mission(base, new_phone),
        "blackmail": blackmail_full(base, new_phone),
        "assassins": assassins_resolving(base, new_phone),
    }
    for game, (host, _phone, code) in tables.items():
        for size, viewport in SIZES.items():
            host.set_viewport_size(viewport)
            host.goto(f"{base}/t/{code}/host")
            host.wait_for_selector("#live-body")
            unreached, no_ring = tab_through(host)
            if unreached or no_ring:
                problems[f"{game} {size}"] = {"not reached by Tab": unreached, "focus not shown": no_ring}
    assert not problems, json.dumps(problems, indent=1)

    # And used: a score tap, a fold opened, a Blackmail card played with its radios, all by keys.
    host, phone, code = tables["generic"]
    host.goto(f"{base}/t/{code}/host")
    host.get_by_role("button", name="Bo plus 1").focus()
    host.keyboard.press("Enter")
    host.wait_for_selector("li.seat:has(.name:text-is('Bo')) [data-score]:text-is('4')")
    host, phone, code = tables["blackmail"]
    host.goto(f"{base}/t/{code}/host")
    host.locator("details.bm-for > summary").focus()  # Ana has a phone: her card is one fold away
    host.keyboard.press("Enter")
    card = host.locator("details.card-pick[data-card='5']")  # Pam Poovey, played by Ana on Bo
    card.locator("summary").focus()
    host.keyboard.press("Enter")
    assert card.evaluate("d => d.open")
    card.locator("input[name=target]").first.focus()
    host.keyboard.press("ArrowRight")  # the seat radios: Ana (self), then Bo
    assert card.locator("input[name=target]:checked").get_attribute("value") == str(seat_ids(host)["Bo"])
    card.locator("input[name=discarded]").first.focus()
    host.keyboard.press("Space")
    card.locator("button.big").focus()
    host.keyboard.press("Enter")
    host.wait_for_selector(".bm-plays li[data-play='1']")
    # A rules link opens the tray; Escape closes it and focus comes back to the link.
    link = host.locator("#live-body a.help").first
    link.focus()
    host.keyboard.press("Enter")
    host.wait_for_selector("dialog#tray[open]")
    host.keyboard.press("Escape")
    host.wait_for_selector("dialog#tray:not([open])", state="attached")
    assert link.evaluate("a => a === document.activeElement")
